"""Hand-written NumPy references, independent of symattn's code, for the tests to compare with."""

from __future__ import annotations

import numpy as np


def attention_reference(q, k, v, allowed=None, scale=None):
    """Textbook attention: loops over rows, no shared code with symattn."""
    q, k, v = (np.asarray(a, dtype=np.float64) for a in (q, k, v))
    n, m = q.shape[0], k.shape[0]
    factor = 1.0 / np.sqrt(q.shape[1]) if scale is None else scale
    out = np.zeros((n, v.shape[1]))
    for i in range(n):
        scores = np.array([float(np.dot(q[i], k[j])) * factor for j in range(m)])
        ok = np.ones(m, bool) if allowed is None else np.asarray(allowed[i], bool)
        top = scores[ok].max()
        w = np.where(ok, np.exp(scores - top), 0.0)
        w /= w.sum()
        out[i] = w @ v
    return out


def allowed_reference(kind, n, m, arg=None, align="top-left"):
    """Allowed pairs written out by the definitions in the issue, with plain loops."""
    off = 0 if align == "top-left" else m - n
    grid = np.zeros((n, m), bool)
    for i in range(n):
        for j in range(m):
            if kind == "causal":
                grid[i, j] = j <= i + off
            elif kind == "padding":
                grid[i, j] = j < arg
            elif kind == "window":
                grid[i, j] = abs(j - (i + off)) < arg
            elif kind == "none":
                grid[i, j] = True
            else:  # a kind written here by no one: its tests cannot pass until it is
                raise ValueError(f"tests/reference.py has no definition of the mask kind {kind!r}")
    return grid


def allowed_for_spec(spec, n, m):
    """The allowed pairs of a mask spec such as ``causal+window:2:bottom-right``: each part (joined
    by ``+``) written out by :func:`allowed_reference`, a pair allowed when every part allows it."""
    grid = np.ones((n, m), bool)
    if spec == "none":
        return grid
    for word in spec.split("+"):
        kind, *rest = word.split(":")
        arg = next((int(r) for r in rest if r.isdigit()), None)
        align = "bottom-right" if "bottom-right" in rest else "top-left"
        grid &= allowed_reference(kind, n, m, arg, align)
    return grid


def padding_fits(spec, m):
    """Whether every ``padding:L`` part of ``spec`` asks for at most the ``m`` keys given (a mask
    that asks for more is refused, by design: tests/core/test_masks.py checks that)."""
    return all(int(word.split(":")[1]) <= m for word in spec.split("+") if word.startswith("padding:"))
