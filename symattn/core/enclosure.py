"""Certified enclosures of exact real expressions, in mpmath's interval arithmetic.

``enclose(expr, prec)`` evaluates a SymPy expression built from rationals, ``pi``, ``E``,
``+``, ``*``, powers, ``exp``, ``log``, ``sqrt``, ``sin``, ``cos``, ``atan`` and ``Abs`` as an
interval ``(low, high)`` of raw mpmath floats at ``prec`` bits that is guaranteed to contain
the exact value: every operation rounds its lower end down and its upper end up
(``mpmath.libmp.libmpi``). Floats carry exponents of any size, so ``exp(5*10**299*sqrt(2))``
is enclosed in microseconds without ever forming an integer with 10^299 digits.

Nothing here decides how much precision is enough; :mod:`symattn.core.digits` widens ``prec``
until the interval is narrow enough for the digits asked for.
"""

from __future__ import annotations

from functools import lru_cache

import sympy as sp
from mpmath.libmp import (
    from_int,
    from_rational,
    libmpi,
    mpf_e,
    mpf_sign,
    round_ceiling,
    round_floor,
)

#: Largest size of an exponential's argument, in bits: exp(2^20000) has an exponent of 20000
#: bits, which mpmath handles; beyond that the working precision would run away.
MAX_EXP_ARGUMENT_BITS = 20_000

#: A raw interval: (lower, upper) raw mpmath floats.
Interval = tuple[tuple, tuple]


class Unsupported(Exception):
    """Raised for an expression this module cannot enclose (a symbol, an unknown function)."""


class BeyondReach(Exception):
    """Raised for an exponential whose argument exceeds 2^MAX_EXP_ARGUMENT_BITS in size: its
    value would need a binary exponent too long to hold (exp(exp(exp(100))), say)."""


class Undecided(Exception):
    """Raised when the interval at this precision is too wide to apply a function (the
    argument of ``log`` or ``sqrt`` not yet known to be positive): retry with more bits."""


def enclose(expr: sp.Expr, prec: int) -> Interval:
    """An interval of ``prec``-bit floats that certainly contains the real value of ``expr``."""
    return _enclose(sp.sympify(expr), int(prec))


def magnitude_bits(expr: sp.Expr) -> int:
    """Bits of the largest integer (numerator or denominator) in ``expr``.

    An exponent as large as 2^b needs about b extra bits for its exponential to keep its
    relative accuracy, so this is where the working precision starts.
    """
    bits = 1
    for atom in sp.sympify(expr).atoms(sp.Rational):
        bits = max(bits, int(atom.p).bit_length(), int(atom.q).bit_length())
    return bits


@lru_cache(maxsize=20_000)
def _enclose(x: sp.Expr, prec: int) -> Interval:
    if x.is_Integer:
        p = int(x)
        return from_int(p, prec, round_floor), from_int(p, prec, round_ceiling)
    if x.is_Rational:
        p, q = int(x.p), int(x.q)
        return from_rational(p, q, prec, round_floor), from_rational(p, q, prec, round_ceiling)
    if x.is_Float:
        return x._mpf_, x._mpf_  # a binary float is its own exact value
    if x is sp.pi:
        return libmpi.mpi_pi(prec)
    if x is sp.E:
        return mpf_e(prec, round_floor), mpf_e(prec, round_ceiling)
    if x.is_Add or x.is_Mul:
        combine = libmpi.mpi_add if x.is_Add else libmpi.mpi_mul
        args = [_enclose(a, prec) for a in x.args]
        total = args[0]
        for a in args[1:]:
            total = combine(total, a, prec)
        return total
    if x.is_Pow:
        return _power(x.base, x.exp, prec)
    if isinstance(x, sp.exp):
        arg = _enclose(x.args[0], prec)
        if max(_magnitude(arg[0]), _magnitude(arg[1])) > MAX_EXP_ARGUMENT_BITS:
            raise BeyondReach(f"exp of a number above 2^{MAX_EXP_ARGUMENT_BITS}")
        return libmpi.mpi_exp(arg, prec)
    if isinstance(x, sp.log):
        return libmpi.mpi_log(_positive(_enclose(x.args[0], prec), x), prec)
    if isinstance(x, sp.Abs):
        return libmpi.mpi_abs(_enclose(x.args[0], prec), prec)
    functions = {sp.sin: libmpi.mpi_sin, sp.cos: libmpi.mpi_cos, sp.atan: libmpi.mpi_atan}
    if type(x) in functions:
        return functions[type(x)](_enclose(x.args[0], prec), prec)
    raise Unsupported(type(x).__name__)


def _magnitude(f: tuple) -> int:
    _, man, exp, bc = f
    return int(exp) + int(bc) if man else 0


def _power(base: sp.Expr, exponent: sp.Expr, prec: int) -> Interval:
    b = _enclose(base, prec)
    if exponent.is_Integer:
        return libmpi.mpi_pow_int(b, int(exponent), prec)
    if exponent == sp.S.Half:
        return libmpi.mpi_sqrt(_nonnegative(b, base), prec)
    # b**e = exp(e log b) for b > 0, with guard bits for the product.
    log_b = libmpi.mpi_log(_positive(b, base), prec + 20)
    return libmpi.mpi_exp(libmpi.mpi_mul(log_b, _enclose(exponent, prec + 20), prec + 20), prec)


def _positive(i: Interval, what: sp.Expr) -> Interval:
    if mpf_sign(i[0]) <= 0:
        raise Undecided(f"cannot show {what} > 0")
    return i


def _nonnegative(i: Interval, what: sp.Expr) -> Interval:
    if mpf_sign(i[0]) < 0:
        raise Undecided(f"cannot show {what} >= 0")
    return i


__all__ = ["BeyondReach", "Interval", "Undecided", "Unsupported", "enclose", "magnitude_bits"]
