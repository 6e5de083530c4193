"""How large a power is, and how many terms an expression multiplies out to, estimated from the
tree (symattn/proof/magnitude.py), against the digits Python's own integers count and the terms
SymPy's expand builds where they are small enough to compute."""

from __future__ import annotations

import random

import pytest
import sympy as sp

from symattn.limits import MAX_EXPANDED_TERMS, MAX_POWER_DIGITS
from symattn.proof.equivalence import prove_zero
from symattn.proof.magnitude import TOO_MANY_DIGITS, TOO_MANY_TERMS, digits_beyond, expanded_terms, too_costly


def power(base, exponent):
    return sp.Pow(base, exponent, evaluate=False)


def tower(base: int, height: int) -> sp.Expr:
    out = sp.Integer(base)
    for _ in range(height - 1):
        out = power(base, out)
    return out


def test_the_estimate_agrees_with_the_digits_counted():
    """Whole powers of up to 3 times the limit's digits, computed by Python: beyond the limit (with one
    digit's margin for the estimate's rounding) exactly when they have more digits than that."""
    rng = random.Random(49)
    for _ in range(200):
        base = rng.choice([rng.randint(2, 99), rng.randint(100, 10**6)])
        exponent = rng.randint(1, 3 * MAX_POWER_DIGITS // len(str(base)) + 1)
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


def test_numbers_past_a_floats_range_are_sized_by_logarithms():
    """The square root of a 900-digit number has 450 digits, not infinitely many: a base past a
    float's range is sized from the logarithms of its parts (a reviewer once read "more than
    10,000 digits" for sqrt(3^20000 + 1)). A product of numbers written out, and a number
    SymPy has already worked out, count as a power does."""
    half, limit = sp.Rational(1, 2), MAX_POWER_DIGITS
    assert digits_beyond(power(sp.Integer(10) ** (limit - 100) + 1, half)) is False
    assert digits_beyond(power(sp.Add(power(10, limit - 100), 1, evaluate=False), half)) is False
    assert digits_beyond(sp.Integer(10) ** (limit + 10)) is True  # worked out already (1e1010)
    assert digits_beyond(sp.Rational(1, 10 ** (limit + 10))) is True  # after the point
    assert digits_beyond(power(sp.Integer(0), 10**10)) is False
    factor = power(10**39 + 1, 2)  # 79 digits; the product of n of them about 79 n
    assert digits_beyond(sp.Mul(*[factor] * (limit // 80), evaluate=False)) is False
    assert digits_beyond(sp.Mul(*[factor] * (limit // 78 + 1), evaluate=False)) is True


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


def _random_polynomial(rng: random.Random, xs: list[sp.Symbol], depth: int = 0) -> sp.Expr:
    """Sums, products and whole powers of distinct symbols, written unevaluated."""
    pick = rng.random()
    if depth >= 3 or pick < 0.3:
        return rng.choice(xs)
    parts = [_random_polynomial(rng, xs, depth + 1) for _ in range(rng.randint(2, 3))]
    if pick < 0.6:
        return sp.Add(*parts, evaluate=False)
    if pick < 0.85:
        return sp.Mul(*parts, evaluate=False)
    return power(sp.Add(*parts, evaluate=False), rng.randint(2, 4))


def test_the_count_bounds_the_terms_expand_builds():
    """Issue 49: never fewer terms than SymPy's expand returns (like terms collected), and
    exactly as many for a power of a sum of distinct symbols (the multinomial count)."""
    rng = random.Random(4949)
    xs = list(sp.symbols("x0:8"))
    for _ in range(300):
        e = _random_polynomial(rng, xs)
        assert expanded_terms(e) >= len(sp.Add.make_args(sp.expand(e))), e
    for t in range(2, 6):
        for n in range(2, 7):
            e = power(sp.Add(*xs[:t]), n)
            assert expanded_terms(e) == len(sp.expand(e).args), (t, n)


CAP = 10**6


@pytest.mark.parametrize(
    ("expression", "terms"),
    [
        (power(1 + sp.sqrt(2), 26000), 26001),  # the binomial theorem's terms, however few remain
        (power(sp.Symbol("a") + sp.Symbol("b"), -3), 4),  # 1/(a + b)^3: its denominator is expanded
        (sp.exp(power(sp.Symbol("a") + sp.Symbol("b"), 2)), 3),  # inside a function, on its own
        (sp.Matrix([[sp.Symbol("a") + 1, 0], [0, 1]]), 5),  # a matrix: its entries' terms together
        (power(sp.Symbol("a") + 1, 10**100), CAP + 1),  # capped, never computed
        (power(sp.Symbol("a") + 1, power(10, 30)), CAP + 1),  # an exponent written as a power
        (power(sp.Symbol("a") + 1, sp.Rational(1, 2)), 2),  # a root is not expanded
    ],
)
def test_terms_of_edges(expression, terms):
    assert expanded_terms(expression, CAP) == terms


def test_too_costly_names_the_measure():
    """What prove_zero and the answers' refusals say: the digits first, then the terms."""
    assert too_costly(power(10, power(10, 10))) == TOO_MANY_DIGITS
    assert too_costly(power(1 + sp.sqrt(2), 26000)) == TOO_MANY_DIGITS  # 9,952 digits
    both = sp.Mul(power(1 + sp.sqrt(2), 2000), power(1 - sp.sqrt(2), 2000), evaluate=False) - 1
    assert too_costly(both) == TOO_MANY_TERMS  # 766 digits, but 2,001 x 2,001 terms multiplied out
    assert prove_zero(both) is None  # refused, never expanded (it is 0: ((1 + √2)(1 - √2))^2000 = 1)
    small = sp.Mul(power(1 + sp.sqrt(2), 20), power(1 - sp.sqrt(2), 20), evaluate=False) - 1
    assert too_costly(small) is None and prove_zero(small) is not None
    a, b = sp.symbols("a b")
    assert too_costly(power(a + b, MAX_EXPANDED_TERMS - 1)) is None  # the limit's own terms admitted
    assert too_costly(power(a + b, MAX_EXPANDED_TERMS)) == TOO_MANY_TERMS
