"""Lemmas: general rules checked at concrete sizes, each with a false twin its check must refuse,
checked once per process (and found in the lemma cache after that)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import sympy as sp

from .failures import LemmaFailed
from .lemma_cache import _LemmaCache


@dataclass(frozen=True)
class Lemma:
    """A general rule, checked at concrete sizes where SymPy cannot prove it in general.

    ``verify(n)`` returns True when the rule holds exactly at size n. ``twin(n)`` is the same
    check of a false version of the rule (``twin_statement``: a changed coefficient, sign or
    index), and must return False at every size: a size where the twin passes too is a size
    where the check cannot tell a true rule from a false one (a one-term sum compared with
    itself), and ``verify`` fails naming the lemma.
    """

    name: str
    statement: str
    verify: Callable[[int], bool] = field(compare=False, repr=False)
    sizes: tuple[int, ...] = (1, 2, 3)
    largest: str = ""  # a key of WAIVERS: why no size of 5 or more is checked
    #: Rough seconds to check one size, for scheduling only: with several worker processes
    #: the costliest work starts first, so that no long task is left to run alone at the end.
    cost: float = field(default=0.5, compare=False)
    twin: Callable[[int], bool] | None = field(default=None, compare=False, repr=False)
    twin_statement: str = ""

    def __post_init__(self) -> None:
        _check_cost(f"lemma {self.name!r}", self.cost)
        sizes = self.sizes
        if not isinstance(sizes, tuple) or not sizes or not all(type(n) is int and n >= 1 for n in sizes):
            raise ValueError(f"lemma {self.name!r}: sizes must be a non-empty tuple of whole numbers >= 1")

    def check(self) -> tuple[int, ...]:
        """Check the lemma at every size (once per process); return the sizes."""
        return _check_lemma(self)


def _check_lemma(lemma: Lemma) -> tuple[int, ...]:
    for n in lemma.sizes:
        _check_lemma_at(lemma, n)
    return lemma.sizes


def _check_lemma_at(lemma: Lemma, n: int) -> None:
    """Check ``lemma`` at size ``n`` once per process (or find it in the cache); raise if it fails."""
    # Keyed by the function too: two lemmas of one name but different bodies are two lemmas.
    key = (lemma, lemma.verify, lemma.twin, n)
    if key in _CHECKED or _lemma_cache.holds(lemma, n):
        return
    if lemma.twin is None or not lemma.twin_statement:
        raise LemmaFailed(
            f"lemma '{lemma.name}' has no false twin: give it one (twin, twin_statement), a false "
            "version of the rule that its check must refuse at every size"
        )
    try:
        result = lemma.verify(n)
    except Exception as exc:  # a lemma that cannot be checked is not checked
        raise LemmaFailed(f"lemma '{lemma.name}' could not be checked at size {n}: {exc}") from None
    if not _true(result):
        raise LemmaFailed(f"lemma '{lemma.name}' is false at size {n}")
    try:
        twin = lemma.twin(n) if lemma.twin is not None else False
    except Exception as exc:
        why = f"its false twin could not be checked at size {n}: {exc}"
        raise LemmaFailed(f"lemma '{lemma.name}': {why}") from None
    if _true(twin):
        raise LemmaFailed(
            f"lemma '{lemma.name}' is vacuous at size {n}: its false twin ({lemma.twin_statement}) "
            "passes the same check there"
        )
    if not _false(twin):
        why = f"its false twin gave {twin!r} at size {n}, not True or False"
        raise LemmaFailed(f"lemma '{lemma.name}': {why}")
    _CHECKED.add(key)
    _lemma_cache.record(lemma, n)


def _true(result: Any) -> bool:
    """A check's result is True (Python's, SymPy's or NumPy's), not merely truthy."""
    return result is True or result is sp.true or (type(result).__name__ == "bool_" and bool(result))


def _false(result: Any) -> bool:
    return result is False or result is sp.false or (type(result).__name__ == "bool_" and not bool(result))


_CHECKED: set[tuple[Lemma, Callable[[int], bool], Callable[[int], bool] | None, int]] = set()


_lemma_cache = _LemmaCache()


def _check_cost(what: str, cost: Any) -> None:
    try:  # a whole number too large for a float (10**400) is no number of seconds either
        ok = not isinstance(cost, bool) and isinstance(cost, (int, float)) and 0 <= float(cost) < float("inf")
    except OverflowError:
        ok = False
    if not ok:
        shown = repr(cost) if len(repr(cost)) < 40 else repr(cost)[:37] + "..."
        raise ValueError(f"{what}: cost must be a number of seconds, 0 or more, not {shown}")
