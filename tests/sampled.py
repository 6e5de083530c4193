"""A sweep's cases as pytest parameters, most of them marked ``exhaustive``: CI's first run checks
every case; its second (the newest Python at the newest versions, which deselects ``exhaustive``)
checks one case in ``every``, spread evenly over the sweep, so both runs fit CI's 20 minutes."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pytest


def kept(index: int, every: int) -> bool:
    """Whether the case at ``index`` runs in the second run too."""
    return index % every == 0


def sampled(
    cases: Sequence[Any], every: int | Callable[[int, Any], bool], ids: Callable[[int, Any], str]
) -> list[Any]:
    """``cases`` as parameters, ``ids(index, case)`` naming each; all but one in ``every`` (or
    all but those ``every(index, case)`` keeps: a rule) marked ``exhaustive``."""
    keep = every if callable(every) else (lambda i, _: kept(i, every))
    return [
        pytest.param(case, id=ids(i, case), marks=() if keep(i, case) else pytest.mark.exhaustive)
        for i, case in enumerate(cases)
    ]
