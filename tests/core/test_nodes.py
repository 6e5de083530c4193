"""carry_out: matrix expressions of explicit matrices computed bottom up, against SymPy's own
``doit`` of the same expression."""

from __future__ import annotations

import random

import pytest
import sympy as sp

from symattn.core.nodes import carry_out
from symattn.core.softmax import RowSoftmax

N = sp.Symbol("N", integer=True, positive=True)


def _matrix(rng: random.Random, rows: int, cols: int) -> sp.ImmutableMatrix:
    x = sp.Symbol("x", real=True)
    pool = [0, 1, -2, sp.Rational(1, 3), x, x**2 + 1]
    return sp.ImmutableMatrix(rows, cols, lambda i, j: rng.choice(pool))


@pytest.mark.parametrize("seed", range(12))
def test_products_sums_and_transposes_are_sympys(seed):
    rng = random.Random(seed)
    a, b, c = _matrix(rng, 2, 3), _matrix(rng, 3, 2), _matrix(rng, 2, 2)
    e = sp.MatAdd(sp.MatMul(a, b, evaluate=False), sp.Transpose(c), sp.MatMul(3, c, evaluate=False),
                  evaluate=False)
    assert carry_out(e) == sp.ImmutableMatrix(e.doit())


@pytest.mark.parametrize("seed", range(6))
def test_an_identity_factor_is_the_product_with_the_identity_matrix(seed):
    """A I = A and I B = B are not multiplied out, and give what the product with eye gives."""
    rng = random.Random(seed)
    a, b = _matrix(rng, 2, 3), _matrix(rng, 3, 2)
    e = sp.MatMul(a, sp.Identity(3), b, sp.Identity(2), evaluate=False)
    assert carry_out(e) == a * sp.eye(3) * b * sp.eye(2)
    assert carry_out(sp.MatMul(sp.Identity(2), a, evaluate=False)) == a
    assert carry_out(sp.MatMul(2, sp.Identity(2), evaluate=False)) == 2 * sp.eye(2)
    assert carry_out(sp.MatMul(sp.Identity(2), sp.Identity(2), evaluate=False)) == sp.eye(2)
    s = sp.ImmutableMatrix(2, 2, sp.symbols("s1:5"))
    assert carry_out(sp.MatMul(RowSoftmax(s), sp.Identity(2), evaluate=False)) == RowSoftmax(s).doit()


def test_an_identity_of_the_wrong_or_an_unknown_size_is_not_dropped():
    """Review finding: an identity was dropped before its size was looked at, so C I_N = C
    (C 2 x 2, N free) was carried out as C. The sizes must match; a free size cannot be done."""
    c, b = sp.ImmutableMatrix([[1, 2], [3, 4]]), sp.ImmutableMatrix([[1, 2, 3], [4, 5, 6]])
    with pytest.raises(ValueError):
        carry_out(sp.MatMul(c, sp.Identity(N), evaluate=False))
    with pytest.raises(ValueError):
        carry_out(sp.MatMul(sp.Identity(N), b, evaluate=False))
    for wrong in (sp.Basic.__new__(sp.MatMul, sp.Identity(3), b),  # built without SymPy's check
                  sp.Basic.__new__(sp.MatMul, c, sp.Identity(3))):
        with pytest.raises(sp.ShapeError):
            carry_out(wrong)


def test_an_expression_with_a_matrix_symbol_is_left_as_it_is():
    m = sp.MatrixSymbol("M", 2, 2)
    e = sp.MatMul(RowSoftmax(sp.ImmutableMatrix([[1, 0], [0, 1]])), m, evaluate=False)
    assert carry_out(e) is e
