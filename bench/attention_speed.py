"""Benchmark: symattn's lambdified attention vs hand-written NumPy vs torch SDPA.

Run: python bench/attention_speed.py   (single-threaded; float64 and float32; d = 64)
Target: lambdified within 1.1x of hand-written NumPy. Prints ratios measured in this run.
"""

from __future__ import annotations

import _common  # first: it limits BLAS to one thread before NumPy loads
import numpy as np

from symattn.core.numeric import attention_numeric

SIZES = (256, 1024, 4096)


def by_hand(q, k, v):
    s = q @ k.T * (1.0 / float(np.sqrt(q.shape[1])))  # a Python float keeps float32 as float32
    e = np.exp(s - s.max(axis=1, keepdims=True))
    return (e / e.sum(axis=1, keepdims=True)) @ v


def rows() -> list[tuple]:
    try:
        import torch

        torch.set_num_threads(1)
    except ImportError:
        torch = None
    out = []
    for dtype in (np.float64, np.float32):
        for n in SIZES:
            rng = np.random.default_rng(n)
            q, k, v = (rng.normal(size=(n, 64)).astype(dtype) for _ in range(3))
            repeat = 5 if n < 4096 else 3
            t_sym = _common.best_of(lambda q=q, k=k, v=v: attention_numeric(q, k, v), repeat)
            t_np = _common.best_of(lambda q=q, k=k, v=v: by_hand(q, k, v), repeat)
            t_torch = None
            if torch is not None:
                tq, tk, tv = (torch.from_numpy(a) for a in (q, k, v))
                sdpa = torch.nn.functional.scaled_dot_product_attention
                t_torch = _common.best_of(lambda tq=tq, tk=tk, tv=tv, f=sdpa: f(tq, tk, tv), repeat)
            out.append((np.dtype(dtype).name, n, t_sym, t_np, t_torch))
    return out


def table(results: list[tuple]) -> str:
    lines = [
        "| dtype | N | symattn (lambdified) | NumPy by hand | torch SDPA | symattn / NumPy |",
        "|---|---|---|---|---|---|",
    ]
    for dtype, n, t_sym, t_np, t_torch in results:
        torch_cell = "–" if t_torch is None else f"{t_torch * 1000:.2f} ms"
        lines.append(
            f"| {dtype} | {n} | {t_sym * 1000:.2f} ms | {t_np * 1000:.2f} ms | {torch_cell} | "
            f"{t_sym / t_np:.2f}x |"
        )
    return "\n".join(lines)


if __name__ == "__main__":
    print(table(rows()))
