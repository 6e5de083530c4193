"""Why scores are divided by sqrt(d_k).

Theorem. If the entries q_i, k_i of a query and a key are independent with mean 0 and
variance 1, the score z = q . k has E[z] = 0 and Var(z) = d_k, so a typical score has size
sqrt(d_k), and Var(z / sqrt(d_k)) = 1 at every width. With means m_q, m_k and standard
deviations s_q, s_k, Var(q . k) = d (s_q^2 s_k^2 + m_q^2 s_k^2 + m_k^2 s_q^2). A gap g between
two scores makes one softmax weight e^g times the other.

Every step is proved for a symbolic width. E and Var are reduced by the rule system of
:mod:`symattn.proof.expectation` (linearity over sums, independence across families, the moment
table E[x_a x_b] = m^2 + s^2 delta_ab, Var X = E[X^2] - E[X]^2), whose rules are lemmas
checked against ``sympy.stats`` on actual normal random variables: the expectation integrals
``sympy.stats`` states, evaluated exactly by :mod:`symattn.proof.gaussian` (the tests run each
lemma with ``sympy.stats``' own evaluation too: about six times slower). As an extra cross-check,
the tests evaluate each step with E or Var by ``sympy.stats`` at d = 1 and 2 through
``concrete`` (18 s of integrals, so not in ``verify``). (``sympy.stats`` alone cannot state
these facts for a symbolic d: asked for the variance of ``Sum(q*k, (i, 1, d))`` with un-indexed
q, k it answers d**2, correctly, because that sum is d*q*k.)
"""

from __future__ import annotations

from functools import cache
from typing import Any

import sympy as sp
from sympy import stats

from symattn.core.numeric import lambdify_numpy
from symattn.proof import Derivation, Lemma, gaussian
from symattn.proof.expectation import Expectation, Family, normals, rule_matches_stats
from symattn.proof.latex import written
from symattn.proof.operators import Ex, Var

from .planted import (
    TINY,
    Mutation,
    adds_for_subtracts,
    claimed,
    defined,
    drops_root,
    false_lemma,
    figure,
    lemma_fields,
    rendering,
    right_side,
    shown_as,
    statement,
    swaps_squares,
)

NAME = "variance_scaling"
ORDER = 20  # where the course module meets it: derivations.NAMES is sorted by it
TITLE = r"Why divide by $\sqrt{d_k}$"

d_k = sp.Symbol("d_k", integer=True, positive=True)
d = sp.Symbol("d", integer=True, positive=True)
i, j = sp.symbols("i j", integer=True, positive=True)
a = sp.Symbol("a", positive=True)
g = sp.Symbol("g", real=True)
m_q, m_k = sp.symbols("m_q m_k", real=True)
s_q, s_k = sp.symbols("s_q s_k", positive=True)

# Standard entries (mean 0, variance 1) and general ones (means m, standard deviations s):
# distinct objects that print alike.
q, k = sp.IndexedBase("q"), sp.IndexedBase("k")
# The general entries print as q~ and k~: one printed name, one meaning (the engine refuses two
# families printed alike).
qg = sp.IndexedBase(sp.Symbol(r"\tilde{q}", real=True))
kg = sp.IndexedBase(sp.Symbol(r"\tilde{k}", real=True))


def qk(x: sp.IndexedBase, y: sp.IndexedBase, index: sp.Symbol) -> sp.Expr:
    """The product x_i y_i, kept in the order the module writes it."""
    return sp.Mul(x[index], y[index], evaluate=False)


z = sp.Sum(qk(q, k, i), (i, 1, d_k))
zg = sp.Sum(qk(qg, kg, i), (i, 1, d))


# -- meaning at a concrete width ---------------------------------------------------------
def _variables(base: sp.IndexedBase, n: int) -> dict[sp.Indexed, sp.Basic]:
    name = str(base.label)
    if base in (q, k):
        return {base[t]: stats.Normal(f"{name}{t}", 0, 1) for t in range(1, n + 1)}
    mean, sd, letter = (m_q, s_q, "q") if base == qg else (m_k, s_k, "k")
    return {base[t]: stats.Normal(f"{letter}{t}g", mean, sd) for t in range(1, n + 1)}


@cache
def _stats(kind: type, arg: sp.Expr, oracle: Any) -> sp.Expr:
    value = oracle.E(arg) if kind is Ex else oracle.variance(arg)
    return sp.expand(value)


def concrete(expr: Any, n: int, oracle: Any = gaussian) -> Any:
    """expr at width n: sums written out, entries as normal random variables, E and Var done
    (by ``oracle``: sympy.stats's integrals evaluated by :mod:`symattn.proof.gaussian`, or
    ``sympy.stats`` itself)."""
    e = sp.sympify(expr).subs({d_k: n, d: n})
    e = e.replace(lambda x: isinstance(x, sp.Sum), lambda x: x.doit())
    e = e.subs({i: 1, j: min(2, n)})  # a statement about any i (and j) is checked at i = 1, j = 2
    rvs: dict[sp.Indexed, sp.Basic] = {}
    for base in (q, k, qg, kg):
        rvs.update(_variables(base, n))
    e = e.xreplace(rvs)
    return e.replace(lambda x: isinstance(x, (Ex, Var)), lambda x: _stats(type(x), x.args[0], oracle))


# -- lemmas -------------------------------------------------------------------------------
def _linearity(n: int, oracle: Any = gaussian, terms_kept: int | None = None) -> bool:
    """E of the sum, one integral over all 2n variables against their joint density, against
    the sum of the terms' expectations, each over its own two variables (sympy.stats would split
    the sum itself, and so compare the same integrals). The twin keeps only the first term."""
    x, y = normals("x", n, m_q, s_q), normals("y", n, m_k, s_k)  # nonzero means: no term's E is 0
    terms = [x[t] * y[t] + x[t] for t in range(n)]
    whole = oracle.evaluate(gaussian.joint(sum(terms)))
    return sp.expand(whole - sum(oracle.E(t) for t in terms[:terms_kept])) == 0


def _linearity_twin(n: int) -> bool:
    return _linearity(n, terms_kept=1)


def _independence(n: int, oracle: Any = gaussian, same: bool = False) -> bool:
    """E[x^n y^n] = E[x^n] E[y^n] for independent x, y (the twin: for x and x itself)."""
    x = stats.Normal("x", m_q, s_q)
    y = x if same else stats.Normal("y", m_k, s_k)
    return sp.expand(oracle.E(x**n * y**n) - oracle.E(x**n) * oracle.E(y**n)) == 0


def _independence_twin(n: int) -> bool:
    return _independence(n, same=True)


def _variances_add(n: int, oracle: Any = gaussian, terms_kept: int | None = None) -> bool:
    x, y = normals("x", n), normals("y", n)
    terms = [x[t] * y[t] for t in range(n)]
    return sp.expand(oracle.variance(sum(terms)) - sum(oracle.variance(t) for t in terms[:terms_kept])) == 0


def _variances_add_twin(n: int) -> bool:
    return _variances_add(n, terms_kept=1)


def _scaling(n: int, oracle: Any = gaussian, power: int = 2) -> bool:
    x = stats.Normal("x", m_q, s_q)
    return sp.expand(oracle.variance(a * x**n) - a**power * oracle.variance(x**n)) == 0


def _scaling_twin(n: int) -> bool:
    return _scaling(n, power=1)


def _moments(n: int, oracle: Any = gaussian, delta: bool = True) -> bool:
    xs = normals("x", n, m_q, s_q)
    return all(
        sp.expand(oracle.E(xs[u] * xs[v]) - m_q**2 - s_q**2 * (sp.KroneckerDelta(u, v) if delta else 1)) == 0
        for u in range(n)
        for v in range(n)
    )


def _moments_twin(n: int) -> bool:
    return _moments(n, delta=False)


def _rules_twin(n: int) -> bool:
    """The rules' E[q_1 q_2] against the false m^2 + s^2 (no delta: q_1 and q_2 taken as one
    variable), on the same normal variables as the lemma's check."""
    qs = normals("q", n, m_q, s_q)
    return sp.expand(gaussian.E(qs[0] * qs[min(2, n) - 1]) - (m_q**2 + s_q**2)) == 0


# At n = 1 the rules never meet two different entries (E[q_1 q_2] is E[q_1^2] there), so their
# check starts at 2, as do linearity and additivity (a one-term sum compared with itself).
RULES_AGREE = Lemma(
    "the rules agree with sympy.stats",
    "E and Var of q . k by the rules = sympy.stats on d normal variables",
    rule_matches_stats,
    sizes=(2, 3),
    cost=1.5,
    twin=_rules_twin,
    twin_statement="E[q_1 q_2] = m^2 + s^2, two entries taken as one",
)
LINEARITY = Lemma(
    "linearity of expectation",
    "E[sum X_i] = sum E[X_i]",
    _linearity,
    sizes=(2, 3),
    cost=0.05,
    twin=_linearity_twin,
    twin_statement="E[sum X_i] = E[X_1], the other terms dropped",
)
INDEPENDENCE = Lemma(
    "independence",
    "E[X Y] = E[X] E[Y] for independent X, Y",
    _independence,
    sizes=(1, 2),
    cost=0.15,
    twin=_independence_twin,
    twin_statement="E[X X] = E[X] E[X]: a factor that is not independent",
)
VARIANCES_ADD = Lemma(
    "variances of independent terms add",
    "Var(sum X_i) = sum Var(X_i)",
    _variances_add,
    sizes=(2, 3),
    cost=0.1,
    twin=_variances_add_twin,
    twin_statement="Var(sum X_i) = Var(X_1), the other terms dropped",
)
SCALING = Lemma(
    "scaling rule",
    "Var(a X) = a^2 Var(X)",
    _scaling,
    sizes=(1, 2),
    cost=0.3,
    twin=_scaling_twin,
    twin_statement="Var(a X) = a Var(X)",
)
MOMENTS = Lemma(
    "second moments",
    "E[q_i q_j] = m^2 + s^2 delta_ij for independent entries",
    _moments,
    sizes=(2,),
    cost=0.1,
    twin=_moments_twin,
    twin_statement="E[q_i q_j] = m^2 + s^2, the delta dropped",
)


# -- the proof ----------------------------------------------------------------------------
STANDARD = Expectation([Family(q), Family(k)])
GENERAL = Expectation([Family(qg, m_q, s_q**2), Family(kg, m_k, s_k**2)])


class _Rules:
    """The standard rules for q, k and the general ones for the q, k with means and variances."""

    #: The random families: the standard q, k and the general ones.
    random = (q, k, qg, kg)

    def __init__(self) -> None:
        self.used: set[str] = set()

    def reduce(self, expr: Any) -> Any:
        model = GENERAL if any(b in (qg, kg) for b in _bases(expr)) else STANDARD
        model.used = self.used
        return model.reduce(expr)


def _bases(expr: Any) -> set[sp.IndexedBase]:
    return {x.base for x in sp.sympify(expr).atoms(sp.Indexed)}


def _unevaluated_sqrt(n: int) -> sp.Expr:
    return sp.Pow(n, sp.S.Half, evaluate=False)


def derivation() -> Derivation:
    D = Derivation(
        NAME,
        TITLE,
        r"If the entries $q_i, k_i$ of a query and a key are independent with mean 0 and variance 1, "
        r"the score $z = \sum_{i=1}^{d_k} q_i k_i$ has $\operatorname{Var}(z) = d_k$, so dividing it by "
        r"$\sqrt{d_k}$ gives variance 1 at every width.",
        assumptions=[
            r"$q_i, k_i$ independent for integers $1 \le i \le d_k$, with mean 0 and variance 1 "
            "(the standard case)",
            r"in the general case: entries $\tilde{q}_i, \tilde{k}_i$ with means $m_q, m_k$ and standard "
            r"deviations $s_q, s_k > 0$",
            r"the widths $d_k, d$ positive integers",
        ],
        expectation=_Rules(),
        concrete=concrete,
        ranges={i: (1, d_k)},  # as the assumptions show: a delta summed out stays in range
    )
    E, V = Ex, Var
    sq = sp.Symbol("sigma_z", positive=True)
    general = general_formula()
    # The module's names for the score and the general case's score; verify proves each side
    # shown with them (and in the module's order of terms) is the side checked.
    zs, zgs = sp.Symbol("z", real=True), sp.Symbol(r"\tilde{z}", real=True)
    D.abbreviations = {zs: z, zgs: zg}
    D.claim(E(z), 0).claim(V(z), d_k).claim(V(z / sp.sqrt(d_k)), 1).claim(V(zg), general)

    D.section("The mean is zero")
    D.step(
        E(z),
        sp.Sum(E(qk(q, k, i)), (i, 1, d_k)),
        "linearity of expectation",
        lemma=LINEARITY,
        shown_lhs=E(zs),
    )
    D.then(
        sp.Sum(E(q[i]) * E(k[i]), (i, 1, d_k)),
        "$q_i$ and $k_i$ are independent",
        lemma=INDEPENDENCE,
        shown_rhs=sp.Sum(_times(E(q[i]), E(k[i])), (i, 1, d_k)),
    )
    D.then(sp.S.Zero, r"$\mathbb{E}[q_i] = 0$")

    D.section("Each product has variance 1")
    D.step(
        V(qk(q, k, i)),
        E(qk(q, k, i) ** 2) - E(qk(q, k, i)) ** 2,
        "definition of variance",
        shown_rhs=_minus(E(sp.Pow(qk(q, k, i), 2, evaluate=False)), E(qk(q, k, i)) ** 2),
    )
    D.then(
        E(q[i] ** 2) * E(k[i] ** 2) - 0,
        r"independence, and $\mathbb{E}[q_i k_i] = 0$",
        lemma=INDEPENDENCE,
        shown_rhs=_times(E(q[i] ** 2), E(k[i] ** 2)),
    )
    D.then(
        sp.Mul(1, 1, evaluate=False),
        r"$\mathbb{E}[q_i^2] = \operatorname{Var}(q_i) = 1$, likewise for $k_i$",
    )
    D.then(sp.S.One, "arithmetic")

    D.section("The variances add")
    D.step(
        V(z),
        sp.Sum(V(qk(q, k, i)), (i, 1, d_k)),
        "variances of independent terms add",
        lemma=VARIANCES_ADD,
        shown_lhs=V(zs),
    )
    D.then(sp.Sum(1, (i, 1, d_k)), "each product has variance 1")
    D.then(d_k, "a sum of $d_k$ ones")

    D.section(r"A typical score has size $\sqrt{d_k}$")
    D.step(
        sq,
        sp.sqrt(V(z)),
        "the standard deviation is the square root of the variance",
        method="definition",
        definition={sq: sp.sqrt(V(z))},
        shown_rhs=sp.sqrt(V(zs)),
    )
    D.then(sp.sqrt(d_k), r"$\operatorname{Var}(z) = d_k$")
    D.step(_unevaluated_sqrt(64), sp.Integer(8), "at $d_k = 64$")
    D.approx(_unevaluated_sqrt(128), "11.3", "at $d_k = 128$", digits=3)

    D.section("Scaling restores variance 1")
    D.step(
        V(z / sp.sqrt(d_k)),
        V(z) / d_k,
        r"scaling rule $\operatorname{Var}(aX) = a^2 \operatorname{Var}(X)$",
        lemma=SCALING,
        shown_lhs=V(zs / sp.sqrt(d_k)),
        shown_rhs=V(zs) / d_k,
    )
    D.then(sp.Mul(d_k, sp.Pow(d_k, -1, evaluate=False), evaluate=False), r"$\operatorname{Var}(z) = d_k$")
    D.then(sp.S.One, "arithmetic")

    D.section("The general case: means and variances")
    D.step(
        E(zg),
        sp.Sum(E(qg[i]) * E(kg[i]), (i, 1, d)),
        "linearity and independence",
        lemma=INDEPENDENCE,
        shown_lhs=E(zgs),
        shown_rhs=sp.Sum(_times(E(qg[i]), E(kg[i])), (i, 1, d)),
    )
    D.then(
        d * m_q * m_k,
        r"$\mathbb{E}[\tilde{q}_i] = m_q$, $\mathbb{E}[\tilde{k}_i] = m_k$",
        shown_rhs=_times(d, m_q, m_k),
    )
    D.step(
        E(sp.Pow(zg, 2, evaluate=False)),
        sp.Sum(sp.Sum(E(qg[i] * qg[j]) * E(kg[i] * kg[j]), (j, 1, d)), (i, 1, d)),
        r"expand the square; linearity; $\tilde{q}$ independent of $\tilde{k}$",
        lemma=LINEARITY,
        shown_lhs=E(zgs**2),
        shown_rhs=sp.Sum(sp.Sum(_times(E(qg[i] * qg[j]), E(kg[i] * kg[j])), (j, 1, d)), (i, 1, d)),
    )
    q_moment = m_q**2 + s_q**2 * sp.KroneckerDelta(i, j)
    k_moment = m_k**2 + s_k**2 * sp.KroneckerDelta(i, j)
    D.then(
        sp.Sum(sp.Sum(q_moment * k_moment, (j, 1, d)), (i, 1, d)),
        r"second moments $\mathbb{E}[\tilde{q}_i \tilde{q}_j] = m_q^2 + s_q^2 \delta_{ij}$",
        lemma=MOMENTS,
        shown_rhs=sp.Sum(sp.Sum(_times(q_moment, k_moment), (j, 1, d)), (i, 1, d)),
    )
    mean_squared = _times(d**2, m_q**2, m_k**2)
    D.then(
        d**2 * m_q**2 * m_k**2 + general,
        "the sum over $j$ removes the delta; then sum over $i$",
        shown_rhs=sp.Add(mean_squared, general_shown(), evaluate=False),
    )
    D.step(
        V(zg),
        E(sp.Pow(zg, 2, evaluate=False)) - E(zg) ** 2,
        "definition of variance",
        lemma=RULES_AGREE,
        shown_lhs=V(zgs),
        shown_rhs=_minus(E(zgs**2), E(zgs) ** 2),
    )
    D.then(
        d**2 * m_q**2 * m_k**2 + general - sp.Pow(d * m_q * m_k, 2, evaluate=False),
        "the two results above",
        shown_rhs=sp.Add(
            mean_squared, general_shown(), -sp.Pow(_times(d, m_q, m_k), 2, evaluate=False), evaluate=False
        ),
    )
    D.then(general, "the $d^2$ terms cancel", shown_rhs=general_shown())

    D.section("Without scaling, softmax saturates")
    z_i, z_j = sp.symbols("z_i z_j", real=True)
    D.step(
        sp.Mul(sp.exp(z_i), sp.Pow(sp.exp(z_j), -1, evaluate=False), evaluate=False),
        sp.exp(z_i - z_j),
        r"two softmax weights $p_i = e^{z_i} / \sum_k e^{z_k}$ and $p_j$: in $p_i / p_j$ the denominators "
        "cancel",
    )
    D.then(
        sp.exp(g),
        "write $g = z_i - z_j$ for the gap",
        method="definition",
        definition={g: z_i - z_j},
    )
    D.approx(sp.exp(20, evaluate=False), "4.85E+8", "a gap of 20, common at $d_k = 128$", digits=3)
    D.unchecked = {
        "d_k = 128": "the width at which the module calls a gap of 20 common: context, not a claim"
    }
    D.approx(
        sp.exp(sp.Rational(127, 10), evaluate=False), "3.28E+5", "the gap of 12.7 in section 6.2", digits=3
    )

    D.numeric_check(
        r"lambdified $\operatorname{Var}(\tilde{z})$ formula vs the rules at $d = 1, \dots, 8$",
        _check_formula,
    )
    return D


def _times(*factors: Any) -> sp.Expr:
    """A product kept in the order written (q before k, as the module writes it)."""
    return sp.Mul(*factors, evaluate=False)


def _minus(a: Any, b: Any) -> sp.Expr:
    """a - b, kept in that order."""
    return written(sp.Add(a, -b, evaluate=False))


def _check_formula() -> tuple[float, float]:
    """The lambdified general formula against the rules' exact values at d = 1..8."""
    f = lambdify_numpy((d, m_q, m_k, s_q, s_k), general_formula())
    point = {m_q: sp.Rational(1, 2), m_k: sp.Rational(-3, 2), s_q: sp.Rational(3, 2), s_k: 2}
    args = [float(point[s]) for s in (m_q, m_k, s_q, s_k)]
    value = GENERAL.variance(zg)
    exact = [(n, value.subs(d, n).doit().subs(point)) for n in range(1, 9)]
    return max(abs(f(n, *args) - float(v)) / abs(float(v)) for n, v in exact), 1e-15


def general_formula() -> sp.Expr:
    return d * (s_q**2 * s_k**2 + m_q**2 * s_k**2 + m_k**2 * s_q**2)


def general_shown() -> sp.Expr:
    """The general formula as written: d (s_q^2 s_k^2 + m_q^2 s_k^2 + m_k^2 s_q^2)."""
    terms = (_times(s_q**2, s_k**2), _times(m_q**2, s_k**2), _times(m_k**2, s_q**2))
    return _times(d, sp.Add(*terms, evaluate=False))


# -- planted errors: what the page says and prints (derivations.mutations gathers them) ----------
MUTATIONS = [
    Mutation(
        NAME,
        "the theorem says Var(z) = sqrt(d_k)",
        statement("theorem", r"\operatorname{Var}(z) = d_k", r"\operatorname{Var}(z) = \sqrt{d_k}"),
        why="the theorem",
    ),
    Mutation(
        NAME,
        "the scaling rule written Var(aX) = a Var(X)",
        statement("rules", r"a^2 \operatorname{Var}(X)", r"a \operatorname{Var}(X)"),
        why="the rule of step",
    ),
    Mutation(
        NAME,
        "a rule says E[q_i] = 1",
        statement("rules", r"$\mathbb{E}[q_i] = 0$", r"$\mathbb{E}[q_i] = 1$"),
        why="the rule of step",
    ),
    Mutation(
        NAME,
        "the second-moment rule without its delta",
        statement("rules", r"m_q^2 + s_q^2 \delta_{ij}", r"m_q^2 + s_q^2"),
        why="the rule of step",
    ),
    Mutation(
        NAME,
        "the assumptions say s_q, s_k < 0, where both are declared positive",
        statement("assumptions", "s_q, s_k > 0", "s_q, s_k < 0"),
        why="assumption",
    ),
    Mutation(
        NAME,
        "the widths' assumption dropped: d_k and d are declared positive, which the page then hides",
        statement("assumptions", "the widths $d_k, d$ positive integers", "the widths as in the module"),
        why="declared positive",
    ),
    Mutation(
        NAME,
        "an assumption d_k = 4 the proof does not use, which would make Var(z) = 4 a premise",
        statement(
            "assumptions",
            "the widths $d_k, d$ positive integers",
            "the widths $d_k, d$ positive integers; $d_k = 4$",
        ),
        why="does not use",
    ),
    Mutation(
        NAME,
        "a figure's width written d_k = 81 where the step takes sqrt(64)",
        statement("rules", "at $d_k = 64$", "at $d_k = 81$"),
        why="the rule of step",
    ),
    Mutation(NAME, "a printer that shows each square as a cube", rendering(_print_Pow=swaps_squares)),
    Mutation(NAME, "a printer that loses a square root", rendering(_print_Pow=drops_root)),
    Mutation(NAME, "a printer that writes a - b as a + b", rendering(_print_Add=adds_for_subtracts)),
]


# -- planted errors in the steps, claims, lemmas and models ---------------------------------
def _second_width(D: Derivation, old: sp.Basic) -> sp.Basic:
    """The step's right side with d_k replaced by another symbol printed d_k."""
    return old.xreplace({d_k: sp.Symbol("d_k", real=True)})


MUTATIONS += [
    Mutation(
        NAME,
        "Var(z) = d_k + (d_k-1)(d_k-2)(d_k-3): true at d_k = 1, 2, 3 only",
        right_side("a sum of $d_k$ ones", lambda D, old: old + (old - 1) * (old - 2) * (old - 3)),
    ),
    Mutation(NAME, "E[z] = 1", right_side(r"$\mathbb{E}[q_i] = 0$", lambda D, old: sp.S.One)),
    Mutation(
        NAME,
        "the wrong scaling rule Var(aX) = a Var(X)",
        right_side("scaling rule", lambda D, old: Var(z) / sp.sqrt(d_k)),
    ),
    Mutation(
        NAME,
        "E[q]^2 for E[q^2]",
        right_side(
            r"independence, and $\mathbb{E}[q_i k_i] = 0$",
            lambda D, old: Ex(q[i]) ** 2 * Ex(k[i]) ** 2,
        ),
    ),
    Mutation(
        NAME,
        "a mean dropped from the general formula: m_q s_k^2 for m_q^2 s_k^2",
        right_side("the $d^2$ terms cancel", lambda D, old: old.subs(m_q ** 2, m_q)),
    ),
    Mutation(NAME, "sqrt(128) ≈ 11.4", figure("at $d_k = 128$", "11.4")),
    Mutation(NAME, "e^20 ≈ 4.85e9: a wrong power of ten", figure("a gap of 20", "4.85E+9")),
    Mutation(
        NAME, "the theorem claims Var(z / sqrt(d_k)) = d_k", claimed(2, lambda r: d_k)
    ),
    Mutation(
        NAME,
        "the gap defined as z_i + z_j",
        defined("for the gap", lambda m: {k: v.args[0] - v.args[1] for k, v in m.items()}),
    ),
    Mutation(
        NAME, "a false independence lemma", false_lemma("$q_i$ and $k_i$ are independent")
    ),
    Mutation(
        NAME,
        "the page lets i run to 2 d_k, where the proof sums its deltas out for 1..d_k",
        statement("assumptions", r"$1 \le i \le d_k$", r"$1 \le i \le 2 d_k$"),
        why="which no assumption states",
    ),
    Mutation(
        NAME,
        "Var(z) = d_k + 10^-20",
        right_side("a sum of $d_k$ ones", lambda D, old: old + TINY),
    ),
    Mutation(
        NAME,
        "the general result shown as 2 d (s_q^2 s_k^2 + ...) where d (...) is checked",
        shown_as("the $d^2$ terms cancel", lambda D, old: 2 * old),
    ),
    Mutation(
        NAME,
        "linearity checked at width 1 only",
        lemma_fields("linearity of expectation", sizes=(1,)),
        why="vacuous at size 1",
    ),
    Mutation(
        NAME,
        "Var(2z) := 7: a definition of a formula",
        defined("square root of the variance", lambda old: {Var(2 * z): 7}),
        why="a definition introduces a name",
    ),
    Mutation(
        NAME,
        "a second d_k, with other assumptions",
        right_side("linearity of expectation", _second_width),
        why="printed as d_k",
    ),
    Mutation(
        NAME,
        "a float 1.0 in a symbolic step",
        right_side("linearity of expectation", lambda D, old: sp.Float(1.0) * old),
    ),
]
