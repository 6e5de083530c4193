"""Benchmark: exact attention on a 2x2 example whose entries grow up to 1e300 and 1e400.

Run: python bench/huge_entries.py
Each size runs `symattn attention` (text, 15 digits) in a fresh process, as a user would, and
records its wall time and peak memory against the budget of issue 12: 5 s and 500 MB.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time

import _common  # noqa: F401 - first: it limits BLAS to one thread before NumPy loads

BUDGET_SECONDS = 5.0
BUDGET_MB = 500
SIZES = ["1e6", "1e20", "1e100", "1e300", "1e400"]

# The peak is this process's own (VmHWM): ru_maxrss survives exec on Linux, so it would report
# the parent's peak when the parent (bench/report.py, after the attention benchmark) is larger.
_CHILD = """
import resource, sys, time
from symattn.cli import main
start = time.perf_counter()
code = main(sys.argv[1:])
took = time.perf_counter() - start
try:
    with open("/proc/self/status") as status:
        peak = next(int(line.split()[1]) for line in status if line.startswith("VmHWM:")) / 1024
except (OSError, StopIteration):
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print("RSS", peak, code, took, file=sys.stderr)
"""


def argv(x: str) -> list[str]:
    return [
        "attention", "--q", f"[[{x}, -{x}], [1, 2]]", "--k", f"[[1, {x}], [-{x}, 1]]",
        "--v", f"[[1, 0], [2, {x}]]", "--digits", "15",
    ]


def rows() -> list[tuple[str, float, float, float, int]]:
    out = []
    for x in SIZES:
        start = time.perf_counter()
        run = subprocess.run([sys.executable, "-c", _CHILD, *argv(x)], capture_output=True, text=True)
        seconds = time.perf_counter() - start
        line = next(s for s in run.stderr.splitlines() if s.startswith("RSS"))
        _, mb, code, work = line.split()
        out.append((x, seconds, float(work), float(mb), int(code)))
    return out


def table(results: list[tuple[str, float, float, float, int]]) -> str:
    lines = [
        "| largest entry | whole command | of which the computation | peak memory | exit "
        f"| within {BUDGET_SECONDS:.0f} s and {BUDGET_MB} MB |",
        "|---|---|---|---|---|---|",
    ]
    for x, seconds, work, mb, code in results:
        ok = "yes" if seconds <= BUDGET_SECONDS and mb <= BUDGET_MB and code == 0 else "no"
        lines.append(f"| {x} | {seconds:.2f} s | {work:.2f} s | {mb:.0f} MB | {code} | {ok} |")
    lines.append("")
    lines.append(
        "The whole command includes starting Python and importing SymPy; the computation is "
        "`symattn.cli.main` itself (exact stages, certified digits, printing)."
    )
    return "\n".join(lines)


if __name__ == "__main__":
    results = rows()
    print(table(results))
    print(json.dumps(results))
