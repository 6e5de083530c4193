"""Running every derivation and tabulating the result (for ``symattn verify``).

Rows are written as each derivation finishes, whether stdout is a terminal or a pipe, so the
columns have fixed widths: the name column fits the longest name asked for.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..errors import PluginError, SymattnError
from ..proof.engine import METHODS, Derivation, DerivationReport, verify_many

#: Columns after the name: steps, one per method, checks, max error, time; then the result.
HEADER = ("steps", *METHODS, "checks", "max error", "time")


def _line(name: str, cells: Sequence[str], result: str, width: int) -> str:
    numbers = "  ".join(c.rjust(max(len(h), 5)) for c, h in zip(cells, HEADER[: len(cells)], strict=True))
    return f"{name.ljust(width)}  {numbers}  {result}".rstrip() + "\n"


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

    width = max([len("derivation"), *map(len, names)])
    head = _line("derivation", HEADER, "result", width)
    rule = "-" * (len(head.rstrip()) + 2) + "\n"
    out = [head, rule]
    if write:
        write(head + rule)
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


def untimed_table(reports: dict[str, tuple[Derivation, DerivationReport]]) -> str:
    """The table of :func:`verify_all` for ``reports`` (name -> (derivation, report)) without its
    time column, which differs from run to run: what the guide shows, made by ``symattn build``."""
    width = max([len("derivation"), *map(len, reports)])
    head = _line("derivation", HEADER[:-1], "result", width)
    rule = "-" * (len(head.rstrip()) + 2) + "\n"
    rows = [_line(name, *_cells(report, timed=False), width) for name, (_, report) in reports.items()]
    return head + rule + "".join(rows)


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


def _row(name: str, width: int, result: DerivationReport | SymattnError) -> tuple[str, bool]:
    """A derivation's table row, and whether it passed."""
    if isinstance(result, SymattnError):
        cells = ["-"] * len(HEADER)
        return _line(name, cells, f"FAILED: {result}", width), False
    return _line(name, *_cells(result), width), result.ok


def _cells(result: DerivationReport, timed: bool = True) -> tuple[list[str], str]:
    """A report's cells (the time last, if ``timed``) and its result."""
    failed = [c.name for c in result.checks if not c.ok]
    cells = [
        str(len(result.steps)),
        *(str(result.count(m)) for m in METHODS),
        f"{sum(c.ok for c in result.checks)}/{len(result.checks)}",
        f"{result.max_error:.1e}",
        *([f"{result.seconds:.1f} s"] if timed else []),
    ]
    return cells, "ok" if result.ok else "FAILED: " + "; ".join(failed)
