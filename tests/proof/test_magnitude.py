"""How large a power is, estimated from the tree (symattn/proof/magnitude.py), against the digits
Python's own integers count where the power is small enough to compute."""

from __future__ import annotations

import random

import pytest
import sympy as sp

from symattn.limits import MAX_POWER_DIGITS
from symattn.proof.equivalence import prove_zero
from symattn.proof.magnitude import digits_beyond


def power(base, exponent):
    return sp.Pow(base, exponent, evaluate=False)


def tower(base: int, height: int) -> sp.Expr:
    out = sp.Integer(base)
    for _ in range(height - 1):
        out = power(base, out)
    return out


def test_the_estimate_agrees_with_the_digits_counted():
    """Whole powers of up to 30,000 digits, computed by Python: beyond 10,000 digits (with one
    digit's margin for the estimate's rounding) exactly when they have more digits than that."""
    rng = random.Random(49)
    for _ in range(200):
        base = rng.choice([rng.randint(2, 99), rng.randint(100, 10**6)])
        exponent = rng.randint(1, 30_000 // len(str(base)) + 1)
        value = base**exponent
        digits = int(value.bit_length() * 0.30102999566398120) + 1  # a first guess, then exact:
        while value >= 10**digits:
            digits += 1
        while digits > 1 and value < 10 ** (digits - 1):
            digits -= 1
        if abs(digits - MAX_POWER_DIGITS) <= 1:
            continue
        assert digits_beyond(power(base, exponent)) == (digits > MAX_POWER_DIGITS), (base, exponent)
        assert digits_beyond(power(sp.Rational(1, base), exponent)) == (digits > MAX_POWER_DIGITS)


@pytest.mark.parametrize(
    ("expression", "beyond"),
    [
        (power(10, -(10**10)), True),  # tiny, but ten billion digits after the point
        (power(10, power(10, 10)), True),
        (sp.exp(sp.Integer(10) ** 5), True),  # e^x written as exp
        (tower(2, 4), False),  # 65,536: five digits
        (tower(2, 5), True),  # 2^65,536: 19,729 digits
        (tower(9, 4), True),
        (sp.exp(sp.exp(sp.exp(sp.exp(sp.exp(10))))), True),
        (power(1, 10**10), False),  # the base's digits do not grow
        (power(sp.Symbol("N"), 10**10), False),  # not a number: an inequality's degree bounds it
        (power(1 + sp.Rational(1, 10**50), 10**60), True),  # near 1, but its fraction's digits grow
        (power(sp.Float("1.96"), 10**10), True),
        (sp.sqrt(2) + sp.exp(2), False),
    ],
)
def test_towers_and_edges(expression, beyond):
    assert digits_beyond(expression) is beyond


def test_a_deep_nest_of_small_powers_is_estimated_once_per_subtree():
    """Forty nested square roots of squares (a learner's deep nesting) are small: the walk visits
    each subtree once and asks SymPy nothing (an assumption query would evaluate the nest)."""
    x = sp.Float("1.96")
    for _ in range(40):
        x = power(power(x, 2), sp.Rational(1, 2))
    assert digits_beyond(x) is False


def test_exact_algebra_is_not_attempted_on_a_huge_power():
    """prove_zero refuses (None) where its normal forms would compute the power."""
    huge, tiny = power(10, power(10, 10)), power(10, -power(10, 10))
    # (written unevaluated: SymPy's own product of the two would compute them)
    quotient = sp.Add(
        sp.Mul(huge, tiny, sp.Rational(49, 25), evaluate=False), -sp.Rational(49, 25), evaluate=False
    )
    assert prove_zero(quotient) is None
    assert prove_zero(power(2, 13) - 8192) is not None  # a small power still is
