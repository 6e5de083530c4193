"""The row softmax node (symattn/core/softmax.py)."""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp

from symattn.core.numeric import MatrixNumPyPrinter
from symattn.core.softmax import RowSoftmax, softmax_row, softmax_rows
from symattn.errors import EmptyRowError


def test_exact_rows_sum_to_one_and_follow_the_definition():
    """Each weight equals exp(z_j)/sum exp(z_k) exactly, after the shift, and rows sum to 1."""
    z = sp.Matrix([[2, 0, 0], [sp.sqrt(3), -1, sp.Rational(1, 2)]])
    w = softmax_rows(z)
    for i in range(2):
        assert sp.cancel(sum(w.row(i)) - 1) == 0
        for j in range(3):
            direct = sp.exp(z[i, j]) / sum(sp.exp(z[i, k]) for k in range(3))
            assert sp.cancel(sp.expand(w[i, j] - direct)) == 0


def test_shift_makes_the_module_forms():
    """Scores [0, sqrt 2] give 1/(1+e^sqrt2) and e^sqrt2/(1+e^sqrt2), as the module writes."""
    e = sp.exp(sp.sqrt(2))
    assert softmax_row([sp.S.Zero, sp.sqrt(2)]) == [1 / (1 + e), e / (1 + e)]


def test_masked_entry_gets_exactly_zero_weight():
    """A -oo entry has weight 0 exactly, and the rest renormalise."""
    w = softmax_row([sp.Integer(1), sp.S.NegativeInfinity, sp.Integer(1)])
    assert w == [sp.Rational(1, 2), 0, sp.Rational(1, 2)]


def test_fully_masked_row_is_refused():
    """A row of only -oo would be 0/0: it raises and names the row."""
    with pytest.raises(EmptyRowError, match="row 2"):
        softmax_rows(sp.Matrix([[0, 1], [-sp.oo, -sp.oo]]))


def test_symbolic_row_is_left_unshifted():
    """Entries SymPy cannot order exactly keep the plain exp/sum form."""
    x, y = sp.symbols("x y", real=True)
    assert softmax_row([x, y]) == [
        sp.exp(x) / (sp.exp(x) + sp.exp(y)),
        sp.exp(y) / (sp.exp(x) + sp.exp(y)),
    ]


def test_numpy_code_is_safe_for_huge_scores():
    """The printed NumPy softmax subtracts the row maximum: scores of 1e6 stay finite."""
    Z = sp.MatrixSymbol("Z", 2, 3)
    f = sp.lambdify([Z], RowSoftmax(Z), modules="numpy", printer=MatrixNumPyPrinter)
    z = np.array([[1e6, 1e6 - 1, -1e6], [-1e6, -1e6, -1e6]])
    w = f(z)
    assert np.isfinite(w).all()
    e = np.exp(-1.0)
    np.testing.assert_allclose(w[0], [1 / (1 + e), e / (1 + e), 0.0], rtol=1e-15)
    np.testing.assert_allclose(w[1], [1 / 3] * 3, rtol=1e-15)


def test_latex_and_shape():
    """The node prints as softmax(...) in LaTeX and keeps its argument's shape."""
    Z = sp.MatrixSymbol("Z", 2, 3)
    node = RowSoftmax(Z)
    assert node.shape == (2, 3)
    assert sp.latex(node) == r"\operatorname{softmax}\left(Z\right)"
    assert node.as_explicit()[0, 0] == sp.exp(Z[0, 0]) / sum(sp.exp(Z[0, k]) for k in range(3))


def test_a_nan_entry_makes_its_row_nan_not_an_error():
    """The remembered shift sorts a row's entries; NaN has no order, so its row is NaN, as the
    formula gives (review finding: a TypeError)."""
    assert softmax_row([sp.nan, sp.Integer(1)]) == [sp.nan, sp.nan]
