r"""ex6.3's world: scores built from independent entries, E and Var, and the rules that move them.

The exercise: z = \sum_{i=1}^{d_k} q_i k_i, the entries q_i, k_i independent with mean 0 and
variance 1 (so each product q_i k_i has mean 0 and variance 1, and the products are
independent). A learner's line is read into SymPy (:func:`build`): ``Ex`` and ``Var`` from
:mod:`symattn.proof.operators`, ``Sum`` with the symbolic bound d_k, entries ``q[i]``, ``k[i]`` of two
``IndexedBase`` families, and ``z``.

:func:`canon` is the algebra a step may always use (z written out, sums split over terms,
constants taken out of sums, sums of constants done, expansion). Each rule of
:data:`RULES` rewrites every place it applies at once (linearity, independence, variances add,
scaling, E[X^2] = Var(X) + E[X]^2, the hypotheses); :data:`EXTRA` are true rules the exercise
does not teach, :data:`MISTAKES` false ones learners use. :func:`value` evaluates E and Var
exactly for a symbolic d_k with the rule system of :mod:`symattn.proof.expectation`; that decides
whether a step is true, and :func:`counterexample` shows a false one at a concrete width with
``sympy.stats`` variables (each ±1, or normal), an independent computation. Each rule, as
rewritten here, is a checked :class:`~symattn.proof.Lemma` (:func:`rule_lemmas`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import sympy as sp
from sympy.core.function import AppliedUndef

from ...proof.operators import Ex, Var
from .step_reader import NamedRule, Node, StepSyntaxError, identifier_name, subscript_text
from .step_reader import rule_lemmas as shared_rule_lemmas

D_K = sp.Symbol("d_k", integer=True, positive=True)
Q, K = sp.IndexedBase("q"), sp.IndexedBase("k")
Z = sp.Symbol("z")
FAMILIES = (Q, K)
_INDEX_LETTERS = "ijlmnrstuabc"


#: Pairs of index symbols known to differ while one case of a split is judged (i != j).
DISTINCT: set[frozenset] = set()


@dataclass(frozen=True)
class CaseSplit:
    """A value given by cases: ``equal`` where the indices i and j are equal, ``different``
    where they are not."""

    pair: tuple[sp.Symbol, sp.Symbol]
    equal: sp.Basic
    different: sp.Basic

    def whole(self) -> sp.Basic:
        """One expression for both cases, with the Kronecker delta of the pair."""
        i, j = self.pair
        delta = sp.KroneckerDelta(i, j)
        return delta * self.equal.xreplace({j: i}) + (1 - delta) * self.different


def case_steps(lhs: sp.Basic | CaseSplit, rhs: sp.Basic | CaseSplit) -> list | None:
    """A step with a side given by cases, as one step per case: (its name, left side, right
    side, the pair known to differ); None when neither side is split, or they split on
    different pairs."""
    splits = [s for s in (lhs, rhs) if isinstance(s, CaseSplit)]
    if not splits or len({s.pair for s in splits}) > 1:
        return None
    i, j = splits[0].pair

    def side(x: sp.Basic | CaseSplit, equal: bool) -> sp.Basic:
        if isinstance(x, CaseSplit):
            return x.equal.xreplace({j: i}) if equal else x.different
        return x.xreplace({j: i}) if equal else x

    return [
        (f"{i} = {j}", side(lhs, True), side(rhs, True), None),
        (f"{i} ≠ {j}", side(lhs, False), side(rhs, False), frozenset((i, j))),
    ]


class Unsupported(Exception):
    """An expectation outside what :func:`value` evaluates (a fourth moment of two entries, say)."""


def index(name: str) -> sp.Symbol:
    return sp.Symbol(name, integer=True, positive=True)


def _bound(n: int) -> sp.Symbol:
    return sp.Symbol(f"ι{n}", integer=True, positive=True)


def score() -> sp.Expr:
    """z written out: the sum over i of q_i k_i."""
    i = index("i")
    return sp.Sum(Q[i] * K[i], (i, 1, D_K))


GOAL = (Var(Z / sp.sqrt(D_K)), sp.S.One)
GOAL_TEXT = r"\operatorname{Var}(z/\sqrt{d_k}) = 1"


# -- other textbooks' notations, read as this exercise's ------------------------------------
#: ``\sigma`` with no subscript: the components' standard deviation, which the exercise fixes at 1
#: (variance 1); ``\sigma_z`` and ``\sigma^2_z`` are the parser's (Var(z) and its root).
_BARE_SIGMA = re.compile(r"\\sigma(?![A-Za-z])(?:\s*\^\s*(?:\{\s*\d+\s*\}|\d))?(?!\s*[_^])")


def bare_sigma(text: str) -> str:
    r"""``\sigma``, ``\sigma^2``, ``\sigma^4`` with no subscript as 1: the components' deviation and
    variance, which the hypotheses fix at 1 (a learner who keeps σ general writes the module's
    derivation for every σ, and the exercise's σ is 1)."""
    return _BARE_SIGMA.sub("(1)", text)


_MARK = r"\sigma_{ZZ}"  # bare σ as the parser reads a deviation: sqrt(Var(Z Z)), Z Z nowhere else
_MARK_NODE = ("sqrt", ("op", "Var", ("mul", ("id", "Z", None, None), ("id", "Z", None, None))))


def _degree(node: Any) -> tuple[Any, bool, bool] | None:
    """(the power of σ a side scales as, whether it holds σ, whether it holds a random quantity),
    where every part agrees; None where a sum adds different powers or the form is not simple."""
    if node == _MARK_NODE:
        return (sp.S.One, True, False)
    if node == _MARK_NODE[1]:  # σ^2, which the parser reads as the variance the mark stands for
        return (sp.S(2), True, False)
    kind = node[0]
    if kind == "num":
        return (sp.S.Zero, False, False)
    if kind == "id":
        random = node[1] in ("q", "k", "z")
        return (sp.S(2) if node[1] == "z" else sp.S(int(random)), False, random)
    parts = [p for p in node[1:] if isinstance(p, tuple)]
    got = [_degree(p) for p in parts] if kind != "sum" else [_degree(node[4])]
    if any(g is None for g in got):
        return None
    sigma, random = any(g[1] for g in got), any(g[2] for g in got)
    if kind in ("mul",):
        return (sum((g[0] for g in got), sp.S.Zero), sigma, random)
    if kind in ("group", "neg", "sum"):
        return (got[0][0], sigma, random)
    if kind == "inv":
        return (-got[0][0], sigma, random)
    if kind == "sqrt":
        return (got[0][0] / 2, sigma, random)
    if kind == "pow":
        exp = node[2]
        return (got[0][0] * sp.Rational(exp[1]), sigma, random) if exp[0] == "num" else None
    if kind == "add":
        return (got[0][0], sigma, random) if len({g[0] for g in got}) == 1 else None
    if kind == "op" and node[1] in ("Var", "E", "Cov"):  # got: the arguments' degrees
        scale = {"Var": 2 * got[0][0], "E": got[0][0], "Cov": sum((g[0] for g in got), sp.S.Zero)}
        return (scale[node[1]], sigma, True)
    return None


def sigma_uneven(lhs_text: str, rhs_text: str) -> str | None:
    """Where a step writes σ with no subscript, why it is wrong if its sides scale as different
    powers of σ (a step must hold for every σ; σ = 1 is the exercise's, put into a side that holds
    nothing random, such as d_k σ⁴ = d_k); None otherwise."""
    if not (_BARE_SIGMA.search(lhs_text) or _BARE_SIGMA.search(rhs_text)):
        return None
    from .step_reader import parse_expression

    try:
        sides = [_degree(parse_expression(_BARE_SIGMA.sub(_marked, t))) for t in (lhs_text, rhs_text)]
    except StepSyntaxError:
        return None
    if any(s is None for s in sides) or sides[0][0] == sides[1][0]:
        return None
    for a, b in (sides, sides[::-1]):
        if a[1] and not a[2] and not b[1] and b[0] == 0:  # σ's value put in: d_k σ⁴ = d_k
            return None
    return (
        f"the two sides scale as different powers of σ (σ^{sp.sstr(sides[0][0])} on the left, "
        f"σ^{sp.sstr(sides[1][0])} on the right): with σ the components' deviation, a step must "
        "hold for every σ before σ = 1 is put in"
    )


def _marked(m: re.Match) -> str:
    power = re.search(r"\d+", m.group(0)[len(r"\sigma") :])
    return f"{_MARK}^{{{power.group()}}}" if power else _MARK


#: A product of two components with the same index, ``q_i k_i`` (``q_{i} \cdot k_{i}``).
_REPEATED = re.compile(
    r"(?<![\\A-Za-z])([a-z])_\{?\s*([a-z])\s*\}?\s*(?:\\cdot\s*)?([a-z])_\{?\s*\2\s*\}?(?![A-Za-z0-9_])"
)
#: A sentence that declares Einstein's convention ("With Einstein summation over $i$, ...").
_DECLARES = re.compile(
    r"(?:^|[.;:]\s*|\b(?:with|using|use|by|in|under|follow(?:ing)?)\s+)"
    r"(?:the\s+)?Einstein(?:'s)?\s+(?:summation|convention|notation)(?:\s+convention)?"
    r"(?:\s+(?:over|on)\s+\$?\s*(?P<index>[a-z])\s*\$?)?",
    re.I,
)
_NEGATED = re.compile(r"\b(?:not|no|without|never|don't|doesn't|didn't|isn't|wrong|false)\b|n't\b", re.I)


def einstein_index(text: str) -> str | None:
    """The index a derivation declares summed by Einstein's convention ("" for any repeated
    index), or None: only an affirmative sentence of the text counts, never a comment (``%``)
    and never a sentence that negates it ("without Einstein summation")."""
    for raw in text.splitlines():
        line = re.sub(r"(?<!\\)%.*", "", raw)
        for sentence in re.split(r"(?<=[.!?])\s+", line):
            m = _DECLARES.search(sentence)
            if m and not _NEGATED.search(sentence):
                return m.group("index") or ""
    return None


def einstein(text: str, index: str = "") -> str:
    r"""Einstein's convention, declared (over ``index``, or any index where ""): ``q_i k_i``
    outside an explicit sum over its index is ``\sum_{i=1}^{d_k} q_i k_i`` (an explicit
    ``\sum_i`` binds its index as usual)."""

    def sub(m: re.Match) -> str:
        if index and m.group(2) != index:
            return m.group(0)
        if re.search(r"\\sum\s*_\s*\{?\s*" + m.group(2) + r"(?![A-Za-z])", text):
            return m.group(0)
        i = m.group(2)
        return rf"\left(\sum_{{{i}=1}}^{{d_k}} {m.group(1)}_{i} {m.group(3)}_{i}\right)"

    return _REPEATED.sub(sub, text)


# -- reading --------------------------------------------------------------------------------
def build(node: Node) -> sp.Expr:
    """The SymPy expression of a syntax tree (see :mod:`symattn.grading.proofs.step_reader`)."""
    kind = node[0]
    if kind == "num":
        return sp.Rational(node[1])
    if kind == "group":
        return build(node[1])
    if kind == "add":
        if ("dots",) in node[1:]:
            return _dotted_sum(node[1:])
        return sp.Add(*[build(t) for t in node[1:]])
    if kind == "neg":
        return -build(node[1])
    if kind == "mul":
        return sp.Mul(*[build(t) for t in _dot_products(node[1:])])
    if kind == "dot":
        return score()
    if kind == "inv":
        den = build(node[1])
        if den == 0:
            raise StepSyntaxError("division by zero")
        return 1 / den
    if kind == "pow":
        exp = build(node[2])
        if not (exp.is_Rational and abs(exp) <= 8):
            raise StepSyntaxError("powers must be small numbers here")
        return build(node[1]) ** exp
    if kind == "sqrt":
        return sp.sqrt(build(node[1]))
    if kind == "op":
        if node[1] == "E":
            return Ex(build(node[2]))
        if node[1] == "Var":
            return Var(build(node[2]))
        if node[1] == "Cov":  # its definition: E[XY] - E[X] E[Y]
            a, b = build(node[2]), build(node[3])
            return Ex(a * b) - Ex(a) * Ex(b)
        raise StepSyntaxError(f"{node[1]} is not part of this exercise")
    if kind == "sum":
        _, name, low, high, body = node
        if name in "qkz":
            raise StepSyntaxError(f"{name} cannot be a summation index")
        i = index(name)
        lo = build(low) if low is not None else sp.S.One
        hi = build(high) if high is not None else D_K
        return sp.Sum(build(body), (i, lo, hi))
    if kind == "id":
        return _identifier(node)
    if kind == "cases":
        values = {cond[0]: build(v) for v, cond in node[1:]}
        _, a, b = node[1][1]
        return CaseSplit((index(a), index(b)), values["eq"], values["ne"])
    if kind == "T":
        raise StepSyntaxError("transposes are not part of this exercise")
    raise StepSyntaxError("'\\dots' cannot be checked here: write the sum with \\sum")


def _dotted_sum(terms: tuple) -> sp.Expr:
    r"""``f(1) + \cdots + f(d_k)`` (``f(1) + f(2) + \cdots + f(d_k - 1) + f(d_k)`` too) as the
    sum it writes out. The last term names the range's end: an entry ``q_{d_k}``, or d_k itself
    (``1 + 2 + \cdots + d_k``); a term with neither, as in ``1 + \cdots + 1``, counts the d_k
    terms of the exercise's score z."""
    k = terms.index(("dots",))
    before, after = [build(t) for t in terms[:k]], [build(t) for t in terms[k + 1 :]]
    if not 1 <= len(after) <= 3 or not 1 <= len(before) <= 3 or ("dots",) in terms[k + 1 :]:
        raise StepSyntaxError(r"write a sum with dots as f(1) + \cdots + f(d_k), or with \sum")
    first, last = before[0], after[-1]
    free = set().union(*(t.free_symbols for t in before + after))
    i = index(next(c for c in _INDEX_LETTERS if index(c) not in free))
    terms_written = [sp.expand(b) for b in before + after]
    for body, end, start in _dotted_readings(first, last, i):
        if not start.is_Integer:  # f(d_k) + ... + f(1) is read below, never as a sum from d_k down
            continue
        written = [body.xreplace({i: start + t}) for t in range(len(before))]
        tail = [body.xreplace({i: end - (len(after) - 1 - t)}) for t in range(len(after))]
        if [sp.expand(w) for w in written + tail] == terms_written:
            return sp.Sum(body, (i, start, end))
    for body, end, start in _dotted_readings(last, first, i):  # written backwards: f(d_k) + ... + f(1)
        if not start.is_Integer:
            continue
        written = [body.xreplace({i: end - t}) for t in range(len(before))]
        tail = [body.xreplace({i: start + (len(after) - 1 - t)}) for t in range(len(after))]
        if [sp.expand(w) for w in written + tail] == terms_written:
            return sp.Sum(body, (i, start, end))
    raise StepSyntaxError(r"the terms around \cdots are not one pattern f(1), f(2), ..., f(d_k)")


def _dotted_readings(first: sp.Expr, last: sp.Expr, i: sp.Symbol):
    """(body f(i), end, start) a dotted sum may mean, the most specific first."""
    ends = {x.indices[0] for x in last.atoms(sp.Indexed)}
    starts = {x.indices[0] for x in first.atoms(sp.Indexed)}
    start = next(iter(starts)) if len(starts) == 1 else sp.S.One
    if len(ends) == 1:  # entries: q_1 k_1 + ... + q_{d_k} k_{d_k}
        end = next(iter(ends))
        yield last.xreplace({x: x.base[i] for x in last.atoms(sp.Indexed)}), end, start
    elif not ends and last.has(D_K):  # 1 + 2 + ... + d_k
        for s in (sp.S.One, sp.S.Zero):
            yield last.xreplace({D_K: i}), D_K, s
    if not ends and not last.has(D_K):  # 1 + ... + 1: the d_k terms of z
        yield last, D_K, sp.S.One


def _vector(node: Node, name: str) -> bool:
    """``node`` is the whole vector q or k (no index), as in the module's q^T k."""
    return node[0] == "id" and node[1] == name and node[2] is None and node[3] is None


def _dot_products(factors: tuple) -> list:
    """Factors with q^T k (or q k^T, or q . k) read as the score z = sum_i q_i k_i."""
    out, i = [], 0
    while i < len(factors):
        a, b = factors[i], factors[i + 1] if i + 1 < len(factors) else None
        if b is not None and (
            (a[0] == "T" and _vector(a[1], "q") and _vector(b, "k"))
            or (_vector(a, "q") and b[0] == "T" and _vector(b[1], "k"))
            or (_vector(a, "q") and _vector(b, "k"))
        ):
            out.append(("dot",))
            i += 2
            continue
        out.append(a)
        i += 1
    return out


def _entry_index(sub: Node) -> sp.Expr | None:
    """An index counted from the end, d_k or d_k - c (c a number); None for anything else."""
    if sub[0] == "group":
        return _entry_index(sub[1])
    if sub[0] == "id" and sub[1] == "d" and subscript_text(sub[2]) == "k" and sub[3] is None:
        return D_K
    if sub[0] == "add" and len(sub) == 3 and _entry_index(sub[1]) == D_K:
        offset = sub[2]
        if offset[0] == "neg" and offset[1][0] == "num" and offset[1][1].isdigit():
            return D_K - int(offset[1][1])
    return None


def _identifier(node: Node) -> sp.Expr:
    _, base, sub, sup = node
    if sup is not None:
        raise StepSyntaxError(f"unknown symbol {identifier_name(node)}")
    if base == "z" and sub is None:
        return Z
    if base == "d" and subscript_text(sub) == "k":
        return D_K
    if base in ("q", "k") and sub is not None:
        family = Q if base == "q" else K
        if sub[0] == "num":
            return family[sp.Integer(sub[1])]
        if sub[0] in ("id", "add", "group") and (at := _entry_index(sub)) is not None:
            return family[at]  # the last entries, q_{d_k} and q_{d_k - 1}
        if sub[0] == "id" and sub[2] is None and sub[3] is None and sub[1] in _INDEX_LETTERS:
            return family[index(sub[1])]
        raise StepSyntaxError(f"write the index of {base} as one letter or number, as in {base}_i")
    if len(base) == 1 and base in _INDEX_LETTERS and sub is None:
        return index(base)
    raise StepSyntaxError(
        f"unknown symbol {identifier_name(node)}: ex6.3 knows z, q_i, k_i, d_k, E[...] and Var(...)"
    )


# -- what is random -------------------------------------------------------------------------
def random_atoms(e: sp.Basic) -> set[sp.Indexed]:
    """Entries q_a, k_a that appear outside E and Var (bound sums included)."""
    if isinstance(e, (Ex, Var)):
        return set()
    if isinstance(e, sp.Indexed):
        return {e} if e.base in FAMILIES else set()
    out: set[sp.Indexed] = set()
    for a in e.args:
        out |= random_atoms(a)
    return out


def _bound_vars(e: sp.Basic) -> set[sp.Symbol]:
    return {v for s in e.atoms(sp.Sum) for v in s.variables}


def _may_share(a: sp.Basic, b: sp.Basic) -> bool:
    """True unless a and b are built from entries that are certainly different."""
    bound = _bound_vars(a) | _bound_vars(b)
    for x in random_atoms(a):
        for y in random_atoms(b):
            if x.base != y.base:
                continue
            u, v = x.indices[0], y.indices[0]
            if frozenset((u, v)) in DISTINCT:
                continue
            if u in bound or v in bound or u == v or not (u.is_Integer and v.is_Integer):
                return True
    return False


def _components(factors: list[sp.Basic]) -> list[list[sp.Basic]]:
    groups: list[list[sp.Basic]] = []
    for f in factors:
        joined = [g for g in groups if any(_may_share(f, h) for h in g)]
        merged = [f] + [h for g in joined for h in g]
        groups = [g for g in groups if g not in joined] + [merged]
    return groups


# -- the algebra every step may use ----------------------------------------------------------
def canon(e: sp.Basic) -> sp.Basic:
    """The algebraic normal form of a learner's expression."""
    e = e.xreplace({Z: score()})
    return _rename(_canon(e))


def renormal(e: sp.Basic) -> sp.Basic:
    """The normal form again, after a rule rewrote part of a normal form."""
    return _rename(_canon(e))


def _canon(e: sp.Basic) -> sp.Basic:
    if isinstance(e, (Ex, Var)):
        return type(e)(sp.expand(_canon(e.args[0])))
    if isinstance(e, sp.Sum):
        body = _canon(e.function)
        for limit in e.limits:
            body = _sum1(body, limit)
        return body
    if not e.args or isinstance(e, sp.Indexed):
        return e
    return sp.expand(e.func(*[_canon(a) for a in e.args]))


def _constant(e: sp.Basic) -> bool:
    return not random_atoms(e) and not e.atoms(Ex, Var)


def _sum1(body: sp.Basic, limit: tuple) -> sp.Basic:
    var = limit[0]
    body = sp.expand(body)
    if body.is_Add:
        return sp.Add(*[_sum1(t, limit) for t in body.args])
    outside, inside = [], []
    for f in sp.Mul.make_args(body):
        (inside if f.has(var) else outside).append(f)
    rest = sp.Mul(*inside)
    low, high = limit[1], limit[2]
    if low.is_Integer and high.is_Integer and 0 <= high - low < 16:
        # a sum with whole-number bounds is its terms written out: sum_{i=1}^{2} q_i k_i is q_1 k_1 + q_2 k_2
        return sp.Mul(*outside) * sp.expand(sp.Add(*[rest.xreplace({var: k}) for k in range(low, high + 1)]))
    if tuple(limit[1:]) == (1, D_K):
        # Every index of the exercise runs over 1..d_k, so the sum of delta(var, x) f(var) is f(x).
        for f in inside:
            if isinstance(f, sp.KroneckerDelta) and var in f.args:
                other = f.args[0] if f.args[1] == var else f.args[1]
                if other != var and other.is_Symbol and other.is_integer:
                    return sp.expand(sp.Mul(*outside) * (rest / f).xreplace({var: other}))
    if _constant(rest):
        return sp.Mul(*outside) * sp.expand(sp.Sum(rest, limit).doit())
    return sp.Mul(*outside) * sp.Sum(rest, limit)


def _rename(e: sp.Basic, depth: int = 0) -> sp.Basic:
    """Bound variables renamed by nesting depth, so sum_i and sum_j compare equal."""
    if isinstance(e, sp.Sum):
        body, limits = e.function, []
        for n, (v, lo, hi) in enumerate(e.limits):
            new = _bound(depth + n + 1)
            body = body.xreplace({v: new})
            limits.append((new, lo, hi))
        return sp.Sum(_rename(body, depth + len(limits)), *limits)
    if not e.args or isinstance(e, sp.Indexed):
        return e
    return e.func(*[_rename(a, depth) for a in e.args])


def same(a: sp.Basic, b: sp.Basic) -> bool:
    """Equal by algebra alone (both in :func:`canon` form)."""
    if a == b:
        return True
    diff = sp.expand(a - b)
    return diff == 0


# -- the rules ------------------------------------------------------------------------------
Rule = Callable[[sp.Basic], sp.Basic | None]


def _split_constant(arg: sp.Basic) -> tuple[sp.Basic, sp.Basic]:
    c, rest = [], []
    for f in sp.Mul.make_args(arg):
        (c if _constant(f) else rest).append(f)
    return sp.Mul(*c), sp.Mul(*rest)


def _linearity(node: sp.Basic) -> sp.Basic | None:
    if not isinstance(node, Ex):
        return None
    a = node.args[0]
    if _constant(a):
        return a
    if a.is_Add:
        return sp.Add(*[Ex(t) if not _constant(t) else t for t in a.args])
    if isinstance(a, sp.Sum):
        return sp.Sum(Ex(a.function), *a.limits)
    c, rest = _split_constant(a)
    if c != 1:
        return c * Ex(rest)
    if any(isinstance(f.as_base_exp()[0], sp.Sum) for f in sp.Mul.make_args(rest)):
        limits, body = _pull_sums(rest, [0])  # a product of sums is one multiple sum
        out = Ex(sp.expand(body))
        for limit in limits:
            out = sp.Sum(out, limit)
        return out
    return None


def _independence(node: sp.Basic) -> sp.Basic | None:
    if not isinstance(node, Ex) or not node.args[0].is_Mul:
        return None
    c, rest = _split_constant(node.args[0])
    if c != 1:
        return None
    groups = _components(list(sp.Mul.make_args(rest)))
    return sp.Mul(*[Ex(sp.Mul(*g)) for g in groups]) if len(groups) > 1 else None


def _only_index(f: sp.Basic, var: sp.Symbol) -> bool:
    atoms = random_atoms(f)
    return bool(atoms) and all(x.indices[0] == var for x in atoms) and not f.atoms(sp.Sum)


def _variances_add(node: sp.Basic) -> sp.Basic | None:
    if not isinstance(node, Var):
        return None
    a = node.args[0]
    independent = a.is_Add and len(_components(list(a.args))) == len(a.args)
    if independent and all(not _constant(t) for t in a.args):
        return sp.Add(*[Var(t) for t in a.args])
    if isinstance(a, sp.Sum) and len(a.limits) == 1 and _only_index(a.function, a.limits[0][0]):
        return sp.Sum(Var(a.function), *a.limits)
    return None


def _scaling(node: sp.Basic) -> sp.Basic | None:
    if not isinstance(node, Var) or not node.args[0].is_Mul:
        return None
    c, rest = _split_constant(node.args[0])
    return c**2 * Var(rest) if c != 1 and not _constant(rest) else None


def _variance_definition(node: sp.Basic) -> sp.Basic | None:
    if not isinstance(node, Var) or _constant(node.args[0]):
        return None
    x = node.args[0]
    return Ex(x**2) - Ex(x) ** 2


def _square_root(a: sp.Basic) -> sp.Basic | None:
    """X when a is X^2 written out (every exponent even), else None."""
    parts = []
    for f in sp.Mul.make_args(a):
        base, exp = f.as_base_exp()
        if not (exp.is_Integer and exp % 2 == 0) or _constant(f):
            return None
        parts.append(base ** (exp // 2))
    return sp.Mul(*parts)


def _pull_sums(term: sp.Basic, used: list[int]) -> tuple[list[tuple], sp.Basic]:
    """A product with sums in it as (limits, summand), every bound variable fresh."""
    limits: list[tuple] = []
    parts: list[sp.Basic] = []
    for f in sp.Mul.make_args(term):
        base, exp = f.as_base_exp()
        if isinstance(base, sp.Sum) and exp.is_Integer and exp > 0:
            for _ in range(int(exp)):
                body = base.function
                for v, lo, hi in base.limits:
                    used[0] += 1
                    new = sp.Symbol(f"ν{used[0]}", integer=True, positive=True)
                    body = body.xreplace({v: new})
                    limits.append((new, lo, hi))
                parts.append(body)
        else:
            parts.append(f)
    return limits, sp.Mul(*parts)


def _second_moment(node: sp.Basic) -> sp.Basic | None:
    if not isinstance(node, Ex):
        return None
    x = _square_root(node.args[0])
    return Var(x) + Ex(x) ** 2 if x is not None else None


def _is_entry(x: sp.Basic) -> bool:
    return isinstance(x, sp.Indexed) and x.base in FAMILIES


def _is_product(x: sp.Basic) -> bool:
    """q_a k_a for one index a: a product of the exercise."""
    if not x.is_Mul or len(x.args) != 2 or not all(_is_entry(f) for f in x.args):
        return False
    a, b = x.args
    return {a.base, b.base} == set(FAMILIES) and a.indices == b.indices


def _hypotheses(node: sp.Basic) -> sp.Basic | None:
    if isinstance(node, (Ex, Var)) and (_is_entry(node.args[0]) or _is_product(node.args[0])):
        return sp.S.Zero if isinstance(node, Ex) else sp.S.One
    return None


def _variance_of_product(node: sp.Basic) -> sp.Basic | None:
    if not isinstance(node, Var) or not node.args[0].is_Mul:
        return None
    c, rest = _split_constant(node.args[0])
    groups = _components(list(sp.Mul.make_args(rest)))
    return sp.Mul(*[Var(sp.Mul(*g)) for g in groups]) if c == 1 and len(groups) > 1 else None


def _shift(node: sp.Basic) -> sp.Basic | None:
    if not isinstance(node, Var) or not node.args[0].is_Add:
        return None
    kept = [t for t in node.args[0].args if not _constant(t)]
    return Var(sp.Add(*kept)) if kept and len(kept) < len(node.args[0].args) else None


def _normal_moments(node: sp.Basic) -> sp.Basic | None:
    if isinstance(node, Ex) and node.args[0].is_Pow and _is_entry(node.args[0].base):
        e = node.args[0].exp
        return {3: sp.S.Zero, 4: sp.Integer(3)}.get(int(e)) if e.is_Integer else None
    return None


def _scaling_slip(node: sp.Basic) -> sp.Basic | None:
    if not isinstance(node, Var) or not node.args[0].is_Mul:
        return None
    c, rest = _split_constant(node.args[0])
    return c * Var(rest) if c != 1 and not _constant(rest) else None


def _square_of_mean(node: sp.Basic) -> sp.Basic | None:
    if not isinstance(node, Ex):
        return None
    x = _square_root(node.args[0])
    return Ex(x) ** 2 if x is not None else None


def _dependent_factors(node: sp.Basic) -> sp.Basic | None:
    if not isinstance(node, Ex):
        return None
    c, rest = _split_constant(node.args[0])
    factors = [
        b
        for f in sp.Mul.make_args(rest)
        for b in [f.as_base_exp()]
        for _ in range(int(b[1]) if b[1].is_Integer and b[1] > 0 else 1)
    ]
    parts = [b if e.is_Integer and e > 0 else b**e for b, e in factors]
    if len(parts) < 2 or len(_components(parts)) == len(parts):
        return None
    return c * sp.Mul(*[Ex(p) for p in parts])


def _dependent_variances(node: sp.Basic) -> sp.Basic | None:
    if not isinstance(node, Var):
        return None
    a = node.args[0]
    if a.is_Add and len(_components([t for t in a.args if not _constant(t)])) < len(a.args):
        return sp.Add(*[Var(t) for t in a.args])
    if isinstance(a, sp.Sum) and _variances_add(node) is None:
        return sp.Sum(Var(a.function), *a.limits)
    return None


RULES = (
    NamedRule("linearity of expectation", _linearity),
    NamedRule("E of a product of independent factors", _independence),
    NamedRule("variances of independent terms add", _variances_add),
    NamedRule(r"$\operatorname{Var}(aX) = a^2 \operatorname{Var}(X)$", _scaling),
    NamedRule(r"$\operatorname{Var}(X) = \mathbb{E}[X^2] - \mathbb{E}[X]^2$", _variance_definition),
    NamedRule(r"$\mathbb{E}[X^2] = \operatorname{Var}(X) + \mathbb{E}[X]^2$", _second_moment),
    NamedRule("hypothesis: mean 0, variance 1", _hypotheses, substitution=True),
)
EXTRA = (
    NamedRule(
        r"$\operatorname{Var}(XY) = \operatorname{Var}(X) \operatorname{Var}(Y)$",
        _variance_of_product,
        "it holds here only because the means are 0, and it is not one of the module's rules: "
        r"use $\operatorname{Var}(X) = \mathbb{E}[X^2] - \mathbb{E}[X]^2$ and independence",
    ),
    NamedRule(
        r"$\operatorname{Var}(X + c) = \operatorname{Var}(X)$",
        _shift,
        "shifting by a constant is not one of the module's rules",
    ),
    NamedRule(
        r"normal moments ($\mathbb{E}[x^3] = 0$, $\mathbb{E}[x^4] = 3$)",
        _normal_moments,
        "the exercise assumes only mean 0, variance 1 and independence, not normal entries",
    ),
)
MISTAKES = (
    NamedRule(
        r"$\operatorname{Var}(aX) = a \operatorname{Var}(X)$",
        _scaling_slip,
        r"a constant comes out of a variance squared: $\operatorname{Var}(aX) = a^2 \operatorname{Var}(X)$",
    ),
    NamedRule(
        r"$\mathbb{E}[X^2] = \mathbb{E}[X]^2$",
        _square_of_mean,
        r"$\mathbb{E}[X^2]$ is $\operatorname{Var}(X) + \mathbb{E}[X]^2$, not $\mathbb{E}[X]^2$: "
        "the square of the mean leaves out the variance",
    ),
    NamedRule(
        r"$\mathbb{E}[XY] = \mathbb{E}[X]\mathbb{E}[Y]$ for dependent factors",
        _dependent_factors,
        "these factors are not independent (an entry, or $q_i$ and $q_j$ when $i = j$, "
        r"appears in both): $\mathbb{E}[XY] = \mathbb{E}[X]\,\mathbb{E}[Y]$ needs independence",
    ),
    NamedRule(
        "variances of dependent terms add",
        _dependent_variances,
        "variances add only over independent terms",
    ),
)


def rewrite_all(e: sp.Basic, rule: Rule) -> sp.Basic:
    """``e`` with ``rule`` applied at every E and Var it matches (innermost first)."""
    if not e.args or isinstance(e, sp.Indexed):
        return e
    new = e.func(*[rewrite_all(a, rule) for a in e.args])
    if isinstance(new, (Ex, Var)):
        out = rule(new)
        return out if out is not None else new
    return new


def fact_rule(lhs: sp.Basic, rhs: sp.Basic) -> Rule | None:
    """A rule from a proved line: lhs -> rhs anywhere, free indices matching any index."""
    if _constant(lhs) and not lhs.atoms(Ex, Var):
        return None
    free = sorted((s for s in lhs.free_symbols if s.is_integer and s != D_K), key=str)
    wild = {s: sp.Wild(f"w_{s}", properties=[lambda x: x.is_integer]) for s in free}
    pattern, target = lhs.xreplace(wild), rhs.xreplace(wild)

    def rule(node: sp.Basic) -> sp.Basic | None:
        m = node.match(pattern) if wild else ({} if node == pattern else None)
        return target.xreplace(m) if m is not None else None

    return rule


# -- truth ----------------------------------------------------------------------------------
#: Why a side has no value: a moment of several entries the hypotheses leave open.
_UNDETERMINED = "an expectation the exercise's hypotheses (mean 0, variance 1, independence) do not determine"


def value(e: sp.Basic, normal: bool = False) -> sp.Expr:
    """E and Var evaluated exactly for symbolic d_k by :mod:`symattn.proof.expectation`.

    Entries have mean 0 and variance 1; ``normal`` also allows third and fourth moments of
    one entry (those of a normal variable), which the exercise's hypotheses leave open.
    """
    from ...proof.equivalence import canonical
    from ...proof.expectation import Expectation, ExpectationError, Family

    model = Expectation(
        [Family(Q, normal=normal, open_moments=True), Family(K, normal=normal, open_moments=True)]
    )
    try:
        out = sp.expand(canonical(model.reduce(e)))
    except ExpectationError:
        raise Unsupported(_UNDETERMINED) from None  # its own words are SymPy's: q[i]^2
    for pair in DISTINCT:  # within the case i != j: their delta is 0
        out = out.xreplace(
            {
                sp.KroneckerDelta(*sorted(pair, key=str)): 0,
                sp.KroneckerDelta(*sorted(pair, key=str, reverse=True)): 0,
            }
        )
    return sp.expand(out)


def truth(lhs: sp.Basic, rhs: sp.Basic) -> str:
    """ "true", "normal" (true only for normal entries) or "false"."""
    try:
        general = value(lhs) - value(rhs)
    except Unsupported:
        general = None
    else:
        general = sp.simplify(general)
        if general == 0:
            return "true"
        if not any(isinstance(f, AppliedUndef) for f in general.atoms(sp.Function)):
            return "false"  # no moment left open: the normal law cannot make it true
    diff = sp.simplify(value(lhs, normal=True) - value(rhs, normal=True))
    return "normal" if diff == 0 else "false"


def shifted_range(lhs: sp.Basic, rhs: sp.Basic) -> tuple[str, str] | None:
    """The named slip of a sum whose index range is shifted (i = 0..d_k, i = 1..d_k - 1): the
    step becomes true once every sum runs over i = 1..d_k again. (Why it is wrong, its name.)"""

    def restore(e: sp.Basic) -> sp.Basic:
        return e.replace(
            lambda x: isinstance(x, sp.Sum) and len(x.limits) == 1 and x.limits[0][1:] != (1, D_K),
            lambda x: sp.Sum(x.function, (x.limits[0][0], 1, D_K)),
        )

    fixed_l, fixed_r = restore(lhs), restore(rhs)
    if (fixed_l, fixed_r) == (lhs, rhs):
        return None
    try:
        if truth(fixed_l, fixed_r) != "true":
            return None
    except Unsupported:
        return None
    return (
        "the index range is shifted: z sums q_i k_i over i = 1, ..., d_k, so each sum has d_k terms",
        "index range shifted",
    )


def difference_text(lhs: sp.Basic, rhs: sp.Basic) -> str:
    """Why two sides differ when no small counterexample is found: their exact values."""
    try:
        a, b = value(lhs), value(rhs)
    except Unsupported:
        return "the two sides differ as exact expressions; no small counterexample was found to show"
    return (
        f"the two sides differ for a symbolic $d_k$: the left side is ${_tex(a)}$, the right "
        f"${_tex(b)}$ (no counterexample is shown: at the widths tried, $d_k = 1, 2, 3$, the two sides agree)"
    )


# -- counterexamples ------------------------------------------------------------------------
def _at(e: sp.Basic, n: int, point: dict, law: str = "rademacher") -> sp.Basic:
    from sympy import stats

    def variable(name: str) -> sp.Basic:
        return stats.Rademacher(name) if law == "rademacher" else stats.Normal(name, 0, 1)

    e = e.subs(D_K, n)
    e = e.replace(lambda s: isinstance(s, sp.Sum), lambda s: s.doit())
    free = sorted((s for s in e.free_symbols if s.is_integer), key=str)
    e = e.subs({s: min(t + 1, n) for t, s in enumerate(free)})
    rvs = {fam[t]: variable(f"{fam.label}{t}") for fam in FAMILIES for t in range(1, n + 1)}
    e = e.xreplace(rvs)

    def ev(node: sp.Basic) -> sp.Basic:
        if not node.args:
            return node
        node = node.func(*[ev(a) for a in node.args]) if not isinstance(node, (Ex, Var)) else node
        if isinstance(node, Ex):
            return sp.expand(stats.E(ev(node.args[0])))
        if isinstance(node, Var):
            return sp.expand(stats.variance(ev(node.args[0])))
        return node

    out = ev(e)
    if point:  # entries left outside E and Var: a random equation, shown at given values
        out = out.xreplace({rvs[k]: v for k, v in point.items() if k in rvs})
    return sp.simplify(out)


def _tex(value: sp.Basic) -> str:
    """A value of the counterexample as LaTeX, for the feedback's $...$."""
    from ...proof.latex import latex

    return latex(value)


_LAWS = {
    "rademacher": r"each $\pm 1$ with probability $1/2$",
    "normal": "standard normal",
}


def counterexample(lhs: sp.Basic, rhs: sp.Basic) -> str | None:
    """A width d_k and a distribution with mean 0 and variance 1 that tell the sides apart.

    Computed with ``sympy.stats`` on actual random variables, independently of :func:`value`.
    """
    random_eq = bool(random_atoms(lhs) | random_atoms(rhs))
    for n, law in ((2, "rademacher"), (1, "rademacher"), (3, "rademacher"), (1, "normal")):
        point = {fam[t]: sp.Integer(t + (1 if fam is Q else 2)) for fam in FAMILIES for t in range(1, n + 1)}
        a = _at(lhs, n, point if random_eq else {}, law)
        b = _at(rhs, n, point if random_eq else {}, law)
        if sp.simplify(a - b) != 0:
            if random_eq:
                values = ", ".join(f"${_tex(k)} = {v}$" for k, v in point.items())
                sides = f"the left side is ${_tex(a)}$, the right ${_tex(b)}$"
                return f"at $d_k = {n}$ with {values}: {sides}"
            return (
                f"at $d_k = {n}$, with $q_i$, $k_i$ independent and {_LAWS[law]} (mean 0, variance 1; "
                f"computed with sympy.stats): the left side is ${_tex(a)}$, the right ${_tex(b)}$"
            )
    return None


# -- each rule a checked lemma ----------------------------------------------------------------
#: Where each rule applies (LaTeX a learner could write); the lemma checks the rule as
#: implemented on these, against sympy.stats at concrete widths.
SAMPLES: dict[str, tuple[str, ...]] = {
    "linearity of expectation": (r"\mathbb{E}[2 z + q_1]", r"\mathbb{E}[z^2]"),
    "E of a product of independent factors": (r"\mathbb{E}[q_1^2 k_1^2]", r"\mathbb{E}[q_1 k_2 q_2]"),
    "variances of independent terms add": (r"\operatorname{Var}(z)", r"\operatorname{Var}(q_1 + k_1 q_2)"),
    r"$\operatorname{Var}(aX) = a^2 \operatorname{Var}(X)$": (
        r"\operatorname{Var}(z/\sqrt{d_k})",
        r"\operatorname{Var}(3 q_1 k_1)",
    ),
    r"$\operatorname{Var}(X) = \mathbb{E}[X^2] - \mathbb{E}[X]^2$": (
        r"\operatorname{Var}(z)",
        r"\operatorname{Var}(q_1 k_1)",
    ),
    r"$\mathbb{E}[X^2] = \operatorname{Var}(X) + \mathbb{E}[X]^2$": (
        r"\mathbb{E}[q_1^2 k_1^2]",
        r"\mathbb{E}[z^2]",
    ),
    "hypothesis: mean 0, variance 1": (
        r"\operatorname{Var}(q_1 k_1) + \mathbb{E}[k_2]",
        r"\operatorname{Var}(k_1)",
    ),
    r"$\operatorname{Var}(XY) = \operatorname{Var}(X) \operatorname{Var}(Y)$": (
        r"\operatorname{Var}(q_1 k_1)",
    ),
    r"$\operatorname{Var}(X + c) = \operatorname{Var}(X)$": (r"\operatorname{Var}(z + 3)",),
    r"normal moments ($\mathbb{E}[x^3] = 0$, $\mathbb{E}[x^4] = 3$)": (
        r"\mathbb{E}[q_1^4]",
        r"\mathbb{E}[q_1^3]",
    ),
}


def _rule_holds(rule: NamedRule, n: int) -> bool:
    from .step_reader import parse_expression

    law = "normal" if rule.name.startswith("normal") else "rademacher"
    for text in SAMPLES[rule.name]:
        e = canon(build(parse_expression(text)))
        out = renormal(rewrite_all(e, rule.rewrite))
        if out == e or sp.simplify(_at(e, n, {}, law) - _at(out, n, {}, law)) != 0:
            return False
    return True


def rule_lemmas() -> list:
    """Every rule of :data:`RULES` and :data:`EXTRA` as a :class:`~symattn.proof.Lemma`."""
    return shared_rule_lemmas(
        RULES + EXTRA,
        "{name}, as rewritten by symattn, holds for independent entries of mean 0 and "
        "variance 1 (each ±1, or normal), checked with sympy.stats",
        _rule_holds,
        lambda r: (1, 2) if r.name.startswith("normal") else (2, 3),
    )
