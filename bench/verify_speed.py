"""Benchmark: `symattn verify` (all derivations) and `symattn derive NAME` for each, as new processes.

Each time is printed with its ratio to `python -c "import sympy"` measured in the same run, so
the numbers mean something on a loaded or slower machine. Goals: verify within 4 s without the
lemma cache (issue 46; it was 10 s in issue 10), derive within 3 s (it is allowed on top, not
instead). Since issue 46 `verify` also reads back every page's prose and printed formulas and
verifies the exercises' worked solutions. The sources are compiled to bytecode first
(:func:`compiled`), as in any installed program.
`verify` and `derive` share the lemmas, steps and checks among one worker per core.

Run: python bench/verify_speed.py [--repeat R]
"""

from __future__ import annotations

import argparse
import compileall
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

import _common  # first: it limits BLAS to one thread before NumPy loads

EXE = str(Path(sys.executable).with_name("symattn"))


def measure(repeat: int) -> list[tuple[str, float]]:
    """The median time of each command over ``repeat`` rounds. A round runs every command once,
    so a machine that slows down for a while slows all of them alike, the baseline too."""
    import derivations

    compiled()
    fresh = {**os.environ, "SYMATTN_NO_CACHE": "1"}
    commands: list[tuple[str, list[str], dict | None]] = [
        ("python -c 'import sympy'", [sys.executable, "-c", "import sympy"], None),
        ("symattn verify (nothing cached)", [EXE, "verify"], fresh),
        ("symattn verify (lemmas cached)", [EXE, "verify"], None),
        ("symattn verify --jobs 1 (nothing cached)", [EXE, "verify", "--jobs", "1"], fresh),
    ]
    for name in derivations.NAMES:
        commands.append((f"symattn derive {name} (nothing cached)", [EXE, "derive", name], fresh))
    subprocess.run([EXE, "verify"], capture_output=True, check=True)  # fill the lemma cache
    times: dict[str, list[float]] = {label: [] for label, _, _ in commands}
    for _ in range(repeat):
        for label, args, env in commands:
            start = time.perf_counter()
            subprocess.run(args, capture_output=True, check=True, env=env)
            times[label].append(time.perf_counter() - start)
    return [(label, statistics.median(times[label])) for label, _, _ in commands]


def compiled() -> None:
    """Compile symattn's and the derivations' sources to bytecode first, as an installed program
    has them: Python writes them on a first run, and pip when it installs a wheel. An editable
    install on a machine with PYTHONDONTWRITEBYTECODE set (these machines set it) would compile
    every module again at every start, 0.2 s of each command here."""
    root = Path(__file__).resolve().parents[1]
    for package in ("symattn", "derivations"):
        compileall.compile_dir(root / package, quiet=1)


def profile() -> str:
    """Where verify's time goes: in a new process with nothing cached, the seconds to import and
    build everything, then each kind of task run in turn (one process, so the sum is the CPU the
    workers share), and the costliest tasks."""
    code = r"""
import os, time, collections
os.environ["SYMATTN_NO_CACHE"] = "1"
start = time.perf_counter()
from symattn.build.verify import _load, names
built = [_load(n) for n in names()]
ready = time.perf_counter() - start
kinds, tasks = collections.Counter(), []
for d in built:
    for kind, key in d.tasks():
        t = time.perf_counter()
        d.run_task(kind, key)
        t = time.perf_counter() - t
        kinds[kind] += t
        tasks.append((t, f"{d.name} {kind} {key + 1}"))
print(f"importing and building: {ready:.2f} s; then, task by task, {sum(kinds.values()):.1f} s: " +
      ", ".join(f"{k} {v:.1f} s" for k, v in kinds.most_common()) + "; the costliest: " +
      ", ".join(f"{name} ({t:.2f} s)" for t, name in sorted(tasks, reverse=True)[:5]))
"""
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return run.stdout.strip()


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
    print()
    print("Where the time goes:", profile())
