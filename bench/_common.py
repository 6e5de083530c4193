"""Shared helpers for the benchmarks: single-threaded BLAS, timing, machine description."""

from __future__ import annotations

import os

for var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(var, "1")

import platform  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402
from collections.abc import Callable  # noqa: E402


def best_of(f: Callable[[], object], repeat: int = 5, number: int = 1) -> float:
    """The fastest of ``repeat`` runs of ``number`` calls, per call, in seconds."""
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        for _ in range(number):
            f()
        times.append((time.perf_counter() - t) / number)
    return min(times)


def median_of(f: Callable[[], object], repeat: int = 5) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        f()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def machine() -> str:
    import numpy as np

    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as fh:
            for line in fh:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return (
        f"{cpu}, {os.cpu_count()} cores; Python {platform.python_version()}, "
        f"NumPy {np.__version__}; BLAS threads: 1"
    )
