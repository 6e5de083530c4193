"""Multi-head attention, defined once as a matrix expression.

    MultiHead(X_q, X_k, X_v) = [head_1; ...; head_h] W^O,
    head_i = Attention(X_q W^Q_i, X_k W^K_i, X_v W^V_i),

with d_k = d_v = d_model / h, the heads joined along the feature axis. With ``bias=True``
each projection adds a bias row (as ``torch.nn.MultiheadAttention`` does: y = x W^T + b).
As with single-head attention, exact values come from substituting explicit matrices and
NumPy code from ``lambdify`` of the same expression.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import sympy as sp

from ..errors import ShapeError
from .definition import Group, Shape, define
from .masks import Mask
from .nodes import carry_out
from .numeric import MatrixNumPyPrinter, _additive_mask, lambdify_numpy


@dataclass(frozen=True)
class HeadsShape:
    n: int
    m: int
    d_model: int
    heads: int

    @property
    def d_head(self) -> int:
        return self.d_model // self.heads


@dataclass(frozen=True)
class MultiHeadDefinition:
    shape: HeadsShape
    inputs: tuple[sp.MatrixSymbol, ...]
    expression: sp.MatrixExpr


def define_multihead(shape: HeadsShape, *, masked: bool, bias: bool = False) -> MultiHeadDefinition:
    """The multi-head expression and its input symbols, in the order of ``inputs``.

    Inputs: X_q, X_k, X_v, then per head W^Q_i, W^K_i, W^V_i (and b^Q_i, b^K_i, b^V_i with
    ``bias``), then W^O (and b^O), then the mask M when ``masked``.
    """
    if shape.d_model % shape.heads:
        raise ShapeError(f"d_model = {shape.d_model} is not divisible by h = {shape.heads}")
    n, m, d, dh = shape.n, shape.m, shape.d_model, shape.d_head
    Xq, Xk, Xv = (sp.MatrixSymbol(f"X{c}", r, d) for c, r in (("q", n), ("k", m), ("v", m)))
    M = sp.MatrixSymbol("M", n, m)
    inputs: list[sp.MatrixSymbol] = [Xq, Xk, Xv]
    heads = []
    one = Shape(n, m, dh, dh)
    for t in range(1, shape.heads + 1):
        W = [sp.MatrixSymbol(f"W{c}_{t}", d, dh) for c in "QKV"]
        inputs += W
        proj = [Group(Xq * W[0]), Group(Xk * W[1]), Group(Xv * W[2])]
        if bias:
            b = [sp.MatrixSymbol(f"b{c}_{t}", 1, dh) for c in "QKV"]
            inputs += b
            rows = (n, m, m)
            proj = [Group(p + sp.OneMatrix(r, 1) * bb) for p, r, bb in zip(proj, rows, b, strict=True)]
        single = define(one, masked=masked)
        heads.append(single.composed().xreplace(dict(zip(single.inputs, [*proj, M], strict=False))))
    WO = sp.MatrixSymbol("WO", shape.heads * dh, d)
    inputs.append(WO)
    out = sp.BlockMatrix([heads]) * WO
    if bias:
        bO = sp.MatrixSymbol("bO", 1, d)
        inputs.append(bO)
        out = out + sp.OneMatrix(n, 1) * bO
    if masked:
        inputs.append(M)
    return MultiHeadDefinition(shape, tuple(inputs), out)


@lru_cache(maxsize=32)
def compiled_multihead(shape: HeadsShape, masked: bool, bias: bool) -> Callable[..., np.ndarray]:
    d = define_multihead(shape, masked=masked, bias=bias)
    return lambdify_numpy(list(d.inputs), d.expression, printer=MatrixNumPyPrinter, docstring_limit=0)


def multihead_numeric(
    xq: np.ndarray,
    xk: np.ndarray,
    xv: np.ndarray,
    w_q: Sequence[np.ndarray],
    w_k: Sequence[np.ndarray],
    w_v: Sequence[np.ndarray],
    w_o: np.ndarray,
    biases: tuple[Sequence[np.ndarray], Sequence[np.ndarray], Sequence[np.ndarray], np.ndarray] | None = None,
    mask: Mask | str | np.ndarray | None = None,
) -> np.ndarray:
    """Multi-head attention in NumPy; ``w_q[i]`` is head i's d_model x d_head projection."""
    h = len(w_q)
    shape = HeadsShape(xq.shape[-2], xk.shape[-2], xq.shape[-1], h)
    additive = _additive_mask(mask, Shape(shape.n, shape.m, shape.d_head, shape.d_head), xq.dtype)
    rows = None
    if biases is not None:
        rows = tuple([np.reshape(b, (1, -1)) for b in part] for part in biases[:3])
        rows += (np.reshape(biases[3], (1, -1)),)
    args = _in_input_order(xq, xk, xv, w_q, w_k, w_v, w_o, rows, additive)
    f = compiled_multihead(shape, additive is not None, biases is not None)
    return f(*args)


def _in_input_order(xq, xk, xv, w_q, w_k, w_v, w_o, biases, mask) -> list:
    """The arguments in the order of ``MultiHeadDefinition.inputs``."""
    args = [xq, xk, xv]
    for t in range(len(w_q)):
        args += [w_q[t], w_k[t], w_v[t]]
        if biases is not None:
            args += [biases[0][t], biases[1][t], biases[2][t]]
    args.append(w_o)
    if biases is not None:
        args.append(biases[3])
    if mask is not None:
        args.append(mask)
    return args


def multihead_exact(
    xq: sp.Matrix,
    xk: sp.Matrix,
    xv: sp.Matrix,
    w_q: Sequence[sp.Matrix],
    w_k: Sequence[sp.Matrix],
    w_v: Sequence[sp.Matrix],
    w_o: sp.Matrix,
    mask: Mask | str | None = None,
) -> sp.Matrix:
    """Multi-head attention evaluated exactly from the same expression (small sizes)."""
    h = len(w_q)
    shape = HeadsShape(xq.rows, xk.rows, xq.cols, h)
    mask = mask if isinstance(mask, Mask) else Mask.parse(mask)
    mask.check(shape.n, shape.m)
    d = define_multihead(shape, masked=not mask.is_none)
    additive = None if mask.is_none else mask.exact(shape.n, shape.m)
    values = _in_input_order(xq, xk, xv, w_q, w_k, w_v, w_o, None, additive)
    subs = {s: sp.ImmutableMatrix(v) for s, v in zip(d.inputs, values, strict=True)}
    return sp.Matrix(carry_out(d.expression.xreplace(subs)))
