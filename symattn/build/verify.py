"""Verifying derivations for ``symattn verify`` and ``symattn build``: each derivation built,
all of them verified together (their lemmas, steps and checks shared among worker processes),
each row of the table (:mod:`symattn.present.verify_table`) written as its derivation finishes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..errors import PluginError, SymattnError
from ..present.verify_table import _row, heading
from ..proof.engine import Derivation, DerivationReport, verify_many


def verify_all(
    names: Sequence[str],
    progress: Callable[[str], None] = lambda _: None,
    reports: dict | None = None,
    write: Callable[[str], object] | None = None,
    jobs: int = 1,
) -> tuple[str, bool]:
    """Verify each named derivation; return (table text, all passed).

    ``write``, if given, receives the header and then each row as soon as it is known (rows
    come in the order of ``names``). ``reports``, if given, receives name -> (derivation,
    report) for each that verified. With ``jobs`` > 1 the lemmas, steps and checks of all the
    derivations are shared among that many worker processes.
    """

    width, head = heading(names)
    out = [head]
    if write:
        write(head)
    built: dict[str, Derivation | SymattnError] = {}
    for name in names:
        progress(f"building {name} ...")
        try:
            built[name] = _load(name)
        except PluginError:
            raise  # a plugin that cannot be used is bad input, not a failed check
        except SymattnError as exc:
            built[name] = exc
    ready = [d for d in built.values() if isinstance(d, Derivation)]
    results = verify_many(ready, jobs)
    ok = True
    for name in names:
        progress(f"verifying {name} ...")
        d = built[name]
        result = next(results) if isinstance(d, Derivation) else d
        row, passed = _row(name, width, result)
        if reports is not None and isinstance(result, DerivationReport):
            reports[name] = (d, result)
        ok &= passed
        out.append(row)
        if write:
            write(row)
    return "".join(out), ok


def _load(name: str) -> Derivation:
    """A derivation, or an exercise's worked solution (by the exercise's id)."""
    import derivations

    from ..grading.exercises import solutions

    worked = solutions()
    if name in worked and name not in derivations.names():
        return worked[name]()
    return derivations.load(name)


def names() -> list[str]:
    """What ``symattn verify`` verifies with no names given: every derivation, then every
    exercise's worked solution that is not one of them."""
    import derivations

    from ..grading.exercises import solutions

    return list(derivations.names()) + [i for i in solutions() if i not in derivations.names()]
