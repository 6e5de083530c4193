"""Correctly rounded decimals (symattn/core/digits.py), checked against mpmath at high precision."""

from __future__ import annotations

from decimal import ROUND_HALF_EVEN, Decimal, localcontext

import mpmath
import pytest
import sympy as sp
from hypothesis import given
from hypothesis import strategies as st

from symattn.core.digits import decimal_string
from symattn.errors import PrecisionError

E2 = sp.exp(sp.sqrt(2))


def reference_digits(mp_value, digits: int) -> str:
    """Round mpmath's 300-digit value with Python's decimal module (an independent path)."""
    with mpmath.workdps(300):
        text = mpmath.nstr(mp_value(), 290, strip_zeros=False)
    with localcontext() as ctx:
        ctx.prec = digits
        ctx.rounding = ROUND_HALF_EVEN
        return str(+Decimal(text))


@pytest.mark.parametrize("digits", [1, 2, 5, 15, 20, 50, 120])
@pytest.mark.parametrize(
    ("expr", "mp_value"),
    [
        (E2 / (1 + E2), lambda: mpmath.exp(mpmath.sqrt(2)) / (1 + mpmath.exp(mpmath.sqrt(2)))),
        (-9 * sp.sqrt(2), lambda: -9 * mpmath.sqrt(2)),
        (sp.exp(-9 * sp.sqrt(2)), lambda: mpmath.exp(-9 * mpmath.sqrt(2))),
        (sp.exp(20), lambda: mpmath.exp(20)),
        (sp.pi, lambda: mpmath.pi),
    ],
)
def test_digits_match_an_independent_rounding(expr, mp_value, digits):
    """n significant digits agree with mpmath at 300 digits rounded by the decimal module."""
    assert decimal_string(expr, digits) == reference_digits(mp_value, digits)


def test_module_figures():
    """The seed's second output entry is 0.80442968250695690519... to 20 digits."""
    assert decimal_string(E2 / (1 + E2), 20) == "0.80442968250695690519"
    assert decimal_string(sp.exp(20), 3) == "4.85E+8"


@pytest.mark.parametrize(
    ("value", "digits", "expected"),
    [
        (sp.Rational(1, 8), 2, "0.12"),  # tie: to even
        (sp.Rational(3, 8), 2, "0.38"),  # tie: to even
        (sp.Rational(9999, 1000), 2, "10"),
        (sp.Rational(-18), 3, "-18.0"),
        (sp.Rational(2, 3), 4, "0.6667"),
        (sp.S.Zero, 5, "0"),
    ],
)
def test_rationals_round_exactly(value, digits, expected):
    """Rationals are rounded with integer arithmetic, ties to even."""
    assert decimal_string(value, digits) == expected


@given(st.fractions(min_value=-(10**6), max_value=10**6, max_denominator=10**6), st.integers(1, 30))
def test_rationals_agree_with_decimal_module(x, digits):
    """For any rational, the result is what Python's decimal module gives with ties to even."""
    with localcontext() as ctx:
        ctx.prec = digits + 60
        exact = Decimal(x.numerator) / Decimal(x.denominator)
        ctx.prec = digits
        ctx.rounding = ROUND_HALF_EVEN
        expected = +exact
    # A denominator up to 1e6 cannot hide a rounding tie beyond 60 extra digits.
    got = decimal_string(sp.Rational(x.numerator, x.denominator), digits)
    assert Decimal(got) == expected
    if x != 0:
        assert len(Decimal(got).as_tuple().digits) == digits


def test_infinities_and_symbols():
    """-oo prints as -inf; a symbolic value has no digits and says so."""
    assert decimal_string(sp.S.NegativeInfinity) == "-inf"
    with pytest.raises(PrecisionError):
        decimal_string(sp.Symbol("x") + 1)
    with pytest.raises(PrecisionError):
        decimal_string(sp.Rational(1, 3), 0)


def test_a_hidden_zero_is_not_given_false_digits():
    """A value equal to 0 that SymPy does not simplify gets an error or 0, never noise."""
    hidden_zero = sp.Add(sp.sqrt(2) * sp.sqrt(3), -sp.sqrt(6), evaluate=False)
    try:
        text = decimal_string(hidden_zero, 10)
    except PrecisionError:
        return
    assert Decimal(text) == 0


def _log_path_digits(log10_value: mpmath.mpf, digits: int) -> str:
    """n digits of 10**log10_value, from its base-10 logarithm (mpmath at high precision),
    rounded by the decimal module: independent of symattn's interval code."""
    e10 = int(mpmath.floor(log10_value))
    mantissa = mpmath.power(10, log10_value - e10)
    with localcontext() as ctx:
        ctx.prec = digits
        ctx.rounding = ROUND_HALF_EVEN
        m = +Decimal(mpmath.nstr(mantissa, digits + 40, strip_zeros=False))
        if m >= 10:  # 9.99... rounded up to the next power of ten
            m, e10 = +(m / 10), e10 + 1
    return f"{m}E{'+' if e10 >= 0 else '-'}{abs(e10)}"


@pytest.mark.parametrize("digits", [1, 6, 15, 40])
@pytest.mark.parametrize("power", [20, 300, 400])
def test_values_with_huge_exponents(power, digits):
    """1/(1 + e^(10^p)) and e^(10^p) sqrt(2) for p up to 400: correctly rounded, scientific form,
    computed without expanding the power (checked against mpmath's log10 at 1,500 digits)."""
    x = sp.Integer(10) ** power
    with mpmath.workdps(1500):
        big = mpmath.mpf(10) ** power
        log_small = -mpmath.log10(1 + mpmath.exp(big))
        log_large = big / mpmath.log(10) + mpmath.log10(mpmath.sqrt(2))
        expected_small = _log_path_digits(log_small, digits)
        expected_large = _log_path_digits(log_large, digits)
    assert decimal_string(1 / (1 + sp.exp(x)), digits) == expected_small
    assert decimal_string(sp.exp(x) * sp.sqrt(2), digits) == expected_large


@pytest.mark.parametrize("digits", [1, 5, 15])
@pytest.mark.parametrize("n", [2302, 100022, 999_983])
def test_a_small_power_of_e_is_rounded_at_its_own_exponent(n, digits):
    """e^(-n) for an n that is no power of ten (e^(-100022) = 9.9387E-43440): its digits and its
    exponent, against mpmath's log10 at 120 digits (a mantissa ten times too small once passed)."""
    with mpmath.workdps(120):
        expected = _log_path_digits(-mpmath.mpf(n) / mpmath.log(10), digits)
    assert decimal_string(sp.exp(-n), digits) == expected


def test_exact_decimals_carry_no_padding():
    """A rational with a short exact decimal prints without padding; others have none."""
    from symattn.core.digits import exact_decimal

    assert exact_decimal(sp.Rational(-18), 6) == "-18"
    assert exact_decimal(sp.Rational(1, 2), 6) == "0.5"
    assert exact_decimal(sp.Integer(10) ** 300, 6) == "1E+300"
    assert exact_decimal(sp.Rational(1, 3), 6) is None
    assert exact_decimal(sp.Rational(1234567), 6) is None  # needs 7 digits
    assert exact_decimal(sp.sqrt(2), 6) is None


def test_a_tower_of_exponentials_beyond_reach_is_refused_before_any_digit():
    """exp(exp(exp(100))) has no representable exponent: a PrecisionError naming the limit,
    before any digit is computed (bench/limits.py times it); exp(exp(1000)) is still within reach."""
    with pytest.raises(PrecisionError, match="beyond reach"):
        decimal_string(sp.exp(sp.exp(sp.exp(100))), 5)
    with mpmath.workdps(700):
        log10 = mpmath.exp(1000) / mpmath.log(10)
        expected = _log_path_digits(log10, 5)
    assert decimal_string(sp.exp(sp.exp(1000)), 5) == expected
