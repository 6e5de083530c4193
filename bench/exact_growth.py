"""Benchmark: how exact and symbolic-entry evaluation grow with N.

Run: python bench/exact_growth.py
Exact evaluation (rational inputs, d = 4, causal mask) for N = 2..16 and symbolic entries
(d = 2) for N = 2..6; prints the times and the growth exponent fitted on log-log axes.
"""

from __future__ import annotations

import random

import _common  # first: it limits BLAS to one thread before NumPy loads
import numpy as np

from symattn.core.exact import attention, symbolic_attention


def _matrix(rng: random.Random, rows: int, cols: int) -> list[list[str]]:
    return [[f"{rng.randint(-9, 9)}/{rng.randint(1, 4)}" for _ in range(cols)] for _ in range(rows)]


def exponent(ns: list[int], times: list[float]) -> float:
    return float(np.polyfit(np.log(ns), np.log(times), 1)[0])


def rows() -> dict:
    rng = random.Random(0)
    exact_ns = [2, 4, 8, 12, 16]
    exact_t = []
    for n in exact_ns:
        q, k, v = _matrix(rng, n, 4), _matrix(rng, n, 4), _matrix(rng, n, 4)
        exact_t.append(_common.median_of(lambda q=q, k=k, v=v: attention(q, k, v, "causal"), 3))
    sym_ns = [2, 3, 4, 5, 6]
    sym_t = [_common.median_of(lambda n=n: symbolic_attention(n, n, 2, 2), 3) for n in sym_ns]
    return {"exact": (exact_ns, exact_t), "symbolic": (sym_ns, sym_t)}


def table(results: dict) -> str:
    lines = ["| evaluation | N | time |", "|---|---|---|"]
    for kind, (ns, ts) in results.items():
        for n, t in zip(ns, ts, strict=True):
            lines.append(f"| {kind} | {n} | {t:.3f} s |")
    lines.append("")
    for kind, (ns, ts) in results.items():
        lines.append(
            f"- {kind}: time grows like N^{exponent(ns[1:], ts[1:]):.1f} (fitted on N = {ns[1]}..{ns[-1]})"
        )
    return "\n".join(lines)


if __name__ == "__main__":
    print(table(rows()))
