"""Self-attention cannot see word order.

Theorem. Without a mask or position information, self-attention is permutation-equivariant:
for every permutation matrix P, Attention(PX W^Q, PX W^K, PX W^V) = P Attention(X W^Q, X W^K,
X W^V). With Q = XW^Q, K = XW^K, V = XW^V the scores of PX are (PQ)(PK)^T = P S P^T; the row
softmax commutes with reordering, softmax(P S P^T) = P softmax(S) P^T; and P^T P = I, so the
output is P softmax(S) V. A causal mask, or position vectors added to X, break it.

The identity is proved exactly for every one of the N! permutations for N <= 4, with X and the
projections W^Q, W^K, W^V all matrices of symbols. The general proof's two lemmas (the row
softmax commutes with reordering; permutation matrices are orthogonal) are checked for every
permutation at N <= 4; the counterexamples are exact values certified to differ.
"""

from __future__ import annotations

from functools import cache
from itertools import permutations

import numpy as np
import sympy as sp

from symattn.exact import _evaluate, symbol_matrix
from symattn.masks import Mask
from symattn.numeric import attention_numeric
from symattn.proof import Derivation, Lemma
from symattn.softmax import RowSoftmax, softmax_rows

NAME = "permutation_equivariance"
TITLE = "Attention cannot see word order"
SIZES = (1, 2, 3, 4)
WIDTH = 2


def permutation_matrix(order: tuple[int, ...]) -> sp.Matrix:
    """P with (P X)[r] = X[order[r]]."""
    n = len(order)
    return sp.Matrix(n, n, lambda r, c: 1 if order[r] == c else 0)


def self_attention(
    x: sp.Matrix, wq: sp.Matrix, wk: sp.Matrix, wv: sp.Matrix, mask: str = "none"
) -> sp.Matrix:
    """Self-attention of the rows of x, exactly (symbols allowed)."""
    q, k, v = (sp.ImmutableMatrix(x * w) for w in (wq, wk, wv))
    return _evaluate(q, k, v, Mask.parse(mask), True, 8).output


@cache
def _weights() -> tuple[sp.Matrix, sp.Matrix, sp.Matrix]:
    return tuple(symbol_matrix(name, WIDTH, WIDTH) for name in ("a", "b", "c"))


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


def _softmax_commutes(n: int) -> bool:
    s = symbol_matrix("s", n, n)
    w = softmax_rows(s)
    return all(
        softmax_rows(P * s * P.T) == P * w * P.T
        for P in (permutation_matrix(o) for o in permutations(range(n)))
    )


def _orthogonal(n: int) -> bool:
    return all(sp.eye(n) == P.T * P for P in (permutation_matrix(o) for o in permutations(range(n))))


SOFTMAX_COMMUTES = Lemma(
    "row softmax commutes with reordering",
    "softmax(P S P^T) = P softmax(S) P^T",
    _softmax_commutes,
    sizes=SIZES,
)
ORTHOGONAL = Lemma("permutations are orthogonal", "P^T P = I", _orthogonal, sizes=SIZES)
EXHAUSTIVE = Lemma(
    "equivariance, every permutation",
    "Attention(PX W) = P Attention(X W) for all P",
    equivariant_at,
    sizes=SIZES,
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
    out = self_attention(sentence(words, positions), WQ, WK, WV)
    return out.row(words.split().index(word))


def _every_permutation(lemma: Lemma):
    return lemma.step_check("for every permutation at N =", named=False)


def derivation() -> Derivation:
    D = Derivation(
        NAME,
        TITLE,
        "Without a mask or positions, Attention(PX, PX, PX) = P Attention(X, X, X) for every "
        "permutation matrix P: shuffling the tokens shuffles the outputs and changes nothing else.",
        assumptions=["P a permutation matrix; no mask; no position information in X"],
    )
    n = sp.Symbol("N", integer=True, positive=True)
    P = sp.MatrixSymbol("P", n, n)
    Qs, Ks, Vs = (sp.MatrixSymbol(c, n, WIDTH) for c in "QKV")
    S = sp.MatrixSymbol("S", n, n)

    D.section("Every permutation, exactly")
    D.step(
        sp.Symbol(r"\operatorname{Attention}(PXW^Q, PXW^K, PXW^V)"),
        sp.Symbol(r"P\,\operatorname{Attention}(XW^Q, XW^K, XW^V)"),
        "all N! permutations, X and W^Q, W^K, W^V matrices of symbols",
        lemma=EXHAUSTIVE,
        check=_every_permutation(EXHAUSTIVE),
    )

    D.section("The general argument")
    D.step((P * Qs) * (P * Ks).T, P * Qs * Ks.T * P.T, "the transpose of a product reverses it")
    D.step(
        RowSoftmax(P * S * P.T),
        P * RowSoftmax(S) * P.T,
        "softmax works row by row, so it commutes with reordering",
        lemma=SOFTMAX_COMMUTES,
        check=_every_permutation(SOFTMAX_COMMUTES),
    )
    D.step(
        P * RowSoftmax(S) * P.T * P * Vs,
        P * RowSoftmax(S) * Vs,
        "P^T P = I",
        lemma=ORTHOGONAL,
        check=_every_permutation(ORTHOGONAL),
    )

    D.section("What breaks it")
    x = symbol_matrix("x", 3, WIDTH).subs(
        {s: v for s, v in zip(symbol_matrix("x", 3, WIDTH), [1, 0, 0, 1, 1, 1], strict=True)}
    )
    reverse = permutation_matrix((2, 1, 0))
    eye = sp.eye(WIDTH)
    D.step(
        self_attention(reverse * x, eye, eye, eye, "causal"),
        reverse * self_attention(x, eye, eye, eye, "causal"),
        "a causal mask: reversing three tokens changes the outputs",
        relation="≠",
        shown_lhs=sp.Symbol(r"\operatorname{Attention}_{\text{causal}}(PX)"),
        shown_rhs=sp.Symbol(r"P\,\operatorname{Attention}_{\text{causal}}(X)"),
    )
    a, b = "the dog bit the man", "the man bit the dog"
    D.step(
        output_of("dog", a),
        output_of("dog", b),
        '"dog" gets the same output in both sentences',
        shown_lhs=sp.Symbol(r"o_{\text{dog}}^{A}"),
        shown_rhs=sp.Symbol(r"o_{\text{dog}}^{B}"),
    )
    D.step(
        output_of("dog", a, positions=True),
        output_of("dog", b, positions=True),
        "with position vectors added, it does not",
        relation="≠",
        shown_lhs=sp.Symbol(r"o_{\text{dog}}^{A,\text{pos}}"),
        shown_rhs=sp.Symbol(r"o_{\text{dog}}^{B,\text{pos}}"),
    )

    D.numeric_check("lambdified NumPy: max |Attn(PX) - P Attn(X)| over random X, N = 2..8", _check_numeric)
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
