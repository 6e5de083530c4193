"""Benchmark: how long `symattn check` takes, cold (a new process) and warm (in a process).

Run: python bench/check_latency.py [--repeat 20]

Warm is what a grading service sees: the library is imported once, then each answer is parsed
and compared in a forked worker. Cold is one `python -m symattn check` command from the shell
(the same as the `symattn` script, but it follows PYTHONPATH, so another checkout can be
measured with this file: PYTHONPATH=/path/to/checkout python bench/check_latency.py).
Prints medians measured in this run, and the ratio of cold to warm.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

ANSWERS = [
    ("ex6.2", "1.959"),
    ("ex6.2", r"\frac{e^2+11}{e^2+2}"),
    ("ex6.2", "4"),
    ("ex6.2", r"\sqrt{\infty}"),
    ("ex6.5", "N > 8192"),
    ("ex6.5", r"\frac{N}{2} > 4096"),
    (
        "ex6.4",
        r"\begin{bmatrix} 0 & -\infty & -\infty \\ 0 & 0 & -\infty \\ 0 & 0 & 0 \end{bmatrix}",
    ),
]


def warm(repeat: int) -> dict[str, float]:
    from symattn.grading.answers.judge import judge, warm_up
    from symattn.grading.exercises import get

    warm_up()  # a grading service imports the parser and fills its caches once
    out = {}
    for ex, answer in ANSWERS:
        e = get(ex)
        times = []
        for _ in range(repeat):
            t = time.perf_counter()
            judge(answer, e.expected, e.mistakes)
            times.append(time.perf_counter() - t)
        out[f"{ex} {answer[:24]}"] = statistics.median(times)
    return out


def cold(repeat: int) -> float:
    times = []
    for _ in range(max(3, repeat // 4)):
        t = time.perf_counter()
        command = [sys.executable, "-m", "symattn", "check", "ex6.2", "1.959"]
        subprocess.run(command, capture_output=True, check=False)
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    w = warm(args.repeat)
    c = cold(args.repeat)
    import symattn

    print(f"symattn from {Path(symattn.__file__).parent}")
    print(f"{'answer':<36} {'warm median':>12}")
    for name, seconds in w.items():
        print(f"{name:<36} {seconds * 1000:>9.1f} ms")
    typical = statistics.median(w.values())
    print(
        f"cold `symattn check ex6.2 1.959`: {c * 1000:.0f} ms "
        f"({c / typical:.1f}x a warm check of {typical * 1000:.0f} ms)"
    )


if __name__ == "__main__":
    main()
