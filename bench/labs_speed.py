"""Benchmark: the labs' two methods against the cost of drawing their random numbers.

Run: python bench/labs_speed.py [--trials 20000] [--draws 200000]

Prints, measured in this run, single-threaded:
- direct saturation lab time / time NumPy needs just to draw the same normal numbers
  (target: within 1.5x);
- direct / reduced time at d_k = 128 for both labs (target: reduced at least 50x faster);
- time and peak traced memory of one direct trial at d_k = 10^6 (keys drawn in blocks; it took
  578 MB before, target under 100 MB).
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse
import time
import tracemalloc

import numpy as np

from symattn.labs import saturation_lab, variance_lab


def best(f, repeat: int = 3) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        f()
        times.append(time.perf_counter() - t)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=20_000)
    parser.add_argument("--draws", type=int, default=200_000)
    args = parser.parse_args()
    d, keys = 128, 64

    def draw_only():
        rng = np.random.default_rng(0)
        left = args.trials * (keys + 1) * d
        chunk = 4_000_000
        while left > 0:
            rng.standard_normal(min(chunk, left))
            left -= chunk

    t_draw = best(draw_only)
    t_direct = best(lambda: saturation_lab(args.trials, d, keys, 0.99, 0, "direct", progress=False))
    t_reduced = best(lambda: saturation_lab(args.trials, d, keys, 0.99, 0, "reduced", progress=False))
    v_direct = best(lambda: variance_lab([d], args.draws, 0, "direct", progress=False))
    v_reduced = best(lambda: variance_lab([d], args.draws, 0, "reduced", progress=False))
    tracemalloc.start()
    t = time.perf_counter()
    saturation_lab(2, 10**6, keys, 0.99, 0, "direct", progress=False)
    t_wide = time.perf_counter() - t
    peak = tracemalloc.get_traced_memory()[1] / 2**20
    tracemalloc.stop()
    lines = [
        f"saturation lab, {args.trials:,} trials, d_k = {d}, {keys} keys",
        f"  drawing the normals only: {t_draw * 1000:8.1f} ms",
        f"  direct method:            {t_direct * 1000:8.1f} ms"
        f"  ({t_direct / t_draw:.2f}x the draws; target <= 1.5x)",
        f"  reduced method:           {t_reduced * 1000:8.1f} ms"
        f"  (direct is {t_direct / t_reduced:.0f}x slower; target >= 50x)",
        f"variance lab, {args.draws:,} draws, d_k = {d}",
        f"  direct {v_direct * 1000:.1f} ms, reduced {v_reduced * 1000:.1f} ms: {v_direct / v_reduced:.0f}x",
        f"2 direct trials at d_k = 1,000,000, {keys} keys: {t_wide * 1000:.0f} ms, "
        f"peak {peak:.0f} MB (target < 100 MB)",
    ]
    print("\n".join(lines))


if __name__ == "__main__":
    main()
