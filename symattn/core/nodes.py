"""Matrix-expression nodes of one matrix argument, the base of RowSoftmax and Group.

A node wraps a matrix expression, keeps its shape, and when its argument becomes an explicit
matrix (every MatrixSymbol substituted) evaluates itself with :meth:`UnaryMatrixNode.on_explicit`.
"""

from __future__ import annotations

from functools import lru_cache

import sympy as sp
from sympy.matrices.expressions.matexpr import MatrixExpr


def explicit_if_possible(m: sp.Basic) -> sp.Basic:
    """An expression in explicit matrices only (no MatrixSymbol left), carried out."""
    if isinstance(m, MatrixExpr) and not m.atoms(sp.MatrixSymbol):
        return sp.ImmutableMatrix(m.as_explicit())
    return m


def carry_out(e: sp.Basic) -> sp.Basic:
    """A matrix expression of explicit matrices computed bottom up, one operation at a time.

    Products, sums, transposes, block rows and columns, and :class:`UnaryMatrixNode` nodes
    are carried out on the explicit matrices of their arguments, which is much faster than
    SymPy's entry-by-entry ``as_explicit`` (each entry a ``Sum`` to evaluate). Anything else
    falls back to ``doit``. An expression that still holds a MatrixSymbol is returned as is.
    """
    if isinstance(e, sp.MatrixBase) or not isinstance(e, MatrixExpr) or e.atoms(sp.MatrixSymbol):
        return e
    return _carried(e)


def _carried(e: sp.Basic) -> sp.Basic:
    """carry_out below the top, where no MatrixSymbol is left (it was looked for once: a search
    at every level would walk every entry of the explicit matrices again and again)."""
    if isinstance(e, sp.MatrixBase) or not isinstance(e, MatrixExpr):
        return e
    return _carried_node(e)


@lru_cache(maxsize=256)
def _carried_node(e: MatrixExpr) -> sp.Basic:
    """One node carried out, remembered: a side evaluated at every permutation P meets its
    P-free parts (Attention(X) in P Attention(X), softmax(S) in P softmax(S) P^T) each time."""
    if isinstance(e, UnaryMatrixNode):
        return e.on_explicit(_immutable(_carried(e.arg)))
    if isinstance(e, sp.BlockMatrix):
        rows = [sp.Matrix.hstack(*[_carried(b) for b in row]) for row in e.blocks.tolist()]
        return sp.ImmutableMatrix(sp.Matrix.vstack(*rows))
    if isinstance(e, sp.MatMul):
        return _product(e)
    args = [_carried(a) if isinstance(a, MatrixExpr) else a for a in e.args]
    if not all(isinstance(a, sp.MatrixBase) or not isinstance(a, MatrixExpr) for a in args):
        return sp.ImmutableMatrix(e.doit().as_explicit())
    if isinstance(e, sp.MatAdd):
        return _immutable(sum(args[1:], args[0]))
    if isinstance(e, sp.Transpose):
        return _immutable(args[0].T)
    return sp.ImmutableMatrix(e.doit().as_explicit())


def _product(e: sp.MatMul) -> sp.Basic:
    """A product carried out factor by factor. An identity of a whole-number size is not
    multiplied by (A I = A), once its size is checked against the factor beside it."""
    factors = [a if _sized_identity(a) else _carried(a) for a in e.args]
    if any(
        isinstance(a, MatrixExpr) and not isinstance(a, sp.MatrixBase) and not _sized_identity(a)
        for a in factors
    ):
        return sp.ImmutableMatrix(e.doit().as_explicit())
    out = factors[0]
    for a in factors[1:]:
        out = _times(out, a)
    return _immutable(sp.ImmutableMatrix(sp.eye(out.rows)) if _sized_identity(out) else out)


def _sized_identity(a: sp.Basic) -> bool:
    return isinstance(a, sp.Identity) and a.rows.is_Integer


def _times(a: sp.Basic, b: sp.Basic) -> sp.Basic:
    """a b, for scalars, explicit matrices and identities of whole-number sizes."""
    if _sized_identity(b) and getattr(a, "is_Matrix", False):
        if a.cols != b.rows:
            raise sp.ShapeError(f"a {a.rows} x {a.cols} matrix times the {b.rows} x {b.rows} identity")
        return a
    if _sized_identity(a) and isinstance(b, sp.MatrixBase):
        if a.cols != b.rows:
            raise sp.ShapeError(f"the {a.rows} x {a.rows} identity times a {b.rows} x {b.cols} matrix")
        return b
    a, b = (sp.ImmutableMatrix(sp.eye(x.rows)) if _sized_identity(x) else x for x in (a, b))
    if isinstance(a, sp.MatrixBase) and isinstance(b, sp.MatrixBase) and a.cols == b.rows:
        # A permutation matrix reorders (P M: rows, M P: columns): the same entries, exactly,
        # without the n^3 products of symbolic entries by 0 and 1.
        if (order := _permutation(a)) is not None:
            rows = b.tolist()
            return sp.ImmutableMatrix([rows[c] for c in order])
        if (order := _permutation(b)) is not None:
            inverse = sorted(range(len(order)), key=order.__getitem__)
            return sp.ImmutableMatrix([[row[k] for k in inverse] for row in a.tolist()])
    return a * b


def _permutation(m: sp.MatrixBase) -> list[int] | None:
    """[c_0, c_1, ...] with m[r, c_r] = 1 and every other entry 0, if m is a permutation matrix."""
    if m.rows != m.cols or m.rows < 2:
        return None
    order = []
    for row in m.tolist():
        ones = [c for c, x in enumerate(row) if x != 0]
        if len(ones) != 1 or row[ones[0]] != 1:
            return None
        order.append(ones[0])
    return order if len(set(order)) == m.rows else None


def _immutable(m: sp.Basic) -> sp.Basic:
    """m as an ImmutableMatrix, without rebuilding one that is already (``ImmutableMatrix(m)``
    sympifies every entry again)."""
    if isinstance(m, sp.ImmutableMatrix) or not isinstance(m, sp.MatrixBase):
        return m
    return m.as_immutable()


class UnaryMatrixNode(MatrixExpr):
    """A matrix expression node with one matrix argument and the argument's shape."""

    def __new__(cls, arg: sp.Basic) -> UnaryMatrixNode:
        arg = sp.sympify(arg, strict=True)
        if not getattr(arg, "is_Matrix", False):
            raise TypeError(f"{cls.__name__} takes a matrix expression")
        return super().__new__(cls, arg)

    @property
    def arg(self) -> sp.Basic:
        return self.args[0]

    @property
    def shape(self) -> tuple:
        return self.arg.shape

    def doit(self, **hints: object) -> sp.Basic:
        arg = self.arg.doit(**hints) if hints.get("deep", True) else self.arg
        arg = explicit_if_possible(arg)
        return self.on_explicit(arg) if isinstance(arg, sp.MatrixBase) else self.func(arg)

    def on_explicit(self, m: sp.MatrixBase) -> sp.MatrixBase:
        """The node's value on an explicit matrix argument."""
        raise NotImplementedError


class Group(UnaryMatrixNode):
    """A matrix product computed as one unit, e.g. the projection X W^Q.

    SymPy flattens nested products, so ``(X W^Q)(X W^K)^T`` would otherwise be printed as
    ``X W^Q W^K^T X^T`` and evaluated left to right, at another cost than the textbook
    projections. ``Group`` keeps the parentheses in the generated code; mathematically it is
    the identity.
    """

    def on_explicit(self, m: sp.MatrixBase) -> sp.MatrixBase:
        return m

    def _entry(self, i: int, j: int, **kwargs: object) -> sp.Expr:
        return self.arg._entry(i, j, **kwargs)

    def _numpycode(self, printer: sp.printing.numpy.NumPyPrinter) -> str:
        return "(" + printer._print(self.arg) + ")"

    def _latex(self, printer: sp.printing.latex.LatexPrinter) -> str:
        return r"\left(" + printer._print(self.arg) + r"\right)"

    def _sympystr(self, printer: sp.printing.str.StrPrinter) -> str:
        return "(" + printer._print(self.arg) + ")"
