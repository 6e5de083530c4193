"""ex6.7's world: the normal form, the rules as checked lemmas, the slips, the truth test."""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp
from reference import attention_reference

from symattn.grading.proofs import matrix as lm
from symattn.grading.proofs.steps import StepSyntaxError, parse_expression


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
        (r"P + X", "sums of matrices"),
        (r"\operatorname{softmax}(d_k)", "takes matrices"),
        (r"Y X", "unknown symbol Y"),
        (r"\operatorname{Attention}(X, X)", "Attention takes"),
    ],
)
def test_outside_the_exercise_is_refused(latex, message):
    with pytest.raises(StepSyntaxError, match=message):
        lm.build(parse_expression(latex))
