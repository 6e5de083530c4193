"""Certified interval evaluation (symattn/proof/certify.py) against plain mpmath and exact values."""

from __future__ import annotations

import mpmath
import pytest
import sympy as sp

from symattn.proof.certify import NotFinite, Uncertain, enclose, within

oo = sp.oo


@pytest.mark.parametrize(
    "expr",
    [
        (sp.E**2 + 11) / (sp.E**2 + 2),
        sp.sqrt(2) * sp.pi,
        sp.log(7, 2),
        sp.Abs(-sp.Rational(3, 7)),
        sp.Max(sp.E, sp.pi),
        sp.exp(-sp.Rational(5, 3)),
        sp.cos(1) + sp.sin(2),
    ],
)
def test_enclosures_contain_the_mpmath_value(expr):
    """The interval contains plain mpmath's value (at 100 digits) and is narrower than 1e-50."""
    x = enclose(expr)
    with mpmath.workdps(100):
        value = mpmath.mpmathify(sp.lambdify([], expr, modules="mpmath")())
        assert x.a <= value <= x.b
    assert x.b - x.a < mpmath.mpf(10) ** -50


@pytest.mark.parametrize(
    "expr",
    [
        sp.sqrt(oo, evaluate=False),
        sp.Pow(2, oo, evaluate=False),
        sp.Abs(-oo, evaluate=False),
        sp.Pow(oo, oo, evaluate=False),
        sp.Mul(1, sp.Pow(0, -1, evaluate=False), evaluate=False),
        sp.Add(oo, -oo, evaluate=False),
        sp.log(0, evaluate=False),
        sp.sqrt(-1, evaluate=False),
        sp.I,
    ],
)
def test_infinite_undefined_and_complex_values_are_refused(expr):
    """Every form SymPy leaves unevaluated is not finite (or not real)."""
    with pytest.raises(NotFinite):
        enclose(expr)


def test_symbols_and_unknown_functions_are_uncertain():
    with pytest.raises(Uncertain):
        enclose(sp.Symbol("x") + 1)
    with pytest.raises(Uncertain):
        enclose(sp.Function("f")(2))


def test_huge_values_are_bounded_not_computed():
    """10^(10^10) and exp(exp(exp(10))) are bounded quickly and are far from 2."""
    assert within(sp.Pow(10, sp.Pow(10, 10, evaluate=False), evaluate=False), 2, sp.Rational(1, 100)) is False
    big = sp.exp(sp.exp(sp.exp(10, evaluate=False), evaluate=False), evaluate=False)
    assert within(big, 2, sp.Rational(1, 100)) is False


def test_within_is_exact_at_the_boundary_and_certified_elsewhere():
    """|a - e| <= tol: the boundary counts; exact equality needs a proof and 50 digits."""
    e = (sp.E**2 + 11) / (sp.E**2 + 2)
    assert within(sp.Rational(196, 100), e, sp.Rational(1, 100)) is True
    assert within(sp.Rational(197, 100), e, sp.Rational(1, 100)) is False
    assert within(e + sp.Rational(1, 100), e, sp.Rational(1, 100)) is True
    assert within(sp.Rational(151, 100), sp.Rational(3, 2), sp.Rational(1, 100)) is True
    assert within(sp.Rational(8192), 8192, 0) is True
    assert within(e * (sp.E**2 + 2) / (sp.E**2 + 2), e, 0) is True
    assert within(e + sp.Rational(1, 10**70), e, 0) is False


def test_odd_roots_of_negative_numbers_are_real_as_a_course_reads_them():
    """(-8)^(1/3) is -2, whether 1/3 is evaluated or written as an unevaluated fraction."""
    third = sp.Mul(1, sp.Pow(3, -1, evaluate=False), evaluate=False)
    for exponent in (sp.Rational(1, 3), third):
        x = enclose(sp.Pow(-8, exponent, evaluate=False))
        assert x.a <= -2 <= x.b and x.b - x.a < mpmath.mpf(10) ** -50
    with pytest.raises(NotFinite, match="not a real number"):
        enclose(sp.Pow(-8, sp.Rational(1, 2), evaluate=False))
