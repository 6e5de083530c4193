"""The module's derivations, each a checked proof.

Each module defines ``NAME``, ``TITLE`` and ``derivation()``, which builds the
:class:`~symattn.proof.Derivation`; :func:`load` builds one by name.
"""

from __future__ import annotations

from importlib import import_module

from symattn.errors import SymattnError
from symattn.proof import Derivation

#: The derivations, in the order the module meets them.
NAMES = (
    "attention_by_hand",
    "variance_scaling",
    "score_reduction",
    "softmax_jacobian",
    "permutation_equivariance",
    "multihead_flops",
)


class UnknownDerivation(SymattnError):
    """Raised for a derivation name that does not exist."""


def load(name: str) -> Derivation:
    """Build the derivation called ``name``."""
    if name not in NAMES:
        raise UnknownDerivation(f"no derivation named {name!r}; try one of: {', '.join(NAMES)}")
    return import_module(f"derivations.{name}").derivation()


def title(name: str) -> str:
    return import_module(f"derivations.{name}").TITLE
