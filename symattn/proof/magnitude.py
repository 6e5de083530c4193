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

from ..limits import MAX_EXPANDED_TERMS, MAX_POWER_DIGITS, TOO_MANY_DIGITS

#: What a learner is told when such a number (:data:`TOO_MANY_DIGITS`) or expansion stops a check.
TOO_MANY_TERMS = f"too costly to check: multiplied out, it has more than {MAX_EXPANDED_TERMS:,} terms"


def too_costly(e: Any) -> str | None:
    """Why exact work on ``e`` is refused (:data:`TOO_MANY_DIGITS`, :data:`TOO_MANY_TERMS`), or
    None: what every exact step asks before it expands, cancels or subtracts."""
    if digits_beyond(e):
        return TOO_MANY_DIGITS
    if expanded_terms(e, MAX_EXPANDED_TERMS) > MAX_EXPANDED_TERMS:
        return TOO_MANY_TERMS
    return None


def digits_beyond(e: Any, digits: int = MAX_POWER_DIGITS) -> bool:
    """Whether a number in ``e`` has more than ``digits`` digits, before or after the decimal
    point (``10^{-10^{10}}`` counts): a power of numbers (``b^x``, or ``e^x`` written as
    ``exp``; for a fraction raised to a whole power, its numerator or denominator), a product
    of numbers (``\\prod_{k=1}^{100} (10^{39} + k)``, written out), or a number SymPy has
    already worked out (from ``1e999999``)."""
    if not isinstance(e, sp.Basic):
        return False
    seen: dict[sp.Basic, float | None] = {}
    logs: dict[sp.Basic, float | None] = {}
    for r in e.atoms(sp.Rational):
        if max(int(r.p).bit_length(), int(r.q).bit_length()) * math.log10(2) > digits + 1:
            return True
    for m in e.atoms(sp.Mul):
        size = _log10(m, logs, seen)
        if size is not None and math.isfinite(size) and abs(size) > digits:
            return True
    for p in e.atoms(sp.Pow, sp.exp):
        base, exponent = (sp.E, p.args[0]) if isinstance(p, sp.exp) else p.args
        x, b = _approx(exponent, seen), _approx(base, seen)
        if x is None or b is None or (abs(b) == 1 and not isinstance(base, sp.Rational)):
            continue
        if b != 0 and math.isfinite(b):
            scale = abs(math.log10(abs(b)))
        else:  # past a float's range either way: its size from the logarithms of its parts
            size = _log10(base, logs, seen)
            if size == -math.inf:
                continue  # exactly 0
            scale = math.inf if size is None else abs(size)
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


def _log10(
    x: sp.Basic, seen: dict[sp.Basic, float | None], floats: dict[sp.Basic, float | None]
) -> float | None:
    """log10 of ``|x|``: a float's where ``x`` is within a float's range, else at most (a sum
    is taken as large as its largest term allows, without cancellation) from its parts' sizes:
    the square root of a 9,542-digit number has 4,771 digits, not infinitely many. -inf for 0;
    None where it is not built of numbers. ``floats``: :func:`_approx`'s memo."""
    if x in seen:
        return seen[x]
    value: float | None
    close = _approx(x, floats)
    if close is not None and math.isfinite(close) and close != 0:
        value = math.log10(abs(close))  # within a float's range: its own size
    elif isinstance(x, sp.Rational):
        value = _log10_int(int(x.p)) - _log10_int(int(x.q))
    elif x is sp.E or x is sp.pi or isinstance(x, sp.Float):
        value = math.log10(abs(float(x))) if x != 0 else -math.inf
    elif isinstance(x, (sp.Add, sp.Mul)):
        args = [_log10(a, seen, floats) for a in x.args]
        if any(a is None for a in args):
            value = None
        elif isinstance(x, sp.Add):
            value = max(args) + math.log10(len(args))  # type: ignore[type-var, operator]
        else:
            value = sum(args)  # type: ignore[arg-type]
    elif isinstance(x, (sp.Pow, sp.exp)):
        base, exponent = (sp.E, x.args[0]) if isinstance(x, sp.exp) else x.args
        size, power = _log10(base, seen, floats), _approx(exponent, floats)
        if size is None or power is None or math.isnan(power):
            value = None
        elif size == -math.inf or power == 0:
            value = -math.inf if size == -math.inf and power > 0 else 0.0
        else:
            value = None if math.isnan(size * power) else size * power  # inf x 0 is no size
    else:
        value = None
    seen[x] = value
    return value


def _log10_int(n: int) -> float:
    if n == 0:
        return -math.inf
    bits = abs(n).bit_length()
    if bits < 1000:
        return math.log10(abs(n))
    return math.log10(abs(n) >> (bits - 53)) + (bits - 53) * math.log10(2)


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


def expanded_terms(e: Any, cap: int = 10**9) -> int:
    """How many terms ``e`` multiplies out to at most, read off its tree: a sum's terms add, a
    product's multiply, a sum of t terms raised to a whole power n (or -n, its denominator
    expanded) has C(n + t - 1, t - 1), anything else one, with its arguments multiplied out on
    their own (the largest counts). What :func:`sympy.expand` would build, counted before any
    work (``(1 + \\sqrt{2})^{26000}`` is 26,001 terms, the binomial theorem's, however few
    remain); counts past ``cap`` are ``cap + 1``. A matrix: the sum over its entries."""
    if isinstance(e, sp.MatrixBase):
        return min(cap + 1, sum(expanded_terms(x, cap) for x in e))
    if not isinstance(e, sp.Basic):
        return 1
    top: dict[sp.Basic, int] = {}  # a node's own terms
    most = 1  # the most terms anywhere, the node itself or one of its arguments
    stack: list[tuple[sp.Basic, bool]] = [(e, False)]
    while stack:
        node, done = stack.pop()
        if node in top:
            continue
        if not (done and node.args) and node.args:
            stack.append((node, True))
            stack.extend((a, False) for a in node.args if a not in top)
            continue
        terms, inner = _terms(node, [top[a] for a in node.args], cap)
        top[node] = terms
        most = min(cap + 1, max(most, terms, inner))
    return most


def _terms(node: sp.Basic, args: list[int], cap: int) -> tuple[int, int]:
    """(the node's own terms, the terms of the largest expansion it makes on the way)."""
    if isinstance(node, sp.Add):
        return min(cap + 1, sum(args)), 0
    if isinstance(node, sp.Mul):
        return min(cap + 1, math.prod(min(a, cap + 1) for a in args)), 0
    if isinstance(node, sp.Pow) and args[0] > 1:
        n = _whole(node.exp)
        if n is not None and abs(n) > 1:
            count = _multinomial(min(abs(n), 10**18), args[0], cap)
            return (count, 0) if n > 0 else (1, count)
    return 1, 0


def _whole(x: sp.Basic) -> int | None:
    """``x`` as a whole number if it is one built of numbers (``10^{30}`` written unevaluated
    too: expand raises to it as to the integer), else None."""
    if x.is_Integer:
        return int(x)
    value = _approx(x, {})
    if value is None or not math.isfinite(value) or value != round(value):
        return None if value is None or not math.isinf(value) else int(math.copysign(10**18, value))
    return int(value)


def _multinomial(n: int, t: int, cap: int) -> int:
    """C(n + t - 1, t - 1), the terms of (a_1 + ... + a_t)^n, or cap + 1 past cap."""
    k = min(n, t - 1)
    if math.lgamma(n + t) - math.lgamma(k + 1) - math.lgamma(n + t - k) > math.log(cap) + 1:
        return cap + 1
    return min(cap + 1, math.comb(n + t - 1, k))
