"""Correctly rounded decimal values of exact expressions.

``decimal_string(expr, n)`` gives ``expr`` to ``n`` significant digits, rounded to nearest (ties
to even), and never a digit that is not certain:

- rationals are rounded with exact integer arithmetic;
- other real numbers are evaluated by SymPy's ``evalf`` with ``strict=True`` (which raises
  rather than return fewer correct digits than asked) at ``n`` plus guard digits; the value is
  then known to lie in a small interval, and the result is accepted only if both ends of that
  interval round to the same ``n`` digits. Otherwise the precision is doubled and the check
  repeated; a value that stays ambiguous raises :class:`~symattn.errors.PrecisionError`.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import sympy as sp

from .errors import PrecisionError
from .limits import MAX_DIGITS

_GUARD = 10
_MAX_WORKING = 4 * MAX_DIGITS


def decimal_string(value: sp.Expr, digits: int = 15) -> str:
    """``value`` to ``digits`` significant digits, correctly rounded; ``-inf`` for -oo.

    >>> decimal_string(sp.exp(sp.sqrt(2)) / (1 + sp.exp(sp.sqrt(2))), 20)
    '0.80442968250695690519'
    >>> decimal_string(sp.Rational(1, 8), 2)
    '0.12'
    """
    return str(round_decimal(value, digits)) if value.is_finite else _infinity(value)


def round_decimal(value: sp.Expr, digits: int) -> Decimal:
    """The correctly rounded ``digits``-significant-digit Decimal of a finite real ``value``."""
    if not 1 <= digits <= MAX_DIGITS:
        raise PrecisionError(f"digits must be between 1 and {MAX_DIGITS}, got {digits}")
    value = sp.sympify(value)
    if value.is_Rational:
        return round_fraction(Fraction(int(value.p), int(value.q)), digits)
    if value.free_symbols:
        raise PrecisionError(f"cannot give digits of an expression with symbols: {value}")
    working = digits + _GUARD
    while working <= _MAX_WORKING:
        try:
            approx = value.evalf(working, strict=True)
        except sp.core.evalf.PrecisionExhausted:
            working *= 2
            continue
        if not approx.is_Float:
            if approx.is_Rational:
                return round_fraction(Fraction(int(approx.p), int(approx.q)), digits)
            raise PrecisionError(f"value is not a real number: {value}")
        centre = _float_fraction(approx)
        # evalf(strict=True) promises `working` correct digits: a relative error below
        # 10**(1 - working). Widen by a factor of ten for safety.
        radius = abs(centre) * Fraction(1, 10 ** (working - 2))
        low = round_fraction(centre - radius, digits)
        high = round_fraction(centre + radius, digits)
        if low == high and centre != 0:
            return low
        working *= 2
    raise PrecisionError(
        f"cannot certify {digits} digits of {sp.sstr(value)[:60]} (zero, or a rounding tie?)"
    )


def round_fraction(x: Fraction, digits: int) -> Decimal:
    """Round a rational to ``digits`` significant digits, ties to even, exactly."""
    if x == 0:
        return Decimal(0)
    sign = 1 if x < 0 else 0
    a = abs(x)
    e = _floor_log10(a)
    for _ in range(2):
        scaled = a * Fraction(10) ** (digits - 1 - e)
        n = _round_half_even(scaled)
        if n < 10**digits:
            break
        e += 1  # rounding carried into a new leading digit, e.g. 9.99 -> 10.0
    return Decimal((sign, tuple(int(c) for c in str(n)), e - digits + 1))


def _floor_log10(a: Fraction) -> int:
    e = len(str(a.numerator)) - len(str(a.denominator))
    # Adjust the estimate so that 10**e <= a < 10**(e+1).
    while Fraction(10) ** e > a:
        e -= 1
    while Fraction(10) ** (e + 1) <= a:
        e += 1
    return e


def _round_half_even(x: Fraction) -> int:
    q, r = divmod(x.numerator, x.denominator)
    twice = 2 * r
    if twice > x.denominator or (twice == x.denominator and q % 2 == 1):
        q += 1
    return q


def _float_fraction(f: sp.Float) -> Fraction:
    sign, man, exp, _ = f._mpf_
    val = Fraction(int(man)) * (Fraction(2) ** int(exp))
    return -val if sign else val


def _infinity(value: sp.Expr) -> str:
    if value == sp.S.NegativeInfinity:
        return "-inf"
    if value == sp.S.Infinity:
        return "inf"
    raise PrecisionError(f"value is not a finite real number: {sp.sstr(value)[:60]}")
