"""The scale of the scores (symattn/grading/audit/scaling.py, issue 47, must-have 2): a query-key
dot product divided by the square root of its width, in a formula or a normalization named in
words. Each true text is in a form a public text uses (d2l's scoring functions, the
Transformer's attention, Goon's notes); each planted one drops the square root, which a reader
finds wrong by the variance argument: Var(q·k) = d, so only √d brings it to 1."""

from __future__ import annotations

import pytest

from symattn.grading.audit.keys import audit_claims
from symattn.grading.audit.scaling import RULE

CASES = {
    "a softmax of scaled scores, d2l": (
        "$$\\alpha(\\mathbf{q}, \\mathbf{k}_i) = \\frac{\\exp(\\mathbf{q}^\\top \\mathbf{k}_i / \\sqrt{d})}"
        "{\\sum_{j=1} \\exp(\\mathbf{q}^\\top \\mathbf{k}_j / \\sqrt{d})}.$$\n",
        ("\\mathbf{k}_j / \\sqrt{d}", "\\mathbf{k}_j / d"),
    ),
    "attention of matrices": (
        "$$\\mathrm{Attention}(Q, K, V) = \\mathrm{softmax}\\left(\\frac{QK^\\top}{\\sqrt{d_k}}\\right)V$$\n",
        ("\\sqrt{d_k}", "d_k"),
    ),
    "a normalization named in words, with its reason": (
        "The $\\sqrt{D/A}$ normalization is motivated by demanding\n"
        "that the variance of the Softmax argument be 1 at initialization.\n",
        ("\\sqrt{D/A}", "D/A"),
    ),
}


def _scale_verdicts(text: str) -> list[str]:
    return [c.verdict for c in audit_claims(text) if c.rule == RULE]


@pytest.mark.parametrize("name", CASES)
def test_scores_divided_by_the_root_of_the_width_are_certified(name):
    assert _scale_verdicts(CASES[name][0]) == ["certified"]


@pytest.mark.parametrize("name", CASES)
def test_scores_divided_by_the_width_itself_are_wrong(name):
    text, (old, new) = CASES[name]
    assert text.count(old) == 1
    assert _scale_verdicts(text.replace(old, new)) == ["wrong"]


@pytest.mark.parametrize(
    "text",
    [
        "If we divided by $d$ instead, as in $\\frac{QK^\\top}{d}$, the weights would be flatter.\n",
        "Under μP the scores are $\\frac{QK^\\top}{d_k}$.\n",
        # a query against an input, not a key: the shape rules' claim, not a scale
        "$$e_{i,j} = \\frac{q_j \\cdot x_i}{\\sqrt{D_x}}$$\n",
        # the variance of the scaled scores is the statistics rules' to check
        "$$\\operatorname{Var}\\left(\\frac{QK^\\top}{\\sqrt{d_k}}\\right)"
        " = \\frac{1}{d_k} \\cdot d_k = 1$$\n",
    ],
)
def test_what_is_not_a_scale_of_the_scores_is_left_to_others(text):
    assert _scale_verdicts(text) == []
