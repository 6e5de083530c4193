"""Multi-head attention and what it costs.

Theorem. MultiHead(X) = [head_1; ...; head_h] W^O with head_i = Attention(X W^Q_i, X W^K_i,
X W^V_i) and d_k = d_v = d_model / h costs 3 N d^2 + N^2 d + N^2 d + N d^2 = 4 N d^2 + 2 N^2 d
multiply-adds (d = d_model): projections, scores, weighted sum, output projection. The N^2
terms are the larger exactly when N > 2 d_model (8192 at d_model = 4096). Eight heads of width
64 cost what one head of width 512 costs; counting multiplies and adds separately doubles both
terms and leaves the crossover where it is.

The cost terms and the crossover are solved symbolically. They are then checked against an
operation count of the actual NumPy code that symattn generates for multi-head attention:
every matrix product it performs is counted as it runs.
"""

from __future__ import annotations

import dataclasses
import operator
from collections.abc import Callable
from fractions import Fraction

import numpy as np
import sympy as sp

from symattn.core.exact import attention, symbol_matrix
from symattn.core.flops import N, cost_terms, d_model, h, total_cost
from symattn.core.multihead import multihead_exact, multihead_numeric
from symattn.proof import Derivation, StepFailed
from symattn.proof.latex import written

from .planted import (
    Mutation,
    changed,
    flips_fraction,
    rendering,
    right_side,
    shown_as,
    statement,
    step_fields,
    step_with,
    swaps_squares,
)

NAME = "multihead_flops"
ORDER = 60  # where the course module meets it: derivations.NAMES is sorted by it
TITLE = "Multi-head attention and its cost"

d_k = sp.Symbol("d_k", positive=True, integer=True)


# -- counting the cost from the definition -----------------------------------------------------
cost = sp.Function("cost")
X = sp.MatrixSymbol("X", N, d_model)
W_Q, W_K, W_V = (sp.MatrixSymbol(f"W^{c}_i", d_model, d_k) for c in "QKV")
W_O = sp.MatrixSymbol("W^O", d_model, d_model)
Q_i, K_i, V_i = (sp.MatrixSymbol(f"{c}_i", N, d_k) for c in "QKV")  # X W^Q_i, ... once projected
A_i = sp.MatrixSymbol("A_i", N, N)  # head i's weights, softmax(Q_i K_i^T / sqrt(d_k))
HEADS = sp.MatrixSymbol("H", N, d_model)  # the heads side by side, [head_1; ...; head_h]


def _mul(*factors: sp.Basic) -> sp.MatMul:
    return sp.MatMul(*factors, evaluate=False)


#: Each stage of multi-head attention as the products it performs, and how often (per head: h).
STAGES: dict[str, tuple[sp.Expr, list[sp.MatrixExpr]]] = {
    "projections": (h, [_mul(X, W_Q), _mul(X, W_K), _mul(X, W_V)]),
    "scores": (h, [_mul(Q_i, sp.Transpose(K_i))]),
    "weighted_sum": (h, [_mul(A_i, V_i)]),
    "output_projection": (sp.S.One, [_mul(HEADS, W_O)]),
}


def multiply_adds(e: sp.Basic) -> sp.Expr:
    """Multiply-adds to evaluate a product of matrices left to right, inner products included.

    An (a x b) by (b x c) product costs a b c; the shapes are SymPy's, so a product that does
    not fit is refused by SymPy before it is counted.
    """
    inner = sum((multiply_adds(a) for a in e.args if isinstance(a, sp.MatrixExpr)), sp.S.Zero)
    if not isinstance(e, sp.MatMul):
        return inner
    factors = [a for a in e.args if isinstance(a, sp.MatrixExpr)]
    rows, cols = factors[0].shape
    total = inner
    for f in factors[1:]:
        if f.shape[0] != cols:
            raise StepFailed(f"{NAME}: a product of shapes ({rows}, {cols}) and {f.shape} does not fit")
        total += rows * cols * f.shape[1]
        cols = f.shape[1]
    return total


def counted(stage: str) -> sp.Expr:
    """The multiply-adds of a stage, counted from its products, with d_k = d_model / h."""
    times, products = STAGES[stage]
    return sp.expand((times * sum(multiply_adds(p) for p in products)).subs(d_k, dm_over_h))


dm_over_h = d_model / h


def _counted(lhs: sp.Expr, rhs: sp.Expr) -> str:
    """lhs, made of cost(stage) terms, equals rhs once each stage's products are counted."""
    stages = sorted(str(c.args[0]) for c in sp.sympify(lhs).atoms(cost))
    if not stages:
        raise StepFailed(f"{NAME}: a cost step needs cost(stage) on the left")
    value = sp.sympify(lhs).replace(lambda x: isinstance(x, cost), lambda x: counted(str(x.args[0])))
    if sp.expand(value - sp.sympify(rhs)) != 0:
        raise StepFailed(
            f"{NAME}: counted, {sp.sstr(lhs)} is {sp.sstr(sp.expand(value))}, not {sp.sstr(rhs)}"
        )
    return "counted from the products of " + ", ".join(stages)


def _solved_for_n(lhs: object, rhs: object) -> tuple[str, str]:
    """lhs (an inequality) is equivalent to rhs once solved for N with N, d_model > 0."""
    solved = sp.reduce_inequalities(lhs, N)
    # The same inequality either way round: 2 d_model < N is N > 2 d_model, as the module writes it.
    if not isinstance(rhs, sp.core.relational.Relational) or solved.canonical != rhs.canonical:
        raise StepFailed(f"{NAME}: solving {lhs} for N gives {solved}, not {rhs}")
    # Cross-check the equivalence at integer points on both sides of the boundary.
    holds_l, holds_r = _truth(lhs), _truth(rhs)
    for n_value in range(1, 40):
        for d_value in range(1, 12):
            if holds_l(n_value, d_value) != holds_r(n_value, d_value):
                raise StepFailed(f"{NAME}: {lhs} and {rhs} disagree at N = {n_value}, d_model = {d_value}")
    return "reduce_inequalities, with N and d_model positive"


_COMPARE = {"<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge}


def _truth(relation: sp.Basic) -> Callable[[int, int], bool]:
    """relation(N, d_model) for integers, exactly: a polynomial's sign in rational arithmetic."""
    if not isinstance(relation, sp.core.relational.Relational) or relation.rel_op not in _COMPARE:
        raise StepFailed(f"{NAME}: {relation} is not an inequality")
    poly = sp.Poly(relation.lhs - relation.rhs, N, d_model)
    terms = [(a, b, Fraction(int(c.p), int(c.q))) for (a, b), c in poly.terms()]
    compare = _COMPARE[relation.rel_op]
    return lambda n, d: compare(sum(c * n**a * d**b for a, b, c in terms), 0)


class CountingArray(np.ndarray):
    """An array that counts the multiply-adds of every matrix product it takes part in."""

    count = 0

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        arrays = [np.asarray(x) for x in inputs]
        if ufunc is np.matmul:
            a, b = arrays
            batch = int(np.prod(np.broadcast_shapes(a.shape[:-2], b.shape[:-2])))
            CountingArray.count += batch * a.shape[-2] * a.shape[-1] * b.shape[-1]
        result = getattr(ufunc, method)(*arrays, **kwargs)
        return result.view(CountingArray) if isinstance(result, np.ndarray) else result


def counted_multihead(n: int, d: int, heads: int) -> int:
    """Multiply-adds performed by symattn's generated multi-head attention at these sizes."""
    rng = np.random.default_rng(n * 1000 + d * 10 + heads)
    dh = d // heads

    def arr(*shape: int) -> CountingArray:
        return rng.normal(size=shape).view(CountingArray)

    CountingArray.count = 0
    multihead_numeric(
        arr(n, d),
        arr(n, d),
        arr(n, d),
        [arr(d, dh) for _ in range(heads)],
        [arr(d, dh) for _ in range(heads)],
        [arr(d, dh) for _ in range(heads)],
        arr(d, d),
    )
    return CountingArray.count


def derivation() -> Derivation:
    D = Derivation(
        NAME,
        TITLE,
        r"Multi-head attention over $N$ tokens costs $4 N d_{\text{model}}^2 + 2 N^2 d_{\text{model}}$ "
        r"multiply-adds; the $N^2$ terms dominate exactly when $N > 2 d_{\text{model}}$.",
        assumptions=[
            r"$N, d_{\text{model}}, h$ positive integers; $d_k = d_v = d_{\text{model}} / h$",
        ],
    )
    terms = cost_terms()
    dm = d_model
    S = sp.Symbol

    # The four costs in the module's order (projections first), and its order of terms.
    four = written(
        sp.Add(
            *(cost(S(stage)) for stage in ("projections", "scores", "weighted_sum", "output_projection")),
            evaluate=False,
        )
    )
    total_shown = written(sp.Add(4 * N * dm**2, 2 * N**2 * dm, evaluate=False))
    n_above = sp.StrictGreaterThan(N, 2 * dm, evaluate=False)  # N > 2 d_model, as the module says
    D.claim(
        cost(S("projections")) + cost(S("scores")) + cost(S("weighted_sum")) + cost(S("output_projection")),
        total_cost(),
    )

    D.section("The definition")
    heads = [symbol_matrix(f"h{t}", 2, 2) for t in (1, 2)]
    w_o = symbol_matrix("w", 4, 3)
    # The heads and W^O's two blocks of rows by name; verify proves each shown side is the
    # checked one.
    head1, head2 = (sp.MatrixSymbol(rf"\text{{head}}_{{{t}}}", 2, 2) for t in (1, 2))
    w_all = sp.MatrixSymbol("W^O", 4, 3)
    w_1, w_2 = sp.MatrixSymbol("W^O_1", 2, 3), sp.MatrixSymbol("W^O_2", 2, 3)
    D.abbreviations = {head1: heads[0], head2: heads[1], w_all: w_o, w_1: w_o[:2, :], w_2: w_o[2:, :]}
    D.step(
        sp.MatMul(sp.BlockMatrix([heads]), w_o, evaluate=False),
        heads[0] * w_o[:2, :] + heads[1] * w_o[2:, :],
        "joining the heads and projecting is each head writing through its own rows of $W^O$",
        shown_lhs=sp.MatMul(sp.BlockMatrix([[head1, head2]]), w_all),
        shown_rhs=sp.MatAdd(sp.MatMul(head1, w_1), sp.MatMul(head2, w_2)),
    )

    D.section("Head width")
    D.step(
        sp.Mul(h, d_k, evaluate=False),
        dm,
        r"heads share the model width: $d_k = d_{\text{model}} / h$",
        method="definition",
        definition={d_k: dm / h},
    )
    D.step(
        dm / h,
        sp.Integer(64),
        r"the paper: $h = 8$, $d_{\text{model}} = 512$",
        given={h: 8, dm: 512},  # each number bound to the symbol the rule gives it to
    )

    D.section("The four costs")
    D.step(
        cost(S("projections")),
        terms["projections"],
        r"projections: $h$ heads, three $(N \times d_{\text{model}})$ by "
        r"$(d_{\text{model}} \times d_k)$ products each",
        check=_counted,
    )
    D.step(
        cost(S("scores")),
        terms["scores"],
        r"scores: $h$ products of $(N \times d_k)$ by $(d_k \times N)$",
        check=_counted,
    )
    D.step(
        cost(S("weighted_sum")),
        terms["weighted_sum"],
        r"weighted sum: $h$ products of $(N \times N)$ by $(N \times d_v)$",
        check=_counted,
    )
    D.step(
        cost(S("output_projection")),
        terms["output_projection"],
        r"output projection: $(N \times d_{\text{model}})$ by $(d_{\text{model}} \times d_{\text{model}})$",
        check=_counted,
    )
    D.step(
        cost(S("projections")) + cost(S("scores")) + cost(S("weighted_sum")) + cost(S("output_projection")),
        sp.Add(*terms.values(), evaluate=False),
        "add the four terms",
        check=_counted,
        shown_lhs=four,
        shown_rhs=written(sp.Add(*terms.values(), evaluate=False)),
    )
    D.then(total_cost(), "collect", shown_rhs=total_shown)

    D.unchecked = {"N^2": "names the terms by their factor"}
    D.claim(2 * N**2 * dm > 4 * N * dm**2, n_above, "⟺")
    D.section("The crossover")
    D.step(
        2 * N**2 * dm > 4 * N * dm**2,
        n_above,
        r"solve for $N$ ($N, d_{\text{model}} > 0$)",
        relation="⟺",
        check=_solved_for_n,
    )
    D.step(
        2 * dm,
        sp.Integer(8192),
        r"at $d_{\text{model}} = 4096$",
        given={dm: 4096},
    )

    D.section("Many narrow heads cost what one wide head costs")
    D.step(
        sp.Mul(8, sp.Mul(N, 64, N, evaluate=False), evaluate=False),
        sp.Mul(N, 512, N, evaluate=False),
        r"scores: 8 heads of width 64, each an $(N \times 64)$ by $(64 \times N)$ product, vs one head "
        "of width 512",
    )
    D.section("Counting multiplies and adds separately")
    D.step(
        sp.Mul(2, 4 * N * dm**2 + 2 * N**2 * dm, evaluate=False),
        8 * N * dm**2 + 4 * N**2 * dm,
        "each multiply-add is two FLOPs: both terms double",
        shown_lhs=written(sp.Mul(2, sp.Add(4 * N * dm**2, 2 * N**2 * dm, evaluate=False), evaluate=False)),
        shown_rhs=written(sp.Add(8 * N * dm**2, 4 * N**2 * dm, evaluate=False)),
    )
    D.step(
        4 * N**2 * dm > 8 * N * dm**2,
        n_above,
        "the crossover does not move",
        relation="⟺",
        check=_solved_for_n,
    )

    D.numeric_check(
        r"multiply-adds counted in the generated NumPy code vs "
        r"$4 N d_{\text{model}}^2 + 2 N^2 d_{\text{model}}$",
        _check_count,
    )
    D.numeric_check(
        r"cross-attention ($X_q$, $X_k$, $X_v$ all different): exact multi-head vs heads joined by hand, "
        "and vs lambdified NumPy",
        _check_exact,
    )
    return D


def _check_count() -> tuple[float, float]:
    worst = 0.0
    for n, d, heads in [(3, 4, 1), (5, 4, 2), (7, 8, 4), (16, 8, 8), (9, 12, 3)]:
        formula = int(total_cost().subs({N: n, d_model: d}))
        worst = max(worst, abs(counted_multihead(n, d, heads) - formula))
    return worst, 0.0


def _check_exact() -> tuple[float, float]:
    """Cross-attention, every input different (3 queries, 5 keys and values, widths 4 and 2): the
    library's exact multi-head attention against one built here from single-head attention (each
    head softmax((X_q W_q)(X_k W_k)^T / sqrt(d_k) + M) (X_v W_v), joined, times W_o), and the
    lambdified NumPy one against both. With X_q = X_k = X_v a slip that took the keys from the
    queries would pass."""
    rng = np.random.default_rng(8)

    def rational(rows: int, cols: int) -> sp.Matrix:
        return sp.Matrix(rows, cols, lambda *_: sp.Rational(int(rng.integers(-9, 10)), 4))

    xq, xk, xv = rational(3, 4), rational(5, 4), rational(5, 4)
    w = [[rational(4, 2) for _ in range(2)] for _ in range(3)]
    wo = rational(4, 4)
    exact = multihead_exact(xq, xk, xv, w[0], w[1], w[2], wo, "causal")
    heads = [attention(xq * wq, xk * wk, xv * wv, "causal").output for wq, wk, wv in zip(*w, strict=True)]
    built = sp.Matrix.hstack(*heads) * wo
    f = [[np.array(m, float) for m in ws] for ws in w]
    got = multihead_numeric(
        np.array(xq, float),
        np.array(xk, float),
        np.array(xv, float),
        f[0],
        f[1],
        f[2],
        np.array(wo, float),
        mask="causal",
    )
    want = np.array(exact.evalf(30).tolist(), float)
    apart = float(np.abs(np.array((exact - built).evalf(30).tolist(), float)).max())
    return max(apart, float(np.abs(got - want).max())), 1e-13


# -- planted errors: what the page says and prints (derivations.mutations gathers them) ----------
MUTATIONS = [
    Mutation(
        NAME,
        "the theorem says the cost is 3 N d_model^2 + 2 N^2 d_model",
        statement("theorem", r"$4 N d_{\text{model}}^2", r"$3 N d_{\text{model}}^2"),
        why="no side of the proof",
    ),
    Mutation(
        NAME,
        "the theorem puts the crossover at N > d_model / 2",
        statement("theorem", r"N > 2 d_{\text{model}}", r"N > d_{\text{model}} / 2"),
        why="the theorem",
    ),
    Mutation(
        NAME,
        "the crossover's rule binds 4096 to N where the step gives it to d_model",
        statement("rules", r"at $d_{\text{model}} = 4096$", "at $N = 4096$"),
        why="puts in",
    ),
    Mutation(
        NAME,
        "the paper's numbers bound to the wrong symbols: h = 512, d_model = 8",
        statement("rules", r"$h = 8$, $d_{\text{model}} = 512$", r"$h = 512$, $d_{\text{model}} = 8$"),
        why="puts in",
    ),
    Mutation(
        NAME,
        "the assumptions say d_k = d_model h where the proof defines d_model / h",
        statement("assumptions", r"d_{\text{model}} / h", r"d_{\text{model}} \cdot h"),
        why="assumption",
    ),
    Mutation(
        NAME,
        "a rule says the head width is d_k = d_model h",
        statement("rules", r"$d_k = d_{\text{model}} / h$", r"$d_k = d_{\text{model}} h$"),
        why="the rule of step",
    ),
    Mutation(NAME, "a printer that shows each square as a cube", rendering(_print_Pow=swaps_squares)),
    Mutation(NAME, "a printer that turns each fraction upside down", rendering(_print_Mul=flips_fraction)),
]


# -- planted errors in the steps, claims, lemmas and models ---------------------------------
def _blind_check(D: Derivation) -> int:
    """The crossover solved as N > d_model, by a procedure that looks at neither side."""
    k = step_with(D, "solve for $N$")
    D.steps[k] = dataclasses.replace(D.steps[k], rhs=d_model < N, check=lambda lhs, rhs: "solved")
    return k + 1


def _substitution_claimed(D: Derivation) -> str:
    D.claim(2 * d_model, sp.Integer(8192))  # true at d_model = 4096 only
    return "claim"


MUTATIONS += [
    Mutation(
        NAME,
        "cost(projections) = 2 N d^2",
        right_side("projections: $h$ heads", lambda D, old: 2 * N * d_model ** 2),
    ),
    Mutation(
        NAME,
        "cost(scores) = N^2 d / h",
        right_side("scores: $h$ products", lambda D, old: N ** 2 * d_model / h),
    ),
    Mutation(
        NAME,
        "the crossover at 4096 for d_model = 4096",
        right_side("at $d_{", lambda D, o: sp.Integer(4096)),
    ),
    Mutation(
        NAME,
        "the total collected as 4 N d^2 + N^2 d",
        right_side("collect", lambda D, o: 4 * N * d_model ** 2 + N ** 2 * d_model),
    ),
    Mutation(
        NAME,
        "counting FLOPs doubles only one term",
        right_side(
            "both terms double",
            lambda D, o: 8 * N * d_model ** 2 + 2 * N ** 2 * d_model,
        ),
    ),
    Mutation(NAME, "512 / 8 = 32", right_side("the paper", lambda D, o: sp.Integer(32))),
    Mutation(
        NAME,
        "the total shown in the module's order as 4 N d^2 + 3 N^2 d where 4 N d^2 + 2 N^2 d is checked",
        shown_as("collect", lambda D, o: o + N ** 2 * d_model),
    ),
    Mutation(
        NAME,
        "the crossover's rule says d_model = 2048 where the step puts in 4096",
        changed("at $d_{", "rule", lambda D, o: o.replace("4096", "2048")),
    ),
    Mutation(
        NAME,
        "the crossover puts in d_model = 2048 where its rule says 4096",
        changed("at $d_{", "given", lambda D, o: {d_model: 2048}),
    ),
    Mutation(
        NAME,
        "512 / 8 off by 1e-30, written as a Python float (already 64.0)",
        right_side("the paper", lambda D, o: o + 1e-30),
    ),
    Mutation(
        NAME,
        "the crossover solved as N > d_model",
        right_side("solve for $N$", lambda D, o: d_model < N),
    ),
    Mutation(
        NAME,
        "a label holding a product: head_1 W^O_1 + head_2 W^O_2",
        step_fields(
            "its own rows of $W^O$",
            shown_rhs=sp.Symbol(r"\operatorname{head}_1 W^O_1 + \operatorname{head}_2 W^O_2"),
        ),
    ),
    Mutation(
        NAME, "a crossover procedure that looks at neither side", _blind_check, why="accepts"
    ),
    Mutation(
        NAME, "2 d_model = 8192 claimed in general", _substitution_claimed, why="no chain"
    ),
]
