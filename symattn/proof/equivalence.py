"""Deciding whether two expressions are equal: exactly when SymPy can, numerically otherwise.

``prove_zero`` tries a ladder of SymPy normal forms on a difference and names the one that
reached 0. A claim of zero is never trusted alone (SymPy has returned wrong simplifications;
see the project notes): callers cross-check every exact claim at random points with
``numeric_difference``.

Random points are exact rationals, so that numeric evaluation is itself high precision.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

import sympy as sp
from sympy.concrete.delta import deltasummation
from sympy.stats.rv import RandomSymbol

from ..core.nodes import carry_out
from .enclosed import _enclosed_error
from .magnitude import too_costly

Point = dict[sp.Basic, sp.Expr]


#: The ranges of the indices (index -> (low, high)) that the derivation being verified declares
#: and shows (``Derivation.ranges``). While set, a Kronecker delta is summed out only where its
#: index provably lies in the sum's range (:func:`in_range`); unset (None), as for a learner's
#: proof, the index is assumed to lie in it.
Ranges = Mapping[sp.Symbol, tuple[Any, Any]]
INDEX_RANGES: ContextVar[Ranges | None] = ContextVar("INDEX_RANGES", default=None)


def canonical(e: Any) -> Any:
    """Normalise ``e``: carry out derivatives and limits, remove Kronecker deltas from sums.

    Sums over a symbolic bound are kept (their ``doit`` can bring in Piecewise forms). A delta
    summed out keeps its condition (its index in the sum's range) unless :data:`INDEX_RANGES`
    proves it; with no ranges set, ``deltasummation(..., no_piecewise=True)`` assumes it.
    """
    if isinstance(e, sp.MatrixBase):
        return e.applyfunc(canonical)
    e = sp.sympify(e)
    # A product of exponentials is the exponential of the sum: prod_i e^{f_i} = e^{sum_i f_i}.
    e = e.replace(
        lambda x: isinstance(x, sp.Product) and isinstance(x.function, sp.exp),
        lambda x: sp.exp(sp.Sum(x.function.args[0], *x.limits)),
    )
    if not e.has(sp.Sum):
        return e.doit()
    e = e.replace(lambda x: isinstance(x, (sp.Derivative, sp.Limit)), lambda x: x.doit())
    e = _sums_without_deltas(e, frozenset())
    return rename_dummies(e)


def _sums_without_deltas(e: sp.Basic, bound: frozenset) -> sp.Basic:
    """Every sum of ``e`` carried out (:func:`_sum_without_deltas`), the innermost first;
    ``bound``: the variables of the sums that enclose ``e``."""
    if not e.has(sp.Sum):
        return e
    if isinstance(e, sp.Sum):
        inside = bound | {limit[0] for limit in e.limits}
        return _sum_without_deltas(e.func(_sums_without_deltas(e.function, inside), *e.limits), bound)
    return e.func(*(_sums_without_deltas(a, bound) for a in e.args))


def _sum_without_deltas(s: sp.Sum, enclosing: frozenset = frozenset()) -> sp.Expr:
    """Carry out a (possibly multiple) sum limit by limit, innermost first.

    A limit whose variable meets a Kronecker delta is summed by ``deltasummation``. Any other
    is split over the terms of its body, with the factors free of the index taken out
    (sum_j p_i p_j becomes p_i sum_j p_j, and a double sum of a product a product of sums);
    what is left goes to ``Sum.doit``, which does constant sums and leaves sums it cannot do
    (of exp(z_k), say) as they are.
    """
    body = s.function
    declared = INDEX_RANGES.get()
    for at, limit in enumerate(s.limits):
        var, low, high = limit
        # The declared range of a name does not hold where a sum binds that name: the variables
        # of this sum's outer limits and of the sums around it have their limits instead.
        outer = enclosing | {x[0] for x in s.limits[at + 1 :]}
        ranges = None if declared is None else {k: v for k, v in declared.items() if k not in outer}
        if ranges is not None and body.has(sp.Piecewise):
            # a delta summed inside left its index's range to prove: this sum's limits give it,
            # where they are a range (not reversed)
            own = {var: (low, high)} if _below(low, high, False, {}) else {}
            body = in_range(body, {**{k: v for k, v in ranges.items() if k != var}, **own})
        body = sp.expand(_delta_powers(body))
        total = sp.S.Zero
        for term in sp.Add.make_args(body):
            if any(var in dl.free_symbols for dl in term.atoms(sp.KroneckerDelta)):
                if ranges is None:
                    total += deltasummation(term, limit, no_piecewise=True)
                else:
                    total += in_range(deltasummation(term, limit), ranges)
                continue
            constant, varying = term.as_independent(var, as_Add=False)
            total += constant * sp.Sum(varying, limit).doit()
        body = total
    return body


@contextmanager
def within(ranges: Ranges) -> Iterator[None]:
    """Add ``ranges`` to those in force (where ranges are in force): a procedure that knows more
    indices' ranges (a matrix entry's (a, b) of an n x n matrix: 0..n-1) says so."""
    current = INDEX_RANGES.get()
    token = INDEX_RANGES.set(None if current is None else {**current, **ranges})
    try:
        yield
    finally:
        INDEX_RANGES.reset(token)


def in_range(e: sp.Expr, ranges: Ranges) -> sp.Expr:
    """``e`` with each case split ``Piecewise((v, c), (0, True))`` that a summed-out delta left
    replaced by ``v`` where the ranges prove ``c`` (``i <= n`` for ``1 <= i <= n``); a split they
    do not prove stays, and a proof that needs it fails (a case split is never trusted)."""

    def decided(pw: sp.Piecewise) -> sp.Expr:
        if len(pw.args) == 2 and pw.args[1].cond == sp.true and holds(pw.args[0].cond, ranges):
            return pw.args[0].expr
        return pw

    return e.replace(lambda x: isinstance(x, sp.Piecewise), decided)


def holds(cond: Any, ranges: Ranges) -> bool:
    """``cond`` (relations joined by "and") follows from the ranges: each relation's two sides
    differ by a quantity SymPy knows the sign of (``i - 1 >= 0`` for a positive integer ``i``),
    once a ranged index is replaced by its bound (``i <= n + 1`` as ``n <= n + 1`` for
    ``1 <= i <= n``)."""
    if cond == sp.true:
        return True
    if isinstance(cond, sp.And):
        return all(holds(c, ranges) for c in cond.args)
    if not isinstance(cond, (sp.Le, sp.Lt, sp.Ge, sp.Gt)):
        return False
    small, big = (cond.lhs, cond.rhs) if isinstance(cond, (sp.Le, sp.Lt)) else (cond.rhs, cond.lhs)
    return _below(small, big, isinstance(cond, (sp.Lt, sp.Gt)), ranges)


def _below(small: Any, big: Any, strict: bool, ranges: Ranges) -> bool:
    """small <= big (small < big if ``strict``): their difference has a known sign, or a range
    bounds one side by something that does (i <= n + 1 from i <= n)."""
    gap = sp.expand(big - small)
    if gap.is_positive if strict else gap.is_nonnegative:
        return True
    if small in ranges and _below(ranges[small][1], big, strict, {}):
        return True
    return big in ranges and _below(small, ranges[big][0], strict, {})


def _delta_powers(e: sp.Expr) -> sp.Expr:
    """delta_ij^k = delta_ij for k >= 1."""
    return e.replace(
        lambda x: isinstance(x, sp.Pow) and isinstance(x.base, sp.KroneckerDelta) and x.exp.is_positive,
        lambda x: x.base,
    )


def rename_dummies(e: sp.Basic) -> sp.Basic:
    """Give every bound summation index a canonical name, so Sum(f(j), j) == Sum(f(k), k)."""

    def fix(x: sp.Basic, depth: int = 0) -> sp.Basic:
        if isinstance(x, sp.Sum) and len(x.limits) == 1:
            var, lo, hi = x.limits[0]
            new = sp.Symbol(f"_s{depth}", integer=True)
            body = fix(x.function.xreplace({var: new}), depth + 1)
            return sp.Sum(body, (new, lo, hi))
        if not x.args or isinstance(x, (sp.Symbol, sp.Indexed)):
            return x
        return x.func(*[fix(a, depth) for a in x.args])

    return fix(e)


#: The ladder of normal forms tried, cheapest first.
LADDER: list[tuple[str, Callable[[sp.Expr], sp.Expr]]] = [
    ("identity", lambda x: x),
    ("expand", sp.expand),
    ("cancel", lambda x: sp.cancel(sp.expand(x))),
    ("together", lambda x: sp.together(sp.expand(x))),
    ("simplify", sp.simplify),
]


def prove_zero(e: Any) -> str | None:
    """Name the normal form that takes ``e`` to exactly 0, or None if none does.

    None, without trying, when ``e`` holds a power of more than
    :data:`~symattn.limits.MAX_POWER_DIGITS` digits or multiplies out to more than
    :data:`~symattn.limits.MAX_EXPANDED_TERMS` terms (:func:`.magnitude.too_costly`)."""
    if isinstance(e, sp.MatrixBase):
        methods = [prove_zero(x) for x in e]
        if any(m is None for m in methods):
            return None
        order = [name for name, _ in LADDER]
        return max(methods, key=order.index, default="identity")
    e = sp.sympify(e)
    if too_costly(e):
        return None  # the normal forms would build more digits or terms than any answer needs
    for name, f in LADDER:
        try:
            if f(e) == 0:
                return name
        except Exception:
            continue
    return None


def prove_equal(lhs: Any, rhs: Any) -> str | None:
    """Name the method that proves lhs == rhs exactly, or None."""
    if _identical(lhs, rhs):
        return "identity"  # the same tree denotes the same value; no normal form needed
    lhs, rhs = _explicit(lhs), _explicit(rhs)
    if isinstance(lhs, sp.MatrixBase) or isinstance(rhs, sp.MatrixBase):
        lhs, rhs = sp.Matrix(lhs), sp.Matrix(rhs)
        if lhs.shape != rhs.shape:
            return None
    a, b = canonical(lhs), canonical(rhs)
    if _new_piecewise(lhs, a) or _new_piecewise(rhs, b):
        return None  # a case split SymPy made up on its own is not trusted as a proof
    if a == b:
        return "identity"
    return prove_zero(a - b)


def _identical(lhs: Any, rhs: Any) -> bool:
    """Both sides are the same SymPy tree (explicit matrices compared entry by entry)."""
    if isinstance(lhs, sp.MatrixBase) and isinstance(rhs, sp.MatrixBase):
        return lhs.shape == rhs.shape and all(a == b for a, b in zip(lhs, rhs, strict=True))
    return isinstance(lhs, sp.Basic) and isinstance(rhs, sp.Basic) and lhs == rhs


def _new_piecewise(before: Any, after: Any) -> bool:
    return bool(_atoms(after, sp.Piecewise)) and not _atoms(before, sp.Piecewise)


def random_point(
    exprs: list[Any], rng: random.Random, fixed: Mapping[sp.Basic, Any] | None = None, smallest: int = 0
) -> Point:
    """Exact rational values for the free symbols of ``exprs``, by their assumptions.

    Positive integers (sizes) are drawn from 1..7, except that ``smallest`` > 0 sets them
    all to ``smallest``: the first points of a cross-check try sizes 1, 2 and 3, where sums
    run empty or have a single term.
    """
    point: Point = {s: sp.sympify(v) for s, v in (fixed or {}).items()}
    labels = {x.base.label for e in exprs for x in _atoms(e, sp.Indexed)}
    symbols = sorted({s for e in exprs for s in _free(e)} - labels - set(point), key=lambda s: s.name)
    for s in symbols:
        point[s] = sp.Integer(smallest) if smallest and s.is_integer and s.is_positive else _sample(s, rng)
    return point


def evaluate(e: Any, point: Point, rng: random.Random, digits: int = 60) -> Any:
    """Evaluate ``e`` at ``point``; Indexed entries left over get random values (kept in point)."""
    e = _explicit(e)
    if isinstance(e, sp.MatrixBase):
        return e.applyfunc(lambda x: evaluate(x, point, rng, digits))
    scalar = {s: v for s, v in point.items() if not isinstance(s, sp.Indexed)}
    x = _put_in(_empty_when_reversed(sp.sympify(e)), scalar)
    if x.atoms(sp.MatrixSymbol):
        return evaluate(_fill_matrices(x, point, rng), point, rng, digits)
    x = x.doit()
    for atom in sorted(_atoms(x, sp.Indexed), key=sp.default_sort_key):
        if atom not in point:
            low = 1 if atom.is_positive else -30
            point[atom] = sp.Rational(rng.randint(low, 30), 10)
    x = x.subs({k: v for k, v in point.items() if isinstance(k, sp.Indexed)}).doit()
    return sp.N(x, digits)


def _put_in(e: sp.Basic, values: Mapping[sp.Basic, Any]) -> sp.Basic:
    """``e`` with the values put in: by ``xreplace`` (one walk of the tree, many times faster than
    ``subs`` with many symbols) where no variable is bound in ``e``; else by ``subs``, which
    leaves a bound variable (a summation index of the same name, say) alone."""
    if e.has(*_BINDERS) or e.atoms(RandomSymbol) or not all(isinstance(k, sp.Symbol) for k in values):
        return e.subs(values)
    return e.xreplace(dict(values))


#: The expressions that bind a variable (a sympy.stats random variable holds a symbol too).
_BINDERS = (sp.Sum, sp.Product, sp.Integral, sp.Derivative, sp.Limit, sp.Lambda, sp.Subs)


def _empty_when_reversed(e: sp.Basic) -> sp.Basic:
    """Each sum (product) guarded to be 0 (1) when its upper bound is below its lower bound.

    That is the usual convention for an empty range; SymPy's ``doit`` instead reads
    sum_{k=a}^{b} with b < a - 1 as -sum_{k=b+1}^{a-1}. Both evaluators of the cross-check
    use the usual one, so the verdict does not depend on which of them ran.
    """

    def guard(x: sp.Sum | sp.Product) -> sp.Basic:
        empty = sp.S.Zero if isinstance(x, sp.Sum) else sp.S.One
        body = x.function
        for var, lo, hi in x.limits:  # innermost first: each limit wraps the ones inside it
            body = sp.Piecewise((x.func(body, (var, lo, hi)), sp.Ge(hi, lo)), (empty, True))
        return body

    if not e.has(sp.Sum, sp.Product):
        return e
    return e.replace(lambda x: isinstance(x, (sp.Sum, sp.Product)), guard)


def numeric_difference(
    lhs: Any,
    rhs: Any,
    rng: random.Random,
    points: int = 6,
    fixed: Callable[[random.Random], Mapping[sp.Basic, Any]] | None = None,
) -> tuple[float, Point | None, Any, Any]:
    """The largest |lhs - rhs| (relative to size) over random points, with the worst point.

    Returns (error, point, lhs value, rhs value) at the worst point; error is inf where the
    two sides could not both be evaluated to numbers.
    """
    worst: tuple[float, Point | None, Any, Any] = (0.0, None, None, None)
    for p in range(points):
        point = random_point([lhs, rhs], rng, fixed(rng) if fixed else None, smallest=p + 1 if p < 3 else 0)
        enclosed = _enclosed_error(lhs, rhs, point, rng)
        if enclosed is not None:
            err, a, b = enclosed
        else:
            a, b = evaluate(lhs, point, rng), evaluate(rhs, point, rng)
            err = _relative_error(a, b)
        if err >= worst[0]:
            worst = (err, dict(point), a, b)
    return worst


def surely_differ(a: Any, b: Any) -> bool:
    """``a`` and ``b`` differ at a random point by more than any rounding could explain. A
    refusal only, made before SymPy's normal forms are tried in vain: equal values still go to
    them (and to the points after them)."""
    try:
        a, b = _explicit(a), _explicit(b)
        # A masked entry (-oo) on one side only: no number to compare it with.
        matrices = isinstance(a, sp.MatrixBase) and isinstance(b, sp.MatrixBase) and a.shape == b.shape
        if matrices and any((x in _INFINITE or y in _INFINITE) and x != y for x, y in zip(a, b, strict=True)):
            return True
        err, *_ = numeric_difference(a, b, random.Random(1), points=1)
    except Exception:
        return False
    return DIFFERENT < err < float("inf")


_INFINITE = (sp.oo, -sp.oo, sp.zoo)


#: A relative difference at one point (of values evaluated to 60 digits) that is a difference.
DIFFERENT = 1e-30


def _relative_error(a: Any, b: Any) -> float:
    if isinstance(a, sp.MatrixBase) or isinstance(b, sp.MatrixBase):
        a, b = sp.Matrix(a), sp.Matrix(b)
        if a.shape != b.shape:
            return float("inf")
        return max((_relative_error(x, y) for x, y in zip(a, b, strict=True)), default=0.0)
    if isinstance(a, sp.logic.boolalg.Boolean) or isinstance(b, sp.logic.boolalg.Boolean):
        return 0.0 if bool(a) == bool(b) else float("inf")
    # Compare at the precision the sides were evaluated to (60 digits), never through a
    # Python float or complex, which would keep only 16.
    a, b = sp.sympify(a), sp.sympify(b)
    if not (a.is_number and b.is_number) or a.has(sp.nan, sp.zoo) or b.has(sp.nan, sp.zoo):
        return 0.0 if a == b else float("inf")
    if a == b:
        return 0.0
    if not (a.is_finite and b.is_finite):
        return float("inf")
    scale = sp.Max(1, sp.Abs(a), sp.Abs(b))
    err = sp.N(sp.Abs(a - b) / scale, 15)
    return float(err) if err.is_real else float("inf")


def _fill_matrices(x: sp.Basic, point: Point, rng: random.Random) -> sp.Basic:
    """Put random rational matrices (the same in both sides, kept in point) for MatrixSymbols."""
    reps = {}
    for m in x.atoms(sp.MatrixSymbol):
        key = sp.Symbol(f"matrix {m.name}")
        if key not in point:
            rows, cols = (int(s) for s in m.shape)
            point[key] = sp.ImmutableMatrix(rows, cols, lambda *_: sp.Rational(rng.randint(-20, 20), 10))
        reps[m] = point[key]
    return x.xreplace(reps)


def _explicit(e: Any) -> Any:
    """A matrix expression of explicit matrices, carried out; anything else unchanged."""
    if isinstance(e, sp.MatrixExpr) and not e.atoms(sp.MatrixSymbol):
        try:
            if isinstance(e, sp.MatrixBase):
                return sp.Matrix(e.doit().as_explicit())
            return sp.Matrix(carry_out(e))
        except (ValueError, TypeError, AttributeError):
            return e
    return e


#: Denominators of random rational points: small ones, and primes that keep points away from
#: small integers and simple fractions.
_DENOMINATORS = (1, 2, 10, 7, 13, 97, 1009)


def _sample(s: sp.Symbol, rng: random.Random) -> sp.Expr:
    if s.is_integer:
        return sp.Integer(rng.randint(1, 7) if s.is_positive else rng.randint(-5, 5))
    value = sp.Rational(rng.randint(-400, 400), rng.choice(_DENOMINATORS))
    if value == 0:
        value = sp.Rational(1, 3)
    if s.is_positive or s.is_nonnegative:
        value = abs(value)
    return value


def _free(e: Any) -> set[sp.Symbol]:
    if isinstance(e, sp.MatrixBase):
        return set().union(*(_free(x) for x in e)) if e else set()
    e = sp.sympify(e)
    shapes = {s for m in e.atoms(sp.MatrixSymbol) for dim in m.shape for s in sp.sympify(dim).free_symbols}
    return {s for s in e.free_symbols | shapes if isinstance(s, sp.Symbol)}


def _atoms(e: Any, kind: type) -> set[sp.Basic]:
    if isinstance(e, sp.MatrixBase):
        return set().union(*(_atoms(x, kind) for x in e)) if e else set()
    return set(sp.sympify(e).atoms(kind))


def describe_point(point: Point | None, limit: int = 6) -> str:
    """A short readable form of a point, for counterexample messages."""
    if not point:
        return "(no free symbols)"
    items = sorted(point.items(), key=lambda kv: sp.default_sort_key(kv[0]))
    shown = ", ".join(f"{sp.sstr(k)}={sp.sstr(v)}" for k, v in items[:limit])
    return shown + (", ..." if len(items) > limit else "")
