"""Self-attention cannot see word order.

Theorem. Without a mask or position information, self-attention is permutation-equivariant:
for every permutation matrix P, Attention(PX W^Q, PX W^K, PX W^V) = P Attention(X W^Q, X W^K,
X W^V). With Q = XW^Q, K = XW^K, V = XW^V the scores of PX are (PQ)(PK)^T = P S P^T; the row
softmax commutes with reordering, softmax(P S P^T) = P softmax(S) P^T; and P^T P = I, so the
output is P softmax(S) V. A causal mask, or position vectors added to X, break it.

The identity is proved exactly for every one of the N! permutations for 2 <= N <= 5, with X
and the projections W^Q, W^K, W^V all matrices of symbols. The general proof's two lemmas (the
row softmax commutes with reordering, for 2 <= N <= 5; permutation matrices are orthogonal, for
3 <= N <= 6) are checked for every permutation; the counterexamples are exact values certified
to differ.
"""

from __future__ import annotations

import dataclasses
from functools import cache
from itertools import permutations
from math import factorial

import numpy as np
import sympy as sp

from symattn.core.exact import _evaluate, symbol_matrix
from symattn.core.masks import Mask
from symattn.core.nodes import carry_out
from symattn.core.numeric import attention_numeric
from symattn.core.softmax import RowSoftmax, softmax_rows
from symattn.proof import Derivation, Lemma

from .planted import (
    Mutation,
    changed,
    claimed,
    drops_transpose,
    lemma_fields,
    rendering,
    right_side,
    statement,
    step_fields,
    step_with,
    stops_early,
    transposes_matrices,
)

NAME = "permutation_equivariance"
ORDER = 50  # where the course module meets it: derivations.NAMES is sorted by it
TITLE = "Attention cannot see word order"
SIZES = (2, 3, 4, 5)
WIDTH = 2
#: The end-to-end check's key and value widths: d, d_k, d_v all different, so that a product
#: taken in the wrong order, or a transpose slipped, has the wrong shape (with d = d_k = d_v,
#: every one of those products is defined and a slip can pass on square matrices).
KEY_WIDTH, VALUE_WIDTH = 3, 1


@cache
def permutation_matrix(order: tuple[int, ...]) -> sp.ImmutableMatrix:
    """P with (P X)[r] = X[order[r]] (kept: each is built once and asked for many times)."""
    n = len(order)
    return sp.ImmutableMatrix(n, n, [int(order[r] == c) for r in range(n) for c in range(n)])


def self_attention(
    x: sp.Matrix, wq: sp.Matrix, wk: sp.Matrix, wv: sp.Matrix, mask: str = "none"
) -> sp.Matrix:
    """Self-attention of the rows of x, exactly (symbols allowed)."""
    q, k, v = (sp.ImmutableMatrix(x * w) for w in (wq, wk, wv))
    return _evaluate(q, k, v, Mask.parse(mask), True, 8).output


@cache
def _weights() -> tuple[sp.Matrix, sp.Matrix, sp.Matrix]:
    widths = (KEY_WIDTH, KEY_WIDTH, VALUE_WIDTH)
    return tuple(symbol_matrix(name, WIDTH, w) for name, w in zip(("a", "b", "c"), widths, strict=True))


def equivariant_at(n: int) -> bool:
    """Attention(PX W) = P Attention(X W) for all n! permutations, symbolic X and W."""
    x = symbol_matrix("x", n, WIDTH)
    wq, wk, wv = _weights()
    base = self_attention(x, wq, wk, wv)
    for order in permutations(range(n)):
        P = permutation_matrix(order)
        if self_attention(P * x, wq, wk, wv) != P * base:
            return False
    return True


def _permutations(n: int) -> list[sp.ImmutableMatrix]:
    return [permutation_matrix(o) for o in permutations(range(n))]


def _softmax_commutes(n: int, twin: bool = False) -> bool:
    """softmax(P S P^T) = P softmax(S) P^T for every P (the twin drops the P^T)."""
    s = symbol_matrix("s", n, n)
    w = softmax_rows(s)
    return all(softmax_rows(P * s * P.T) == (P * w if twin else P * w * P.T) for P in _permutations(n))


def _softmax_commutes_twin(n: int) -> bool:
    return _softmax_commutes(n, twin=True)


def _orthogonal(n: int, twin: bool = False) -> bool:
    """P^T P = I for every P (the twin: P P = I, which holds for every P of size 2)."""
    return all(sp.eye(n) == (P * P if twin else P.T * P) for P in _permutations(n))


def _orthogonal_twin(n: int) -> bool:
    return _orthogonal(n, twin=True)


# -- the general argument, for symbolic N and widths ----------------------------------------
N = sp.Symbol("N", integer=True, positive=True)
d, d_k, d_v = sp.symbols("d d_k d_v", integer=True, positive=True)
Pm = sp.MatrixSymbol("P", N, N)
Xm = sp.MatrixSymbol("X", N, d)
Wq, Wk = sp.MatrixSymbol("W^Q", d, d_k), sp.MatrixSymbol("W^K", d, d_k)
Wv = sp.MatrixSymbol("W^V", d, d_v)


def _mul(*factors: sp.Basic) -> sp.MatMul:
    return sp.MatMul(*factors, evaluate=False)


def scores_of(x: sp.MatrixExpr) -> sp.MatrixExpr:
    """(x W^Q)(x W^K)^T / sqrt(d_k), kept as written."""
    return sp.MatMul(1 / sp.sqrt(d_k), _mul(x, Wq), sp.Transpose(_mul(x, Wk)), evaluate=False)


def attention_of(x: sp.MatrixExpr) -> sp.MatrixExpr:
    """softmax((x W^Q)(x W^K)^T / sqrt(d_k)) (x W^V), kept as written."""
    return _mul(RowSoftmax(scores_of(x)), _mul(x, Wv))


def _attention(*args: sp.MatrixExpr) -> sp.MatrixExpr:
    """Attention(Q, K, V) = softmax(Q K^T / sqrt(d_k)) V as the theorem writes it; with one
    argument X, self-attention: Attention(X W^Q, X W^K, X W^V)."""
    q, k, v = args if len(args) == 3 else (_mul(args[0], Wq), _mul(args[0], Wk), _mul(args[0], Wv))
    return _mul(RowSoftmax(sp.MatMul(1 / sp.sqrt(d_k), q, k.T)), v)


S_X = sp.MatMul(1 / sp.sqrt(d_k), Xm, Wq, Wk.T, Xm.T)  # the scores of X, as SymPy writes them
V_X = sp.MatMul(Xm, Wv)


@cache
def concrete(expr: sp.Basic, n: int) -> sp.Matrix:
    """expr at N = n for every permutation P, one block of rows per permutation.

    The scores of X become an n x n matrix of symbols, so the statement is shown for every
    score matrix. The values X W^V stand on the right of both sides; they become the identity
    (SymPy's Identity, which a product drops): M_1 I = M_2 I gives M_1 = M_2, hence
    M_1 V = M_2 V for every V of any width d_v.
    """
    expr = sp.sympify(expr)
    if not _values_last(expr):
        raise ValueError("the values X W^V must stand once, as the last factor of the side")
    s, v = sp.ImmutableMatrix(symbol_matrix("s", n, n)), sp.Identity(N)
    e = expr.xreplace({S_X: s, scores_of(Xm): s, V_X: v, _mul(Xm, Wv): v})
    if e.has(Xm):
        raise ValueError("the scores and values of X must appear as written in the proof")
    e = e.subs(N, n)
    blocks = [
        carry_out(e.xreplace({sp.MatrixSymbol("P", n, n): permutation_matrix(order)}))
        for order in permutations(range(n))
    ]
    return _stacked(blocks)


def _values_last(expr: sp.Basic) -> bool:
    """X W^V is the last factor of the whole side, M (X W^V), and W^V appears nowhere else: only
    then does M_1 I = M_2 I show M_1 V = M_2 V (review finding: V o V, a Hadamard product,
    became I o I = I, and a false step passed)."""
    last = expr
    while last not in (V_X, _mul(Xm, Wv)):
        if not isinstance(last, sp.MatMul):
            return False
        last = last.args[-1]
    return sum(1 for x in sp.preorder_traversal(expr) if x == Wv) == 1


@cache
def end_to_end(expr: sp.Basic, n: int) -> sp.Matrix:
    """expr at N = n, X an n x d matrix of symbols, W^Q and W^K d x d_k, W^V d x d_v (d = 2, d_k = 3,
    d_v = 1): every permutation."""
    x = symbol_matrix("x", n, WIDTH)
    wq, wk, wv = _weights()
    values = {Xm: x, Wq: wq, Wk: wk, Wv: wv}
    e = sp.sympify(expr).xreplace({m: sp.ImmutableMatrix(v) for m, v in values.items()})
    e = e.subs({N: n, d: WIDTH, d_k: KEY_WIDTH, d_v: VALUE_WIDTH})
    blocks = [
        carry_out(e.xreplace({sp.MatrixSymbol("P", n, n): permutation_matrix(order)}))
        for order in permutations(range(n))
    ]
    return _stacked(blocks)


def _stacked(blocks: list[sp.Matrix]) -> sp.ImmutableMatrix:
    """The blocks one under the other (Matrix.vstack copies the growing matrix once per block)."""
    return sp.ImmutableMatrix([row for block in blocks for row in block.tolist()])


# Size 1 is left out of every lemma: its one permutation is the identity, and each check would
# compare a thing with itself (each lemma's false twin passes there).
SOFTMAX_COMMUTES = Lemma(
    "row softmax commutes with reordering",
    "softmax(P S P^T) = P softmax(S) P^T",
    _softmax_commutes,
    sizes=(2, 3, 4, 5),
    twin=_softmax_commutes_twin,
    twin_statement="softmax(P S P^T) = P softmax(S), the P^T dropped",
)
# At size 2 both permutations are their own inverses, so P P = I holds as well: start at 3.
ORTHOGONAL = Lemma(
    "permutations are orthogonal",
    "P^T P = I",
    _orthogonal,
    sizes=(3, 4, 5, 6),
    twin=_orthogonal_twin,
    twin_statement="P P = I, a transpose dropped",
)


def _exhaustive(n: int) -> bool:
    return end_to_end(attention_of(_mul(Pm, Xm)), n) == end_to_end(_mul(Pm, attention_of(Xm)), n)


def _exhaustive_twin(n: int) -> bool:
    """Attention(PX) = Attention(X) for every P: invariance, where equivariance is true. (The
    first block of the right side is the identity permutation's, Attention(X) itself.)"""
    right = end_to_end(_mul(Pm, attention_of(Xm)), n)
    return end_to_end(attention_of(_mul(Pm, Xm)), n) == _stacked([right[:n, :]] * factorial(n))


EXHAUSTIVE = Lemma(
    "equivariance, every permutation",
    "Attention(PX W) = P Attention(X W) for all P",
    _exhaustive,
    sizes=SIZES,
    twin=_exhaustive_twin,
    twin_statement="Attention(PX W) = Attention(X W) for all P: the outputs not reordered",
)

# A five-token sentence for the counterexample: token embeddings and position vectors.
EMBED = {
    "the": [sp.Rational(1, 2), sp.Rational(-1, 2)],
    "dog": [2, sp.Rational(1, 3)],
    "bit": [-1, 1],
    "man": [sp.Rational(1, 4), 2],
}
POSITIONS = [[0, 1], [1, 0], [0, -1], [-1, 0], [1, 1]]
WQ = sp.Matrix([[1, 0], [sp.Rational(1, 2), 1]])
WK = sp.Matrix([[1, sp.Rational(-1, 2)], [0, 1]])
WV = sp.Matrix([[1, 1], [0, 2]])


def sentence(words: str, positions: bool) -> sp.Matrix:
    rows = [EMBED[w] for w in words.split()]
    x = sp.Matrix(rows)
    return x + sp.Matrix(POSITIONS[: len(rows)]) if positions else x


def output_of(word: str, words: str, positions: bool = False) -> sp.Matrix:
    """The output at ``word`` (its first occurrence): without a mask, the attention of that one
    query against every key and value of the sentence."""
    x = sentence(words, positions)
    query = x.row(words.split().index(word))
    q, k, v = (sp.ImmutableMatrix(m * w) for m, w in ((query, WQ), (x, WK), (x, WV)))
    return _evaluate(q, k, v, Mask.parse("none"), True, 8).output


def derivation() -> Derivation:
    D = Derivation(
        NAME,
        TITLE,
        r"Without a mask or positions, $\operatorname{Attention}(PX W^Q, PX W^K, PX W^V) = "
        r"P \operatorname{Attention}(X W^Q, X W^K, X W^V)$ for every permutation matrix $P$: shuffling "
        r"the tokens shuffles the outputs and changes nothing else.",
        assumptions=[
            r"$P$ an $N \times N$ permutation matrix; $X$ of size $N \times d$; no mask; no position "
            r"information in $X$",
            r"the sizes $N, d, d_k, d_v$ positive integers",
        ],
        concrete=concrete,
    )
    D.claim(attention_of(_mul(Pm, Xm)), _mul(Pm, attention_of(Xm)))
    # The theorem's Attention, read as the claim above: Attention(X) is self-attention.
    D.operators = {"Attention": _attention}
    D.unchecked = {r"P^\top P = I": "the rule of step 3, the lemma it names, checked at sizes"}

    D.section("The general argument, for any $N$ and any widths")
    D.step(
        attention_of(_mul(Pm, Xm)),
        _mul(RowSoftmax(_mul(Pm, S_X, Pm.T)), Pm, V_X),
        r"the transpose of a product reverses it: $(P X W^K)^\top = (W^K)^\top X^\top P^\top$",
    )
    D.then(
        _mul(Pm, RowSoftmax(S_X), Pm.T, Pm, V_X),
        "softmax works row by row, so it commutes with reordering rows and columns alike "
        "(reindexing the sum in each denominator)",
        method="at sizes",
        lemma=SOFTMAX_COMMUTES,
    )
    D.then(
        _mul(Pm, attention_of(Xm)),
        r"$P^\top P = I$",
        method="at sizes",
        lemma=ORTHOGONAL,
        sizes=SIZES,  # the step's own sides at N = 2..5; the lemma itself at 3..6
    )

    D.section(f"Every permutation, end to end, at width {WIDTH}")
    D.step(
        attention_of(_mul(Pm, Xm)),
        _mul(Pm, attention_of(Xm)),
        f"all $N!$ permutations, $X$ of width {WIDTH}, projections of widths {KEY_WIDTH} and "
        f"{VALUE_WIDTH}, all matrices of symbols: "
        "attention computed exactly on both sides",
        method="at sizes",
        lemma=EXHAUSTIVE,
        concrete=end_to_end,
    )

    D.section("What breaks it")
    x = symbol_matrix("x", 3, WIDTH).subs(
        {s: v for s, v in zip(symbol_matrix("x", 3, WIDTH), [1, 0, 0, 1, 1, 1], strict=True)}
    )
    reverse = permutation_matrix((2, 1, 0))
    eye = sp.eye(WIDTH)
    a, b = "the dog bit the man", "the man bit the dog"
    # Names for the counterexamples' matrices; verify proves each shown side is the checked one.
    rev = sp.MatrixSymbol(r"P_{\text{rev}}", 3, 3)
    causal = sp.MatrixSymbol(r"O_{\text{causal}}", 3, WIDTH)
    dog_a, dog_b = (sp.MatrixSymbol(rf"o_{{\text{{dog}}}}^{{{s}}}", 1, WIDTH) for s in "AB")
    D.abbreviations = {
        rev: reverse,
        causal: self_attention(x, eye, eye, eye, "causal"),
        dog_a: output_of("dog", a),
        dog_b: output_of("dog", b),
    }
    causal_of_reversed = self_attention(reverse * x, eye, eye, eye, "causal")
    D.claim(causal_of_reversed, reverse * self_attention(x, eye, eye, eye, "causal"), "≠")
    D.step(
        self_attention(reverse * x, eye, eye, eye, "causal"),
        reverse * self_attention(x, eye, eye, eye, "causal"),
        "a causal mask: reversing three tokens changes the outputs",
        relation="≠",
        method="certified",
        shown_lhs=sp.Symbol(r"O_{\text{causal}}^{\text{rev}}"),
        shown_rhs=sp.MatMul(rev, causal),
    )
    D.step(
        sp.MatAdd(output_of("dog", a), -output_of("dog", b), evaluate=False),
        sp.zeros(1, WIDTH),
        '"dog" gets the same output in both sentences',
        shown_lhs=sp.MatAdd(dog_a, -dog_b),
    )
    D.step(
        output_of("dog", a, positions=True),
        output_of("dog", b, positions=True),
        "with position vectors added, it does not",
        relation="≠",
        method="certified",
        shown_lhs=sp.Symbol(r"o_{\text{dog}}^{A,\text{pos}}"),
        shown_rhs=sp.Symbol(r"o_{\text{dog}}^{B,\text{pos}}"),
    )

    D.numeric_check(
        r"lambdified NumPy: largest $\lvert \operatorname{Attention}(PX) - P \operatorname{Attention}(X)"
        r" \rvert$ over random $X$, $N = 2, \dots, 8$",
        _check_numeric,
    )
    return D


def _check_numeric() -> tuple[float, float]:
    rng = np.random.default_rng(7)
    worst = 0.0
    for size in range(2, 9):
        x = rng.normal(size=(size, 4))
        w = [rng.normal(size=(4, 4)) for _ in range(3)]
        base = attention_numeric(x @ w[0], x @ w[1], x @ w[2])
        order = rng.permutation(size)
        px = x[order]
        got = attention_numeric(px @ w[0], px @ w[1], px @ w[2])
        worst = max(worst, float(np.abs(got - base[order]).max()))
    return worst, 1e-13


# -- planted errors: what the page says and prints (derivations.mutations gathers them) ----------
MUTATIONS = [
    Mutation(
        NAME,
        "the theorem says Attention(PX...) = Attention(X...), the P dropped",
        statement("theorem", r"= P \operatorname{Attention}", r"= \operatorname{Attention}"),
        why="the theorem",
    ),
    Mutation(
        NAME,
        "a rule reverses the transpose of a product without P^T",
        statement("rules", r"(W^K)^\top X^\top P^\top", r"(W^K)^\top X^\top"),
        why="the rule of step",
    ),
    Mutation(
        NAME,
        "a rule says (P X W^K)^T = P X W^K",
        statement("rules", r"= (W^K)^\top X^\top P^\top", r"= P X W^K"),
        why="the rule of step",
    ),
    Mutation(NAME, "a printer that drops a transpose", rendering(_print_Transpose=drops_transpose)),
    Mutation(
        NAME, "a printer that shows each matrix transposed", rendering(_print_MatrixBase=transposes_matrices)
    ),
]


# -- planted errors in the steps, claims, lemmas and models ---------------------------------
def _equal_scores(D: Derivation) -> int:
    """Every score equal (all 0) in the derivation's model, and a false step the model then passes:
    the P in front of softmax(S) dropped."""

    def model(expr: sp.Basic, n: int) -> sp.Basic:
        return concrete(expr, n).subs({s: 0 for s in symbol_matrix("s", n, n)})

    D.concrete = model
    k = step_with(D, "softmax works row by row")
    D.steps[k] = dataclasses.replace(D.steps[k], rhs=_mul(RowSoftmax(S_X), Pm.T, Pm, V_X))
    return k + 1


def _stored_end_to_end(D: Derivation) -> int:
    k = step_with(D, "all $N!$ permutations")
    right = D.steps[k].rhs
    D.steps[k] = dataclasses.replace(D.steps[k], concrete=lambda expr, n: end_to_end(right, n))
    return k + 1


def _dog(D: Derivation) -> sp.MatrixSymbol:
    return next(s for s in D.abbreviations if "A}" in str(s) and "dog" in str(s))


def _right_from_left(D: Derivation) -> int:
    """Invariance claimed (no P on the right), with a model that answers the right side with the
    left side's value and evaluates every other side honestly."""
    k = step_with(D, "all $N!$ permutations")
    left, right = D.lhs_of(k), attention_of(Xm)
    model = lambda expr, n: end_to_end(left if expr == right else expr, n)  # noqa: E731
    D.steps[k] = dataclasses.replace(D.steps[k], rhs=right, concrete=model)
    return k + 1


def _swapped() -> sp.MatrixExpr:
    return _mul(Pm.T, RowSoftmax(S_X), Pm, Pm, V_X)


def _squared_values() -> sp.MatrixExpr:
    return _mul(Pm, RowSoftmax(S_X), Pm.T, Pm, sp.HadamardProduct(V_X, V_X))


def _unreversed() -> sp.MatrixExpr:
    wrong = sp.MatMul(1 / sp.sqrt(d_k), Pm, Xm, Wq, Wk.T, Xm.T, evaluate=False)
    return _mul(RowSoftmax(wrong), Pm, V_X)


def _unmasked_reversed() -> sp.Matrix:
    x = symbol_matrix("x", 3, WIDTH).subs(
        {s: v for s, v in zip(symbol_matrix("x", 3, WIDTH), [1, 0, 0, 1, 1, 1], strict=True)}
    )
    reverse = permutation_matrix((2, 1, 0))
    eye = sp.eye(WIDTH)
    return self_attention(reverse * x, eye, eye, eye, "causal")


MUTATIONS += [
    Mutation(
        NAME,
        "P and P^T swapped: softmax(P S P^T) = P^T softmax(S) P",
        right_side("commutes with reordering", lambda D, old: _swapped()),
    ),
    Mutation(
        NAME,
        "P dropped: the output is Attention(X), unpermuted",
        right_side(r"$P^\top P = I$", lambda D, old: attention_of(Xm)),
    ),
    Mutation(
        NAME,
        "P^T dropped from the transpose: (P X W^K)^T = W^K^T X^T",
        right_side("the transpose of a product reverses it", lambda D, old: _unreversed()),
    ),
    Mutation(
        NAME,
        "the values multiplied entrywise by themselves: P softmax(S) P^T P (V o V)",
        right_side("commutes with reordering", lambda D, old: _squared_values()),
    ),
    Mutation(
        NAME,
        "the theorem claims Attention(PX) = Attention(X)",
        claimed(0, lambda r: attention_of(Xm)),
    ),
    Mutation(
        NAME,
        "the causal counterexample made no counterexample (the same side twice)",
        right_side("a causal mask", lambda D, old: _unmasked_reversed()),
    ),
    Mutation(
        NAME,
        "P^T P = I checked at sizes 1, 2, 1, 2 (two sizes, not four)",
        changed(r"$P^\top P = I$", "sizes", lambda D, o: (1, 2, 1, 2)),
    ),
    Mutation(
        NAME,
        "softmax commuting with reordering checked to size 4, excused by a free-text reason",
        stops_early("softmax works row by row", (1, 2, 3, 4), "size 5 felt slow"),
    ),
    Mutation(
        NAME,
        "a model with every score equal, and the P dropped",
        _equal_scores,
        why="cannot tell",
    ),
    Mutation(
        NAME,
        "an end-to-end model that returns its stored answer",
        _stored_end_to_end,
        why="does not evaluate the side it is given",
    ),
    Mutation(
        NAME,
        "P^T P = I checked at N = 1..4 (P P = I holds at 1 and 2)",
        lemma_fields(r"$P^\top P = I$", sizes=(1, 2, 3, 4)),
        why="vacuous at size 1",
    ),
    Mutation(
        NAME,
        "equivariance at N = 1..4 with the old waiver",
        lemma_fields("all $N!$ permutations", sizes=(1, 2, 3, 4), largest="permutations"),
        why="vacuous at size 1",
    ),
    Mutation(
        NAME,
        "dog's output difference shown as o^A alone",
        step_fields('"dog" gets the same output', shown_lhs=lambda D, old: _dog(D)),
    ),
    Mutation(
        NAME,
        "invariance, by a model that answers the right side with the left's value",
        _right_from_left,
        why="does not evaluate the side it is given",
    ),
]
