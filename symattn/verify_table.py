"""Running every derivation and tabulating the result (for ``symattn verify``)."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

from ._table import text_table
from .errors import SymattnError


def verify_all(
    names: Sequence[str],
    progress: Callable[[str], None] = lambda _: None,
    reports: dict | None = None,
) -> tuple[str, bool]:
    """Verify each named derivation; return (table text, all passed).

    ``reports``, if given, receives name -> (derivation, report) for each that verified.
    """
    import derivations

    header = ("derivation", "steps", "exact", "numeric", "checks", "max error", "time", "result")
    rows = []
    ok = True
    for name in names:
        progress(f"verifying {name} ...")
        start = time.perf_counter()
        try:
            d = derivations.load(name)
            report = d.verify()
            if reports is not None:
                reports[name] = (d, report)
        except SymattnError as exc:
            ok = False
            rows.append(
                (
                    name,
                    "-",
                    "-",
                    "-",
                    "-",
                    "-",
                    f"{time.perf_counter() - start:.1f} s",
                    f"FAILED: {exc}",
                )
            )
            continue
        passed = report.ok
        ok &= passed
        failed = [c.name for c in report.checks if not c.ok]
        rows.append(
            (
                name,
                str(len(report.steps)),
                str(report.exact_steps),
                str(report.numeric_steps),
                f"{sum(c.ok for c in report.checks)}/{len(report.checks)}",
                f"{report.max_error:.1e}",
                f"{report.seconds:.1f} s",
                "ok" if passed else "FAILED: " + "; ".join(failed),
            )
        )
    return text_table(header, rows), ok
