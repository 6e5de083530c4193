"""Benchmark: `symattn verify` (all derivations) and `symattn derive NAME` for each, as new processes.

Each time is printed with its ratio to `python -c "import sympy"` measured in the same run, so
the numbers mean something on a loaded or slower machine. Goals (issue 10): verify within
10 s, derive within 3 s, without the lemma cache (it is allowed on top, not instead).
`verify` and `derive` share the lemmas, steps and checks among one worker per core.

Run: python bench/verify_speed.py [--repeat R]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

import _common  # first: it limits BLAS to one thread before NumPy loads

EXE = str(Path(sys.executable).with_name("symattn"))


def measure(repeat: int) -> list[tuple[str, float]]:
    import derivations

    fresh = {**os.environ, "SYMATTN_NO_CACHE": "1"}

    def cold(args: list[str], env: dict | None = None) -> float:
        run = lambda: subprocess.run(args, capture_output=True, check=True, env=env)  # noqa: E731
        return _common.median_of(run, repeat)

    subprocess.run([EXE, "verify"], capture_output=True, check=True)  # fill the lemma cache
    rows = [("python -c 'import sympy'", cold([sys.executable, "-c", "import sympy"]))]
    rows.append(("symattn verify (nothing cached)", cold([EXE, "verify"], fresh)))
    rows.append(("symattn verify (lemmas cached)", cold([EXE, "verify"])))
    rows.append(("symattn verify --jobs 1 (nothing cached)", cold([EXE, "verify", "--jobs", "1"], fresh)))
    for name in derivations.NAMES:
        rows.append((f"symattn derive {name} (nothing cached)", cold([EXE, "derive", name], fresh)))
    return rows


def table(rows: list[tuple[str, float]]) -> str:
    base = rows[0][1]
    lines = [
        f"Machine: {_common.machine()}",
        "",
        "| command | seconds | ratio to import sympy |",
        "|---|---|---|",
    ]
    lines += [f"| `{name}` | {t:.2f} | {t / base:.1f}x |" for name, t in rows]
    return "\n".join(lines)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--repeat", type=int, default=3, help="runs per command; the median is shown (default 3)"
    )
    print(table(measure(parser.parse_args().repeat)))
