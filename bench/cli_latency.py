"""Benchmark: `symattn verify` and `symattn check`, cold (a new process) and warm (in-process).

Run: python bench/cli_latency.py
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import _common  # first: it limits BLAS to one thread before NumPy loads

EXE = str(Path(sys.executable).with_name("symattn"))


def rows() -> list[tuple[str, float, float]]:
    import derivations
    from symattn.grading.answers.judge import judge
    from symattn.grading.exercises import get

    def cold(args: list[str], repeat: int = 3) -> float:
        return _common.median_of(lambda: subprocess.run([EXE, *args], capture_output=True), repeat)

    out = []
    out.append(
        (
            "symattn verify attention_by_hand",
            cold(["verify", "attention_by_hand"]),
            _common.median_of(lambda: derivations.load("attention_by_hand").verify(), 3),
        )
    )
    out.append(
        (
            "symattn verify (all)",
            cold(["verify"], 1),
            _common.median_of(lambda: [derivations.load(n).verify() for n in derivations.NAMES], 1),
        )
    )
    e = get("ex6.2")
    judge("1", e.expected)
    out.append(
        (
            "symattn check ex6.2 1.959",
            cold(["check", "ex6.2", "1.959"]),
            _common.median_of(lambda: judge("1.959", e.expected, e.mistakes), 5),
        )
    )
    return out


def table(results: list[tuple[str, float, float]]) -> str:
    lines = ["| command | cold (new process) | warm (in-process) |", "|---|---|---|"]
    for name, cold, warm in results:
        lines.append(f"| `{name}` | {cold:.2f} s | {warm:.3f} s |")
    return "\n".join(lines)


if __name__ == "__main__":
    print(table(rows()))
