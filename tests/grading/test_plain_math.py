"""What a learner is told, as plain math (symattn/grading/plain_math.py): never SymPy's syntax."""

from __future__ import annotations

import pytest
import sympy as sp

from symattn.grading.plain_math import MAX_SHOWN, plain_math

j, N = sp.symbols("j N")
v = sp.IndexedBase("v")


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        (
            # a power of ten billion digits: the terms as written, never ordered (ordering
            # compares them, which computes the power)
            sp.Add(sp.Rational(39, 20), sp.Pow(10, -(10**10), evaluate=False), evaluate=False),
            "39/20 + 10^(-10000000000)",
        ),
        (-sp.oo, "-∞"),
        (sp.Sum(v[j], (j, 1, N)) / N, "sum_{j=1}^{N} v_j/N"),
        (sp.Sum(v[j], (j, 1, N)) ** 12, "(sum_{j=1}^{N} v_j)^12"),  # never sum_j v_j^12
        ((sp.exp(2) + 11) / (sp.exp(2) + 2), "(e^2 + 11)/(2 + e^2)"),
        (sp.exp(sp.Rational(1, 2)), "e^(1/2)"),
        (sp.sqrt(2), "√2"),
        (sp.sqrt(N + 1), "√(N + 1)"),
        (sp.Matrix([[0, -sp.oo], [sp.Rational(1, 2), 1]]), "[[0, -∞], [1/2, 1]]"),
        (2 * N**2 * sp.Symbol("d_model"), "2*N^2*d_model"),
        (sp.MatrixSymbol("W", 2, 2).T, "W^T"),
    ],
)
def test_readings(value, shown):
    assert plain_math(value) == shown


def test_no_sympy_syntax_survives():
    text = plain_math(sp.Sum(sp.exp(v[j]) ** 2, (j, 1, N)) - sp.oo)
    assert not any(s in text for s in ("**", "oo", "Sum(", "exp(", "[j]"))


def test_long_values_are_cut():
    assert len(plain_math(sp.Add(*sp.symbols("x0:200")))) == MAX_SHOWN


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        (sp.log(2), "ln(2)"),
        (sp.log(N) / sp.log(10), "ln(N)/ln(10)"),
        (sp.Min(sp.Rational(49, 25), 5, evaluate=False), "min(49/25, 5)"),
        (sp.Mod(N, 7), "N mod 7"),
    ],
)
def test_functions_in_plain_words(value, shown):
    assert plain_math(value) == shown


def test_a_factor_one_of_an_unevaluated_product_is_not_shown():
    """A reader's unevaluated -1*8192*N is written -8192*N, as a person writes it."""
    n = sp.Symbol("N")
    assert plain_math(sp.Add(sp.Mul(-1, 8192, n, evaluate=False), n**2, evaluate=False)) == "N^2 - 8192*N"
    assert plain_math(sp.Mul(1, n, evaluate=False)) == "N"
    assert plain_math(sp.Mul(21, n)) == "21*N"  # a digit before 1* is part of the number
