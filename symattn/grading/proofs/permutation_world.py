r"""ex6.7's world: permutation matrices, projections, the row softmax and attention.

The exercise: for a permutation matrix P, Attention(PX) = P Attention(X), where
Attention(X) = softmax((X W^Q)(X W^K)^T / sqrt(d_k)) (X W^V) and Q = X W^Q, K = X W^K,
V = X W^V. A learner's line is read into SymPy matrix expressions (:func:`build`):
``MatrixSymbol`` s P, X, W^Q, W^K, W^V (Q, K, V and S too), ``Identity``, unevaluated
``Transpose``, :class:`~symattn.core.softmax.RowSoftmax` and :class:`Attention`.

:func:`canon` turns such an expression into a small normal form (a coefficient and a tuple of
factors) that holds the algebra a step may always use: associativity, scalars collected, I
dropped, (A^T)^T = A, Q, K, V and defined names written out. The rules (:data:`RULES`) rewrite
that form: the transpose of a product, P^T P = I, softmax(P S P^T) = P softmax(S) P^T and the
definition of attention. :func:`truth` evaluates both sides exactly at concrete sizes with a
3-cycle and a 4-cycle (P^T != P) and small integer matrices; a certified difference is a
counterexample.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from typing import Any

import sympy as sp
from sympy.matrices.expressions.matexpr import MatrixExpr

from ...core.softmax import RowSoftmax, softmax_rows
from .step_reader import NamedRule, Node, StepSyntaxError, identifier_name
from .step_reader import rule_lemmas as shared_rule_lemmas

N = sp.Symbol("N", integer=True, positive=True)
D = sp.Symbol("d", integer=True, positive=True)
D_K = sp.Symbol("d_k", integer=True, positive=True)
#: The permutation matrices a step may name: P, and P_1 (the queries') and P_2 (the keys' and
#: values') of cross-attention, Attention(P_1 Q, P_2 K, P_2 V) = P_1 Attention(Q, K, V).
PERMUTATIONS = ("P", "P_1", "P_2")
_SHAPES = {
    **{name: (N, N) for name in PERMUTATIONS},
    "X": (N, D),
    "Q": (N, D),
    "K": (N, D),
    "V": (N, D),
    "S": (N, N),
    "W^Q": (D, D),
    "W^K": (D, D),
    "W^V": (D, D),
}
#: Names a learner may define in a chain's first line (``S = Q K^\top``).
DEFINABLE = {
    "S": (N, N),
    "A": (N, N),
    "S'": (N, N),
    "A'": (N, N),
    "Z": (N, N),
    "X'": (N, D),
    "Q'": (N, D),
    "K'": (N, D),
    "V'": (N, D),
    "O": (N, D),
    "O'": (N, D),
}
ABBREVIATIONS = {"Q": "W^Q", "K": "W^K", "V": "W^V"}
#: Letters that stand for any N x N matrices where they are not defined, so that a rule can be
#: written in general: (AB)^T = B^T A^T.
GENERIC = ("A", "B", "C", "M")

Term = tuple  # ("mul", coeff, factors)
Factor = tuple  # ("sym", name) | ("T", factor-or-term) | ("softmax", term) | ("attn", terms)


class Attention(MatrixExpr):
    """Attention(A) = softmax((A W^Q)(A W^K)^T / sqrt(d_k)) A W^V, or Attention(Q, K, V)."""

    @property
    def shape(self) -> tuple:
        return (self.args[0].shape[0], self.args[-1].shape[1])

    def _latex(self, printer: Any) -> str:
        return (
            r"\operatorname{Attention}\left(" + ", ".join(printer._print(a) for a in self.args) + r"\right)"
        )


def symbol(name: str, defined: dict | None = None) -> sp.MatrixSymbol:
    shape = _SHAPES.get(name) or (DEFINABLE.get(name) if defined is not None and name in defined else None)
    if shape is None and name in GENERIC:
        shape = (N, N)
    if shape is None:
        raise StepSyntaxError(
            f"unknown symbol {name}: ex6.7 knows P (and P_1, P_2 for cross-attention), X, W^Q, W^K, "
            "W^V, Q, K, V, S, I, d_k, softmax and Attention, and A, B, C, M as any N x N matrices"
        )
    return sp.MatrixSymbol(name, *shape)


GOALS_TEXT = r"\operatorname{Attention}(PX) = P\,\operatorname{Attention}(X)"
#: Cross-attention's statement, which gives the exercise's at P_1 = P_2 = P, Q = X W^Q, ...
CROSS_TEXT = r"\operatorname{Attention}(P_1 Q, P_2 K, P_2 V) = P_1 \operatorname{Attention}(Q, K, V)"


# -- reading --------------------------------------------------------------------------------
def _is_matrix(e: Any) -> bool:
    return getattr(e, "is_Matrix", False)


def _times(a: Any, b: Any) -> Any:
    if isinstance(b, sp.Identity) and _is_matrix(a):  # I is the identity of the size that fits
        b = sp.Identity(a.shape[1])
    if isinstance(a, sp.Identity) and _is_matrix(b):
        a = sp.Identity(b.shape[0])
    if _is_matrix(a) and _is_matrix(b) and a.shape[1] != b.shape[0]:
        raise StepSyntaxError(f"the shapes do not fit: {sp.sstr(a.shape)} times {sp.sstr(b.shape)}")
    return sp.MatMul(a, b) if _is_matrix(a) or _is_matrix(b) else a * b


def build(node: Node, defined: dict | None = None) -> Any:
    """The SymPy expression of a syntax tree; ``defined`` holds the names defined so far."""
    kind = node[0]
    if kind == "num":
        return sp.Rational(node[1])
    if kind == "group":
        return build(node[1], defined)
    if kind == "mul":
        out = build(node[1], defined)
        for f in node[2:]:
            out = _times(out, build(f, defined))
        return out
    if kind == "inv":
        den = build(node[1], defined)
        if _is_matrix(den):
            raise StepSyntaxError("matrix inverses are not part of this exercise")
        if den == 0:
            raise StepSyntaxError("division by zero")
        return 1 / den
    if kind == "neg":
        return _times(sp.S.NegativeOne, build(node[1], defined))
    if kind == "add":
        parts = [build(t, defined) for t in node[1:]]
        if any(_is_matrix(p) for p in parts):
            if not all(_is_matrix(p) for p in parts):
                raise StepSyntaxError("a number cannot be added to a matrix")
            if len({p.shape for p in parts}) > 1:
                raise StepSyntaxError("a sum of matrices of different shapes")
            return sp.MatAdd(*parts)
        return sp.Add(*parts)
    if kind == "pow":
        base, exp = build(node[1], defined), build(node[2], defined)
        if exp == -1 and _is_permutation(base):  # P is orthogonal: P^{-1} = P^T, (P^T)^{-1} = P
            return base.arg if isinstance(base, sp.Transpose) else sp.Transpose(base)
        if _is_matrix(base) and exp == -1:
            raise StepSyntaxError("matrix inverses other than P^{-1} (P^T) are not part of this exercise")
        if _is_matrix(base) or not (exp.is_Rational and abs(exp) <= 4):
            raise StepSyntaxError("only small powers of numbers are accepted here (no matrix powers)")
        return base**exp
    if kind == "sqrt":
        arg = build(node[1], defined)
        if _is_matrix(arg):
            raise StepSyntaxError("the square root of a matrix is not part of this exercise")
        return sp.sqrt(arg)
    if kind == "T":
        arg = build(node[1], defined)
        return sp.Transpose(arg) if _is_matrix(arg) else arg
    if kind == "op":
        args = [build(a, defined) for a in node[2:]]
        if not all(_is_matrix(a) for a in args):
            raise StepSyntaxError(f"{node[1]} takes matrices")
        if node[1] == "softmax":
            return RowSoftmax(args[0])
        if node[1] == "Attention":
            if len(args) not in (1, 3):
                raise StepSyntaxError("Attention takes X, or Q, K, V")
            return Attention(*args)
        raise StepSyntaxError(f"{node[1]} is not part of this exercise")
    if kind == "id":
        return _identifier(node, defined)
    raise StepSyntaxError("'\\dots' cannot be checked here")


def _is_permutation(e: Any) -> bool:
    """P, P_1, P_2 or a transpose of one."""
    e = e.arg if isinstance(e, sp.Transpose) else e
    return isinstance(e, sp.MatrixSymbol) and e.name in PERMUTATIONS


def _identifier(node: Node, defined: dict | None) -> Any:
    _, base, sub, sup = node
    name = identifier_name(node)
    if base == "d" and sub is not None and sub[0] == "id" and sub[1] == "k" and sup is None:
        return D_K
    if sub is not None:
        if base == "W" and sup is None and sub[0] == "id" and sub[1] in "QKV":
            return symbol("W^" + sub[1])
        if base == "P" and sup is None and sub[0] == "num" and f"P_{sub[1]}" in PERMUTATIONS:
            return symbol(f"P_{sub[1]}")
        raise StepSyntaxError(f"unknown symbol {name}")
    if base == "I" and sup is None:
        return sp.Identity(N)
    if base in DEFINABLE and defined is not None and base in defined:
        return symbol(base, defined)
    return symbol(name)


# -- the normal form ------------------------------------------------------------------------
def _coeff(c: Any) -> Any:
    return sp.powsimp(sp.cancel(sp.sympify(c)))


def mul(c: Any, factors: tuple) -> Term:
    """A normal term: coefficient and factors, nested products flattened, a product of sums
    multiplied out (so P (S + M) P^T and P S P^T + P M P^T are one form)."""
    coeff, out = sp.sympify(c), []
    for f in factors:
        if f[0] == "mul":
            coeff *= f[1]
            out.extend(f[2])
        else:
            out.append(f)
    for i, f in enumerate(out):
        if f[0] == "add" and (len(out) > 1 or coeff != 1):
            return add(tuple(mul(coeff, (*out[:i], t, *out[i + 1 :])) for t in f[1]))
    return ("mul", _coeff(coeff), tuple(out))


def add(terms: tuple) -> Term:
    """A normal sum: nested sums flattened, like terms collected, in a fixed order."""
    collected: dict[tuple, Any] = {}
    for t in terms:
        parts = t[2][0][1] if len(t[2]) == 1 and t[2][0][0] == "add" and t[1] == 1 else (t,)
        for part in parts:
            collected[part[2]] = collected.get(part[2], 0) + part[1]
    kept = [("mul", _coeff(c), fs) for fs, c in collected.items() if _coeff(c) != 0]
    if len(kept) == 1:
        return kept[0]
    if not kept:
        return ("mul", sp.S.Zero, ())
    return ("mul", sp.S.One, (("add", tuple(sorted(kept, key=repr))),))


def transpose(t: Term) -> Term:
    """The transpose, with (A^T)^T = A and (cA)^T = c A^T; a product stays wrapped."""
    _, c, fs = t
    if not fs:
        return t
    if len(fs) == 1 and fs[0][0] == "add":  # (A + B)^T = A^T + B^T
        return add(tuple(transpose(mul(c, (u,))) for u in fs[0][1]))
    if len(fs) > 1:
        return ("mul", c, (("T", ("mul", sp.S.One, fs)),))
    f = fs[0]
    if f[0] == "T":
        inner = f[1]
        return mul(c, (inner,)) if inner[0] == "mul" else ("mul", c, (inner,))
    return ("mul", c, (("T", f),))


def canon(e: Any, defs: dict[str, Term] | None = None) -> Term:
    """The normal form of a SymPy expression of this exercise."""
    defs = defs or {}
    if not _is_matrix(e):
        return ("mul", _coeff(e), ())
    if isinstance(e, sp.MatrixSymbol):
        name = e.name
        if name in defs:
            return defs[name]
        if name in ABBREVIATIONS:
            return ("mul", sp.S.One, (("sym", "X"), ("sym", ABBREVIATIONS[name])))
        return ("mul", sp.S.One, (("sym", name),))
    if isinstance(e, sp.Identity):
        return ("mul", sp.S.One, ())
    if isinstance(e, sp.MatMul):
        return mul(1, tuple(canon(a, defs) for a in e.args))
    if isinstance(e, sp.MatAdd):
        return add(tuple(canon(a, defs) for a in e.args))
    if isinstance(e, sp.Transpose):
        return transpose(canon(e.arg, defs))
    if isinstance(e, RowSoftmax):
        return ("mul", sp.S.One, (("softmax", canon(e.arg, defs)),))
    if isinstance(e, Attention):
        return ("mul", sp.S.One, (("attn", tuple(canon(a, defs) for a in e.args)),))
    raise StepSyntaxError(f"cannot read {type(e).__name__} here")


def show(t: Term) -> str:
    """A short plain-text form of a normal term (for messages)."""
    _, c, fs = t
    parts = [] if c == 1 else [sp.sstr(c)]
    for f in fs:
        parts.append(_show_factor(f))
    return " ".join(parts) or "I"


def _show_factor(f: Factor) -> str:
    if f[0] == "sym":
        return f[1]
    if f[0] == "T":
        inner = f[1]
        return f"({show(inner)})^T" if inner[0] == "mul" else _show_factor(inner) + "^T"
    if f[0] == "softmax":
        return f"softmax({show(f[1])})"
    if f[0] == "add":
        return "(" + " + ".join(show(t) for t in f[1]) + ")"
    return "Attention(" + ", ".join(show(a) for a in f[1]) + ")"


# -- the rules ------------------------------------------------------------------------------
P_, PT = ("sym", "P"), ("T", ("sym", "P"))
LevelRule = Callable[[Term], Term | None]


def _perm(f: Factor | None) -> bool:
    """P, P_1 or P_2 (not transposed)."""
    return f is not None and f[0] == "sym" and f[1] in PERMUTATIONS


def _perm_t(f: Factor | None) -> bool:
    """The transpose of P, P_1 or P_2."""
    return f is not None and f[0] == "T" and _perm(f[1])


def _reorders(f: Factor | None) -> bool:
    """A permutation or its transpose: a factor that reorders rows (on the left) or columns."""
    return _perm(f) or _perm_t(f)


def _flip(f: Factor) -> Factor:
    """The transpose of a permutation factor: P for Pᵀ, Pᵀ for P."""
    return f[1] if _perm_t(f) else ("T", f)


def _ends(t: Term) -> tuple[Factor | None, Factor | None]:
    """The first and the last factor of ``t`` (of its first term, for a sum)."""
    fs = _inner_terms(t)[0][2]
    return (fs[0], fs[-1]) if fs else (None, None)


def everywhere(t: Term, rule: LevelRule) -> Term:
    """``t`` with ``rule`` applied at every product, innermost first."""
    _, c, fs = t
    new = []
    for f in fs:
        if f[0] == "T" and f[1][0] == "mul":
            new.append(("T", everywhere(f[1], rule)))
        elif f[0] == "softmax":
            new.append(("softmax", everywhere(f[1], rule)))
        elif f[0] == "attn":
            new.append(("attn", tuple(everywhere(a, rule) for a in f[1])))
        elif f[0] == "add":
            new.append(add(tuple(everywhere(a, rule) for a in f[1])))
        else:
            new.append(f)
    term = mul(c, tuple(new))
    out = rule(term)
    return out if out is not None else term


def _splice(t: Term, i: int, width: int, repl: Term) -> Term:
    _, c, fs = t
    return mul(c * repl[1], fs[:i] + repl[2] + fs[i + width :])


def _each_factor(fn: Callable[[Factor], Term | None]) -> LevelRule:
    def rule(t: Term) -> Term | None:
        changed = False
        for i in range(len(t[2]) - 1, -1, -1):
            repl = fn(t[2][i])
            if repl is not None:
                t, changed = _splice(t, i, 1, repl), True
        return t if changed else None

    return rule


def _pairs(cancels: Callable[[Factor, Factor], bool]) -> LevelRule:
    """Neighbouring factors a, b for which ``cancels(a, b)`` taken out (as I)."""

    def rule(t: Term) -> Term | None:
        fs, out, i, changed = t[2], [], 0, False
        while i < len(fs):
            if i + 1 < len(fs) and cancels(fs[i], fs[i + 1]):
                i, changed = i + 2, True
            else:
                out.append(fs[i])
                i += 1
        return ("mul", t[1], tuple(out)) if changed else None

    return rule


def _transpose_product(f: Factor) -> Term | None:
    if f[0] == "T" and f[1][0] == "mul" and len(f[1][2]) > 1:
        return mul(1, tuple(transpose(("mul", sp.S.One, (g,))) for g in reversed(f[1][2])))
    return None


def _inner_terms(t: Term) -> tuple[Term, ...]:
    """The terms of a sum (one term for a product)."""
    return t[2][0][1] if len(t[2]) == 1 and t[2][0][0] == "add" and t[1] == 1 else (t,)


def _stripped(t: Term, left: Factor | None, right: Factor | None) -> Term | None:
    """``t`` (a product, or a sum of them) with ``left`` taken off the front of every term and
    ``right`` off the back; None where a term lacks them."""
    out = []
    for _, c, fs in _inner_terms(t):
        lo, hi = (1 if left else 0), (len(fs) - 1 if right else len(fs))
        if len(fs) < 1 + (left is not None) + (right is not None):
            return None
        if (left and fs[0] != left) or (right and fs[-1] != right):
            return None
        out.append(("mul", c, fs[lo:hi]))
    return add(tuple(out)) if len(out) > 1 else out[0]


def _conjugate(t: Term) -> tuple[Factor, Term, Factor] | None:
    """``t`` as P_a S P_bᵀ (every term of a sum so): the two permutations and S; or None."""
    lead, tail = _ends(t)
    if _perm(lead) and _perm_t(tail) and (inner := _stripped(t, lead, tail)) is not None:
        return lead, inner, tail
    return None


def _softmax_conjugate(f: Factor) -> Term | None:
    """softmax(P_a S P_bᵀ) = P_a softmax(S) P_bᵀ: rows reordered by P_a, each row's entries by P_b."""
    if f[0] == "softmax" and (parts := _conjugate(f[1])) is not None:
        lead, inner, tail = parts
        return ("mul", sp.S.One, (lead, ("softmax", inner), tail))
    return None


def attention_definition(args: tuple) -> Term:
    """Attention written out: softmax((A W^Q)(A W^K)^T / sqrt(d_k)) (A W^V), or of Q, K, V."""
    if len(args) == 1:
        a = args[0]
        q = mul(1, (a, ("sym", "W^Q")))
        k = mul(1, (a, ("sym", "W^K")))
        v = mul(1, (a, ("sym", "W^V")))
    else:
        q, k, v = args
    return scaled_attention(q, k, v)


def scaled_attention(q: Term, k: Term, v: Term, bias: Term | None = None) -> Term:
    """softmax(q kᵀ / sqrt(d_k) + bias) v, the bias (a mask) left out where None."""
    scores = mul(1 / sp.sqrt(D_K), (q, transpose(k)))
    return mul(1, (("softmax", scores if bias is None else add((scores, bias))), v))


def _attention(f: Factor) -> Term | None:
    return attention_definition(f[1]) if f[0] == "attn" else None


def _row_softmax(f: Factor) -> Term | None:
    """softmax(P S) = P softmax(S), for any permutation or its transpose on the left (each
    reorders rows); not where :func:`_softmax_conjugate` applies."""
    if f[0] == "softmax" and _conjugate(f[1]) is None:
        left = _ends(f[1])[0]
        if _reorders(left) and (inner := _stripped(f[1], left, None)) is not None:
            return ("mul", sp.S.One, (left, ("softmax", inner)))
    return None


def _column_softmax(f: Factor) -> Term | None:
    """softmax(S Pᵀ) = softmax(S) Pᵀ, for any permutation or its transpose on the right (each
    reorders a row's entries); not where :func:`_softmax_conjugate` applies."""
    if f[0] == "softmax" and _conjugate(f[1]) is None:
        right = _ends(f[1])[1]
        if _reorders(right) and (inner := _stripped(f[1], None, right)) is not None:
            return ("mul", sp.S.One, (("softmax", inner), right))
    return None


def _equivariance(f: Factor) -> Term | None:
    """Attention(P X) = P Attention(X), and Attention(P_1 Q, P_2 K, P_2 V) = P_1 Attention(Q, K, V)."""
    if f[0] != "attn":
        return None
    args = f[1]
    leads = [_ends(a)[0] for a in args]
    if not _reorders(leads[0]) or (len(args) == 3 and not (_reorders(leads[1]) and leads[1] == leads[2])):
        return None
    inner = [_stripped(a, lead, None) for a, lead in zip(args, leads, strict=True)]
    if any(t is None for t in inner):
        return None
    return ("mul", sp.S.One, (leads[0], ("attn", tuple(inner))))


def _transpose_unreversed(f: Factor) -> Term | None:
    if f[0] == "T" and f[1][0] == "mul" and len(f[1][2]) > 1:
        return mul(1, tuple(transpose(("mul", sp.S.One, (g,))) for g in f[1][2]))
    return None


def _softmax_drops_pt(f: Factor) -> Term | None:
    if f[0] == "softmax" and (parts := _conjugate(f[1])) is not None:
        lead, inner, _ = parts
        return ("mul", sp.S.One, (lead, ("softmax", inner)))
    return None


def _softmax_transposed(f: Factor) -> Term | None:
    if f[0] == "softmax" and (parts := _conjugate(f[1])) is not None:
        lead, inner, tail = parts
        return ("mul", sp.S.One, (_flip(lead), ("softmax", inner), _flip(tail)))
    return None


def _mask_kept(f: Factor) -> Term | None:
    """softmax(P S Pᵀ + M) as P softmax(S + M) Pᵀ: the tokens reordered, the mask left as it was."""
    if f[0] != "softmax":
        return None
    terms = _inner_terms(f[1])
    ends = {_ends(t) for t in terms if _conjugate(t) is not None}
    if len(ends) != 1:
        return None
    ((lead, tail),) = ends
    moved = [t for t in terms if _stripped(t, lead, tail) is not None]
    kept = [t for t in terms if not any(_reorders(g) for g in t[2])]
    if not kept or len(moved) + len(kept) != len(terms):
        return None
    inner = add(tuple(_stripped(t, lead, tail) for t in moved) + tuple(kept))
    return ("mul", sp.S.One, (lead, ("softmax", inner), tail))


def causal_example(order: tuple[int, ...] = (1, 2, 0)) -> str:
    """The causal mask M and P M Pᵀ for the permutation ``order`` (row r of P X is row order[r]
    of X): (P M Pᵀ)[r, c] = M[order[r], order[c]]. Entries are placed, never multiplied, since
    0 times -∞ has no value."""
    from ...proof.latex import latex

    n = len(order)
    mask = sp.Matrix(n, n, lambda r, c: 0 if c <= r else -sp.oo)
    moved = sp.Matrix(n, n, lambda r, c: mask[order[r], order[c]])
    return f"for the causal mask at $N = {n}$, $M = {latex(mask)}$ but $P M P^\\top = {latex(moved)}$"


def _drop_one(f: Factor) -> Term | None:
    return ("mul", sp.S.One, ()) if _reorders(f) else None


def _swap_pt(f: Factor) -> Term | None:
    return ("mul", sp.S.One, (_flip(f),)) if _reorders(f) else None


_OTHER = {"P_1": "P_2", "P_2": "P_1"}


def _swap_perms(f: Factor) -> Term | None:
    """P_1 written for P_2 or the other way (transposed alike)."""
    if _perm(f) and f[1] in _OTHER:
        return ("mul", sp.S.One, (("sym", _OTHER[f[1]]),))
    if _perm_t(f) and f[1][1] in _OTHER:
        return ("mul", sp.S.One, (("T", ("sym", _OTHER[f[1][1]])),))
    return None


def _softmax_other_column(f: Factor) -> Term | None:
    """softmax(P_a S P_bᵀ) as P_a softmax(S) P_aᵀ: the entries reordered by the rows' permutation."""
    if f[0] == "softmax" and (parts := _conjugate(f[1])) is not None and parts[0] != parts[2][1]:
        lead, inner, _ = parts
        return ("mul", sp.S.One, (lead, ("softmax", inner), ("T", lead)))
    return None


def _swaps(t: Term) -> Iterator[Term]:
    """``t`` with one occurrence of P_1 or P_2 (or its transpose) made the other, each in turn."""
    _, c, fs = t
    for i, f in enumerate(fs):
        for g in _factor_swaps(f):
            yield mul(c, (*fs[:i], g, *fs[i + 1 :]))


def _factor_swaps(f: Factor) -> Iterator[Factor | Term]:
    if (swapped := _swap_perms(f)) is not None:
        yield swapped[2][0]
    elif f[0] == "T" and f[1][0] == "mul":
        yield from (("T", u) for u in _swaps(f[1]))
    elif f[0] == "softmax":
        yield from (("softmax", u) for u in _swaps(f[1]))
    elif f[0] in ("add", "attn"):
        for j, a in enumerate(f[1]):
            for u in _swaps(a):
                args = (*f[1][:j], u, *f[1][j + 1 :])
                yield add(args) if f[0] == "add" else ("attn", args)


def exchanged(lhs: Term, rhs: Term) -> tuple[str, str] | None:
    """The named slip of a false step that becomes true once one P_1 is made P_2 (or the other
    way) on one side: the two permutations confused. (Why it is wrong, its name.)"""
    for side, other in ((rhs, lhs), (lhs, rhs)):
        if any(difference(other, t) is None for t in (*_swaps(side), rename(side, _OTHER))):
            return _EXCHANGED, r"$P_1$ and $P_2$ exchanged"
    return None


def _different_pair(a: Factor, b: Factor) -> bool:
    """P_2ᵀ P_1 or P_1 P_2ᵀ: a permutation beside the transpose of another."""
    return (_perm_t(a) and _perm(b) and a[1] != b) or (_perm(a) and _perm_t(b) and b[1] != a)


def _drop_scale(f: Factor) -> Term | None:
    if f[0] == "softmax" and f[1][1] != 1:
        return ("mul", sp.S.One, (("softmax", ("mul", sp.S.One, f[1][2])),))
    return None


def _commuted(t: Term) -> Term | None:
    """The first P (or Pᵀ) beside another factor, the two swapped: ``P Q`` as ``Q P``."""
    fs = t[2]
    for i in range(len(fs) - 1):
        if _reorders(fs[i]) != _reorders(fs[i + 1]):
            return ("mul", t[1], (*fs[:i], fs[i + 1], fs[i], *fs[i + 2 :]))
    return None


def _conjugated(t: Term) -> tuple[Factor, ...] | None:
    """The factors between a leading permutation and a trailing one's transpose (``P S Pᵀ``: S),
    or None."""
    fs = t[2]
    if len(fs) >= 3 and _perm(fs[0]) and _perm_t(fs[-1]) and not any(_reorders(g) for g in fs[1:-1]):
        return fs[1:-1]
    return None


def _other_side(t: Term) -> Term | None:
    """``P S Pᵀ`` with P on the wrong side of S: ``S P Pᵀ``."""
    inner = _conjugated(t)
    return ("mul", t[1], (*inner, t[2][0], t[2][-1])) if inner is not None else None


def _other_side_t(t: Term) -> Term | None:
    """``P S Pᵀ`` with Pᵀ on the wrong side of S: ``P Pᵀ S``."""
    inner = _conjugated(t)
    return ("mul", t[1], (t[2][0], t[2][-1], *inner)) if inner is not None else None


_EXCHANGED = r"$P_1$ reorders the queries and $P_2$ the keys and values: they are different permutations"
RULES = (
    NamedRule("transpose of a product", _each_factor(_transpose_product)),
    NamedRule(r"$P^\top P = I$", _pairs(lambda a, b: _perm_t(a) and a[1] == b)),
    NamedRule(r"$P P^\top = I$", _pairs(lambda a, b: _perm(a) and b == ("T", a))),
    NamedRule(
        r"$\operatorname{softmax}(P S P^\top) = P \operatorname{softmax}(S) P^\top$",
        _each_factor(_softmax_conjugate),
    ),
    NamedRule(
        r"$\operatorname{softmax}(P S) = P \operatorname{softmax}(S)$ (softmax acts on each row)",
        _each_factor(_row_softmax),
    ),
    NamedRule(
        r"$\operatorname{softmax}(S P^\top) = \operatorname{softmax}(S) P^\top$ (reordering a row's "
        "entries reorders its softmax)",
        _each_factor(_column_softmax),
    ),
    NamedRule("definition of attention with projections", _each_factor(_attention)),
)
EXTRA = (
    NamedRule(
        "permutation equivariance",
        _each_factor(_equivariance),
        "circular: that is the statement to prove, not a rule",
    ),
)
MISTAKES = (
    NamedRule(
        r"$(AB)^\top = A^\top B^\top$",
        _each_factor(_transpose_unreversed),
        r"the transpose of a product reverses the order: $(AB)^\top = B^\top A^\top$",
    ),
    NamedRule(
        r"$\operatorname{softmax}(P S P^\top) = P \operatorname{softmax}(S)$",
        _each_factor(_softmax_drops_pt),
        r"reordering the rows and the columns of $S$ reorders both: "
        r"$\operatorname{softmax}(P S P^\top) = P \operatorname{softmax}(S) P^\top$",
    ),
    NamedRule(
        r"$\operatorname{softmax}(P S P^\top) = P^\top \operatorname{softmax}(S) P$",
        _each_factor(_softmax_transposed),
        r"$P$ reorders the rows of $S$, so $P$ stays on the left: "
        r"$\operatorname{softmax}(P S P^\top) = P \operatorname{softmax}(S) P^\top$",
    ),
    NamedRule(
        r"$P P = I$",
        _pairs(lambda a, b: _perm(a) and a == b),
        r"$P P$ is not $I$: the pair that cancels is $P^\top P$",
    ),
    NamedRule(
        r"$P_2^\top P_1 = I$",
        _pairs(_different_pair),
        r"two different permutations do not cancel: a permutation times another's transpose is not "
        r"$I$; only a permutation's own transpose cancels it ($P_1^\top P_1 = P_2^\top P_2 = I$)",
    ),
    NamedRule(
        r"$P_1$ and $P_2$ exchanged",
        _each_factor(_swap_perms),
        _EXCHANGED,
    ),
    NamedRule(
        r"$\operatorname{softmax}(P_1 S P_2^\top) = P_1 \operatorname{softmax}(S) P_1^\top$",
        _each_factor(_softmax_other_column),
        _EXCHANGED + r": $\operatorname{softmax}(P_1 S P_2^\top) = P_1 \operatorname{softmax}(S) P_2^\top$",
    ),
    NamedRule(
        "the mask not reordered with the tokens",
        _each_factor(_mask_kept),
        r"the mask moves with the tokens only as $P M P^\top$, and $P M P^\top \ne M$ in general: "
        + causal_example(),
    ),
    NamedRule(
        r"$P$ put on the other side",
        _other_side,
        r"$P$ moved to the other side of the product: matrices do not commute, so $P$ stays on the left",
    ),
    NamedRule(
        r"$P^\top$ put on the other side",
        _other_side_t,
        r"$P^\top$ moved to the other side of the product: matrices do not commute, so $P^\top$ stays "
        r"on the right",
    ),
    NamedRule(
        r"$P$ commuted with its neighbour",
        _commuted,
        r"$P$ changed places with the factor beside it: matrices do not commute ($P A \ne A P$)",
    ),
    NamedRule(
        r"$P$ or $P^\top$ dropped",
        _each_factor(_drop_one),
        r"a $P$ or a $P^\top$ disappeared: only the pair $P^\top P$ equals $I$",
    ),
    NamedRule(
        r"$P^\top$ written for $P$",
        _each_factor(_swap_pt),
        r"$P$ and $P^\top$ are swapped: they differ unless the permutation is its own inverse",
    ),
    NamedRule(
        r"the scale $1/\sqrt{d_k}$ dropped",
        _each_factor(_drop_scale),
        r"attention divides the scores by $\sqrt{d_k}$ before the softmax",
    ),
)


#: A line proved for any permutations P_1 and P_2 holds for P_1 = P_2 = P: cross-attention's
#: statement gives self-attention's.
SPECIALISED = {"P_1": "P", "P_2": "P"}


#: A line proved for any projections holds with each the identity: Q = K = V = X, section 6.5's
#: Attention(PX, PX, PX).
_IDENTITY = {"W^Q": "I", "W^K": "I", "W^V": "I"}


def rename(t: Term, names: dict[str, str]) -> Term:
    """``t`` with the matrices named in ``names`` renamed, in normal form again."""
    _, c, fs = t
    return mul(c, tuple(_rename_factor(f, names) for f in fs))


def _rename_factor(f: Factor, names: dict[str, str]) -> Factor | Term:
    if f[0] == "sym":
        name = names.get(f[1], f[1])
        return ("mul", sp.S.One, ()) if name == "I" else ("sym", name)
    if f[0] == "T":  # in normal form again: (X I)^T is X^T, I^T is I
        inner = f[1]
        return transpose(
            rename(inner, names) if inner[0] == "mul" else mul(1, (_rename_factor(inner, names),))
        )
    if f[0] == "softmax":
        return ("softmax", rename(f[1], names))
    if f[0] == "add":
        return add(tuple(rename(t, names) for t in f[1]))
    return ("attn", tuple(rename(a, names) for a in f[1]))


def _written(t: Term) -> Term:
    """``t`` with attention written out by its definition, so that a line about
    Attention(PQ, PK, PV) serves for Attention(PX) too."""
    return everywhere(t, _each_factor(_attention))


def fact_rule(lhs: Term, rhs: Term) -> LevelRule | None:
    """A rule from a proved line: the factors of ``lhs`` replaced by ``rhs`` where they occur;
    a line about P_1 and P_2 serves for P too (:data:`SPECIALISED`), and each with attention
    written out by its definition."""
    special = (rename(lhs, SPECIALISED), rename(rhs, SPECIALISED))
    bare = (rename(special[0], _IDENTITY), rename(special[1], _IDENTITY))
    forms = list(
        dict.fromkeys(
            [(lhs, rhs), special, *((_written(a), _written(b)) for a, b in ((lhs, rhs), special, bare)), bare]
        )
    )
    forms = [(a, b) for a, b in forms if a[2] and a != b]
    if not forms:
        return None

    def rule(t: Term) -> Term | None:
        fs = t[2]
        for (_, lc, lf), (_, rc, rf) in forms:
            w = len(lf)
            for i in range(len(fs) - w + 1):
                if fs[i : i + w] == lf:
                    return mul(t[1] / lc * rc, fs[:i] + rf + fs[i + w :])
        return None

    return rule


_PERMUTATION_NAME = re.compile(r"\s*P(?:_\s*(?:[12]|\{\s*[12]\s*\}))?\s*")


def choices(lines: list) -> list:
    """``lines`` without those that choose permutations ("the case $P_1 = P_2 = P$"): equal
    names of permutations state which case of a proved line is taken, not a step (a line proved
    for any P_1 and P_2 serves for P: :func:`fact_rule`)."""

    def names(ln: Any) -> bool:
        sides = [ln.rhs] if ln.lhs is None else [ln.lhs, ln.rhs]
        return not ln.error and all(_PERMUTATION_NAME.fullmatch(side) for side in sides)

    out, run = [], []  # run: the lines of the choice being read
    for ln in lines:
        if names(ln) and (ln.lhs is not None or (run and run[-1].number == ln.number)):
            if ln.lhs is not None:
                out.extend(run)  # the run before it continued nothing: kept as it was
                run = []
            run.append(ln)
            continue
        if ln.lhs is None and run:  # "P_1 = P_2" then "= P_2 P_1^T P_1": a chain, not a choice
            out.extend(run)
        run = []
        out.append(ln)
    return out


# -- truth at concrete sizes ----------------------------------------------------------------
@dataclass(frozen=True)
class Instance:
    order: tuple[int, ...]
    values: dict[str, sp.Matrix]
    width: int = 2  #: the width of X and of the projections; d_k takes the same value

    @property
    def n(self) -> int:
        return len(self.order)


#: The widths (d_k) of the instances a step is tried at: a step true at one width only, such as
#: sqrt(d_k)/2 for 1/sqrt(d_k) at d_k = 2, is false at another.
WIDTHS = (2, 3, 5)


def _permutation(order: tuple[int, ...]) -> sp.Matrix:
    n = len(order)
    return sp.Matrix(n, n, lambda r, c: 1 if order[r] == c else 0)


def instance(
    order: tuple[int, ...],
    seed: int,
    width: int = 2,
    rational: bool = False,
    others: tuple[tuple[int, ...], tuple[int, ...]] | None = None,
) -> Instance:
    """P for ``order`` (row r of PX is row order[r] of X) and seeded matrices of that width:
    small integers, or (``rational``) small fractions with denominators up to 3. P_1 and P_2
    follow ``others`` (by default ``order`` rotated and reversed)."""
    n = len(order)
    entries = _fractions if rational else _ints
    first, second = others or (order[1:] + order[:1], order[::-1])
    values = {
        "P": _permutation(order),
        "P_1": _permutation(first),
        "P_2": _permutation(second),
        "X": entries(n, width, seed),
        "S": entries(n, n, seed + 10),
        "W^Q": entries(width, width, seed + 20),
        "W^K": entries(width, width, seed + 30),
        "W^V": entries(width, width, seed + 40),
        **{name: entries(n, n, seed + 50 + 10 * k) for k, name in enumerate(GENERIC)},
    }
    return Instance(order, values, width)


def _ints(rows: int, cols: int, seed: int) -> sp.Matrix:
    import random

    rng = random.Random(seed)
    return sp.Matrix(rows, cols, lambda i, j: rng.randint(-2, 2))


def _fractions(rows: int, cols: int, seed: int) -> sp.Matrix:
    import random

    rng = random.Random(seed)
    return sp.Matrix(rows, cols, lambda i, j: sp.Rational(rng.randint(-5, 5), rng.randint(1, 3)))


@cache
def instances() -> tuple[Instance, ...]:
    """A 3-cycle at d_k = 2 with integers, a 3-cycle at d_k = 5 and a 4-cycle at d_k = 3 with
    fractions (P^T differs from P in each): smallest first, so a counterexample is the smallest
    instance that tells the sides apart. At N = 4, P, P_1, P_2 and their transposes are six
    different permutations, so no two of them can be confused unnoticed."""
    return (
        instance((1, 2, 0), 1, WIDTHS[0], others=((2, 0, 1), (0, 2, 1))),
        instance((2, 0, 1), 3, WIDTHS[2], rational=True, others=((0, 2, 1), (1, 2, 0))),
        instance((2, 3, 1, 0), 2, WIDTHS[1], rational=True, others=((1, 3, 0, 2), (3, 0, 2, 1))),
    )


def evaluate(t: Term, at: Instance, reference: bool = False) -> sp.Matrix:
    """The exact value of a term at an instance; ``reference`` computes Attention with
    :func:`symattn.core.exact.attention` instead of :func:`attention_definition` (slower)."""
    _, c, fs = t
    out = sp.eye(at.n) if not fs else None
    for f in fs:
        m = _evaluate_factor(f, at, reference)
        out = m if out is None else out * m
    return c.subs(D_K, at.width) * out


def _evaluate_factor(f: Factor, at: Instance, reference: bool) -> sp.Matrix:
    if f[0] == "sym":
        if f[1] not in at.values:
            raise StepSyntaxError(f"{f[1]} is not defined")
        return at.values[f[1]]
    if f[0] == "T":
        inner = f[1]
        value = (
            evaluate(inner, at, reference) if inner[0] == "mul" else _evaluate_factor(inner, at, reference)
        )
        return value.T
    if f[0] == "softmax":
        return softmax_rows(evaluate(f[1], at, reference))
    if f[0] == "add":
        return sum((evaluate(t, at, reference) for t in f[1][1:]), evaluate(f[1][0], at, reference))
    if not reference:
        return evaluate(attention_definition(f[1]), at)
    from ...core.exact import attention

    args = [evaluate(a, at, reference) for a in f[1]]
    if len(args) == 1:
        args = [args[0] * at.values[w] for w in ("W^Q", "W^K", "W^V")]
    return attention(*args).output


def difference(lhs: Term, rhs: Term) -> str | None:
    """None when the sides agree at every instance, else a counterexample.

    Sides that agree to 30 digits at every instance count as equal (evidence, not proof: the
    proof of a step is the rules). A difference is reported only when its first digits are
    certified (:func:`symattn.core.digits.round_decimal`), so a counterexample is never a rounding
    artefact.
    """
    from ...core.digits import round_decimal
    from ...errors import SymattnError

    for at in instances():
        a, b = evaluate(lhs, at), evaluate(rhs, at)
        if a.shape != b.shape:
            return f"the two sides have different shapes ({a.rows}x{a.cols} and {b.rows}x{b.cols})"
        for pos, (x, y) in enumerate(zip(a, b, strict=True)):
            diff = x - y
            if diff == 0 or abs(sp.N(diff, 30)) < sp.Float("1e-25"):
                continue
            try:
                gap = round_decimal(diff, 4)
            except SymattnError:
                continue
            if gap != 0:
                r, col = divmod(pos, a.cols)
                return _describe(at, lhs, rhs, r, col, x, y)
    return None


def _describe(at: Instance, lhs: Term, rhs: Term, r: int, c: int, x: Any, y: Any) -> str:
    from ...core.digits import decimal_string

    used = _names(lhs) | _names(rhs)
    used = sorted(used if used & set(PERMUTATIONS) else used | {"P"})
    from ...proof.latex import latex

    shown = [f"${name} = {latex(sp.Matrix(at.values[name]))}$" for name in used]
    return (
        f"at $N = {at.n}$, $d_k = {at.width}$, with {', '.join(shown)}: entry ({r + 1}, {c + 1}) "
        f"is {decimal_string(x, 6)} on the left and {decimal_string(y, 6)} on the right"
    )


def _names(t: Term) -> set[str]:
    out: set[str] = set()
    for f in t[2]:
        if f[0] == "sym":
            out.add(f[1])
        elif f[0] == "T":
            out |= _names(f[1]) if f[1][0] == "mul" else _names(("mul", 1, (f[1],)))
        elif f[0] == "softmax":
            out |= _names(f[1])
        else:  # a sum's terms, or attention's arguments (and the projections of Attention(X))
            for a in f[1]:
                out |= _names(a)
            if f[0] == "attn" and len(f[1]) == 1:
                out |= {"W^Q", "W^K", "W^V"}
    return out


def goals() -> list[tuple[Term, Term]]:
    """Attention(PX) = P Attention(X), the same with Q, K, V written as arguments, section
    6.5's Attention(PX, PX, PX) = P Attention(X, X, X), the masked statement, the one with P
    moved to the other side, and cross-attention's (:func:`cross_goal`)."""
    px = ("mul", sp.S.One, (P_, ("sym", "X")))
    x = ("mul", sp.S.One, (("sym", "X"),))
    one = (("mul", sp.S.One, (("attn", (px,)),)), ("mul", sp.S.One, (P_, ("attn", (x,)))))
    args, plain = _projected(px), _projected(x)
    three = (("mul", sp.S.One, (("attn", args),)), ("mul", sp.S.One, (P_, ("attn", plain))))
    # Section 6.5's own statement: Attention(PX, PX, PX) = P Attention(X, X, X).
    module = (("mul", sp.S.One, (("attn", (px, px, px)),)), ("mul", sp.S.One, (P_, ("attn", (x, x, x)))))
    # The masked statement, which gives the exercise's at M = 0: with the mask reordered too,
    # softmax((PQ)(PK)^T / sqrt(d_k) + P M P^T) P V = P softmax(Q K^T / sqrt(d_k) + M) V.
    mask = ("mul", sp.S.One, (("sym", "M"),))
    masked = (
        scaled_attention(*args, bias=mul(1, (P_, mask, PT))),
        mul(1, (P_, scaled_attention(*plain, bias=mask))),
    )
    # The statement with P moved to the other side (P is invertible): Pᵀ Attention(PX) = Attention(X),
    # which a learner who numbers rows the other way, (PX)_{π(i)} = X_i, concludes.
    moved = (mul(1, (PT, ("attn", (px,)))), ("mul", sp.S.One, (("attn", (x,)),)))
    return [one, three, module, masked, moved, cross_goal()]


def reachable() -> list[tuple[Term, Term]]:
    """The statements a derivation may establish: :func:`goals`, each also with its
    permutations named otherwise (P_1 for P; P_2 for the queries' and P_1 for the keys'), and
    the cross statement with a mask P_1 M P_2ᵀ and without one written out."""
    self_goals, cross = goals()[:-1], cross_goal()
    out = list(goals())
    out += [tuple(rename(t, {"P": p}) for t in g) for p in ("P_1", "P_2") for g in self_goals]
    for a, b in (("P_2", "P_1"), ("P", "P_2"), ("P_1", "P"), ("P", "P_1"), ("P_2", "P")):
        out.append(tuple(rename(t, {"P_1": a, "P_2": b}) for t in cross))
    p1, p2 = _P1, _P2
    (q, k, v), moved = _cross_arguments()
    mask = ("mul", sp.S.One, (("sym", "M"),))
    out.append(
        (
            scaled_attention(*moved, bias=mul(1, (p1, mask, ("T", p2)))),
            mul(1, (p1, scaled_attention(q, k, v, mask))),
        )
    )
    out.append((scaled_attention(*moved), mul(1, (p1, scaled_attention(q, k, v)))))
    out.append((mul(1, (("T", p1), ("attn", moved))), ("mul", sp.S.One, (("attn", (q, k, v)),))))
    px = ("mul", sp.S.One, (P_, ("sym", "X")))
    out.append((scaled_attention(*_projected(px)), mul(1, (P_, scaled_attention(q, k, v)))))
    return list(dict.fromkeys(out))


def cross_goal() -> tuple[Term, Term]:
    """Cross-attention's statement (:data:`CROSS_TEXT`): queries reordered by P_1, keys and values
    by P_2. At P_1 = P_2 = P it is the exercise's."""
    (q, k, v), moved = _cross_arguments()
    return ("mul", sp.S.One, (("attn", moved),)), ("mul", sp.S.One, (_P1, ("attn", (q, k, v))))


_P1, _P2 = ("sym", "P_1"), ("sym", "P_2")


def _projected(a: Term) -> tuple[Term, Term, Term]:
    """a W^Q, a W^K, a W^V: the queries, keys and values of the rows a."""
    return tuple(mul(1, (a, ("sym", w))) for w in ("W^Q", "W^K", "W^V"))


def _cross_arguments() -> tuple[tuple[Term, Term, Term], tuple[Term, Term, Term]]:
    """Q, K, V (of X), and cross-attention's reordered P_1 Q, P_2 K, P_2 V."""
    q, k, v = _projected(("mul", sp.S.One, (("sym", "X"),)))
    return (q, k, v), (mul(1, (_P1, q)), mul(1, (_P2, k)), mul(1, (_P2, v)))


def established(goal: tuple[Term, Term]) -> str:
    """What a derivation that reaches ``goal`` (one of :func:`reachable`) has shown, in
    Markdown with LaTeX."""
    names = (_names(goal[0]) | _names(goal[1])) & set(PERMUTATIONS)
    if len(names) == 2:
        named = "" if names == {"P_1", "P_2"} else " (up to the names of the permutations)"
        return f"${CROSS_TEXT}${named}, which at $P_1 = P_2 = P$ is ${GOALS_TEXT}$"
    return f"${GOALS_TEXT}$"


# -- each rule a checked lemma ----------------------------------------------------------------
#: Where each rule applies; the lemma checks the rule as implemented, for every permutation.
SAMPLES: dict[str, tuple[str, ...]] = {
    "transpose of a product": (r"(P X W^Q)^\top", r"(P S)^\top", r"(P_2 K)^\top"),
    r"$P^\top P = I$": (r"P^\top P X", r"P_2^\top P_2 V"),
    r"$\operatorname{softmax}(P S P^\top) = P \operatorname{softmax}(S) P^\top$": (
        r"\operatorname{softmax}(P S P^\top)",
        r"\operatorname{softmax}\left(\frac{P Q K^\top P^\top}{\sqrt{d_k}}\right)",
        r"\operatorname{softmax}(P_1 S P_2^\top)",
    ),
    "definition of attention with projections": (
        r"\operatorname{Attention}(PX)",
        r"\operatorname{Attention}(Q, K, V)",
    ),
    r"$P P^\top = I$": (r"P P^\top S", r"P_1 P_1^\top S"),
    r"$\operatorname{softmax}(P S) = P \operatorname{softmax}(S)$ (softmax acts on each row)": (
        r"\operatorname{softmax}(P S)",
        r"\operatorname{softmax}(P^\top S)",
        r"\operatorname{softmax}(P_1 S P_2)",
    ),
    r"$\operatorname{softmax}(S P^\top) = \operatorname{softmax}(S) P^\top$ (reordering a row's "
    "entries reorders its softmax)": (
        r"\operatorname{softmax}(S P^\top)",
        r"\operatorname{softmax}(S P)",
        r"\operatorname{softmax}(S P_2^\top)",
    ),
    "permutation equivariance": (
        r"\operatorname{Attention}(P X)",
        r"\operatorname{Attention}(P_1 Q, P_2 K, P_2 V)",
    ),
}


def _rule_holds(rule: NamedRule, n: int) -> bool:
    from itertools import permutations

    from .step_reader import parse_expression

    for text in SAMPLES[rule.name]:
        t = canon(build(parse_expression(text)))
        out = everywhere(t, rule.rewrite)
        if out == t:
            return False
        for seed, order in enumerate(permutations(range(n))):
            at = instance(order, seed)
            # Attention from symattn.core.exact: the definition's lemma compares two computations.
            diff = evaluate(t, at, reference=True) - evaluate(out, at, reference=True)
            if any(x != 0 and sp.simplify(x) != 0 for x in diff):
                return False
    return True


def rule_lemmas() -> list:
    """Every rule of :data:`RULES` and :data:`EXTRA` as a :class:`~symattn.proof.Lemma`."""
    return shared_rule_lemmas(
        RULES + EXTRA,
        "{name}, as rewritten by symattn, holds exactly for every permutation matrix P and integer matrices",
        _rule_holds,
        lambda r: (2, 3),
        # A term is ("mul", coefficient, factors): its coefficient doubled.
        lambda out: ("mul", 2 * out[1], out[2]) if out[0] == "mul" else ("mul", sp.Integer(2), (out,)),
    )
