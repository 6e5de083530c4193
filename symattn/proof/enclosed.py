"""Certified intervals for a side at a point (mpmath's interval arithmetic, sums carried out
term by term): the fast, sure way :func:`symattn.proof.equivalence.numeric_difference` compares
two sides before it falls back on SymPy's adaptive evaluation."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

import mpmath
import sympy as sp

if TYPE_CHECKING:
    from .equivalence import Point

class _NoEnclosure(Exception):
    """The interval evaluator does not handle this expression (or cannot decide a branch)."""


#: Most terms a sum may have for the interval evaluator; longer ones go to SymPy.
MAX_TERMS = 10_000
#: Working precision of the interval cross-check, in bits (about 77 decimal digits).
INTERVAL_BITS = 256
#: An interval wider than this (relative to the value's size) is not used: the slower adaptive
#: evaluation decides instead.
_WIDEST = 1e-55

_IV_FUNCTIONS: dict[type, str] = {sp.exp: "exp", sp.log: "log", sp.sin: "sin", sp.cos: "cos"}


def _iv_context() -> Any:
    from mpmath.ctx_iv import MPIntervalContext

    ctx = MPIntervalContext()
    ctx.prec = INTERVAL_BITS
    return ctx


_IV = _iv_context()


class _Enclosure:
    """Certified intervals for an expression at a point: sums carried out term by term.

    Summation indices are bound as Python integers; an Indexed entry not yet in the point gets
    a random rational, kept in the point so both sides of a step see the same value. A sum
    whose upper bound is below its lower bound is empty (0), the usual convention, not SymPy's
    (which gives sum_{k=a}^{b} = -sum_{k=b+1}^{a-1}): the cross-check does not share SymPy's
    convention, so a proof that leans on it is caught.
    """

    def __init__(self, point: Point, rng: random.Random) -> None:
        self.point, self.rng = point, rng
        self.scalars = {s: v for s, v in point.items() if isinstance(s, sp.Symbol)}
        self.entries: dict[tuple[sp.IndexedBase, tuple[int, ...]], Any] = {}

    def value(self, e: sp.Basic, env: dict[sp.Symbol, int]) -> Any:
        ctx = _IV
        if isinstance(e, sp.Integer):
            return ctx.mpf(int(e))
        if isinstance(e, sp.Rational):
            return ctx.mpf(int(e.p)) / int(e.q)
        if isinstance(e, sp.Symbol):
            if e in env:
                return ctx.mpf(env[e])
            if e in self.scalars:
                return self.value(sp.sympify(self.scalars[e]), {})
            raise _NoEnclosure(f"no value for {e}")
        if e is sp.pi:
            return ctx.pi
        if e is sp.E:
            return ctx.e
        if isinstance(e, sp.Indexed):
            return self.entry_value(e, env)
        if isinstance(e, sp.Add):
            total = ctx.mpf(0)
            for a in e.args:
                total += self.value(a, env)
            return total
        if isinstance(e, sp.Mul):
            prod = ctx.mpf(1)
            for a in e.args:
                prod *= self.value(a, env)
            return prod
        if isinstance(e, sp.Pow):
            return self.power(e, env)
        if isinstance(e, sp.KroneckerDelta):
            return ctx.mpf(1 if self.integer(e.args[0], env) == self.integer(e.args[1], env) else 0)
        if isinstance(e, (sp.Sum, sp.Product)):
            return self.iterate(e, env)
        if type(e) in _IV_FUNCTIONS and len(e.args) == 1:
            return getattr(ctx, _IV_FUNCTIONS[type(e)])(self.value(e.args[0], env))
        if isinstance(e, sp.Abs):
            return abs(self.value(e.args[0], env))
        if isinstance(e, sp.Piecewise):
            for expr, cond in e.args:
                if self.truth(cond, env):
                    return self.value(expr, env)
            raise _NoEnclosure("no branch of a Piecewise holds")
        raise _NoEnclosure(type(e).__name__)

    def power(self, e: sp.Pow, env: dict[sp.Symbol, int]) -> Any:
        base, exponent = e.args
        if exponent.is_Integer or (exponent.free_symbols and self.is_integer_valued(exponent, env)):
            n = self.integer(exponent, env)
            b = self.value(base, env)
            if n < 0 and 0 in b:
                raise _NoEnclosure("division by an interval holding 0")
            return b**n
        b = self.value(base, env)
        if not b.a > 0:
            raise _NoEnclosure("a fractional power of a base not known to be positive")
        if exponent == sp.S.Half:
            return _IV.sqrt(b)
        return _IV.exp(self.value(exponent, env) * _IV.log(b))

    def is_integer_valued(self, e: sp.Basic, env: dict[sp.Symbol, int]) -> bool:
        return all(
            s in env or (s in self.scalars and sp.sympify(self.scalars[s]).is_Integer) for s in e.free_symbols
        )

    def integer(self, e: sp.Basic, env: dict[sp.Symbol, int]) -> int:
        """An index or bound, exactly: an integer expression of bound and sampled integers."""
        if isinstance(e, sp.Integer):
            return int(e)
        if isinstance(e, sp.Symbol):
            v = env.get(e, self.scalars.get(e))
            if v is None or not sp.sympify(v).is_Integer:
                raise _NoEnclosure(f"{e} is not an integer here")
            return int(v)
        if isinstance(e, sp.Add):
            return sum(self.integer(a, env) for a in e.args)
        if isinstance(e, sp.Mul):
            out = 1
            for a in e.args:
                out *= self.integer(a, env)
            return out
        if isinstance(e, sp.Pow) and e.exp.is_Integer and 0 <= e.exp <= 64:
            return self.integer(e.base, env) ** int(e.exp)
        raise _NoEnclosure(f"cannot take {e} as an integer")

    def entry_value(self, e: sp.Indexed, env: dict[sp.Symbol, int]) -> Any:
        """The interval of an entry at integer indices, worked out once per entry (a sum
        over i and j meets the same entry many times; building its Indexed costs more than
        the arithmetic)."""
        at = (e.base, tuple(self.integer(i, env) for i in e.indices))
        if at not in self.entries:
            key = sp.Indexed(e.base, *at[1])
            if key not in self.point:
                low = 1 if key.is_positive else -30
                self.point[key] = sp.Rational(self.rng.randint(low, 30), 10)
            self.entries[at] = self.value(sp.sympify(self.point[key]), {})
        return self.entries[at]

    def iterate(self, e: sp.Sum | sp.Product, env: dict[sp.Symbol, int]) -> Any:
        total = _IV.mpf(0 if isinstance(e, sp.Sum) else 1)
        envs = [dict(env)]
        # SymPy lists the innermost limit first, and an inner limit's bounds may name an outer
        # variable: bind the outermost first. An outer bound naming an inner variable refers
        # to the free symbol of that name, as in SymPy.
        for var, lo, hi in reversed(e.limits):
            envs = [{**x, var: k} for x in envs for k in range(self.integer(lo, x), self.integer(hi, x) + 1)]
            if len(envs) > MAX_TERMS:
                raise _NoEnclosure(f"more than {MAX_TERMS} terms")
        for x in envs:
            v = self.value(e.function, x)
            total = total + v if isinstance(e, sp.Sum) else total * v
        return total

    def truth(self, cond: sp.Basic, env: dict[sp.Symbol, int]) -> bool:
        if cond is sp.true:
            return True
        if cond is sp.false:
            return False
        if isinstance(cond, sp.And):
            return all(self.truth(c, env) for c in cond.args)
        if isinstance(cond, sp.Or):
            return any(self.truth(c, env) for c in cond.args)
        if isinstance(cond, sp.Not):
            return not self.truth(cond.args[0], env)
        if isinstance(cond, sp.core.relational.Relational):
            diff = self.value(cond.lhs, env) - self.value(cond.rhs, env)
            ops = {
                "<": (diff.b < 0, diff.a >= 0),
                "<=": (diff.b <= 0, diff.a > 0),
                ">": (diff.a > 0, diff.b <= 0),
                ">=": (diff.a >= 0, diff.b < 0),
                "==": (diff.a == 0 and diff.b == 0, diff.a > 0 or diff.b < 0),
                "!=": (diff.a > 0 or diff.b < 0, diff.a == 0 and diff.b == 0),
            }
            yes, no = ops.get(cond.rel_op, (False, False))
            if yes or no:
                return bool(yes)
        raise _NoEnclosure(f"cannot decide {cond}")


def _enclosed_error(lhs: Any, rhs: Any, point: Point, rng: random.Random) -> tuple[float, Any, Any] | None:
    """Certified |lhs - rhs| / max(1, |lhs|, |rhs|) at ``point`` by interval arithmetic.

    Returns an upper bound of the relative difference with the two values, or None when
    either side is outside what the interval evaluator handles or its interval is too wide
    to decide (then the adaptive SymPy evaluation is used).
    """
    if isinstance(lhs, sp.MatrixBase) and isinstance(rhs, sp.MatrixBase):
        if lhs.shape != rhs.shape:
            return None
        worst: tuple[float, Any, Any] = (0.0, sp.S.Zero, sp.S.Zero)
        for x, y in zip(lhs, rhs, strict=True):
            entry = _enclosed_error(x, y, point, rng)
            if entry is None:
                return None
            worst = max(worst, entry, key=lambda e: e[0])
        return worst
    a_expr, b_expr = sp.sympify(lhs), sp.sympify(rhs)
    if any(isinstance(x, (sp.MatrixExpr, sp.MatrixBase)) for x in (a_expr, b_expr)):
        return None
    walker = _Enclosure(point, rng)
    try:
        a, b = walker.value(a_expr, {}), walker.value(b_expr, {})
    except Exception:  # _NoEnclosure, or mpmath's own errors (no convergence, say): let SymPy try
        return None
    (a_lo, a_hi), (b_lo, b_hi) = _ends(a), _ends(b)
    if any(mpmath.isnan(x) or mpmath.isinf(x) for x in (a_lo, a_hi, b_lo, b_hi)):
        return None
    # A lower bound of the size, so that the error below is an upper bound.
    scale = max(mpmath.mpf(1), _ends(abs(a))[0], _ends(abs(b))[0])
    if (a_hi - a_lo) / scale > _WIDEST or (b_hi - b_lo) / scale > _WIDEST:
        return None  # too wide to decide
    diff_hi = _ends(abs(a - b))[1]
    # Either end is within the interval's width (< 1e-55 relative) of the value.
    return float(diff_hi / scale), sp.Float(a_lo, 60), sp.Float(b_lo, 60)


def _ends(x: Any) -> tuple[mpmath.mpf, mpmath.mpf]:
    """The two ends of an interval as mpmath floats, exactly."""
    lo, hi = x._mpi_
    with mpmath.workprec(INTERVAL_BITS):  # made at full precision (they keep it afterwards)
        return mpmath.mpf(lo), mpmath.mpf(hi)
