"""Certified enclosures of real numbers: mpmath interval arithmetic at 60 digits or more.

:func:`enclose` walks a SymPy expression (numbers, + and x, powers, exp, log, roots, |x|,
max/min, a few elementary functions, short concrete sums) and returns an interval that is
guaranteed to contain its value. Anything infinite, undefined or not real raises
:class:`NotFinite` with a learner's sentence; anything it cannot bound (symbols, unknown
functions) raises :class:`Uncertain`. SymPy's own automatic evaluation is not trusted here:
``\\sqrt{\\infty}`` stays ``sqrt(oo)`` in SymPy, and is refused here as infinite.

:func:`within` decides ``|a - e| <= tol`` with these enclosures. Exact equality (tolerance 0)
needs both an exact SymPy proof and an enclosure of the difference narrower than 10^-50.
The interval context is private to this module: mpmath's global precision is never changed.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import mpmath
import sympy as sp
from mpmath.ctx_iv import MPIntervalContext

#: Digits of the first evaluation; a close call is repeated at HIGH_DPS.
DPS = 60
HIGH_DPS = 300
#: exp(x) with x beyond this is bounded, not computed (its exact size does not matter here).
_EXP_CAP = 10**5

_CTX: dict[int, MPIntervalContext] = {}


class NotFinite(ArithmeticError):
    """The value is infinite, undefined or not a real number (the message says which)."""


class Uncertain(ArithmeticError):
    """The value cannot be bounded (a symbol, an unknown function, an unsupported form)."""


def context(dps: int = DPS) -> MPIntervalContext:
    if dps not in _CTX:
        ctx = MPIntervalContext()
        ctx.dps = dps
        _CTX[dps] = ctx
    return _CTX[dps]


def enclose(expr: Any, dps: int = DPS) -> Any:
    """An mpmath interval certainly containing the real value of ``expr``."""
    ctx = context(dps)
    value = _walk(sp.sympify(expr), ctx, 0)
    _finite(value)
    return value


def _finite(x: Any) -> None:
    """Refuse NaN ends; one infinite end is a finite value too large to compute (exp capped)."""
    if mpmath.isnan(x.a) or mpmath.isnan(x.b):
        raise NotFinite("the answer is not a finite number: it is undefined")
    if mpmath.isinf(x.a) and mpmath.isinf(x.b):
        raise NotFinite("the answer is not a finite number")


_ONE_ARG = {sp.sin: "sin", sp.cos: "cos"}


def _walk(e: sp.Basic, ctx: MPIntervalContext, depth: int) -> Any:
    if depth > 200:
        raise Uncertain("nested too deeply")
    if e in (sp.S.Infinity, sp.S.NegativeInfinity, sp.S.ComplexInfinity):
        raise NotFinite("the answer is not a finite number: it involves infinity")
    if e is sp.S.NaN:
        raise NotFinite("the answer is not a finite number: it is undefined")
    if e is sp.S.ImaginaryUnit:
        raise NotFinite("the answer is not a real number")
    if e.is_Integer:
        return ctx.mpf(int(e))
    if e.is_Rational:
        return ctx.mpf(int(e.p)) / int(e.q)
    if e.is_Float:
        return ctx.mpf(mpmath.mpf(e._mpf_))
    if e is sp.S.Exp1:
        return ctx.e
    if e is sp.S.Pi:
        return ctx.pi
    if e.free_symbols:
        raise Uncertain("the answer contains symbols")
    args = e.args
    if isinstance(e, sp.Add):
        total = ctx.mpf(0)
        for a in args:
            total += _walk(a, ctx, depth + 1)
        return _checked(total)
    if isinstance(e, sp.Mul):
        total = ctx.mpf(1)
        for a in args:
            total *= _walk(a, ctx, depth + 1)
        return _checked(total)
    if isinstance(e, sp.Pow):
        return _power(args[0], args[1], ctx, depth)
    if isinstance(e, sp.exp):
        return _exp(_walk(args[0], ctx, depth + 1), ctx)
    if isinstance(e, sp.log):
        x = _log(_walk(args[0], ctx, depth + 1), ctx)
        if len(args) == 2:
            x = x / _nonzero(_log(_walk(args[1], ctx, depth + 1), ctx))
        return x
    if isinstance(e, sp.Abs):
        return abs(_walk(args[0], ctx, depth + 1))
    if isinstance(e, (sp.Max, sp.Min)):
        xs = [_walk(a, ctx, depth + 1) for a in args]
        pick = max if isinstance(e, sp.Max) else min
        return ctx.mpf([pick(x.a for x in xs), pick(x.b for x in xs)])
    if isinstance(e, (sp.floor, sp.ceiling)):
        x = _walk(args[0], ctx, depth + 1)
        f = mpmath.floor if isinstance(e, sp.floor) else mpmath.ceil
        low, high = f(x.a), f(x.b)
        if low != high:
            raise Uncertain("cannot decide which whole number this is")
        return ctx.mpf(low)
    if isinstance(e, (sp.Sum, sp.Product)) and not e.free_symbols:
        return _walk(e.doit(), ctx, depth + 1)
    for func, name in _ONE_ARG.items():
        if isinstance(e, func):
            return _checked(getattr(ctx, name)(_walk(args[0], ctx, depth + 1)))
    if isinstance(e, sp.tan):
        x = _walk(args[0], ctx, depth + 1)
        c = ctx.cos(x)
        return _checked(ctx.sin(x) / _nonzero(c))
    if isinstance(e, sp.core.function.AppliedUndef):
        raise Uncertain(f"the function {e.func} is not known here")
    raise Uncertain(f"cannot evaluate {type(e).__name__}")


def _checked(x: Any) -> Any:
    if mpmath.isnan(x.a) or mpmath.isnan(x.b):
        raise NotFinite("the answer is not a finite number: it is undefined")
    return x


def _nonzero(x: Any) -> Any:
    if x.a <= 0 <= x.b:
        if x.a == 0 and x.b == 0:
            raise NotFinite("the answer is not a finite number: it divides by zero")
        raise Uncertain("cannot bound a division by a number this close to zero")
    return x


def _exp(x: Any, ctx: MPIntervalContext) -> Any:
    if x.b > _EXP_CAP:
        low = ctx.exp(ctx.mpf(min(x.a, _EXP_CAP))).a if x.a > -_EXP_CAP else 0
        return ctx.mpf([low, mpmath.inf])  # finite but astronomically large: bounded, not computed
    if x.a < -_EXP_CAP:
        return ctx.mpf([0, ctx.exp(ctx.mpf(x.b)).b])
    return ctx.exp(x)


def _log(x: Any, ctx: MPIntervalContext) -> Any:
    if x.b <= 0:
        if x.b == 0 and x.a == 0:
            raise NotFinite("the answer is not a finite number: the logarithm of 0")
        raise NotFinite("the answer is not a real number: the logarithm of a negative number")
    if x.a <= 0:
        raise Uncertain("cannot bound the logarithm of a number this close to zero")
    return ctx.log(x)


def _power(base: sp.Expr, exponent: sp.Expr, ctx: MPIntervalContext, depth: int) -> Any:
    b = _walk(base, ctx, depth + 1)
    if exponent.is_Integer and abs(int(exponent)) <= 10**6:
        return _power_int(b, int(exponent))
    x = _walk(exponent, ctx, depth + 1)
    exact = _small_fraction(exponent)
    if exact is not None:  # an unevaluated exponent such as 1/3 written \frac{1}{3}
        exponent = sp.Rational(exact.numerator, exact.denominator)
        if exponent.is_Integer and abs(int(exponent)) <= 10**6:
            return _power_int(b, int(exponent))
    if exponent.is_Integer and b.b < 0:  # a huge whole power of a negative number
        size = _exp_power(-b, x, ctx)
        return size if int(exponent) % 2 == 0 else -size
    # an odd root of a negative number is real, as a course reads it: (-8)^(1/3) = -2
    if exponent.is_Rational and exponent.q % 2 == 1 and b.b < 0 and b.a == b.b and exponent.q <= 1000:
        root = -(_exp(_log(-b, ctx) / exponent.q, ctx))
        if abs(exponent.p) <= 10**6:
            return _checked(root ** int(exponent.p))
    if b.a > 0:
        return _exp_power(b, x, ctx)
    if b.a == 0 and b.b == 0:
        if x.a > 0:
            return ctx.mpf(0)
        raise NotFinite("the answer is not a finite number: 0 to a power that is not positive")
    if b.b < 0:
        raise NotFinite("the answer is not a real number: a root of a negative number")
    raise Uncertain("cannot bound a power of a number this close to zero")


def _power_int(b: Any, n: int) -> Any:
    if n < 0:
        return _checked(1 / (_nonzero(b) ** (-n)))
    return _checked(b**n)


def _small_fraction(e: sp.Basic, depth: int = 0) -> Fraction | None:
    """The exact value of a small rational expression (1/3, 2 - 1/2), or None."""
    if depth > 20:
        return None
    if e.is_Rational:
        f = Fraction(int(e.p), int(e.q))
    elif isinstance(e, (sp.Add, sp.Mul)):
        parts = [_small_fraction(a, depth + 1) for a in e.args]
        if any(p is None for p in parts):
            return None
        f = Fraction(0) if isinstance(e, sp.Add) else Fraction(1)
        for p in parts:
            f = f + p if isinstance(e, sp.Add) else f * p
    elif isinstance(e, sp.Pow) and e.exp.is_Integer and abs(int(e.exp)) <= 64:
        base = _small_fraction(e.base, depth + 1)
        if base is None or (base == 0 and int(e.exp) < 0):
            return None
        f = base ** int(e.exp)
    else:
        return None
    if f.numerator.bit_length() > 4096 or f.denominator.bit_length() > 4096:
        return None
    return f


def _exp_power(b: Any, x: Any, ctx: MPIntervalContext) -> Any:
    return _exp(x * ctx.log(b), ctx)


# -- comparisons ------------------------------------------------------------------------------
def within(a: Any, e: Any, tol: sp.Rational) -> bool | None:
    """Whether ``|a - e| <= tol``, certified: True, False, or None when it cannot be decided.

    Raises :class:`NotFinite` for an infinite, undefined or complex ``a``.
    """
    a, e = sp.sympify(a), sp.sympify(e)
    tol = sp.Rational(tol)
    if a.is_Rational and e.is_Rational:
        ok = abs(Fraction(int(a.p), int(a.q)) - Fraction(int(e.p), int(e.q))) <= Fraction(
            int(tol.p), int(tol.q)
        )
        # the certified evaluation must not contradict exact arithmetic
        gap, t = abs(enclose(a) - enclose(e)), _interval(tol, DPS)
        if (ok and gap.a > t.b) or (not ok and gap.b < t.a):
            return None
        return ok
    for dps in (DPS, HIGH_DPS):
        gap = abs(enclose(a, dps) - enclose(e, dps))
        if tol == 0:
            if gap.a > 0:
                return False
            if gap.b < mpmath.mpf(10) ** -50 and _proved_zero(a - e):
                return True
            continue
        t = _interval(tol, dps)
        if gap.b <= t.a:
            return True
        if gap.a > t.b:
            return False
    if tol != 0 and (_proved_zero(a - e - tol) or _proved_zero(a - e + tol)):
        return True  # exactly on the boundary: |a - e| <= tol holds
    return None


def _interval(q: sp.Rational, dps: int) -> Any:
    return context(dps).mpf(int(q.p)) / int(q.q)


def _proved_zero(d: sp.Expr) -> bool:
    from .equivalence import prove_zero

    return prove_zero(d) is not None


def sign(x: Any) -> int | None:
    """+1, -1 or 0 for an exact zero interval; None if the interval contains 0 and more."""
    if x.a > 0:
        return 1
    if x.b < 0:
        return -1
    if x.a == 0 and x.b == 0:
        return 0
    return None
