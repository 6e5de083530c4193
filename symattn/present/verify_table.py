"""Running every derivation and tabulating the result (for ``symattn verify``).

Rows are written as each derivation finishes, whether stdout is a terminal or a pipe, so the
columns have fixed widths: the name column fits the longest name asked for.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

from ..errors import SymattnError
from ..proof.engine import METHODS

#: Columns after the name: steps, one per method, checks, max error, time; then the result.
HEADER = ("steps", *METHODS, "checks", "max error", "time")


def _line(name: str, cells: Sequence[str], result: str, width: int) -> str:
    numbers = "  ".join(c.rjust(max(len(h), 5)) for c, h in zip(cells, HEADER, strict=True))
    return f"{name.ljust(width)}  {numbers}  {result}".rstrip() + "\n"


def verify_all(
    names: Sequence[str],
    progress: Callable[[str], None] = lambda _: None,
    reports: dict | None = None,
    write: Callable[[str], object] | None = None,
) -> tuple[str, bool]:
    """Verify each named derivation; return (table text, all passed).

    ``write``, if given, receives the header and then each row as soon as it is known.
    ``reports``, if given, receives name -> (derivation, report) for each that verified.
    """
    import derivations

    width = max([len("derivation"), *map(len, names)])
    head = _line("derivation", HEADER, "result", width)
    rule = "-" * (len(head.rstrip()) + 2) + "\n"
    out = [head, rule]
    if write:
        write(head + rule)
    ok = True
    for name in names:
        progress(f"verifying {name} ...")
        start = time.perf_counter()
        try:
            d = derivations.load(name)
            report = d.verify()
        except SymattnError as exc:
            ok = False
            cells = ["-"] * (len(HEADER) - 1) + [f"{time.perf_counter() - start:.1f} s"]
            row = _line(name, cells, f"FAILED: {exc}", width)
        else:
            if reports is not None:
                reports[name] = (d, report)
            ok &= report.ok
            failed = [c.name for c in report.checks if not c.ok]
            cells = [
                str(len(report.steps)),
                *(str(report.count(m)) for m in METHODS),
                f"{sum(c.ok for c in report.checks)}/{len(report.checks)}",
                f"{report.max_error:.1e}",
                f"{report.seconds:.1f} s",
            ]
            row = _line(name, cells, "ok" if report.ok else "FAILED: " + "; ".join(failed), width)
        out.append(row)
        if write:
            write(row)
    return "".join(out), ok
