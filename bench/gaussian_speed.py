"""Benchmark: the expectation lemmas with symattn.proof.gaussian against sympy.stats' own evaluation.

Every lemma that checks an expectation rule on normal variables (variance_scaling's rules,
score_reduction's independence) is run at each of the sizes ``verify`` checks, once with each
oracle, each oracle in a new process (so that neither finds the other's integrals in SymPy's
cache). Both must say True; the table gives the seconds and their ratio, measured in one run.

Run: python bench/gaussian_speed.py
"""

from __future__ import annotations

import json
import subprocess
import sys

import _common  # first: it limits BLAS to one thread before NumPy loads

WORKER = r"""
import json, sys, time
from derivations import score_reduction as sr, variance_scaling as vs
from symattn.proof import gaussian
oracle = gaussian if sys.argv[1] == "gaussian" else gaussian.SYMPY_STATS
lemmas = [vs.RULES_AGREE, vs.LINEARITY, vs.INDEPENDENCE, vs.VARIANCES_ADD, vs.SCALING, vs.MOMENTS,
          sr.INDEPENDENCE]
out = []
for lemma in lemmas:
    for n in lemma.sizes:
        start = time.perf_counter()
        ok = lemma.verify(n, oracle=oracle)
        out.append([f"{lemma.name} (n = {n})", time.perf_counter() - start, ok])
print(json.dumps(out))
"""


def measure() -> list[tuple[str, float, float]]:
    runs = {}
    for oracle in ("gaussian", "sympy.stats"):
        done = subprocess.run(
            [sys.executable, "-c", WORKER, oracle], capture_output=True, text=True, check=True
        )
        rows = json.loads(done.stdout)
        if not all(ok is True for _, _, ok in rows):
            raise SystemExit(f"a lemma failed with {oracle}: {rows}")
        runs[oracle] = rows
    return [
        (name, t, s) for (name, t, _), (_, s, _) in zip(runs["gaussian"], runs["sympy.stats"], strict=True)
    ]


def table(rows: list[tuple[str, float, float]]) -> str:
    total_g, total_s = sum(r[1] for r in rows), sum(r[2] for r in rows)
    lines = [
        f"Machine: {_common.machine()}",
        "",
        "| lemma | gaussian | sympy.stats | ratio |",
        "|---|---|---|---|",
    ]
    lines += [f"| {name} | {g:.2f} s | {s:.2f} s | {s / g:.0f}x |" for name, g, s in rows]
    lines.append(f"| all | {total_g:.2f} s | {total_s:.2f} s | {total_s / total_g:.1f}x |")
    return "\n".join(lines)


if __name__ == "__main__":
    print(table(measure()))
