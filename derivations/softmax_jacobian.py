"""The softmax Jacobian and why saturation stalls learning.

Theorem. For p = softmax(z) over n entries, dp_i/dz_j = p_i (delta_ij - p_j), so the
Jacobian is J = diag(p) - p p^T. Its rows sum to 0, it is symmetric and positive
semidefinite with null vector 1 and rank n - 1, and its largest entry is p_i (1 - p_i) <= 1/4.
As one weight tends to 1 every entry tends to 0: a saturated softmax passes back almost no
gradient (section 6.3).

Everything is proved for a symbolic n except the rank: the entry formula and the matrix form
entry by entry (with the shapes checked, so p^T p is refused where p p^T is meant), the row
sums and the quadratic form by summing out Kronecker deltas (``deltasummation``; that each
index lies in its sum's range is proved from the ranges the derivation declares, 1 <= i, j <= n,
which its assumptions show), taking factors free of the index out of sums and naming
summation indices alike.
The rank n - 1 is proved at n = 2, 3, 4, 5 and says so.
"""

from __future__ import annotations

import dataclasses
import random
from functools import cache
from typing import Any

import numpy as np
import sympy as sp
from sympy.matrices.expressions.diagonal import DiagMatrix
from sympy.matrices.expressions.matexpr import MatrixElement

from symattn.core.numeric import lambdify_numpy
from symattn.proof import Derivation, Lemma, StepFailed
from symattn.proof.equivalence import prove_equal, within
from symattn.proof.latex import written

from .planted import (
    Mutation,
    certified_by,
    changed,
    claimed,
    detached,
    drops_digit,
    drops_transpose,
    false_lemma,
    flips_fraction,
    lemma_fields,
    rendering,
    right_side,
    shown_as,
    stands_for,
    statement,
    step_fields,
    step_with,
)

NAME = "softmax_jacobian"
ORDER = 40  # where the course module meets it: derivations.NAMES is sorted by it
TITLE = "The softmax Jacobian"

n = sp.Symbol("n", integer=True, positive=True)
i, j, k = sp.symbols("i j k", integer=True, positive=True)
z = sp.IndexedBase("z", real=True)
x = sp.IndexedBase("x", real=True)
pw = sp.Symbol("p", positive=True)
r = sp.Symbol("r", nonnegative=True)
SIZES = (2, 3, 4)


def total() -> sp.Expr:
    """The softmax denominator sum_k e^{z_k}."""
    return sp.Sum(sp.exp(z[k]), (k, 1, n))


def p(index: sp.Expr) -> sp.Expr:
    """The softmax weight p_index = e^{z_index} / sum_k e^{z_k}."""
    return sp.exp(z[index]) / total()


# Display forms: the proof is about p_i, not its long closed form.
P = sp.IndexedBase("p", positive=True)


# -- facts about the whole matrix, checked at concrete n -------------------------------------
@cache
def explicit(size: int) -> tuple[sp.Matrix, sp.Matrix, list[sp.Symbol]]:
    """(p, J) for n = size from the explicit softmax of symbols z_1..z_n."""
    zs = list(sp.symbols(f"z1:{size + 1}", real=True))
    den = sum(sp.exp(t) for t in zs)
    pv = sp.Matrix([sp.exp(t) / den for t in zs])
    return pv, pv.jacobian(zs), zs


def _jacobian_is_diag_minus_outer(size: int, sign: int = -1) -> bool:
    pv, jac, _ = explicit(size)
    return (jac - (sp.diag(*pv) + sign * pv * pv.T)).applyfunc(sp.cancel) == sp.zeros(size)


def _jacobian_twin(size: int) -> bool:
    return _jacobian_is_diag_minus_outer(size, sign=1)


def _simplex(size: int) -> list[sp.Expr]:
    ps = list(sp.symbols(f"p1:{size}", positive=True))
    return [*ps, 1 - sum(ps)]


def _rank(size: int, factors: int | None = None) -> bool:
    """J 1 = 0, and the leading (n-1) minor is p_1 ... p_n > 0: rank exactly n - 1. (The twin
    asks the minor to be the product of the first ``factors`` weights only.)"""
    ps = _simplex(size)
    v = sp.Matrix(ps)
    jac = sp.diag(*ps) - v * v.T
    kills_ones = sp.expand(jac * sp.ones(size, 1)) == sp.zeros(size, 1)
    minor = jac[: size - 1, : size - 1].det()
    return kills_ones and sp.expand(minor - sp.prod(ps[:factors])) == 0


def _rank_twin(size: int) -> bool:
    return _rank(size, factors=size - 1)


def _psd(size: int, centred: bool = True) -> bool:
    """x^T J x = sum_i p_i (x_i - xbar)^2 exactly, a sum of non-negative terms."""
    ps = _simplex(size)
    xs = sp.symbols(f"x1:{size + 1}", real=True)
    v = sp.Matrix(ps)
    xv = sp.Matrix(xs)
    quad = (xv.T * (sp.diag(*ps) - v * v.T) * xv)[0]
    mean = sum(a * b for a, b in zip(ps, xs, strict=True)) if centred else 0
    return sp.expand(quad - sum(a * (b - mean) ** 2 for a, b in zip(ps, xs, strict=True))) == 0


def _psd_twin(size: int) -> bool:
    return _psd(size, centred=False)


def _square_of_sum(size: int, cross: bool = True) -> bool:
    a = sp.symbols(f"a1:{size + 1}")
    pairs = sum(u * v for u in a for v in a) if cross else sum(u * u for u in a)
    return sp.expand(pairs - sum(a) ** 2) == 0


def _square_of_sum_twin(size: int) -> bool:
    return _square_of_sum(size, cross=False)


JACOBIAN = Lemma(
    "Jacobian at concrete n",
    "the Jacobian of softmax is diag(p) - p p^T",
    _jacobian_is_diag_minus_outer,
    sizes=SIZES,
    twin=_jacobian_twin,
    twin_statement="the Jacobian of softmax is diag(p) + p p^T",
)
RANK = Lemma(
    "rank one less than the size",
    "J 1 = 0 and a nonzero (n-1)-minor",
    _rank,
    sizes=(2, 3, 4, 5),
    twin=_rank_twin,
    twin_statement="the (n-1)-minor is p_1 ... p_{n-1}, a factor dropped",
)
PSD = Lemma(
    "quadratic form",
    "x^T J x = sum_i p_i (x_i - xbar)^2",
    _psd,
    sizes=SIZES,
    twin=_psd_twin,
    twin_statement="x^T J x = sum_i p_i x_i^2, the mean dropped",
)
# At n = 1 the double sum is a_1 a_1 and the twin, with no cross terms, agrees: start at 2.
SQUARE = Lemma(
    "square of a sum",
    "sum_i sum_j a_i a_j = (sum_i a_i)^2",
    _square_of_sum,
    sizes=SIZES,
    twin=_square_of_sum_twin,
    twin_statement="sum_i sum_j a_i a_j = sum_i a_i^2, the cross terms dropped",
)


def _by_cases(lhs: Any, rhs: Any) -> str:
    """Prove lhs = rhs by the cases j = i and j != i (where delta_ij = 0)."""
    diff = sp.sympify(lhs) - sp.sympify(rhs)
    same = sp.simplify(diff.subs(j, i))
    other = sp.expand(
        diff.replace(lambda e: isinstance(e, sp.KroneckerDelta) and set(e.args) == {i, j}, lambda e: 0)
    )
    if same != 0 or other != 0:
        raise StepFailed(f"{NAME}: cases j = i and j != i do not both give 0: {same}, {other}")
    return "by cases j = i and j != i"


# -- matrices of symbolic size, entry by entry ---------------------------------------------
Jsym = sp.MatrixSymbol("J", n, n)
pvec = sp.MatrixSymbol("p", n, 1)
ones = sp.MatrixSymbol(r"\mathbf{1}", n, 1)
_a, _b = sp.symbols("a b", integer=True, nonnegative=True)  # 0-based, as SymPy indexes matrices


def _weight0(index: sp.Expr) -> sp.Expr:
    """p_index with 0-based indices: e^{z_index} / sum_{k=0}^{n-1} e^{z_k}."""
    return sp.exp(z[index]) / sp.Sum(sp.exp(z[k]), (k, 0, n - 1))


def _meaning(e: sp.Expr) -> sp.Expr:
    """An entry with J, p and 1 replaced by what they are: J_ab = p_a (delta_ab - p_b)."""

    def entry(x: sp.Basic) -> sp.Basic:
        if x.parent == Jsym:
            return _weight0(x.i) * (sp.KroneckerDelta(x.i, x.j) - _weight0(x.j))
        if x.parent == pvec:
            return _weight0(x.i)
        if x.parent == ones:
            return sp.S.One
        return x

    return e.replace(lambda x: isinstance(x, MatrixElement), entry)


def _entrywise(lhs: Any, rhs: Any) -> str:
    """Two n x n (or n x 1) matrix expressions are equal: same shape, and equal entry (a, b)."""
    if lhs.shape != rhs.shape:
        raise StepFailed(f"{NAME}: the shapes differ: {lhs.shape} and {rhs.shape}")
    cols = _b if lhs.shape[1] != 1 else sp.S.Zero
    left, right = _meaning(lhs[_a, cols]), _meaning(rhs[_a, cols])
    with within({_a: (0, n - 1), _b: (0, n - 1)}):  # an entry's indices of an n x n matrix
        proved = prove_equal(left, right)
    if proved is None:
        raise StepFailed(f"{NAME}: entry (a, b) differs: {sp.sstr(left)} vs {sp.sstr(right)}")
    rng = random.Random(11)
    for size in (2, 3, 5):
        for _ in range(3):
            point = {n: size, _a: rng.randrange(size), _b: rng.randrange(size)}
            point.update({z[t]: sp.Rational(rng.randint(-40, 40), 7) for t in range(size)})
            gap = (left - right).subs({n: size, _a: point[_a], _b: point[_b]}).doit().subs(point)
            if abs(sp.N(gap, 60)) > 1e-45:
                raise StepFailed(f"{NAME}: entry ({point[_a]}, {point[_b]}) differs at n = {size}")
    return "entry (a, b) for symbolic n, shapes checked"


def _explicit(m: Any, size: int) -> sp.Matrix:
    """The matrix expression m at n = size, with J, p and 1 written out over the simplex
    p_1, ..., p_{n-1}, 1 - p_1 - ... - p_{n-1}."""
    ps = _simplex(size)
    v = sp.Matrix(ps)
    values = {
        sp.MatrixSymbol(Jsym.name, size, size): sp.ImmutableMatrix(sp.diag(*ps) - v * v.T),
        sp.MatrixSymbol(pvec.name, size, 1): sp.ImmutableMatrix(v),
        sp.MatrixSymbol(ones.name, size, 1): sp.ImmutableMatrix(sp.ones(size, 1)),
    }
    e = sp.sympify(m).subs(n, size).xreplace(values)
    if e.free_symbols & {x for x in e.atoms(sp.MatrixSymbol)}:
        raise ValueError(f"{NAME}: no meaning at a size for {sp.sstr(m)}")
    return sp.Matrix(e.as_explicit())


def _rank_of(m: Any, size: int) -> int:
    """The rank of the matrix expression m at n = size, exactly: over the field of rational
    functions of p_1, ..., p_{n-1} (the rank at a generic point of the simplex), and the same at
    the uniform point and at two random interior points, or no rank is given (the lemma RANK
    proves n - 1 at every point for J itself; a matrix whose rank drops somewhere has none)."""
    from sympy.polys.matrices import DomainMatrix

    matrix = _explicit(m, size)
    generic = DomainMatrix.from_Matrix(matrix).to_field().rank()
    ps = list(sp.symbols(f"p1:{size}", positive=True))
    rng = random.Random(size)
    points = [[sp.Rational(1, size)] * (size - 1)]
    for _ in range(2 if size > 1 else 0):  # cut [0, 1] at n - 1 places: n positive weights
        cuts = sorted(sp.Rational(rng.randint(1, 999), 1000) for _ in range(size - 1))
        points.append([b - a for a, b in zip([0, *cuts[:-1]], cuts, strict=True)])
    for point in points:
        at = matrix.subs(dict(zip(ps, point, strict=True)))
        if DomainMatrix.from_Matrix(at).to_field().rank() != generic:
            raise ValueError(f"{NAME}: the rank of {sp.sstr(m)} is not one rank over the simplex")
    return generic


rank = sp.Function("rank")


def concrete(expr: Any, size: int) -> Any:
    """expr at n = size, with every sum written out and the rank of a matrix computed from the
    matrix it is given."""
    e = sp.sympify(expr).subs(n, size)
    e = e.replace(lambda x: isinstance(x, sp.Sum), lambda x: x.doit())
    return e.replace(lambda x: isinstance(x, rank), lambda x: sp.Integer(_rank_of(x.args[0], size)))


def _sample(rng: random.Random, size: int | None) -> dict[sp.Basic, Any]:
    size = size or rng.randint(2, 5)
    return {n: size, i: rng.randint(1, size), j: rng.randint(1, size)}


# -- the proof ----------------------------------------------------------------------------
def derivation() -> Derivation:
    D = Derivation(
        NAME,
        TITLE,
        r"For $p = \operatorname{softmax}(z)$, $\partial p_i / \partial z_j = p_i (\delta_{ij} - p_j)$: "
        r"the Jacobian $J = \operatorname{diag}(p) - p p^\top$ has rows summing to 0, is symmetric and "
        r"positive semidefinite of rank $n - 1$, has entries at most $\tfrac14$ in size, and all of "
        r"them tend to 0 as one weight tends to 1.",
        assumptions=[
            r"$z_1, \dots, z_n$ real, $n \ge 1$ an integer; integers $1 \le i, j \le n$; a weight $p > 0$"
        ],
        concrete=concrete,
        sizes=SIZES,
        sample=_sample,
        indices=(i, j),
        ranges={i: (1, n), j: (1, n)},  # as the assumptions show: a delta summed out stays in range
    )
    S = total()
    delta = sp.KroneckerDelta(i, j)
    xbar = sp.Symbol(r"\bar{x}", real=True)
    J_ij, J_ji = sp.Symbol("J_{ij}"), sp.Symbol("J_{ji}")
    D.abbreviations = {
        P: p,  # p_i for e^{z_i} / sum_k e^{z_k}
        xbar: sp.Sum(P[j] * x[j], (j, 1, n)),
        J_ij: _times(P[i], _minus(delta, P[j])),
        J_ji: _times(P[j], _minus(sp.KroneckerDelta(j, i), P[i])),
    }
    D.unchecked = {
        r"p = \operatorname{softmax}(z)": "a definition in words: the abbreviation p_i writes it out",
        "j = i": "a condition (the term the delta keeps), not a claim",
        r"\delta_{ij} = 0": "a claim under a condition (unless i = j), which step 9 proves by cases",
        "i = j": "a condition, not a claim",
        "p_j = 1 - p_i - r": "defines r in words: the weight that is neither p_i nor p_j",
    }
    quad = sp.Sum(sp.Sum(x[i] * p(i) * (delta - p(j)) * x[j], (j, 1, n)), (i, 1, n))  # x^T J x
    D.claim(sp.Derivative(p(i), z[j]), p(i) * (delta - p(j)))
    D.claim(sp.Sum(p(i) * (delta - p(j)), (j, 1, n)), 0, words="summing to")
    D.claim(p(i) * (delta - p(j)) - p(j) * (sp.KroneckerDelta(j, i) - p(i)), 0, words="symmetric")
    D.claim(sp.S.Zero, quad, "<=", words="positive semidefinite")
    D.claim(rank(Jsym), n - 1, words="rank")
    D.claim(pw * (1 - pw), sp.Rational(1, 4), "<=", words="at most")  # every entry at most 1/4 in size
    D.claim(sp.Limit(pw * (1 - pw), pw, 1, "-"), sp.S.Zero, words="tend to")  # saturation
    D.words.append(("as one weight tends to", len(D.claims) - 1))  # where the limit is taken

    D.section("The entries")
    D.step(
        sp.Derivative(p(i), z[j]),
        (delta * sp.exp(z[i]) * S - sp.exp(z[i]) * sp.exp(z[j])) / S**2,
        r"quotient rule; $\partial_{z_j} \sum_k e^{z_k} = e^{z_j}$",
        shown_lhs=sp.Derivative(P[i], z[j]),
        shown_rhs=_over(
            _minus(_times(delta, sp.exp(z[i]), S), _times(sp.exp(z[i]), sp.exp(z[j]))), sp.Pow(S, 2)
        ),
    )
    D.then(
        p(i) * delta - p(i) * p(j),
        "split the fraction",
        shown_rhs=_minus(_times(delta, P[i]), _times(P[i], P[j])),
    )
    D.then(p(i) * (delta - p(j)), "factor out $p_i$", shown_rhs=_times(P[i], _minus(delta, P[j])))

    D.section("The matrix")
    D.step(
        Jsym,
        sp.MatAdd(DiagMatrix(pvec), -pvec * pvec.T),  # as written: no doit(), which asks SymPy's assumptions
        "the entries, as a matrix",
        check=_entrywise,
        lemma=JACOBIAN,
    )

    D.section("Rows sum to zero")
    D.step(
        sp.Sum(p(i) * (delta - p(j)), (j, 1, n)),
        p(i) - p(i) * sp.Sum(p(j), (j, 1, n)),
        "the sum of the delta picks $j = i$",
        shown_lhs=sp.Sum(_times(P[i], _minus(delta, P[j])), (j, 1, n)),
        shown_rhs=_minus(P[i], _times(P[i], sp.Sum(P[j], (j, 1, n)))),
    )
    D.then(sp.S.Zero, "the weights sum to 1")
    D.step(
        Jsym * ones,
        sp.ZeroMatrix(n, 1),
        r"so $\mathbf{1}$ is a null vector of $J$",
        check=_entrywise,
    )

    D.section("Symmetric")
    D.step(
        p(i) * (delta - p(j)) - p(j) * (sp.KroneckerDelta(j, i) - p(i)),
        delta * (p(i) - p(j)),
        r"expand; $\delta_{ij} = \delta_{ji}$",
        shown_lhs=_minus(J_ij, J_ji),
        shown_rhs=_times(delta, _minus(P[i], P[j])),
    )
    D.then(sp.S.Zero, r"$\delta_{ij} = 0$ unless $i = j$", check=_by_cases)

    D.section("Positive semidefinite, rank $n - 1$")
    mean = sp.Sum(p(j) * x[j], (j, 1, n))
    D.step(
        quad,
        sp.Sum(p(i) * x[i] ** 2, (i, 1, n)) - mean**2,
        "sum the delta; a double sum of a product is the square of a sum",
        lemma=SQUARE,
        shown_lhs=sp.Sum(sp.Sum(_times(x[i], J_ij, x[j]), (j, 1, n)), (i, 1, n)),
        shown_rhs=_minus(
            sp.Sum(_times(P[i], x[i] ** 2), (i, 1, n)), sp.Sum(_times(P[j], x[j]), (j, 1, n)) ** 2
        ),
    )
    D.then(
        sp.Sum(p(i) * (x[i] - mean) ** 2, (i, 1, n)),
        r"the weights sum to 1: a weighted variance, with $\bar{x} = \sum_j p_j x_j$",
        lemma=PSD,
        shown_rhs=sp.Sum(_times(P[i], _minus(x[i], xbar) ** 2), (i, 1, n)),
    )
    weighted = sp.Sum(p(i) * (x[i] - mean) ** 2, (i, 1, n))
    D.step(
        sp.S.Zero,
        weighted,
        "a sum of weights times squares",
        relation="<=",
        certificate=weighted,
        shown_rhs=sp.Sum(_times(P[i], _minus(x[i], xbar) ** 2), (i, 1, n)),
    )
    D.step(
        rank(Jsym),
        n - 1,
        r"$J\mathbf{1} = 0$ and a nonzero $(n-1)$-minor",
        method="at sizes",
        lemma=RANK,
    )

    D.section(r"Entries at most $\tfrac14$; saturation")
    D.step(
        pw * (1 - pw),
        sp.Rational(1, 4),
        r"$\tfrac14 - p(1-p) = (p - \tfrac12)^2$",
        relation="<=",
        certificate=(pw - sp.Rational(1, 2)) ** 2,
    )
    D.step(
        _times(pw, sp.Add(1, -pw, -r, evaluate=False)),
        pw * (1 - pw),
        r"an off-diagonal $p_i p_j$, with $p_j = 1 - p_i - r$, $r \ge 0$",
        relation="<=",
        certificate=pw * r,
    )
    D.step(
        sp.Limit(pw * (1 - pw), pw, 1, "-"),
        sp.S.Zero,
        "as one weight tends to 1 its diagonal entry tends to 0",
    )
    # 0.99 x 0.01 is exactly 0.0099: an equality, proved, not a figure rounded.
    D.step(
        _times(sp.Rational(99, 100), sp.Rational(1, 100)),
        sp.Rational(99, 10_000),
        "at $p = 0.99$: $p(1-p)$",
    )

    D.numeric_check(r"lambdified $J$ vs central finite differences, $n = 2, \dots, 8$", _check_fd)
    D.numeric_check(r"lambdified $J$ vs exact $J$ at rational $z$, $n = 2, 3, 4$", _check_exact)
    return D


def _times(*factors: Any) -> sp.Expr:
    """A product kept in the order written (p_i (delta_ij - p_j), as the theorem has it)."""
    return sp.Mul(*factors, evaluate=False)


def _minus(a: Any, b: Any) -> sp.Expr:
    """a - b, kept in that order."""
    return written(sp.Add(a, -b, evaluate=False))


def _over(a: Any, b: Any) -> sp.Expr:
    """a / b as a fraction of the two, kept as written."""
    return sp.Mul(a, sp.Pow(b, -1, evaluate=False), evaluate=False)


def _numeric_jacobian(size: int) -> Any:
    pv, jac, zs = explicit(size)
    return lambdify_numpy([zs], jac), lambdify_numpy([zs], pv)


def _check_fd() -> tuple[float, float]:
    rng = np.random.default_rng(4)
    worst = 0.0
    for size in range(2, 9):
        zs = sp.symbols(f"z1:{size + 1}", real=True)
        den = sum(sp.exp(t) for t in zs)
        pv = sp.Matrix([sp.exp(t) / den for t in zs])
        jac = lambdify_numpy([zs], sp.diag(*pv) - pv * pv.T, cse=True)
        soft = lambdify_numpy([zs], pv, cse=True)
        for _ in range(5):
            z0 = rng.normal(size=size) * 2
            h = 1e-6
            fd = np.column_stack(
                [(np.ravel(soft(z0 + h * e)) - np.ravel(soft(z0 - h * e))) / (2 * h) for e in np.eye(size)]
            )
            worst = max(worst, float(np.abs(np.asarray(jac(z0), float) - fd).max()))
    return worst, 1e-8


def _check_exact() -> tuple[float, float]:
    worst = 0.0
    rng = random.Random(5)
    for size in SIZES:
        f, _ = _numeric_jacobian(size)
        _, jac, zs = explicit(size)
        values = [sp.Rational(rng.randint(-20, 20), 10) for _ in zs]
        exact = jac.subs(dict(zip(zs, values, strict=True)))
        got = np.asarray(f([float(v) for v in values]), float)
        want = np.array(exact.evalf(30).tolist(), dtype=float)
        worst = max(worst, float(np.abs(got - want).max()))
    return worst, 1e-14


# -- planted errors: what the page says and prints (derivations.mutations gathers them) ----------
def _model_at_two(d: Derivation) -> int:
    """The rank step's model asked at each size answers at size 2, where rank J = n - 1 = 1 holds
    by itself: every size would "prove" what one size shows."""
    k = next(k for k, s in enumerate(d.steps) if "nonzero $(n-1)$-minor" in s.rule)
    model = d.steps[k].concrete or d.concrete
    assert model is not None
    d.steps[k] = dataclasses.replace(d.steps[k], concrete=lambda expr, size: model(expr, 2))
    return k + 1


MUTATIONS = [
    Mutation(NAME, "the rank model asked at size n answers at size 2", _model_at_two, why="one value"),
    Mutation(
        NAME,
        "the theorem says J = diag(p) + p p^T",
        statement("theorem", r"\operatorname{diag}(p) - p p^\top", r"\operatorname{diag}(p) + p p^\top"),
        why="the theorem",
    ),
    Mutation(
        NAME,
        "the theorem says dp_i/dz_j = p_i (delta_ij + p_j)",
        statement("theorem", r"(\delta_{ij} - p_j)", r"(\delta_{ij} + p_j)"),
        why="the theorem",
    ),
    Mutation(
        NAME,
        "the theorem bounds the entries by 1/3",
        statement("theorem", r"at most $\tfrac14$", r"at most $\tfrac13$"),
        why="no side of the proof",
    ),
    Mutation(
        NAME,
        "a rule completes the square as (p - 1/3)^2",
        statement("rules", r"(p - \tfrac12)^2", r"(p - \tfrac13)^2"),
        why="the rule of step",
    ),
    Mutation(
        NAME,
        "a rule assumes r <= 0, which the bound's proof does not show",
        statement("rules", r"r \ge 0", r"r \le 0"),
        why="the rule of step",
    ),
    Mutation(
        NAME,
        "the page no longer says r >= 0, which the proof's r is declared (a hidden assumption)",
        statement("rules", r", $r \ge 0$", ""),
        why="declared nonnegative",
    ),
    Mutation(
        NAME,
        "a rule says the point is p = 0.98 where the step takes 0.99",
        statement("rules", "$p = 0.99$", "$p = 0.98$"),
        why="the rule of step",
    ),
    Mutation(
        NAME,
        "a rule says delta_ij = -delta_ji",
        statement("rules", r"\delta_{ij} = \delta_{ji}", r"\delta_{ij} = -\delta_{ji}"),
        why="the rule of step",
    ),
    Mutation(
        NAME,
        "the weighted mean written with p_i for p_j",
        statement("rules", r"\bar{x} = \sum_j p_j x_j", r"\bar{x} = \sum_j p_i x_j"),
        why="the rule of step",
    ),
    Mutation(
        NAME,
        "the theorem says positive definite",
        statement("theorem", "positive semidefinite", "positive definite"),
        why="'positive definite', which stands for no claim",
    ),
    Mutation(
        NAME, "the theorem says rank n", statement("theorem", "rank $n - 1$", "rank $n$"), why="'rank $n$'"
    ),
    Mutation(
        NAME,
        "the theorem says antisymmetric",
        statement("theorem", "is symmetric", "is antisymmetric"),
        why="'antisymmetric'",
    ),
    Mutation(
        NAME,
        "the theorem says the entries tend to 1",
        statement("theorem", "tend to 0", "tend to 1"),
        why="'tend to 1'",
    ),
    Mutation(
        NAME,
        "the theorem says the rows sum to 1",
        statement("theorem", "summing to 0", "summing to 1"),
        why="'summing to 1'",
    ),
    Mutation(
        NAME,
        "'symmetric' stands for the rows' sum",
        stands_for("symmetric", "summing to"),
        why="'symmetric', but the claim it stands for",
    ),
    Mutation(
        NAME,
        "'positive semidefinite' stands for the bound on the entries",
        stands_for("positive semidefinite", "at most"),
        why="'positive semidefinite', but the claim it stands for",
    ),
    Mutation(
        NAME,
        "a printer that drops a transpose: J = diag(p) - p p",
        rendering(_print_Transpose=drops_transpose),
    ),
    Mutation(
        NAME,
        "a printer that loses a decimal's last digit: 0.99 as 0.9",
        rendering(_print_Rational=drops_digit),
    ),
    Mutation(NAME, "a printer that turns each fraction upside down", rendering(_print_Mul=flips_fraction)),
]


# -- planted errors in the steps, claims, lemmas and models ---------------------------------
def _stored_rank(expr: sp.Basic, size: int) -> sp.Basic:
    """The old rank model: n - 1 whatever matrix it is given."""
    return (
        sp.sympify(expr)
        .subs(n, size)
        .replace(lambda x: isinstance(x, rank), lambda x: sp.Integer(size - 1))
    )


def _stored_rank_model(D: Derivation) -> int:
    k = step_with(D, "nonzero $(n-1)$-minor")
    D.steps[k] = dataclasses.replace(D.steps[k], lhs=rank(_plus()), concrete=_stored_rank)
    return k + 1


def _quad_index(D: Derivation) -> sp.Basic:
    j_ij = next(s for s in D.abbreviations if str(s) == "J_{ij}")
    return sp.Sum(sp.Sum(x[i] * j_ij * x[i], (j, 1, n)), (i, 1, n))


def _plus() -> sp.MatrixExpr:
    from sympy.matrices.expressions.diagonal import DiagMatrix

    p = pvec
    return DiagMatrix(p) + p * p.T


def _inner() -> sp.MatrixExpr:
    from sympy.matrices.expressions.diagonal import DiagMatrix

    p = pvec
    return DiagMatrix(p) - p.T * p


def _plus_entry() -> sp.Expr:
    return p(i) * (sp.KroneckerDelta(i, j) + p(j))


MUTATIONS += [
    Mutation(
        NAME,
        "J = diag(p) + p p^T",
        right_side("the entries, as a matrix", lambda D, old: _plus()),
    ),
    Mutation(
        NAME,
        "J = diag(p) - p^T p (a 1 x 1 matrix)",
        right_side("the entries, as a matrix", lambda D, o: _inner()),
    ),
    Mutation(NAME, "rank J = n", right_side("nonzero $(n-1)$-minor", lambda D, old: n)),
    Mutation(
        NAME,
        "rows sum to (n-2)(n-3)(n-4): zero at the sizes 2, 3, 4 only",
        right_side("the weights sum to 1", lambda D, old: (n - 2) * (n - 3) * (n - 4)),
    ),
    Mutation(
        NAME,
        "dp_i/dz_j = p_i (delta_ij + p_j)",
        right_side("factor out $p_i$", lambda D, old: _plus_entry()),
    ),
    Mutation(
        NAME,
        "p(1-p) <= 1/4 with the certificate (p - 1/3)^2",
        certified_by(r"$\tfrac14 - p(1-p)", (sp.Symbol("p", positive=True) - sp.Rational(1, 3)) ** 2),
    ),
    Mutation(
        NAME,
        "p(1-p) at 0.99 = 0.0098",
        right_side("at $p = 0.99$", lambda D, o: sp.Rational(98, 10_000)),
    ),
    Mutation(NAME, "a false rank lemma", false_lemma("nonzero $(n-1)$-minor")),
    Mutation(
        NAME,
        "shown as p_i delta_ij + p_i p_j where p_i delta_ij - p_i p_j is checked",
        shown_as("split the fraction", lambda D, old: old.args[0].args[0] - old.args[0].args[1]),
    ),
    Mutation(
        NAME,
        "the page lets i and j run to n + 1, where the proof sums its deltas out for 1..n",
        statement("assumptions", r"integers $1 \le i, j \le n$", r"integers $1 \le i, j \le n + 1$"),
        why="which no assumption states",
    ),
    Mutation(
        NAME,
        "the theorem claims dp_i/dz_j = -p_i (delta_ij - p_j): the sign lost",
        claimed(0, lambda old: -old),
    ),
    Mutation(
        NAME,
        "J 1 = 1 (ones, not zeros)",
        right_side(r"null vector of $J$", lambda D, old: sp.MatrixSymbol(r"\mathbf{1}", n, 1)),
    ),
    Mutation(
        NAME,
        "rank(diag(p) + p p^T) claimed n - 1: another matrix",
        changed("nonzero $(n-1)$-minor", "lhs", lambda D, old: rank(_plus())),
    ),
    Mutation(
        NAME,
        "a rank model that answers n - 1 for any matrix",
        _stored_rank_model,
        why="cannot tell",
    ),
    Mutation(
        NAME,
        "the square of a sum checked at n = 1 only",
        lemma_fields("square of a sum", sizes=(1,)),
        why="vacuous at size 1",
    ),
    Mutation(
        NAME, "the rank at three sizes", step_fields("nonzero $(n-1)$-minor", sizes=(2, 3, 4))
    ),
    Mutation(
        NAME,
        "the quadratic form shown as sum x_i J_ij x_i: an index changed",
        step_fields("square of a sum", shown_lhs=lambda D, old: _quad_index(D)),
    ),
    Mutation(
        NAME,
        "the square-of-a-sum lemma used by no step",
        detached("square of a sum"),
        why="used by no step",
    ),
    Mutation(
        NAME,
        "rank J = n - 1 + (n - 2)(n - 3)(n - 4)(n - 5): true at the author's sizes",
        right_side("nonzero $(n-1)$-minor", lambda D, old: old + sp.prod(n - c for c in (2, 3, 4, 5))),
        why="at size 1",
    ),
]
