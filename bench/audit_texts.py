"""Benchmark: `symattn audit` on each public text of tests/data/texts and at its bounds, as new processes.

Each time is printed with its ratio to `python -c "import sympy"` measured in the same run, so the
numbers mean something on a loaded or slower machine. Goal (issue 47, must-have 7): every text
within 10 s and 500 MB on this machine, whatever its size; a text past the bounds of what one
audit reads (symattn.limits: 2,000,000 characters, 1,500 formulas) is audited to them and says
where it stopped. "at the bound of formulas" audits the course module's text repeated 120 times
(2.4 MB, its claims dense): the audit stops at 1,500 formulas.

Run: python bench/audit_texts.py [--repeat R]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import _common  # first: it limits BLAS to one thread before NumPy loads

ROOT = Path(__file__).resolve().parents[1]
EXE = str(Path(sys.executable).with_name("symattn"))


def commands(dense: Path) -> list[tuple[str, list[str]]]:
    out = [("python -c 'import sympy'", [sys.executable, "-c", "import sympy"])]
    for reading in sorted((ROOT / "tests" / "data" / "texts").glob("*/reading.toml")):
        import tomllib

        name = tomllib.loads(reading.read_text(encoding="utf-8"))["file"]
        out.append((f"audit {reading.parent.name}", [EXE, "audit", str(reading.parent / name)]))
    out.append(("audit at the bound of formulas", [EXE, "audit", str(dense)]))
    return out


def measure(repeat: int) -> list[tuple[str, float, float]]:
    """(label, median seconds, largest resident memory in MB) of each command over ``repeat``
    rounds, every command once a round."""
    module = (ROOT / "tests" / "data" / "module" / "attention.md").read_text(encoding="utf-8")
    with tempfile.TemporaryDirectory() as folder:
        dense = Path(folder) / "dense.md"
        dense.write_text(module * 120, encoding="utf-8")
        cmds = commands(dense)
        times: dict[str, list[float]] = {label: [] for label, _ in cmds}
        memory: dict[str, float] = {label: 0.0 for label, _ in cmds}
        env = {**os.environ, "SYMATTN_NO_CACHE": "1"}
        for _ in range(repeat):
            for label, args in cmds:
                start = time.perf_counter()
                timed = ["/usr/bin/time", "-f", "%M", *args] if Path("/usr/bin/time").exists() else args
                run = subprocess.run(timed, capture_output=True, text=True, env=env)
                times[label].append(time.perf_counter() - start)
                last = run.stderr.strip().splitlines()[-1] if run.stderr.strip() else "0"
                memory[label] = max(memory[label], int(last) / 1024 if last.isdigit() else 0.0)
    return [(label, statistics.median(times[label]), memory[label]) for label, _ in cmds]


def table(rows: list[tuple[str, float, float]]) -> str:
    base = rows[0][1]
    lines = [
        f"Machine: {_common.machine()}",
        "",
        "| command | seconds | ratio to import sympy | peak memory (MB, its largest process) |",
        "|---|---|---|---|",
    ]
    lines += [f"| `{name}` | {t:.2f} | {t / base:.1f}x | {m:.0f} |" for name, t, m in rows]
    return "\n".join(lines)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    print(table(measure(parser.parse_args().repeat)))
