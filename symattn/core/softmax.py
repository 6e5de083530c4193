"""The row-wise softmax as a SymPy matrix expression.

``RowSoftmax(Z)`` is the N x M matrix whose row i is softmax(Z[i, :]). It is a node of a
``MatrixExpr`` tree, so attention can be written as one expression; it knows how to

- evaluate exactly on an explicit matrix (``doit``): entry (i, j) is
  exp(z_ij - c_i) / sum_k exp(z_ik - c_i), where c_i is the smallest allowed entry of the row
  when SymPy can order the row exactly, and 0 otherwise. Softmax is unchanged by subtracting a
  constant from a row, so the shift is exact; it makes the closed forms read as the module
  writes them (1/(1 + e^sqrt(2)) rather than e^-sqrt(2)/(1 + e^-sqrt(2))). A ``-oo`` entry gets
  weight exactly 0; a row of only ``-oo`` raises :class:`~symattn.errors.EmptyRowError`
  (it would be 0/0);
- print itself as NumPy code (``_numpycode``) in the safe form that subtracts the row maximum
  before exponentiating, so scores of size 1e6 do not overflow;
- print itself as LaTeX.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import sympy as sp

from ..errors import EmptyRowError
from .nodes import UnaryMatrixNode


class RowSoftmax(UnaryMatrixNode):
    """Softmax applied to each row of a matrix expression."""

    def on_explicit(self, m: sp.MatrixBase) -> sp.MatrixBase:
        return _softmax_rows_of(m.as_immutable())

    def _entry(self, i: int, j: int, **kwargs: object) -> sp.Expr:
        row = [self.arg[i, k] for k in range(self.shape[1])]
        return softmax_row(row, i)[j]

    def _numpycode(self, printer: sp.printing.numpy.NumPyPrinter) -> str:
        np_ = printer._module  # "numpy" (or an alias the printer was given)
        z = printer._print(self.arg)
        # exp(z - rowmax) / rowsum: one pass of vectorised NumPy, safe for huge scores.
        return (
            f"(lambda _z: (lambda _e: _e / _e.sum(axis=-1, keepdims=True))"
            f"({np_}.exp(_z - _z.max(axis=-1, keepdims=True))))({z})"
        )

    def _latex(self, printer: sp.printing.latex.LatexPrinter) -> str:
        return r"\operatorname{softmax}\left(" + printer._print(self.arg) + r"\right)"

    def _sympystr(self, printer: sp.printing.str.StrPrinter) -> str:
        return f"RowSoftmax({printer._print(self.arg)})"

    def _pretty(self, printer: Any) -> Any:
        from sympy.printing.pretty.stringpict import prettyForm

        inside = prettyForm(*printer._print(self.arg).parens())
        return prettyForm(*inside.left("softmax"))


def softmax_rows(z: sp.MatrixBase) -> sp.ImmutableMatrix:
    """Exact row softmax of an explicit matrix (see the module docstring)."""
    n, m = z.shape
    rows = [softmax_row([z[i, j] for j in range(m)], i) for i in range(n)]
    return sp.ImmutableMatrix(rows)


@lru_cache(maxsize=64)
def _softmax_rows_of(z: sp.ImmutableMatrix) -> sp.ImmutableMatrix:
    """softmax_rows, remembered: an expression evaluated at many permutations (or sizes) meets
    the same argument again and again (P softmax(S) P^T for every P)."""
    return softmax_rows(z)


def softmax_row(row: list[sp.Expr], index: int = 0) -> list[sp.Expr]:
    """Exact softmax of one row; ``index`` names the row if it has no allowed entry."""
    if all(x == sp.S.NegativeInfinity for x in row):
        raise EmptyRowError([index])
    if any(x is sp.nan for x in row):
        return [sp.nan] * len(row)  # NaN has no place in SymPy's sort order (review finding)
    shift, total = _shift_and_total(tuple(sorted(row, key=sp.default_sort_key)))
    return [sp.exp(x - shift) / total for x in row]  # exp(-oo) is exactly 0


@lru_cache(maxsize=4096)
def _shift_and_total(row: tuple[sp.Expr, ...]) -> tuple[sp.Expr, sp.Expr]:
    """The shift and the denominator of a row, given its entries in SymPy's sort order: both
    depend only on which entries the row has, so a row that is another one reordered (a row of
    P S P^T, for every permutation P) finds them remembered."""
    shift = _exact_minimum([x for x in row if x != sp.S.NegativeInfinity])
    return shift, sp.Add(*(sp.exp(x - shift) for x in row))


def _exact_minimum(values: list[sp.Expr]) -> sp.Expr:
    """The smallest value if SymPy can order all of them exactly, else 0 (no shift)."""
    best = values[0]
    for x in values[1:]:
        below = (x - best).is_extended_negative
        if below is None:
            return sp.S.Zero
        if below:
            best = x
    return best
