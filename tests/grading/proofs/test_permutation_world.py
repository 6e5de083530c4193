"""ex6.7's world: the normal form, the rules as checked lemmas, the slips, the truth test."""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp
from reference import attention_reference

from symattn.grading.proofs import permutation_world as lm
from symattn.grading.proofs.step_reader import StepSyntaxError, parse_expression


def read(latex: str, defs: dict | None = None) -> tuple:
    return lm.canon(lm.build(parse_expression(latex), defs), defs)


def test_algebra_is_free():
    """Associativity, I, (A^T)^T, scalars and Q = X W^Q need no rule."""
    assert read(r"(P X) W^Q I") == read(r"P (X W^Q)") == read(r"P Q")
    assert read(r"((P)^\top)^\top X") == read("PX")
    assert read(r"\frac{1}{2} (2 P)") == read("P")


def test_transpose_of_a_product_is_a_rule_not_algebra():
    """(PQ)^T and Q^T P^T differ in normal form; the rule joins them."""
    a, b = read(r"(P Q)^\top"), read(r"Q^\top P^\top")
    assert a != b
    (rule,) = [r for r in lm.RULES if r.name == "transpose of a product"]
    assert lm.everywhere(a, rule.rewrite) == lm.everywhere(b, rule.rewrite)


@pytest.mark.parametrize("lemma", lm.rule_lemmas(), ids=lambda lemma: lemma.name)
def test_each_rule_is_a_checked_lemma(lemma):
    """Each rule, as rewritten, holds exactly for every permutation at N = 2, 3."""
    assert lemma.check() == (2, 3)


@pytest.mark.parametrize(
    ("name", "latex"),
    [
        (r"$(AB)^\top = A^\top B^\top$", r"(P S)^\top"),
        (
            r"$\operatorname{softmax}(P S P^\top) = P^\top \operatorname{softmax}(S) P$",
            r"\operatorname{softmax}(P S P^\top)",
        ),
        (r"$P P = I$", r"P P X"),
        (r"$P$ or $P^\top$ dropped", r"P S P^\top"),
        (r"$P^\top$ written for $P$", r"P X"),
        (
            r"$\operatorname{softmax}(P S P^\top) = P \operatorname{softmax}(S)$",
            r"\operatorname{softmax}(P S P^\top)",
        ),
        (r"the scale $1/\sqrt{d_k}$ dropped", r"\operatorname{softmax}(Q K^\top / \sqrt{d_k})"),
        ("the mask not reordered with the tokens", r"\operatorname{softmax}(P S P^\top + M)"),
        (r"$P_2^\top P_1 = I$", r"P_2^\top P_1 X"),
        (r"$P_1$ and $P_2$ exchanged", r"P_1 X"),
        (
            r"$\operatorname{softmax}(P_1 S P_2^\top) = P_1 \operatorname{softmax}(S) P_1^\top$",
            r"\operatorname{softmax}(P_1 S P_2^\top)",
        ),
    ],
)
def test_each_slip_is_false(name, latex):
    """Every slip changes the value for a permutation that is not its own inverse."""
    (rule,) = [r for r in lm.MISTAKES if r.name == name]
    t = read(latex)
    out = lm.everywhere(t, rule.rewrite)
    assert out != t
    assert lm.difference(t, out) is not None


def test_attention_value_matches_numpy_reference():
    """Attention(X) at an instance equals textbook NumPy attention on the same numbers."""
    at = lm.instances()[0]
    exact = lm.evaluate(read(r"\operatorname{Attention}(X)"), at)
    x, wq, wk, wv = (np.array(at.values[n].tolist(), dtype=float) for n in ("X", "W^Q", "W^K", "W^V"))
    expected = attention_reference(x @ wq, x @ wk, x @ wv)
    assert np.allclose(np.array(exact.evalf(20).tolist(), dtype=float), expected, atol=1e-12)


def test_instances_use_permutations_that_are_not_involutions():
    """P^T != P at every instance, so a transposed permutation is always caught."""
    for at in lm.instances():
        assert at.values["P"] != at.values["P"].T
        assert at.values["P"].T * at.values["P"] == sp.eye(at.n)


def test_counterexample_names_the_matrices():
    text = lm.difference(read(r"\operatorname{Attention}(PX)"), read(r"P^\top \operatorname{Attention}(X)"))
    assert text.startswith(
        r"at $N = 3$, $d_k = 2$, with $P = \begin{bmatrix}0 & 1 & 0\\0 & 0 & 1\\1 & 0 & 0\end{bmatrix}$"
    )
    assert "on the left" in text


def test_goal_forms_are_true():
    """Both statements of the goal hold at the instances."""
    for lhs, rhs in lm.goals():
        assert lm.difference(lhs, rhs) is None


@pytest.mark.parametrize(
    ("latex", "message"),
    [
        (r"X P", "shapes do not fit"),
        (r"X^{2}", "matrix powers"),
        (r"P + X", "sum of matrices of different shapes"),
        (r"P + 1", "a number cannot be added to a matrix"),
        (r"X^{-1}", "matrix inverses other than"),
        (r"\operatorname{softmax}(d_k)", "takes matrices"),
        (r"Y X", "unknown symbol Y"),
        (r"\operatorname{Attention}(X, X)", "Attention takes"),
    ],
)
def test_outside_the_exercise_is_refused(latex, message):
    with pytest.raises(StepSyntaxError, match=message):
        lm.build(parse_expression(latex))


def test_p_inverse_is_p_transpose():
    """P is orthogonal: P^{-1} reads as P^T and (P^T)^{-1} as P, so P^{-1} P = I is the rule P^T P = I."""
    assert read(r"P^{-1} X") == read(r"P^\top X")
    assert read(r"(P^\top)^{-1} X") == read(r"P X")
    (rule,) = [r for r in lm.RULES if r.name == r"$P^\top P = I$"]
    assert lm.everywhere(read(r"P^{-1} P X"), rule.rewrite) == read("X")


def test_sums_are_multiplied_out_and_collected():
    """P (S + M) P^T and P S P^T + P M P^T are one form; (A + B)^T = A^T + B^T; S + S = 2 S;
    the order of the terms does not matter."""
    assert read(r"P (S + M) P^\top") == read(r"P S P^\top + P M P^\top")
    assert read(r"(S + M)^\top") == read(r"S^\top + M^\top")
    assert read(r"S + S") == read(r"2 S")
    assert read(r"M + S") == read(r"S + M")
    assert read(r"S + M") != read(r"S - M")


def test_the_softmax_rules_take_sums_whose_every_term_is_reordered():
    """softmax(P S P^T + P M P^T) = P softmax(S + M) P^T by the rule; with the mask left as M,
    the rule does not apply (that is the slip)."""
    (rule,) = [r for r in lm.RULES if r.name.startswith(r"$\operatorname{softmax}(P S P^\top)")]
    moved = read(r"\operatorname{softmax}(P S P^\top + P M P^\top)")
    assert lm.everywhere(moved, rule.rewrite) == read(r"P \operatorname{softmax}(S + M) P^\top")
    kept = read(r"\operatorname{softmax}(P S P^\top + M)")
    assert lm.everywhere(kept, rule.rewrite) == kept


def test_the_mask_slip_shows_p_m_pt_against_m_computed_by_matrix_products():
    """The slip's counterexample: the causal mask M and P M Pᵀ for the 3-cycle the instances use,
    checked against P @ M @ P.T in NumPy (a large finite negative standing for -∞, since
    0 · -∞ has no value)."""
    import re

    order = lm.instances()[0].order
    p = np.zeros((3, 3))
    p[np.arange(3), order] = 1.0
    big = -1e9
    m = np.where(np.tril(np.ones((3, 3))) == 1, 0.0, big)
    expected = p @ m @ p.T
    shown = lm.causal_example(order)
    matrices = re.findall(r"\\begin\{bmatrix\}(.*?)\\end\{bmatrix\}", shown)
    assert len(matrices) == 2

    def parse(body: str) -> np.ndarray:
        rows = [r.split("&") for r in body.split(r"\\")]
        return np.array([[big if "infty" in x else float(x) for x in r] for r in rows])

    assert np.array_equal(parse(matrices[0]), m)
    assert np.array_equal(parse(matrices[1]), expected)
    assert not np.array_equal(expected, m)


def test_cross_attention_reads_two_permutations():
    """P_1 and P_2 (braced or not) are permutation matrices of their own: orthogonal, so their
    inverses are their transposes."""
    assert read(r"P_{1}^{-1} X") == read(r"P_1^\top X")
    assert read(r"(P_2^\top)^{-1} X") == read(r"P_2 X")
    assert read(r"P_1 X") != read(r"P_2 X") != read(r"P X")
    with pytest.raises(StepSyntaxError, match="unknown symbol P_3"):
        lm.build(parse_expression(r"P_3 X"))


def test_instances_tell_the_permutations_apart():
    """At every instance P_1 != P_2; at N = 4, P, P_1, P_2 and their transposes are six different
    permutation matrices, so no confusion of two of them goes unnoticed."""
    for at in lm.instances():
        assert at.values["P_1"] != at.values["P_2"]
    (four,) = [at for at in lm.instances() if at.n == 4]
    six = [at_p for name in lm.PERMUTATIONS for at_p in (four.values[name], four.values[name].T)]
    assert len({tuple(m) for m in six}) == 6
    assert all(m.T * m == sp.eye(4) for m in six)


def test_cross_attention_statement_matches_numpy_reference():
    """Attention(P_1 Q, P_2 K, P_2 V) and P_1 Attention(Q, K, V) as the checker evaluates them
    equal textbook NumPy attention on the same numbers; and at P_1 = P_2 = P the statement is the
    exercise's (so the goal is right, not just self-consistent)."""
    lhs, rhs = lm.cross_goal()
    for at in lm.instances():
        x, wq, wk, wv, p1, p2 = (
            np.array(at.values[n].tolist(), dtype=float) for n in ("X", "W^Q", "W^K", "W^V", "P_1", "P_2")
        )
        q, k, v = x @ wq, x @ wk, x @ wv
        expected = attention_reference(p1 @ q, p2 @ k, p2 @ v)
        assert np.allclose(expected, p1 @ attention_reference(q, k, v), atol=1e-12)
        for side in (lhs, rhs):
            got = np.array(lm.evaluate(side, at).evalf(20).tolist(), dtype=float)
            assert np.allclose(got, expected, atol=1e-12)
    special = lm.rename(lhs, lm.SPECIALISED), lm.rename(rhs, lm.SPECIALISED)
    assert special == (
        read(r"\operatorname{Attention}(P Q, P K, P V)"),
        read(r"P \operatorname{Attention}(Q, K, V)"),
    )
    assert special in lm.goals()


def test_a_line_about_two_permutations_serves_for_one_but_not_the_other_way():
    """A proved line about any P_1, P_2 holds at P_1 = P_2 = P; one about P says nothing of P_1."""
    cross = lm.fact_rule(*lm.cross_goal())
    self_case = read(r"\operatorname{Attention}(P Q, P K, P V)")
    assert lm.everywhere(self_case, cross) == read(r"P \operatorname{Attention}(Q, K, V)")
    one = lm.fact_rule(
        read(r"\operatorname{Attention}(P Q, P K, P V)"), read(r"P \operatorname{Attention}(Q, K, V)")
    )
    two = lm.cross_goal()[0]
    assert lm.everywhere(two, one) == two


def test_a_line_that_chooses_the_permutations_is_not_a_step():
    """ "the case $P_1 = P_2 = P$" states which case is taken; a line with a matrix in it is kept."""
    from symattn.grading.proofs.step_reader import read_lines

    lines = read_lines("Take the case $P_1 = P_2 = P$.\n$P_1 X = P_2 X$\n")
    kept = lm.choices(lines)
    assert [ln.rhs for ln in kept] == ["P_2 X"]
