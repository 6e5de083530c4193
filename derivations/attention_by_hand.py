"""Attention on two tokens, by hand (the module's section 6.2).

Theorem. With queries [3, -3], [1, 1], keys [-3, 3], [1, 1] and values [0, -1], [1, 2]
(d_k = 2) and a causal mask, the scores are -18, 0, 0, 2, the weights [1, 0] and
[1/(1 + e^sqrt 2), e^sqrt 2/(1 + e^sqrt 2)], and the outputs [0, -1] and
[e^sqrt 2/(1 + e^sqrt 2), (2 e^sqrt 2 - 1)/(1 + e^sqrt 2)] = [0.804..., 1.413...]. Without the
mask, token 1 puts all but 1/(1 + e^(9 sqrt 2)), about e^(-9 sqrt 2), of its weight on token 2.

Each step is the matrix operation written out on explicit matrices; SymPy carries it out and
proves it equal to the stated result. symattn's own ``attention`` is tied to the steps: each of
its stages (scores, scaled, masked, weights, output) is a claim the steps must establish. The
lambdified NumPy attention is then compared with the exact values.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import sympy as sp

from symattn.core.exact import attention
from symattn.core.masks import Mask
from symattn.core.numeric import attention_numeric
from symattn.core.softmax import RowSoftmax
from symattn.proof import Derivation
from symattn.proof.latex import written

from .planted import (
    TINY,
    Mutation,
    drops_root,
    drops_transpose,
    figure,
    rendering,
    right_side,
    statement,
    step_fields,
    step_with,
    transposes_matrices,
)

NAME = "attention_by_hand"
ORDER = 10  # where the course module meets it: derivations.NAMES is sorted by it
TITLE = "Attention on two tokens, by hand"

Q = sp.Matrix([[3, -3], [1, 1]])
K = sp.Matrix([[-3, 3], [1, 1]])
V = sp.Matrix([[0, -1], [1, 2]])
R2 = sp.sqrt(2)
E = sp.exp(R2)
oo = sp.oo


def _mul(*factors: sp.Basic) -> sp.MatMul:
    return sp.MatMul(*factors, evaluate=False)


def _softmax_rows(m: sp.Matrix) -> sp.Matrix:
    """The softmax written out: e^{z_ij} / sum_k e^{z_ik}, nothing simplified."""
    rows = []
    for r in range(m.rows):
        terms = [sp.exp(m[r, c], evaluate=False) for c in range(m.cols)]
        total = sp.Add(*terms, evaluate=False)
        rows.append([sp.Mul(t, sp.Pow(total, -1, evaluate=False), evaluate=False) for t in terms])
    return sp.Matrix(rows)


def derivation() -> Derivation:
    D = Derivation(
        NAME,
        TITLE,
        r"The two-token example of section 6.2: with the causal mask the weights are $[1, 0]$ and "
        r"$\left[\frac{1}{1 + e^{\sqrt{2}}}, \frac{e^{\sqrt{2}}}{1 + e^{\sqrt{2}}}\right]$, and the outputs "
        r"$[0, -1]$ and $[0.804\ldots, 1.413\ldots]$.",
        assumptions=[r"$d_k = 2$; the causal mask blocks key 2 for query 1"],
    )
    S = sp.Matrix([[-18, 0], [0, 2]])
    Z = sp.Matrix([[-9 * R2, 0], [0, R2]])
    M = Mask.parse("causal").exact(2, 2)
    Zm = sp.Matrix([[-9 * R2, -oo], [0, R2]])
    A = sp.Matrix([[1, 0], [1 / (1 + E), E / (1 + E)]])
    O = sp.Matrix([[0, -1], [E / (1 + E), (2 * E - 1) / (1 + E)]])  # noqa: E741 - the module's letter
    # The second output as a person writes it, 2 e^sqrt2 - 1 over 1 + e^sqrt2 (verify proves it
    # is the entry checked).
    second = written(
        sp.Mul(sp.Add(2 * E, -1, evaluate=False), sp.Pow(1 + E, -1, evaluate=False), evaluate=False)
    )
    # The module's letters, each standing for its matrix: a step shows its left side as a
    # formula in them, and verify proves the formula is that side.
    Qs, Ks, Vs, Ms, As = (sp.MatrixSymbol(name, 2, 2) for name in "QKVMA")
    D.abbreviations = {Qs: Q, Ks: K, Vs: V, Ms: M, As: A}
    scores = sp.MatMul(Qs, Ks.T)
    scaled = sp.MatMul(sp.Pow(R2, -1, evaluate=False), Qs, Ks.T)  # 1/sqrt(2), not sqrt(2)/2

    D.claim(_softmax_rows(Zm), A).claim(_mul(A, V), O)
    # symattn's own attention, stage by stage, is what the steps below work by hand: each stage
    # it computes must be established by a chain of the proof (a library that scaled by d_k, or
    # masked after the softmax, fails here).
    library = attention(Q.tolist(), K.tolist(), V.tolist(), "causal")
    worked = {"scores": S, "scaled": Z, "masked": Zm, "weights": A, "output": O}
    if set(library.stages) != set(worked):
        raise ValueError(f"{NAME}: the library's stages {sorted(library.stages)} are not the worked ones")
    for stage, matrix in worked.items():
        D.claim(library.stages[stage], matrix)

    D.section("Scores")
    D.step(
        _mul(Q, K.T),
        S,
        "entry $(i, j)$ is query $i$ dotted with key $j$",
        shown_lhs=scores,
    )
    D.section(r"Scale by $\sqrt{d_k} = \sqrt{2}$")
    D.step(_mul(1 / R2, S), Z, r"divide every score by $\sqrt{2}$", shown_lhs=scaled)
    D.approx(-9 * R2, "-12.73", "the module's row $[-12.73, 0]$", digits=4)
    D.approx(R2, "1.414", "and $[0, 1.414]$", digits=4)
    D.section("Mask")
    D.step(
        sp.MatAdd(Z, M, evaluate=False),
        Zm,
        "causal: token 1 may not look at token 2",
        shown_lhs=sp.MatAdd(scaled, Ms, evaluate=False),
    )
    D.section("Softmax each row")
    D.step(
        _softmax_rows(Zm),
        A,
        r"$e^{-\infty} = 0$; row 1 keeps its only key",
        shown_lhs=RowSoftmax(sp.MatAdd(scaled, Ms, evaluate=False)),
    )
    D.approx(E, "4.113", r"$e^{\sqrt{2}}$ in the module's row $[1, 4.113]$", digits=4)
    D.approx(1 + E, "5.113", "their sum", digits=4)
    D.approx(1 / (1 + E), "0.196", "weight of key 1 for query 2", digits=3)
    D.approx(E / (1 + E), "0.804", "weight of key 2 for query 2", digits=3)
    D.section("Weighted sum of values")
    D.step(
        _mul(A, V),
        O,
        "each output row mixes the value rows by its weights",
        shown_lhs=sp.MatMul(As, Vs),
        shown_rhs=sp.Matrix([[0, -1], [E / (1 + E), second]]),
    )
    D.approx(O[1, 0], "0.804", "token 2's output, first entry", digits=3)
    D.step(O[1, 1], "1.413", "token 2's output, second entry", relation="≈", digits=4, shown_lhs=second)

    D.section("Without the mask")
    A0 = sp.Matrix(
        [
            [1 / (1 + sp.exp(9 * R2)), sp.exp(9 * R2) / (1 + sp.exp(9 * R2))],
            [1 / (1 + E), E / (1 + E)],
        ]
    )
    D.step(
        _softmax_rows(Z),
        A0,
        "softmax of the unmasked rows",
        shown_lhs=RowSoftmax(scaled),
    )
    D.step(
        1 - A0[0, 1],
        A0[0, 0],
        "the weight token 1 keeps for itself",
        shown_lhs=written(sp.Add(1, -A0[0, 1], evaluate=False)),
    )
    D.approx(A0[0, 0], "0.000002967", r"about $e^{-9\sqrt{2}}$", digits=4)
    D.approx(sp.exp(-9 * R2), "0.000002967", r"$e^{-9\sqrt{2}}$, to the same digits", digits=4)
    D.approx(
        sp.exp(sp.Rational(127, 10)),
        "3.3E+5",
        "a gap of 12.7: one weight $e^{12.7}$ times the other",
        digits=2,
    )
    masked, unmasked = (attention(Q.tolist(), K.tolist(), V.tolist(), m).output for m in ("causal", "none"))
    D.claim(masked, unmasked, "≠")  # the mask changes the outputs
    D.step(
        masked,
        unmasked,
        "the mask changes the answer",
        relation="≠",
        shown_lhs=sp.Symbol(r"O_{\text{causal}}"),
        shown_rhs=sp.Symbol(r"O_{\text{none}}"),
    )

    D.numeric_check("lambdified NumPy vs exact output, causal and unmasked", _check_numeric)
    return D


def _check_numeric() -> tuple[float, float]:
    worst = 0.0
    for mask in ("causal", "none"):
        exact = attention(Q.tolist(), K.tolist(), V.tolist(), mask).output
        want = np.array(exact.evalf(30).tolist(), dtype=float)
        got = attention_numeric(np.array(Q, float), np.array(K, float), np.array(V, float), mask)
        worst = max(worst, float(np.abs(got - want).max()))
    return worst, 1e-15


# -- planted errors: what the page says and prints (derivations.mutations gathers them) ----------
def _library_scaled_by_d_k(d: Derivation) -> str:
    """symattn's attention as if it divided the scores by d_k, not sqrt(d_k): its stages put in
    place of the library's claims (the by-hand steps unchanged)."""
    wrong = attention(Q.tolist(), K.tolist(), V.tolist(), "causal", scale=sp.Rational(1, 2))
    stages = [wrong.stages[name] for name in ("scores", "scaled", "masked", "weights", "output")]
    d.claims = (
        d.claims[:2]
        + [(stage, claim[1]) for stage, claim in zip(stages, d.claims[2:7], strict=True)]
        + d.claims[7:]
    )
    return "claim"


MUTATIONS = [
    Mutation(NAME, "the library's attention scaled by d_k, not sqrt(d_k)", _library_scaled_by_d_k),
    Mutation(
        NAME,
        "the theorem states the first output as [0, 1]",
        statement("theorem", "the outputs $[0, -1]$", "the outputs $[0, 1]$"),
        why="no side of the proof",
    ),
    Mutation(
        NAME,
        "a heading says sqrt(d_k) = 2 where d_k = 2",
        statement("sections", r"\sqrt{d_k} = \sqrt{2}", r"\sqrt{d_k} = 2"),
        why="the heading",
    ),
    Mutation(
        NAME,
        "a rule says e^(-oo) = 1",
        statement("rules", r"e^{-\infty} = 0", r"e^{-\infty} = 1"),
        why="the rule of step",
    ),
    Mutation(
        NAME,
        "the assumption d_k = 4, which the headings' sqrt(2) then contradicts",
        statement("assumptions", "d_k = 2", "d_k = 4"),
        why="the heading",
    ),
    Mutation(
        NAME,
        "a printer that drops a transpose: Q K^T shown as Q K",
        rendering(_print_Transpose=drops_transpose),
    ),
    Mutation(
        NAME, "a printer that shows each matrix transposed", rendering(_print_MatrixBase=transposes_matrices)
    ),
    Mutation(NAME, "a printer that loses a square root", rendering(_print_Pow=drops_root)),
]


# -- planted errors in the steps, claims, lemmas and models ---------------------------------
def _unmasked_weights(D: Derivation) -> str:
    """The softmax step taken without the mask: a true step, but not the theorem's weights."""
    k, u = step_with(D, r"$e^{-\infty} = 0$"), step_with(D, "softmax of the unmasked rows")
    D.steps[k] = dataclasses.replace(D.steps[k], lhs=D.steps[u].lhs, rhs=D.steps[u].rhs, shown_lhs=None)
    return "claim"


def _names() -> tuple[sp.MatrixSymbol, sp.MatrixSymbol]:
    return sp.MatrixSymbol("Q", 2, 2), sp.MatrixSymbol("K", 2, 2)


def _inputs() -> tuple[list, list, list]:
    return Q.tolist(), K.tolist(), V.tolist()


MUTATIONS += [
    Mutation(
        NAME,
        "a score off by one: S[1,1] = -17",
        right_side("is query $i$ dotted with key $j$", lambda D, m: m + sp.Matrix([[1, 0], [0, 0]])),
    ),
    Mutation(NAME, "a swapped digit: sqrt(2) ≈ 1.441", figure("and $[0, 1.414]$", "1.441")),
    Mutation(
        NAME,
        "e^sqrt(2) ≈ 4.131 (digits swapped)",
        figure("module's row $[1, 4.113]$", "4.131"),
    ),
    Mutation(
        NAME,
        "a weight off by 10^-20",
        right_side("row 1 keeps its only key", lambda D, m: m + sp.Matrix([[0, 0], [TINY, 0]])),
    ),
    Mutation(
        NAME,
        "the mask said to change nothing: both sides causal",
        right_side("the mask changes the answer", lambda D, m: attention(*_inputs(), "causal").output),
    ),
    Mutation(NAME, "the output figure 1.413 → 1.414", figure("second entry", "1.414")),
    Mutation(
        NAME,
        "a label holding an equation: S = QK^T",
        step_fields("is query $i$ dotted with key $j$", shown_lhs=sp.Symbol(r"S = QK^\top")),
    ),
    Mutation(
        NAME,
        "both outputs shown by the one name O_none (the mask dropped from a label)",
        step_fields("the mask changes the answer", shown_lhs=sp.Symbol(r"O_{\text{none}}")),
    ),
    Mutation(
        NAME,
        "the scores shown as Q^T K",
        step_fields(
            "is query $i$ dotted with key $j$",
            shown_lhs=lambda D, old: sp.MatMul(_names()[0].T, _names()[1]),
        ),
    ),
    Mutation(
        NAME,
        "the weights taken without the mask, true but not the claim",
        _unmasked_weights,
        why="no chain",
    ),
]
