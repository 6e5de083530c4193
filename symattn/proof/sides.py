"""Helpers of the step checks: wrong versions of a side for a model to tell apart, values at
points, and how a claimed side is matched with a proved one."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator, Mapping
from decimal import Decimal
from itertools import product
from typing import Any

import sympy as sp

from .equivalence import (
    _relative_error,
    evaluate,
    numeric_difference,
    prove_equal,
    random_point,
    surely_differ,
)
from .operators import Ex, Var
from .shown_base import rebuilt

#: Largest relative difference at random points (evaluated to 60 digits) for two sides to agree.
TOLERANCE = 1e-45

#: The size at which a model is shown wrong versions of a side (at size 2 a transposed 2 x 2
#: side, or the one other permutation, says too little).
MODEL_SIZE = 3

TRANSPOSED = "the left side transposed"


def _plants(side: Any) -> list[tuple[str, Any]]:
    """Wrong versions of ``side`` for a model to tell from the right side, twice the side first."""
    e = sp.sympify(side)
    if getattr(e, "is_Matrix", False):
        rows, cols = e.shape
        a, b = sp.symbols("a b", integer=True, nonnegative=True)
        corner = sp.Lambda((a, b), sp.KroneckerDelta(a, 0) * sp.KroneckerDelta(b, 0))
        unit = sp.FunctionMatrix(rows, cols, corner)  # 1 at entry (1, 1), 0 elsewhere
        out = [
            ("2 x the left side", sp.MatMul(2, e)),
            (TRANSPOSED, sp.Transpose(e)),
            ("the left side with entry (1, 1) changed", sp.MatAdd(e, unit)),
        ]
    else:
        out = [("2 x the left side", 2 * e), ("the left side plus 1", e + 1)]
    leaves = sorted(e.atoms(sp.MatrixSymbol), key=str)
    for leaf in leaves:
        same = [m for m in leaves if m != leaf and m.shape == leaf.shape]
        rows, cols = leaf.shape
        other = same[0] if same else sp.Identity(rows) if rows == cols else sp.OneMatrix(rows, cols)
        out.append((f"the left side with {leaf} replaced by {other}", e.xreplace({leaf: other})))
    return out


def _wrong_side(side: Any) -> tuple[str, Any]:
    """A side that is certainly not equal to ``side`` (so not to the right side either)."""
    e = sp.sympify(side)
    if isinstance(e, sp.Rel):
        return "the inequality with its left side doubled", e.func(2 * e.lhs, e.rhs)
    if isinstance(e, (Ex, Var)) or type(e).__name__ in ("Expectation", "Variance"):
        # An expectation of twice its argument, of the same kind: a procedure that refuses
        # anything but an expectation must still look inside it.
        return "the expectation of twice its argument", e.func(2 * e.args[0], *e.args[1:])
    if getattr(e, "is_Matrix", False):
        return _plants(e)[2]  # entry (1, 1) changed
    return "the left side plus 1", e + 1


def _symmetric(m: Any) -> bool:
    return isinstance(m, sp.MatrixBase) and m.shape[0] == m.shape[1] and _same(m, m.T)


def _symmetric_side(side: Any) -> bool:
    """The side equals its transpose as an expression (diag(p) - p p^T), not merely at a point."""
    e = sp.sympify(side)
    if not getattr(e, "is_Matrix", False):
        return True
    try:
        transposed = e.T
        return _same(transposed.doit(), e.doit()) or prove_equal(transposed, e) is not None
    except Exception:
        return False


def _told_apart(wrong: Any, right: Any, rng: random.Random) -> bool:
    """Two values a model gave differ: in shape, or in some entry at one of six random points
    (at large values a softmax is one-hot, and two different score matrices may pick the same
    key at a few points). Stops at the first difference found."""
    if getattr(wrong, "shape", None) != getattr(right, "shape", None):
        return True
    if _same(wrong, right):
        return False
    pairs = zip(wrong, right, strict=True) if isinstance(wrong, sp.MatrixBase) else [(wrong, right)]
    pairs = [(a, b) for a, b in pairs if not _same(a, b)]
    free = sp.Tuple(*(_free_of(sp.sympify(wrong)) | _free_of(sp.sympify(right))))  # found once
    for p in range(6):
        point = random_point([free], rng, None, smallest=p + 1 if p < 3 else 0)
        for a, b in pairs:
            if _relative_error(_value(a, point, rng), _value(b, point, rng)) > TOLERANCE:
                return True
    return False


def _value(e: Any, point: Mapping[Any, Any], rng: random.Random) -> Any:
    """``e`` at ``point`` to 60 digits: the values put in as 80-digit floats (much faster than
    exact substitution into a model's long softmax entries); where that leaves no number, the
    exact evaluation."""
    x = sp.N(sp.sympify(e).xreplace({s: sp.Float(v, 80) for s, v in point.items()}), 60)
    return x if x.is_number else evaluate(e, dict(point), rng)


def _subs(e: Any, values: Mapping[sp.Symbol, int]) -> Any:
    return e.subs(values) if values and hasattr(e, "subs") else e


def _floats(*sides: Any) -> list[sp.Float]:
    """The Floats in the sides (1 + 1e-30 written in Python is already Float 1.0)."""
    out: list[sp.Float] = []
    for side in sides:
        if isinstance(side, (float, Decimal)) or type(side).__name__ in ("mpf", "float64", "float32"):
            out.append(sp.Float(str(side)))
        elif isinstance(side, (list, tuple)):
            out.extend(_floats(*side))
        elif isinstance(side, (sp.Basic, sp.MatrixBase)):
            out.extend(sorted(side.atoms(sp.Float), key=str))
    return out


#: The order relations: a side of one may be replaced by the start of a chain reaching it.
_ORDERS = ("<", "<=", ">", ">=")


def _reaching(stated: list[tuple[Any, Any]], chains: list[tuple[Any, list[Any]]]) -> list[tuple[Any, Any]]:
    """The pairs an order relation holds of: a <= b and c = ... = b give a <= c too."""
    return [(a, b) for x, y in stated for a, b in product(_reached(x, chains), _reached(y, chains))]


def _reached(side: Any, chains: list[tuple[Any, list[Any]]]) -> list[Any]:
    """``side``, and the start of every chain of equalities that reaches it."""
    return [side] + [start for start, ends in chains if any(_same(side, x) for x in ends)]


def _same(lhs: Any, rhs: Any) -> bool:
    if isinstance(lhs, str) or isinstance(rhs, str):
        return False
    try:
        return bool(sp.sympify(lhs) == sp.sympify(rhs))
    except (sp.SympifyError, TypeError):
        return False


def _matches(claimed: Any, proved: Any) -> bool:
    """A claimed side is a proved side, up to SymPy's normal forms, confirmed at random points."""
    if _same(claimed, proved):
        return True
    if not isinstance(claimed, str) and not isinstance(proved, str) and rebuilt(claimed) == rebuilt(proved):
        return True  # the same tree once evaluated node by node: no normal form, nothing to sample
    try:
        if surely_differ(claimed, proved) or prove_equal(claimed, proved) is None:
            return False
        err, *_ = numeric_difference(claimed, proved, random.Random(0))
        return err <= TOLERANCE
    except Exception:
        return False


def _symbolic_shape(e: Any) -> bool:
    return isinstance(e, sp.MatrixExpr) and any(not sp.sympify(s).is_Integer for s in e.shape)


def _has_operators(*exprs: Any) -> bool:
    return any(hasattr(e, "has") and e.has(Ex, Var) for e in exprs)


def _free_of(e: Any) -> set[sp.Basic]:
    return set(e.free_symbols) if hasattr(e, "free_symbols") else set()


def _indexed(e: Any) -> set[sp.Indexed]:
    if isinstance(e, sp.MatrixBase):
        return set().union(*(_indexed(x) for x in e)) if e else set()
    return set(e.atoms(sp.Indexed)) if hasattr(e, "atoms") else set()


def _named(e: Any) -> Iterator[tuple[str, Any]]:
    """(kind, object) for the named things in ``e``: symbols, indexed families, matrix symbols."""
    if e is None or isinstance(e, str):
        return
    if isinstance(e, sp.MatrixBase):
        for x in e:
            yield from _named(x)
        return
    if isinstance(e, sp.IndexedBase):
        yield "indexed family", e
        return
    if not isinstance(e, sp.Basic):
        return
    bases = {x.base for x in e.atoms(sp.Indexed)}
    labels = {b.label for b in bases}
    for x in e.atoms(sp.Symbol):
        if x not in labels and not isinstance(x, sp.Dummy):
            yield "symbol", x
    for b in bases:
        yield "indexed family", b
    for m in e.atoms(sp.MatrixSymbol):
        yield "matrix symbol", m


#: Assumptions of a defined name that say what kind of number it is, stated with the derivation
#: rather than shown of the definition (d_k = d_model / h is a whole number).
_NUMBER_KIND = {
    *("commutative", "integer", "rational", "algebraic", "even", "odd", "prime", "composite"),
    *("noninteger", "irrational", "transcendental"),
}


def _printed(x: Any) -> str:
    """How ``x`` reads once typeset: its LaTeX without braces, spaces or an upright letter's
    \\mathrm (d_k, d_{k} and {d}_{k} read alike; so do n and \\mathrm{n})."""
    tex = sp.latex(x.label if isinstance(x, sp.IndexedBase) else x)
    return re.sub(r"[{}\s]", "", re.sub(r"\\mathrm\{([A-Za-z])\}", r"\1", tex))


def _plain(rule: str) -> str:
    return rule.replace("$", "")


def _short(v: Any) -> str:
    text = sp.sstr(sp.N(v, 12)) if not isinstance(v, sp.MatrixBase) else sp.sstr(v.evalf(8))
    return text if len(text) < 120 else text[:117] + "..."
