"""The verify table: a row per derivation (``symattn verify`` prints it, the guide shows it).

Rows are written as each derivation finishes, whether stdout is a terminal or a pipe, so the
columns have fixed widths: the name column fits the longest name asked for. The verifying is
:mod:`symattn.build.verify`'s.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..errors import SymattnError
from ..proof.engine import METHODS, Derivation, DerivationReport

#: Columns after the name: steps, one per method, checks, max error, time; then the result.
HEADER = ("steps", *METHODS, "checks", "max error", "time")


def _line(name: str, cells: Sequence[str], result: str, width: int) -> str:
    numbers = "  ".join(c.rjust(max(len(h), 5)) for c, h in zip(cells, HEADER[: len(cells)], strict=True))
    return f"{name.ljust(width)}  {numbers}  {result}".rstrip() + "\n"


def heading(names: Iterable[str], timed: bool = True) -> tuple[int, str]:
    """The name column's width for ``names``, and the table's header line with its rule."""
    width = max([len("derivation"), *map(len, names)])
    head = _line("derivation", HEADER if timed else HEADER[:-1], "result", width)
    return width, head + "-" * (len(head.rstrip()) + 2) + "\n"


def untimed_table(reports: dict[str, tuple[Derivation, DerivationReport]]) -> str:
    """The table ``symattn verify`` prints for ``reports`` (name -> (derivation, report)) without
    its time column, which differs from run to run: what the guide shows, made by ``symattn build``."""
    width, head = heading(reports, timed=False)
    rows = (_line(name, *_cells(report, timed=False), width) for name, (_, report) in reports.items())
    return head + "".join(rows)


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
