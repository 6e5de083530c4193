"""Matrix-expression nodes of one matrix argument, the base of RowSoftmax and Group.

A node wraps a matrix expression, keeps its shape, and when its argument becomes an explicit
matrix (every MatrixSymbol substituted) evaluates itself with :meth:`UnaryMatrixNode.on_explicit`.
"""

from __future__ import annotations

import sympy as sp
from sympy.matrices.expressions.matexpr import MatrixExpr


def explicit_if_possible(m: sp.Basic) -> sp.Basic:
    """An expression in explicit matrices only (no MatrixSymbol left), carried out."""
    if isinstance(m, MatrixExpr) and not m.atoms(sp.MatrixSymbol):
        return sp.ImmutableMatrix(m.as_explicit())
    return m


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
