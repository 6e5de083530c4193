"""How large the numbers in an expression are, estimated from its tree and never computed.

A learner may write ``10^{10^{10}}``: ten billion digits, which SymPy computes digit by digit
as soon as an exact step (an expansion, a cancellation, a subtraction that orders terms) touches
it. Every such step first asks :func:`digits_beyond`. The estimate walks the tree once, in
machine floats (an overflow is infinity), and asks SymPy nothing (an assumption query on a
deeply nested number evaluates it, at a cost exponential in the nesting), so what is too costly
is decided by the expression, whatever the machine (issue 49).
"""

from __future__ import annotations

import math
from typing import Any

import sympy as sp

from ..limits import MAX_POWER_DIGITS

#: What a learner is told when such a power stops a check.
TOO_MANY_DIGITS = f"too costly to check: a power of more than {MAX_POWER_DIGITS:,} digits"


def digits_beyond(e: Any, digits: int = MAX_POWER_DIGITS) -> bool:
    """Whether a power of numbers in ``e`` (``b^x``, or ``e^x`` written as ``exp``) has more
    than ``digits`` digits, before or after the decimal point (``10^{-10^{10}}`` counts), or,
    for a fraction raised to a whole power, in its numerator or denominator."""
    if not isinstance(e, sp.Basic):
        return False
    seen: dict[sp.Basic, float | None] = {}
    for p in e.atoms(sp.Pow, sp.exp):
        base, exponent = (sp.E, p.args[0]) if isinstance(p, sp.exp) else p.args
        x, b = _approx(exponent, seen), _approx(base, seen)
        if x is None or b is None or b == 0 or (abs(b) == 1 and not isinstance(base, sp.Rational)):
            continue
        scale = abs(math.log10(abs(b))) if math.isfinite(b) else math.inf
        if isinstance(base, sp.Rational) and not isinstance(base, sp.Integer):
            scale = max(scale, math.log10(max(abs(int(base.p)), int(base.q))))
        if math.isnan(x) or abs(x) * scale > digits:
            return True
    return False


def _approx(x: sp.Basic, seen: dict[sp.Basic, float | None]) -> float | None:
    """``x`` as a machine float (infinite past its range; NaN where two infinities met), or None
    where it is not built of numbers by sums, products, powers and ``exp``. Each distinct
    subtree is evaluated once."""
    if x in seen:
        return seen[x]
    value: float | None
    try:
        if isinstance(x, sp.Integer):
            value = _float_of_int(int(x))
        elif isinstance(x, sp.Rational):
            value = _float_of_int(int(x.p)) / _float_of_int(int(x.q))
        elif isinstance(x, sp.Float):
            value = float(x) if x.is_finite else math.inf
        elif x is sp.E:
            value = math.e
        elif x is sp.pi:
            value = math.pi
        elif isinstance(x, (sp.Add, sp.Mul, sp.Pow, sp.exp)):
            args = [_approx(a, seen) for a in x.args]
            value = None if any(a is None for a in args) else _combine(x, args)  # type: ignore[arg-type]
        else:
            value = None
    except (OverflowError, ZeroDivisionError, ValueError):
        value = math.inf
    seen[x] = value
    return value


def _float_of_int(n: int) -> float:
    return float(n) if n.bit_length() < 1000 else math.copysign(math.inf, n)


def _combine(x: sp.Basic, args: list[float]) -> float:
    if isinstance(x, sp.Add):
        return math.fsum(args) if all(math.isfinite(a) for a in args) else sum(args)
    if isinstance(x, sp.Mul):
        return math.prod(args)
    if isinstance(x, sp.exp):
        return math.exp(args[0]) if args[0] < 710 else math.inf
    base, exponent = args
    if base == 0 or abs(base) == 1 or (not math.isfinite(exponent) and abs(base) < 1):
        return 0.0 if base == 0 or abs(base) < 1 else base
    if not math.isfinite(base) or not math.isfinite(exponent):
        return math.inf if exponent > 0 else 0.0
    size = exponent * math.log10(abs(base))
    return math.inf if size > 300 else (0.0 if size < -300 else abs(base) ** exponent)


def nesting(e: Any) -> int:
    """The depth of ``e``'s tree (an atom is 0), each distinct subtree measured once. SymPy's
    numeric evaluation of an unevaluated tree can revisit a subtree once per path to it, so its
    cost may double with each level: a printer that orders terms by their values evaluates them
    (symattn.grading.plain_math prints deep trees as written instead)."""
    if not isinstance(e, sp.Basic):
        return 0
    depth: dict[sp.Basic, int] = {}
    stack: list[tuple[sp.Basic, bool]] = [(e, False)]
    while stack:  # iterative, after the children: a learner's nesting never meets Python's recursion limit
        node, done = stack.pop()
        if node in depth:
            continue
        if done or not node.args:
            depth[node] = 1 + max((depth[a] for a in node.args), default=-1)
            continue
        stack.append((node, True))
        stack.extend((a, False) for a in node.args if a not in depth)
    return depth[e]
