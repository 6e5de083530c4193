"""Why a trial of the saturation lab needs only 1 + keys random numbers.

Theorem. Let q and the keys k_1, ..., k_M have independent N(0, 1) entries in d dimensions.
Given q, each score z_j = q . k_j is N(0, |q|^2); the scores of different keys are independent;
and |q|^2 is chi-square with d degrees of freedom. So the M scores of a trial can be drawn as
sqrt(X) g_j with X ~ chi2_d and g_j ~ N(0, 1), instead of drawing q and all M d key entries.

The proof goes through moment generating functions (a distribution is fixed by its MGF where
it exists, and a distribution on [0, oo) by its Laplace transform): every MGF is the
expectation integral of ``sympy.stats``, symbolically in q_i, r, s and d where it can, and the
product over d independent coordinates at d = 2 and 3 (at d = 1 the product has a single
factor, so there is nothing to check). The integrals over normal variables are evaluated
exactly by :mod:`symattn.proof.gaussian` (the tests also evaluate them with
``sympy.stats.E``); the chi-square Laplace transform, by ``sympy.stats``.
"""

from __future__ import annotations

import dataclasses
from functools import cache
from typing import Any

import numpy as np
import sympy as sp
from sympy import stats

from symattn.proof import Derivation, Lemma, StepFailed, gaussian
from symattn.proof.expectation import Expectation, Family, normals
from symattn.proof.latex import written
from symattn.proof.operators import Ex

from .planted import (
    Mutation,
    changed,
    drops_minus,
    lemma_fields,
    no_claims,
    rendering,
    right_side,
    statement,
    step_fields,
    step_with,
    swaps_squares,
)

NAME = "score_reduction"
ORDER = 30  # where the course module meets it: derivations.NAMES is sorted by it
TITLE = "Drawing scores without drawing keys"

d = sp.Symbol("d", integer=True, positive=True)
i = sp.Symbol("i", integer=True, positive=True)
t = sp.Symbol("t", real=True)
s = sp.Symbol("s", positive=True)
a = sp.Symbol("a", real=True)
r = sp.Symbol("r", positive=True)
q = sp.IndexedBase("q", real=True)
k = sp.IndexedBase("k", real=True)
k2 = sp.IndexedBase("k'", real=True)


def _independent_factors(n: int, oracle: Any = gaussian, one: bool = False) -> bool:
    """E[exp(t sum_i a x_i)] = prod_i E[exp(t a x_i)] for independent normal x_i (the twin: the
    same for x_1 + ... + x_1, n times the one variable, which is not a sum of independent ones)."""
    xs = normals("x", n)
    whole = oracle.E(sp.exp(t * sum(a * (xs[0] if one else x) for x in xs)))
    parts = sp.prod([oracle.E(sp.exp(t * a * x)) for x in xs])
    return sp.simplify(whole - parts) == 0


def _independent_factors_twin(n: int) -> bool:
    return _independent_factors(n, one=True)


# At d = 1 the product has one factor and the check compares a thing with itself (the twin
# passes there): it starts at 2.
INDEPENDENCE = Lemma(
    "independence",
    "E[prod f_i(X_i)] = prod E[f_i(X_i)]",
    _independent_factors,
    sizes=(2, 3),
    cost=0.2,
    twin=_independent_factors_twin,
    twin_statement="E[exp(t a (X_1 + ... + X_1))] = prod_i E[exp(t a X_i)]: one variable d times",
)


def _equal(lhs: sp.Expr, value: sp.Expr, rhs: sp.Expr) -> None:
    if sp.simplify(value - rhs) != 0:
        raise StepFailed(f"{NAME}: {lhs} = {value} != {rhs}")


def _gaussian_equal(lhs: sp.Expr, rhs: sp.Expr) -> str:
    """The step's sympy.stats expectation of normal variables, evaluated exactly, is the right side."""
    if not isinstance(lhs, stats.Expectation) or len(lhs.args) != 1:  # a condition is refused
        raise StepFailed(f"{NAME}: {lhs} is not an unconditioned sympy.stats expectation")
    _equal(lhs, gaussian.E(lhs.args[0]), rhs)  # lhs is stats.E(..., evaluate=False)
    return "the sympy.stats integral, Gaussian, symbolic"


def _stats_equal(lhs: sp.Expr, rhs: sp.Expr) -> str:
    _equal(lhs, _integrated(lhs), rhs)  # built unevaluated: sympy.stats integrates when the step is checked
    return "sympy.stats, symbolic"


@cache
def _integrated(e: sp.Expr) -> sp.Expr:
    """sympy.stats' own value of an expectation, kept: verify asks for it again when it makes sure
    the check refuses a wrong right side."""
    return e.doit()


@cache
def _single_mgf(body: sp.Expr, var: sp.Indexed) -> sp.Expr:
    """E[e^{body}] for one coordinate: ``var`` stands for a standard normal entry (the sympy.stats
    integral, evaluated by :mod:`symattn.proof.gaussian`)."""
    x = stats.Normal("x", 0, 1)
    return sp.simplify(gaussian.E(sp.exp(body.xreplace({var: x}))))


class _Rules:
    """E for this proof: the polynomial rules of symattn.proof.expectation, and one for exponentials.

    E[exp(sum_i f(x_i))] = prod_i E[exp(f(x_i))] for independent coordinates (the lemma
    INDEPENDENCE, checked on sympy.stats's integrals at d = 2 and 3); each factor, the
    expectation of a function of one N(0, 1) entry, is sympy.stats's integral, evaluated by
    :mod:`symattn.proof.gaussian`.
    """

    def __init__(self, random: tuple[sp.IndexedBase, ...] = (k, k2)) -> None:
        self.used: set[str] = set()
        #: The random families E integrates: given q, the keys (q a constant); the chi-square
        #: step takes E over q itself.
        self.random = random

    def reduce(self, expr: Any) -> Any:
        return sp.sympify(expr).replace(lambda x: isinstance(x, Ex), self._expect)

    def _expect(self, e: Ex) -> sp.Expr:
        arg = e.args[0]
        if not isinstance(arg, sp.exp):
            model = Expectation([Family(b) for b in self.random], used=self.used)
            return model.expect(arg)
        coeff, total = sp.expand(arg.args[0]).as_independent(sp.Sum, as_Add=False)
        entries = [x for x in arg.atoms(sp.Indexed) if x.base in self.random]
        if not total.has(sp.Sum) and len(entries) == 1:  # one coordinate: E[e^{-s q_i^2}]
            return _single_mgf(arg.args[0], entries[0])
        if not isinstance(total, sp.Sum) or len(total.limits) != 1:
            raise StepFailed(f"{NAME}: no rule for {sp.sstr(e)}")
        index, low, high = total.limits[0]
        bases = [b for b in self.random if b in {x.base for x in total.function.atoms(sp.Indexed)}]
        if len(bases) != 1:  # the random family is declared, never guessed from the letters
            found = ", ".join(map(str, bases)) or "none"
            raise StepFailed(f"{NAME}: E[exp(sum)] needs one random family in the sum, found {found}")
        self.used.add("independence")
        return sp.Product(_single_mgf(coeff * total.function, bases[0][index]), (index, low, high))


def _norm(v: sp.IndexedBase) -> sp.Expr:
    """The Euclidean norm of a d-vector, as a sum over its coordinates."""
    return sp.sqrt(sp.Sum(v[i] ** 2, (i, 1, d)))


def derivation() -> Derivation:
    D = Derivation(
        NAME,
        TITLE,
        r"Given $q$, the scores $q \cdot k_j$ are independent $\mathcal{N}(0, \lVert q \rVert^2)$, and "
        r"$\lVert q \rVert^2 \sim \chi^2_d$: a trial's scores are $\sqrt{X} g_j$ with $X \sim \chi^2_d$ and "
        r"$g_j \sim \mathcal{N}(0, 1)$.",
        assumptions=[
            r"$q, k_1, \dots, k_M$ independent with $\mathcal{N}(0, 1)$ entries; $q$ held fixed first",
            r"the width $d$ a positive integer; the transforms' variables $s, t$ real with $s > 0$; $r > 0$",
        ],
        expectation=_Rules(),
    )
    z = sp.Sum(sp.Mul(q[i], k[i], evaluate=False), (i, 1, d))
    norm2 = sp.Sum(q[i] ** 2, (i, 1, d))

    X = stats.ChiSquared("X", d)
    laplace = stats.E(sp.exp(-s * X), evaluate=False)
    D.unchecked = {
        r"r = \lVert q \rVert": "the substitution step 4 makes, in words",
        r"g_j \sim \mathcal{N}(0, 1)": "the reduced method's draws, named in words: the saturation "
        "check compares that method with the direct one",
    }
    # The prose's norm, read as the proof writes it: |q|^2 = q_1^2 + ... + q_d^2.
    D.operators = {"norm": _norm}
    D.claim(Ex(sp.exp(t * z)), sp.exp(t**2 * norm2 / 2))  # given q, z ~ N(0, |q|^2)
    D.claim(Ex(z * sp.Sum(sp.Mul(q[i], k2[i], evaluate=False), (i, 1, d))), 0)  # uncorrelated
    D.claim(Ex(sp.exp(-s * norm2)), (1 + 2 * s) ** (-d / 2))  # the Laplace transform of |q|^2 ...
    D.claim(laplace, (1 + 2 * s) ** (-d / 2))  # ... is that of chi2_d

    D.section(r"Given $q$, a score is normal with variance $\lVert q \rVert^2$")
    D.step(
        Ex(sp.exp(t * z)),
        sp.Product(sp.exp(t**2 * q[i] ** 2 / 2), (i, 1, d)),
        "independent coordinates; the MGF of $a k_i$ is $e^{a^2 t^2 / 2}$",
        lemma=INDEPENDENCE,
    )
    D.then(sp.exp(t**2 * norm2 / 2), "a product of exponentials")
    K = stats.Normal("K", 0, 1)
    D.step(
        stats.E(sp.exp(t * a * K), evaluate=False),
        sp.exp(a**2 * t**2 / 2),
        r"the normal MGF, $K \sim \mathcal{N}(0, 1)$ (the step above, one coordinate)",
        check=_gaussian_equal,
    )
    Z = stats.Normal("Z", 0, r)
    D.step(
        stats.E(sp.exp(t * Z), evaluate=False),
        sp.exp(r**2 * t**2 / 2),
        r"the MGF of $\mathcal{N}(0, r^2)$, the law of $Z$: the above with $r = \lVert q \rVert$",
        check=_gaussian_equal,
    )

    D.section("Different keys give independent scores")
    z2 = sp.Sum(sp.Mul(q[i], k2[i], evaluate=False), (i, 1, d))
    D.step(
        Ex(z * z2),
        sp.S.Zero,
        "$k_j$ and $k_l$ are independent with mean 0: jointly normal given $q$, uncorrelated",
        shown_lhs=Ex(written(sp.Mul(z, z2, evaluate=False))),  # z first, as the rule reads
    )

    D.section("The squared norm is chi-square")
    one_plus = written(sp.Add(1, 2 * s, evaluate=False) ** (-d / 2))  # (1 + 2s)^(-d/2), as the rule has it
    D.step(
        Ex(sp.exp(-s * norm2)),
        (1 + 2 * s) ** (-d / 2),
        "independent coordinates; $\\mathbb{E}[e^{-s q_i^2}] = (1 + 2s)^{-1/2}$",
        lemma=INDEPENDENCE,
        expectation=_Rules(random=(q,)),  # no longer given q: E over q itself
        shown_rhs=one_plus,
    )
    D.step(
        laplace,
        (1 + 2 * s) ** (-d / 2),
        "the Laplace transform of $X \\sim \\chi^2_d$: the same, so $\\lVert q \\rVert^2 \\sim \\chi^2_d$",
        check=_stats_equal,
        cost=0.7,  # sympy.stats integrates with Meijer G-functions: start it first
        shown_rhs=one_plus,
    )

    D.numeric_check(
        "direct vs reduced saturation share, d = 4 and 12, 60,000 trials each (4 standard errors)",
        _check_methods,
        cost=0.6,
    )
    return D


#: The widths of the methods check.
WIDTHS = (4, 12)


def _check_methods() -> tuple[float, float]:
    """The gap between the direct and reduced saturation shares, and its bar, at the width where
    the gap is the larger multiple of its bar."""
    from symattn.labs import saturation_lab

    # The statistic is about N(0, 1) when the methods agree; 4 standard errors is the bar. At
    # d = 4 the chi-square of |q|^2 is far from a constant, so a reduction that draws it with a
    # wrong number of degrees of freedom, or leaves it out (scale sqrt(d)), fails by 3 to 4 bars
    # (tests/derivations/test_score_reduction.py); at d = 32 the second passes. A second width
    # catches a reduction right at d = 4 alone (the degrees of freedom fixed at 4, say).
    gaps = []
    for width in WIDTHS:
        a_ = saturation_lab(60_000, width, 16, 0.9, seed=10, method="direct", progress=False)
        b_ = saturation_lab(60_000, width, 16, 0.9, seed=20, method="reduced", progress=False)
        p1, p2, n = a_.unscaled.share, b_.unscaled.share, a_.trials
        pooled = (p1 + p2) / 2
        gaps.append((abs(p1 - p2), 4 * float(np.sqrt(2 * pooled * (1 - pooled) / n))))
    return max(gaps, key=lambda gap: gap[0] / gap[1])


# -- planted errors: what the page says and prints (derivations.mutations gathers them) ----------
MUTATIONS = [
    Mutation(
        NAME,
        "a rule says E[e^(-s q_i^2)] = (1 + s)^(-1/2)",
        statement("rules", r"= (1 + 2s)^{-1/2}", r"= (1 + s)^{-1/2}"),
        why="the rule of step",
    ),
    Mutation(
        NAME,
        "the page no longer says the width d is a whole number, which the proof declares",
        statement("assumptions", "$d$ a positive integer", "$d$ positive"),
        why="d is declared integer",
    ),
    Mutation(
        NAME,
        "the theorem says |q|^2 ~ chi2 with 2d degrees of freedom",
        statement("theorem", r"\rVert^2 \sim \chi^2_d$: a", r"\rVert^2 \sim \chi^2_{2d}$: a"),
        why="moment generating function",
    ),
    Mutation(
        NAME,
        "a rule says K ~ N(0, 2) where K is a standard normal",
        statement("rules", r"$K \sim \mathcal{N}(0, 1)$", r"$K \sim \mathcal{N}(0, 2)$"),
        why="declared with another law",
    ),
    Mutation(NAME, "a printer that drops a minus sign", rendering(_print_Mul=drops_minus)),
    Mutation(NAME, "a printer that shows each square as a cube", rendering(_print_Pow=swaps_squares)),
]


# -- planted errors in the steps, claims, lemmas and models ---------------------------------
def _other_key(D: Derivation) -> int:
    """E[exp(t q . k')] = prod_i exp(t^2 k'_i^2 / 2): the result still depends on k'."""
    k = step_with(D, "the MGF of $a k_i$")
    score = sp.Sum(sp.Mul(q[i], k2[i], evaluate=False), (i, 1, d))
    D.steps[k] = dataclasses.replace(
        D.steps[k],
        lhs=Ex(sp.exp(t * score)),
        rhs=sp.Product(sp.exp(t**2 * k2[i] ** 2 / 2), (i, 1, d)),
    )
    return k + 1


def _chi2_2d(D: Derivation) -> str:
    """A true step about chi2_{2d} in place of the one about chi2_d: the claim is then unproved."""
    from sympy import stats
    k = step_with(D, "the Laplace transform")
    x = stats.ChiSquared("X", 2 * d)
    D.steps[k] = dataclasses.replace(
        D.steps[k], lhs=stats.E(sp.exp(-s * x), evaluate=False), rhs=(1 + 2 * s) ** (-d), shown_rhs=None
    )
    return "claim"


def _plain_q(D: Derivation) -> int:
    """E[q_1^2] = q_1^2 for a q_1 that is no declared family: treated as a constant."""
    k = step_with(D, "uncorrelated")
    q1 = sp.Symbol("q_1", real=True)
    D.steps[k] = dataclasses.replace(D.steps[k], lhs=Ex(q1**2), rhs=q1**2, shown_lhs=None)
    return k + 1


def _conditioned(e: sp.Basic) -> sp.Basic:
    """The unevaluated expectation ``e`` of sympy.stats, given that its variable is positive."""
    from sympy import stats

    (variable,) = stats.random_symbols(e.args[0])
    return stats.E(e.args[0], variable > 0, evaluate=False)


MUTATIONS += [
    Mutation(
        NAME,
        "the normal MGF without its 1/2",
        right_side("the MGF of $a k_i$", lambda D, old: old.func(old.function**2, *old.limits)),
    ),
    Mutation(
        NAME,
        "the chi-square Laplace transform (1 + s)^(-d/2)",
        right_side("independent coordinates; $\\mathbb{E}[e^{-s", lambda D, old: (1 + s) ** (-d / 2)),
    ),
    Mutation(
        NAME,
        "scores of two keys correlated: E[z z'] = 1",
        right_side("uncorrelated", lambda D, o: sp.S.One),
    ),
    Mutation(
        NAME,
        "the MGF of N(0, r^2) taken given Z > 0 (a half-normal)",
        changed("the MGF of $\\mathcal{N}(0, r^2)$", "lhs", lambda D, old: _conditioned(old)),
    ),
    Mutation(
        NAME,
        "the MGF of N(0, r^2) as e^(r t^2 / 2): r for r^2",
        right_side("the MGF of $\\mathcal{N}(0, r^2)$", lambda D, old: sp.exp(r * t ** 2 / 2)),
    ),
    Mutation(
        NAME,
        "E[exp(t q . k')] = exp(t^2 |k'|^2 / 2): k' left in",
        _other_key,
        why="still depends on k'",
    ),
    Mutation(
        NAME,
        "the chi-square step taken over the keys, q held fixed",
        step_fields(r"independent coordinates; $\mathbb{E}[e^{-s", expectation=lambda D, old: _Rules()),
    ),
    Mutation(
        NAME,
        "the uncorrelated scores integrated over q instead of the keys",
        step_fields("uncorrelated", expectation=lambda D, old: _Rules(random=(q,))),
    ),
    Mutation(
        NAME,
        "independence checked at d = 1, 2",
        lemma_fields("the MGF of $a k_i$", sizes=(1, 2)),
        why="vacuous at size 1",
    ),
    Mutation(
        NAME,
        "a label holding a distribution: Z ~ N(0, r^2)",
        step_fields("the MGF of $\\mathcal{N}(0, r^2)$", shown_lhs=sp.Symbol(r"Z \sim N(0, r^2)")),
    ),
    Mutation(NAME, "no theorem: the claims dropped", no_claims, why="states no claims"),
    Mutation(
        NAME,
        "the chi-square step about chi2_{2d}, true but not the claim",
        _chi2_2d,
        why="no chain",
    ),
    Mutation(
        NAME, "E[q_1^2] = q_1^2 for an undeclared q_1", _plain_q, why="none of the declared"
    ),
]
