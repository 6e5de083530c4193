"""The labs: the module's measured results, reproduced by seeded simulation.

The simulations (:mod:`.simulation`, exported here), their confidence intervals
(:mod:`.intervals`) and their figures (:mod:`.figures`, needs the ``plot`` extra). This layer
imports only the layers below it (:mod:`symattn.proof`, :mod:`symattn.core`) and the shared base.
"""

from __future__ import annotations

from .simulation import (
    METHODS,
    SaturationResult,
    Share,
    VarianceRow,
    p_max,
    saturation_lab,
    saturation_numbers,
    scores_for_saturation,
    scores_for_variance,
    variance_lab,
    variance_numbers,
)

__all__ = [
    "METHODS",
    "SaturationResult",
    "Share",
    "VarianceRow",
    "p_max",
    "saturation_lab",
    "saturation_numbers",
    "scores_for_saturation",
    "scores_for_variance",
    "variance_lab",
    "variance_numbers",
]
