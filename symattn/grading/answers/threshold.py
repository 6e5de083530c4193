"""Judging a threshold ``N > c``: the set of positive integers an answer describes, exactly.

An inequality is solved exactly (polynomial and rational inequalities of degree at most
MAX_DEGREE) into ranges of positive integers, compared with the expected set and confirmed by
certified evaluation at witness points. The number c alone, or a chain of equal values
(``2 d_{model} = 8192``), is judged as a number.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import sympy as sp

from ...limits import MAX_POWER_DIGITS
from ...proof.certify import NotFinite, Uncertain, enclose, sign
from ...proof.magnitude import TOO_MANY_DIGITS, digits_beyond, too_costly
from .notation import Chain
from .values import check_number, close, values_of
from .verdicts import INF, INFINITIES, Expected, Mistake, Refusal, Verdict

#: Highest degree of a polynomial inequality solved exactly.
MAX_DEGREE = 8
#: Most digits of an inequality's bound (the parts free of its variable).
MAX_BOUND_DIGITS = 100


@dataclass(frozen=True)
class _Set:
    """Positive integers as sorted disjoint ranges [lo, hi]; hi None means unbounded."""

    ranges: tuple[tuple[int, int | None], ...]

    def __and__(self, other: _Set) -> _Set:
        out = []
        for a, b in self.ranges:
            for c, d in other.ranges:
                lo = max(a, c)
                hi = b if d is None else (d if b is None else min(b, d))
                if hi is None or lo <= hi:
                    out.append((lo, hi))
        return _Set(tuple(sorted(out)))

    def describe(self, var: str) -> str:
        if not self.ranges:
            return f"no positive integer {var}"
        parts = []
        for lo, hi in self.ranges[:3]:
            parts.append(
                f"{var} >= {lo}"
                if hi is None
                else (f"{var} = {lo}" if lo == hi else f"{lo} <= {var} <= {hi}")
            )
        return " or ".join(parts) + (" or ..." if len(self.ranges) > 3 else "")


_ALL = _Set(((1, None),))


def judge_threshold(
    chain: Chain, sides: list[Any], expected: Expected, mistakes: tuple[Mistake, ...]
) -> Verdict:
    var_names = {expected.variable, expected.variable.lower()}
    if len(chain.relations) == 1 and sides[0] is None and chain.relations[0] in ("<", "<=", ">", ">="):
        # "> 8192", "more than 8192 tokens": the relation's subject is the exercise's variable
        sides = [sp.Symbol(expected.variable), *sides[1:]]
    has_var = [isinstance(s, sp.Basic) and any(str(x) in var_names for x in s.free_symbols) for s in sides]
    if not any(has_var):
        return _threshold_as_number(chain, sides, expected, mistakes)
    sides = _with_constants(sides, expected, has_var)
    symbols = set().union(*(s.free_symbols for s in sides if isinstance(s, sp.Basic)))
    var = next(s for s in symbols if str(s) in var_names)
    others = symbols - {var}
    if others:
        names = ", ".join(sorted(str(s) for s in others))
        if any(str(s) in dict(expected.constants) for s in others):
            raise Refusal(
                "symbolic",
                f"give the number: with {_constants_text(expected)} the threshold is a number",
            )
        raise Refusal("symbolic", f"expected an inequality in {expected.variable} alone, not in {names}")
    answer = _ALL
    var_rels = []
    for i, rel in enumerate(chain.relations):
        left, right = sides[i], sides[i + 1]
        if left is None or right is None:
            raise Refusal("form", "a relation needs something on each side", "invalid")
        if isinstance(left, sp.MatrixBase) or isinstance(right, sp.MatrixBase):
            raise Refusal("shape", "expected an inequality or a number, not a matrix")
        if not (has_var[i] or has_var[i + 1]):
            _numeric_claim(left, rel, right)
            continue
        if rel not in ("<", ">", "<=", ">="):
            raise Refusal(*_relation_reason(rel, expected))
        var_rels.append((left, rel, right))
        answer = answer & _solve(left, rel, right, var)
    if not var_rels:
        raise Refusal("form", f"write the threshold as {expected.variable} > number, or the number")
    target = _threshold_set(expected.value)
    if answer == target:
        _confirm(var_rels, var, target)
        return Verdict("correct", feedback="correct", extra={"relations": var_rels, "variable": var})
    for m in mistakes:
        if _threshold_set(m.value) == answer:
            raise Refusal(m.code, m.feedback)
    raise Refusal(*_set_reason(answer, target, expected))


def _threshold_as_number(
    chain: Chain, sides: list[Any], expected: Expected, mistakes: tuple[Mistake, ...]
) -> Verdict:
    """The number c for N > c, possibly in a chain of equal values (2 d_{model} = 8192)."""
    if any(r not in ("=", "~") for r in chain.relations):
        symbols = set().union(*(x.free_symbols for x in sides if isinstance(x, sp.Basic)))
        symbols -= {sp.Symbol(n) for n, _ in expected.constants}
        if len(symbols) == 1:
            name = next(iter(symbols))
            raise Refusal("variable", f"the threshold is on {expected.variable}, not {name}")
        raise Refusal("form", f"write the threshold as {expected.variable} > number, or the number")
    if "~" in chain.relations:
        raise Refusal("approximate", "the threshold is an exact number: write it without \\approx")
    values = values_of(chain, sides)
    constants = {sp.Symbol(n): v for n, v in expected.constants}
    plain = [v for v in values if not (isinstance(v, sp.Basic) and v.free_symbols & set(constants))]
    if not plain:
        raise Refusal(
            "symbolic", f"give the number: with {_constants_text(expected)} the threshold is a number"
        )
    for v in values:
        check_number(v.xreplace(constants) if isinstance(v, sp.Basic) else v, expected, mistakes)
    return Verdict("correct", feedback="correct", extra={"value": plain[0]})


def _with_constants(sides: list[Any], expected: Expected, has_var: list[bool]) -> list[Any]:
    """Replace d_{model} by its value when some side states a plain number."""
    constants = {sp.Symbol(n): v for n, v in expected.constants}
    plain = any(
        isinstance(s, sp.Expr) and not has and not s.free_symbols and not s.has(*INFINITIES)
        for s, has in zip(sides, has_var, strict=True)
    )
    if not plain or not constants:
        return sides
    return [s.xreplace(constants) if isinstance(s, sp.Basic) else s for s in sides]


def _constants_text(expected: Expected) -> str:
    seen = {}
    for name, v in expected.constants:
        seen.setdefault(v, name)
    return ", ".join(f"{name} = {v}" for v, name in seen.items())


def _numeric_claim(left: Any, rel: str, right: Any) -> None:
    """A relation between two numbers in a chain must be true (certified)."""
    if left in (INF, -INF) or right in (INF, -INF):
        truth = {
            "<": left != right and (left == -INF or right == INF),
            ">": left != right and (left == INF or right == -INF),
        }.get(rel.rstrip("="), False)
        if not truth:
            raise Refusal("false-step", "a step of this chain is false")
        return
    if (isinstance(left, sp.Basic) and left.free_symbols) or (
        isinstance(right, sp.Basic) and right.free_symbols
    ):
        raise Refusal("symbolic", "a step of this chain has symbols other than the threshold's")
    if rel in ("=", "~", "equiv"):
        ok = close(left, right, sp.S.Zero)
    elif rel == "!=":
        ok = close(left, right, sp.S.Zero) is False
    else:
        s = sign(enclose(sp.Add(left, -right, evaluate=False)))
        ok = None if s is None else {"<": s < 0, ">": s > 0, "<=": s <= 0, ">=": s >= 0}[rel]
    if ok is None:
        raise Refusal("undecided", "a step of this chain could not be checked", "invalid")
    if not ok:
        raise Refusal("false-step", "a step of this chain is false")


def _relation_reason(rel: str, expected: Expected) -> tuple[str, str]:
    v = expected.variable
    return {
        "=": (
            "equality",
            f"{v} = ... names one length; the quadratic term is larger for every {v} beyond "
            f"the threshold: write {v} > ...",
        ),
        "!=": (
            "not-equal",
            f"≠ describes every {v} except one value, not the lengths beyond a threshold: write {v} > ...",
        ),
        "~": ("approximate", f"≈ is not an inequality: write {v} > ..."),
        "equiv": ("equivalent", f"≡ is not an inequality: write {v} > ..."),
    }[rel]


def _set_reason(answer: _Set, target: _Set, expected: Expected) -> tuple[str, str]:
    v = expected.variable
    if answer.ranges and answer.ranges[-1][1] is not None and answer.ranges[0][0] == 1:
        return ("direction", f"the quadratic term wins for long sequences: {v} > ..., not {v} < ...")
    start = target.ranges[0][0]
    if len(answer.ranges) == 1 and answer.ranges[0] == (start - 1, None):
        return (
            "non-strict",
            "at the threshold the two terms are equal; the quadratic term overtakes only beyond it (use >)",
        )
    return ("", f"that describes {answer.describe(v)}: not the expected threshold")


def _threshold_set(c: Any) -> _Set:
    c = sp.Rational(c)
    return _Set(((max(1, int(sp.floor(c)) + 1), None),))


def _solve(left: sp.Expr, rel: str, right: sp.Expr, var: sp.Symbol) -> _Set:
    """The positive integers where ``left rel right`` holds, exactly.

    ``left - right`` must be a ratio of polynomials in ``var`` with rational coefficients of
    degree at most MAX_DEGREE. Its sign changes only at real roots of the numerator and the
    denominator; those are isolated in rational intervals of width 1/2, every integer next
    to one is tested exactly, and one integer of each gap between them stands for the gap.
    """
    if left in (INF, -INF) or right in (INF, -INF):
        return _against_infinity(left, rel, right, var)
    for side in (left, right):
        if isinstance(side, sp.Basic) and side.has(*INFINITIES):
            raise NotFinite("the bound is not a finite number")
    if digits_beyond(left) or digits_beyond(right):  # left - right would compute the power
        raise Refusal("form", TOO_MANY_DIGITS, "invalid")
    _polynomial_guard(left - right, var)
    reason = too_costly(left - right)  # past the degree, the terms it multiplies out to
    if reason:
        raise Refusal("form", reason, "invalid")
    difference = sp.expand(left - right)
    if difference.has(*INFINITIES):
        raise NotFinite("the bound is not a finite number")
    num, den = sp.fraction(sp.together(difference))
    try:
        p = sp.Poly(num, var, domain=sp.QQ)
        q = sp.Poly(den, var, domain=sp.QQ)
    except (sp.PolynomialError, sp.polys.polyerrors.CoercionFailed):
        raise Refusal(
            "form", f"only polynomial inequalities in {var} are judged: write it as {var} > number", "invalid"
        ) from None
    if max(p.degree(), q.degree()) > MAX_DEGREE:
        raise Refusal("form", f"too costly to check: an inequality of degree above {MAX_DEGREE}", "invalid")
    critical = {1}
    for poly in (p, q):
        if poly.degree() > 0:
            for (a, b), _ in poly.intervals(eps=sp.Rational(1, 2)):
                lo, hi = int(sp.floor(a)), int(sp.ceiling(b))
                critical.update(k for k in range(lo - 1, hi + 2) if k >= 1)
    points = sorted(critical)

    def truth(k: int) -> bool:
        qk = sp.Rational(q.eval(k))
        if qk == 0:
            return False  # undefined at k
        value = sp.Rational(p.eval(k)) / qk
        return bool({"<": value < 0, ">": value > 0, "<=": value <= 0, ">=": value >= 0}[rel])

    ranges: list[tuple[int, int | None]] = []
    for i, k in enumerate(points):
        _add(ranges, k, k, truth(k))
        nxt = points[i + 1] if i + 1 < len(points) else None
        if nxt is None:
            _add(ranges, k + 1, None, truth(k + 1))
        elif nxt > k + 1:
            _add(ranges, k + 1, nxt - 1, truth(k + 1))
    return _Set(tuple(ranges))


def _polynomial_guard(e: sp.Expr, var: sp.Symbol) -> None:
    """Refuse, before expanding anything, what is not a small polynomial or ratio of them.

    Parts free of ``var`` must be finite numbers of at most 100 digits (10^{10^{10}} is not
    expanded).
    """
    if not e.has(var):
        if e.is_Number:
            big = abs(e) > 10**MAX_BOUND_DIGITS  # a number worked out already: 10^{999}
        else:
            try:
                big = abs(enclose(e)).b > 10**MAX_BOUND_DIGITS
            except Uncertain:
                raise Refusal("symbolic", f"expected an inequality in {var} alone") from None
        if big:
            why = f"too costly to check: a bound of more than {MAX_BOUND_DIGITS} digits"
            raise Refusal("form", why, "invalid")
        return
    if e == var:
        return
    if isinstance(e, sp.Pow):
        if e.exp.has(var) or not e.exp.is_Integer:
            raise Refusal(
                "form",
                f"only polynomial inequalities in {var} are judged: write it as {var} > number",
                "invalid",
            )
        if abs(int(e.exp)) > MAX_DEGREE:
            raise Refusal(
                "form", f"too costly to check: an inequality of degree above {MAX_DEGREE}", "invalid"
            )
        _polynomial_guard(e.base, var)
        return
    if not isinstance(e, (sp.Add, sp.Mul)):
        raise Refusal(
            "form", f"only polynomial inequalities in {var} are judged: write it as {var} > number", "invalid"
        )
    for arg in e.args:
        _polynomial_guard(arg, var)


def _add(ranges: list[tuple[int, int | None]], lo: int, hi: int | None, keep: bool) -> None:
    if not keep:
        return
    if ranges and ranges[-1][1] is not None and ranges[-1][1] == lo - 1:
        ranges[-1] = (ranges[-1][0], hi)
    else:
        ranges.append((lo, hi))


def _against_infinity(left: Any, rel: str, right: Any, var: sp.Symbol) -> _Set:
    """``N < \\infty`` holds for every N; ``N > \\infty`` for none."""
    if left in (INF, -INF) and right in (INF, -INF):
        raise Refusal("form", "a relation between two infinities says nothing about N")
    inf, other, flipped = (right, left, False) if right in (INF, -INF) else (left, right, True)
    if other != var and not (isinstance(other, sp.Expr) and other.is_polynomial(var)):
        raise Refusal("form", f"compare {var} itself with infinity", "invalid")
    op = rel.rstrip("=")
    if flipped:
        op = {"<": ">", ">": "<"}[op]
    always = (op == "<" and inf == INF) or (op == ">" and inf == -INF)
    return _ALL if always else _Set(())


def _rational_sign(left: Any, right: Any) -> int | None:
    """The sign of left - right computed exactly where both are rational numbers, else None."""
    if any(not isinstance(x, sp.Expr) or x.has(*INFINITIES) for x in (left, right)):
        return None
    if any(
        _digits(a) > MAX_POWER_DIGITS for x in (left, right) for a in sp.preorder_traversal(x) if a.is_Pow
    ):
        return None  # 10^{-100} is exact in 101 digits; 10^{10^{10}} is not worked out
    gap = _evaluated(left - right)
    return None if not gap.is_Rational else int(gap.p > 0) - int(gap.p < 0)


def _evaluated(e: sp.Basic) -> sp.Basic:
    """``e`` rebuilt with SymPy's evaluation (a reader's unevaluated sqrt(67108864) is 8192);
    called only on expressions whose powers :func:`_digits` has bounded."""
    if not e.args:
        return e
    return e.func(*[_evaluated(a) for a in e.args])


def _digits(power: sp.Pow) -> float:
    """About how many digits ``power`` has when worked out exactly (infinite unless it is a
    rational, or such a power, to a rational power)."""
    base, exp = power.args
    if not exp.is_Rational:
        return float("inf")
    if base.is_Pow:
        inner = _digits(base)
    elif base.is_Rational and base != 0:
        size = max(abs(int(base.p)), abs(int(base.q)))
        inner = math.log10(size) if size > 1 else 0.0
    else:
        return float("inf")
    return inner * abs(float(exp))


def _confirm(relations: list[tuple[Any, str, Any]], var: sp.Symbol, target: _Set) -> None:
    """Confirm an exact 'same set' with certified 60-digit evaluation at witness points."""
    start = target.ranges[0][0]
    unconfirmed = Refusal("undecided", "this inequality could not be confirmed numerically", "invalid")
    for k in sorted({max(1, start - 1), start, start + 1, 2 * start, 1000 * start}):
        every = True
        for left, rel, right in relations:
            if left in (INF, -INF) or right in (INF, -INF):
                continue
            at = {var: sp.Integer(k)}
            try:
                gap = enclose(sp.Add(left.xreplace(at), -right.xreplace(at), evaluate=False))
            except NotFinite:
                every = False  # undefined at k
                continue
            s = sign(gap)
            if s is None:  # an interval about 0: exact when both sides are rational (8.192 \cdot 10^{3})
                s = _rational_sign(left.xreplace(at), right.xreplace(at))
            if s is None:
                raise unconfirmed
            every = every and {"<": s < 0, ">": s > 0, "<=": s <= 0, ">=": s >= 0}[rel]
        if every != (k >= start):
            raise unconfirmed
