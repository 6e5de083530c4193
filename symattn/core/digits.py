"""Correctly rounded decimal values of exact expressions.

``decimal_string(expr, n)`` gives ``expr`` to ``n`` significant digits, rounded to nearest (ties
to even), and never a digit that is not certain:

- rationals are rounded with exact integer arithmetic;
- other real numbers are enclosed in an interval by :mod:`symattn.core.enclosure` (mpmath interval
  arithmetic on the exact closed form, starting with as many extra bits as the expression's
  largest integer has). Rounding to ``n`` digits is monotone, so when both ends of the interval
  round to the same ``n`` digits every point inside does too, and that is the answer.
  Otherwise the precision is doubled and the check repeated; a value that stays ambiguous
  (zero that SymPy did not simplify, or a rounding tie) raises
  :class:`~symattn.errors.PrecisionError`.

Values of any magnitude a float with a Python-integer exponent can hold are handled, such as
``1/(1 + exp(5*10**299*sqrt(2)))`` ≈ 1.91760E-307092573185687713742...; no power is ever
expanded into an integer.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

import sympy as sp
from mpmath.libmp import from_int, libmpi, mpf_sign

from ..errors import PrecisionError
from ..limits import MAX_DIGITS
from .enclosure import BeyondReach, Undecided, Unsupported, enclose, magnitude_bits

_GUARD_BITS = 24
#: Most bits of working precision tried before giving up on a value.
MAX_WORKING_BITS = 4 * MAX_DIGITS * 4 + 4096
#: Most bits in the binary exponent of a value (about 10^3600 decimal digits of exponent).
MAX_EXPONENT_BITS = 12_000
#: Binary exponents up to this size are rounded with exact rational arithmetic.
_EXACT_EXPONENT = 40_000
_LOG10_2 = math.log10(2)


@dataclass(frozen=True)
class Rounded:
    """(-1)^sign * coefficient * 10^exponent; ``coefficient`` has the digits asked for (or is 0).

    Unlike :class:`decimal.Decimal`, the exponent may be any integer (Decimal stops at 10^18).
    ``str`` follows Decimal's to-scientific-string rule: plain notation unless the exponent is
    positive or the number is below 1e-6.
    """

    sign: int
    coefficient: int
    exponent: int

    def __str__(self) -> str:
        if self.coefficient == 0:
            return "0"
        c = str(self.coefficient)
        adjusted = self.exponent + len(c) - 1
        if self.exponent <= 0 and adjusted >= -6:
            point = len(c) + self.exponent
            if self.exponent == 0:
                body = c
            elif point > 0:
                body = c[:point] + "." + c[point:]
            else:
                body = "0." + "0" * (-point) + c
        else:
            mantissa = c[0] + ("." + c[1:] if len(c) > 1 else "")
            body = f"{mantissa}E{'+' if adjusted >= 0 else '-'}{abs(adjusted)}"
        return ("-" if self.sign else "") + body

    def to_decimal(self) -> Decimal:
        if self.coefficient == 0:
            return Decimal(0)
        try:
            return Decimal((self.sign, tuple(int(c) for c in str(self.coefficient)), self.exponent))
        except (OverflowError, ValueError):
            raise PrecisionError(f"exponent too large for a Decimal: {self}") from None


def decimal_string(value: sp.Expr, digits: int = 15) -> str:
    """``value`` to ``digits`` significant digits, correctly rounded; ``-inf`` for -oo.

    >>> decimal_string(sp.exp(sp.sqrt(2)) / (1 + sp.exp(sp.sqrt(2))), 20)
    '0.80442968250695690519'
    >>> decimal_string(sp.Rational(1, 8), 2)
    '0.12'
    >>> decimal_string(1 / (1 + sp.exp(10**300)), 6)[:20]  # an exponent of 300 digits
    '1.83816E-43429448190'
    """
    value = sp.sympify(value)
    return str(rounded(value, digits)) if value.is_finite else _infinity(value)


def exact_decimal(value: sp.Expr, digits: int = 15) -> str | None:
    """The exact decimal of a rational with at most ``digits`` significant digits, without
    padding (``-18``, ``0.5``, ``1E+300``); None when ``value`` has no such exact decimal.

    >>> exact_decimal(sp.Rational(-18), 6), exact_decimal(sp.Rational(1, 3), 6)
    ('-18', None)
    """
    value = sp.sympify(value)
    if not value.is_Rational:
        return None
    r = round_fraction(Fraction(int(value.p), int(value.q)), digits)
    if r.coefficient == 0:
        return "0"
    c, e = r.coefficient, r.exponent
    exact = Fraction(c) * Fraction(10) ** e
    if (-exact if r.sign else exact) != Fraction(int(value.p), int(value.q)):
        return None
    while c % 10 == 0:
        c, e = c // 10, e + 1
    return str(Rounded(r.sign, c, e))


def round_decimal(value: sp.Expr, digits: int) -> Decimal:
    """The correctly rounded ``digits``-significant-digit Decimal of a finite real ``value``."""
    return rounded(value, digits).to_decimal()


def rounded(value: sp.Expr, digits: int) -> Rounded:
    """The correctly rounded ``digits``-significant-digit value of a finite real ``value``."""
    if not 1 <= digits <= MAX_DIGITS:
        raise PrecisionError(f"digits must be between 1 and {MAX_DIGITS}, got {digits}")
    value = sp.sympify(value)
    if value.is_Rational:
        return round_fraction(Fraction(int(value.p), int(value.q)), digits)
    if value.free_symbols:
        raise PrecisionError(f"cannot give digits of an expression with symbols: {_clip(value)}")
    target = math.ceil(digits / _LOG10_2) + _GUARD_BITS
    prec = target + magnitude_bits(value)
    most = max(MAX_WORKING_BITS, 8 * prec)
    while prec <= most:
        try:
            low, high = enclose(value, prec)
        except Undecided:
            prec *= 2
            continue
        except Unsupported:
            return _round_by_evalf(value, digits)
        except BeyondReach as exc:
            raise PrecisionError(f"value beyond reach: {exc}") from None
        if (result := round_interval(low, high, digits)) is not None:
            return result
        prec *= 2
    raise PrecisionError(f"cannot certify {digits} digits of {_clip(value)} (zero, or a rounding tie?)")


def round_interval(low: tuple, high: tuple, digits: int) -> Rounded | None:
    """The common rounding of every point of [low, high] (raw mpmath floats), or None.

    Rounding to n significant digits is monotone, so the ends agreeing settles every point.
    """
    if mpf_sign(low) * mpf_sign(high) <= 0:
        exactly_zero = mpf_sign(low) == 0 and mpf_sign(high) == 0
        return Rounded(0, 0, 0) if exactly_zero else None
    a, b = _round_float(low, digits), _round_float(high, digits)
    return a if a == b else None


def _round_float(x: tuple, digits: int) -> Rounded:
    """Round one raw mpmath float (an exact binary number) to ``digits`` digits."""
    sign, man, exp, bc = x
    if abs(exp) <= _EXACT_EXPONENT:
        exact = Fraction(int(man) << exp) if exp >= 0 else Fraction(int(man), 1 << -exp)
        return round_fraction(-exact if sign else exact, digits)
    if abs(exp).bit_length() > MAX_EXPONENT_BITS:
        raise PrecisionError("value beyond reach: its exponent has more than 3600 digits")
    return _round_huge(sign, int(man), int(exp), int(bc), digits)


def _round_huge(sign: int, man: int, exp: int, bc: int, digits: int) -> Rounded:
    """Round man * 2^exp for a huge |exp| by scaling with 10^k in interval arithmetic.

    An exact tie is impossible here: man * 2^exp * 10^k is a half-integer only when the powers
    of 2 and 5 cancel, which needs |exp| below the mantissa's size.
    """
    x = (0, man, exp, bc)
    # log10(x) lies within 1 of (exp + bc) log10(2); start there and correct by steps.
    wp = digits * 4 + exp.bit_length() + 64
    two, ten = (from_int(2), from_int(2)), (from_int(10), from_int(10))
    log10_2 = libmpi.mpi_div(libmpi.mpi_log(two, wp), libmpi.mpi_log(ten, wp), wp)
    estimate = libmpi.mpi_mul(log10_2, (from_int(exp + bc), from_int(exp + bc)), wp)
    e10 = _floor(estimate[0])
    low_bound, high_bound = 10 ** (digits - 1), 10**digits
    for _ in range(64):
        k = digits - 1 - e10
        # 10^k as exp(k ln 10): mpmath's integer power is slow for k near 10^300.
        wk = wp + k.bit_length()
        k_ln10 = libmpi.mpi_mul((from_int(k), from_int(k)), libmpi.mpi_log(ten, wk), wk)
        scaled = libmpi.mpi_mul((x, x), libmpi.mpi_exp(k_ln10, wp), wp)
        lo, hi = _fraction(scaled[0]), _fraction(scaled[1])
        if hi < low_bound:
            e10 -= 1
        elif lo >= high_bound:
            e10 += 1
        elif lo >= low_bound and hi < high_bound:
            a, b = _round_half_even(lo), _round_half_even(hi)
            if a == b:
                if a == high_bound:  # carried into a new leading digit
                    return Rounded(sign, a // 10, e10 - digits + 2)
                return Rounded(sign, a, e10 - digits + 1)
            wp *= 2
        else:
            wp *= 2
    raise PrecisionError("cannot round a value of this magnitude")  # pragma: no cover


def _floor(x: tuple) -> int:
    f = _fraction(x)
    return f.numerator // f.denominator


def _fraction(x: tuple) -> Fraction:
    sign, man, exp, _ = x
    f = Fraction(int(man) << exp) if exp >= 0 else Fraction(int(man), 1 << -exp)
    return -f if sign else f


def _round_by_evalf(value: sp.Expr, digits: int) -> Rounded:
    """For expressions the enclosure cannot read: SymPy's evalf with ``strict=True`` promises
    ``working`` correct digits; widen that by a factor of ten and check both ends agree."""
    working = digits + 10
    while working <= 4 * MAX_DIGITS:
        try:
            approx = value.evalf(working, strict=True)
        except sp.core.evalf.PrecisionExhausted:
            working *= 2
            continue
        if approx.is_Rational:
            return round_fraction(Fraction(int(approx.p), int(approx.q)), digits)
        if not approx.is_Float:
            raise PrecisionError(f"value is not a real number: {_clip(value)}")
        centre = approx._mpf_
        bits = math.floor((working - 2) / _LOG10_2)
        radius = (0, centre[1], centre[2] - bits, centre[3]) if centre[1] else centre
        wp = bits + 64
        low = libmpi.mpi_sub((centre, centre), (radius, radius), wp)[0]
        high = libmpi.mpi_add((centre, centre), (radius, radius), wp)[1]
        if mpf_sign(centre) and (result := round_interval(low, high, digits)) is not None:
            return result
        working *= 2
    raise PrecisionError(f"cannot certify {digits} digits of {_clip(value)} (zero, or a rounding tie?)")


def round_fraction(x: Fraction, digits: int) -> Rounded:
    """Round a rational to ``digits`` significant digits, ties to even, exactly."""
    if x == 0:
        return Rounded(0, 0, 0)
    sign = 1 if x < 0 else 0
    a = abs(x)
    e = _floor_log10(a)
    for _ in range(2):
        scaled = a * Fraction(10) ** (digits - 1 - e)
        n = _round_half_even(scaled)
        if n < 10**digits:
            break
        e += 1  # rounding carried into a new leading digit, e.g. 9.99 -> 10.0
    return Rounded(sign, n, e - digits + 1)


def _floor_log10(a: Fraction) -> int:
    e = math.floor((a.numerator.bit_length() - a.denominator.bit_length()) * _LOG10_2)
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


def _clip(value: sp.Expr, n: int = 60) -> str:
    text = sp.sstr(value)
    return text if len(text) <= n else text[: n - 3] + "..."


def _infinity(value: sp.Expr) -> str:
    if value == sp.S.NegativeInfinity:
        return "-inf"
    if value == sp.S.Infinity:
        return "inf"
    raise PrecisionError(f"value is not a finite real number: {_clip(value)}")
