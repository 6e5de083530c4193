"""Scaled dot-product attention, defined once.

    Attention(Q, K, V) = Softmax(Q K^T / sqrt(d_k) + M) V

The definition is a chain of five stages, each a SymPy matrix expression in the previous
stage's result. Composing the chain gives the whole expression; every way symattn computes
attention (exact closed forms, symbolic entries, decimals to any precision, and NumPy code
made by ``lambdify``) starts from this one chain.

====================  ==================  =========================================
stage                 symbol              expression
====================  ==================  =========================================
``scores``            S (N x M)           Q K^T
``scaled``            Z                   S / sqrt(d_k)   (or S, or S * scale)
``masked``            Z~                  Z + M           (skipped without a mask)
``weights``           A                   RowSoftmax(Z~)
``output``            O (N x d_v)         A V
====================  ==================  =========================================
"""

from __future__ import annotations

from dataclasses import dataclass

import sympy as sp

from .._text import count
from ..errors import ShapeError
from .nodes import Group
from .softmax import RowSoftmax

__all__ = ["STAGES", "Definition", "Group", "Shape", "define", "scale_factor"]

STAGES = ("scores", "scaled", "masked", "weights", "output")


@dataclass(frozen=True)
class Shape:
    """N queries, M keys, query/key width d_k, value width d_v."""

    n: int
    m: int
    d_k: int
    d_v: int


def scale_factor(d_k: int | sp.Expr, scale: bool | sp.Expr = True) -> sp.Expr:
    """The factor applied to the scores: 1/sqrt(d_k) by default, 1 with ``scale=False``."""
    if scale is True:
        return 1 / sp.sqrt(d_k)
    if scale is False:
        return sp.S.One
    return sp.sympify(scale, strict=True)


@dataclass(frozen=True)
class Definition:
    """The stage chain for one shape, as matrix expressions.

    ``inputs`` are the MatrixSymbols Q, K, V (and M when masked); ``stages`` maps each stage
    name to its expression in the previous stage's placeholder symbol; ``placeholders`` maps a
    stage name to the symbol that stands for its result in the next stage.
    """

    shape: Shape
    inputs: tuple[sp.MatrixSymbol, ...]
    stages: dict[str, sp.MatrixExpr]
    placeholders: dict[str, sp.MatrixSymbol]

    @property
    def masked(self) -> bool:
        return "masked" in self.stages

    def composed(self, upto: str = "output") -> sp.MatrixExpr:
        """The expression of stage ``upto`` in the inputs alone; by default the whole
        Softmax(Q K^T / sqrt(d_k) + M) V."""
        expr: sp.MatrixExpr | None = None
        for name, stage in self.stages.items():
            expr = stage if expr is None else stage.xreplace({self._previous(name): expr})
            if name == upto:
                break
        assert expr is not None
        # doit() flattens the nested products that substitution leaves (nothing is explicit).
        return expr.doit()

    def _previous(self, name: str) -> sp.MatrixSymbol:
        names = list(self.stages)
        return self.placeholders[names[names.index(name) - 1]]


def define(shape: Shape, *, masked: bool, scale: bool | sp.Expr = True) -> Definition:
    """Build the stage chain of attention for ``shape``."""
    n, m, d_k, d_v = shape.n, shape.m, shape.d_k, shape.d_v
    Q = sp.MatrixSymbol("Q", n, d_k)
    K = sp.MatrixSymbol("K", m, d_k)
    V = sp.MatrixSymbol("V", m, d_v)
    M = sp.MatrixSymbol("M", n, m)
    S = sp.MatrixSymbol("S", n, m)
    Z = sp.MatrixSymbol("Z", n, m)
    Zm = sp.MatrixSymbol("Ztilde", n, m)
    A = sp.MatrixSymbol("A", n, m)
    O = sp.MatrixSymbol("O", n, d_v)  # noqa: E741 - the module's letter

    stages: dict[str, sp.MatrixExpr] = {}
    placeholders = {"scores": S, "scaled": Z, "weights": A, "output": O}
    stages["scores"] = Q * K.T
    stages["scaled"] = scale_factor(d_k, scale) * S
    last = Z
    if masked:
        stages["masked"] = Z + M
        placeholders["masked"] = Zm
        last = Zm
    stages["weights"] = RowSoftmax(last)
    stages["output"] = A * V
    inputs = (Q, K, V, M) if masked else (Q, K, V)
    return Definition(shape, inputs, stages, placeholders)


def check_shapes(q: tuple[int, ...], k: tuple[int, ...], v: tuple[int, ...]) -> Shape:
    """Check that Q (N x d_k), K (M x d_k), V (M x d_v) fit; return the shape."""
    for name, s in (("Q", q), ("K", k), ("V", v)):
        if len(s) < 2:
            raise ShapeError(f"{name} must be a matrix, got shape {s}")
    if q[-1] != k[-1]:
        raise ShapeError(
            f"Q has {count(q[-1], 'column')} but K has {k[-1]}: queries and keys need one width d_k"
        )
    if k[-2] != v[-2]:
        raise ShapeError(f"K has {count(k[-2], 'row')} but V has {v[-2]}: each key needs one value row")
    return Shape(n=q[-2], m=k[-2], d_k=q[-1], d_v=v[-1])
