"""Benchmark: how long `symattn check ID --steps FILE` takes per derivation and per step.

Run: python bench/learner_latency.py

Judges every derivation of tests/data/learner_proofs/ in one process (each step in its own
limited worker, as the command does) and prints, for each exercise, the median and largest
time per derivation and per step, and the largest time over the derivations of 10 or more
steps as a share of the 10 s the issue allows.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from symattn.grading.proofs.proof_judge import check_derivation  # noqa: E402

BUDGET = 10.0


def main() -> int:
    for ex in ("ex6.3", "ex6.7"):
        whole, per_step, long_ones = [], [], []
        for path in sorted((ROOT / "tests" / "data" / "learner_proofs" / ex).glob("*.tex")):
            text = path.read_text(encoding="utf-8")
            start = time.perf_counter()
            verdict = check_derivation(ex, text)
            took = time.perf_counter() - start
            whole.append(took)
            steps = max(1, len(verdict.steps))
            per_step.append(took / steps)
            if steps >= 10:
                long_ones.append((took, steps, path.name))
        print(
            f"{ex}: {len(whole)} derivations; per derivation median {statistics.median(whole):.2f} s, "
            f"max {max(whole):.2f} s; per step median {statistics.median(per_step):.2f} s, "
            f"max {max(per_step):.2f} s"
        )
        for took, steps, name in long_ones:
            print(f"  {name}: {steps} steps in {took:.2f} s = {took / BUDGET:.2f} of the {BUDGET:g} s budget")
    return 0


if __name__ == "__main__":
    sys.exit(main())
