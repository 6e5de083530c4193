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


@pytest.mark.parametrize(
    "text",
    [
        # a hostile review's cases: true texts that divide by d, or by something else
        "$$\\frac{q^\\top k}{\\sqrt{d}} = \\sqrt{d} \\cdot \\frac{q^\\top k}{d}$$\n",  # an identity
        "Dividing by the width overshoots: $q^\\top k / d$ has variance $1/d$.\n",
        "For entries of $\\pm 1$, the cosine similarity of q and k is $q^\\top k / d$.\n",
        "We follow the maximal update parametrization.\n\n"
        "$$\\mathrm{Attention}(Q, K, V) = \\mathrm{softmax}\\left(\\frac{QK^\\top}{d}\\right)V$$\n",
    ],
)
def test_a_division_by_the_width_outside_a_softmax_or_on_purpose_is_not_wrong(text):
    assert "wrong" not in _scale_verdicts(text)


@pytest.mark.parametrize(
    "text",
    [
        "$$\\mathrm{softmax}\\left(q^\\top k / \\sqrt{d} / \\sqrt{d}\\right)$$\n",  # divided by d in all
        "$$\\mathrm{softmax}\\left(\\frac{QK^\\top}{\\sqrt{d_{ff}}}\\right)V$$\n",  # not the keys' width
        "$$\\mathrm{softmax}\\left(q^\\top k / \\sqrt{d_k / h}\\right)$$\n",
        # H is a head's dimension in some texts (the scaling book): D/H counts heads
        "$$\\mathrm{softmax}\\left(q^\\top k / \\sqrt{D/H}\\right)$$\n",
        # a head's scores in a model of width D with A heads need sqrt(D/A)
        "In a model of width D with A heads, the $\\sqrt{D}$ normalization of each head's scores"
        " makes their variance be 1.\n",
        "With entries of variance $\\sigma^2 = 4$, the $\\sqrt{d}$ scaling makes their variance be 1.\n",
    ],
)
def test_what_is_not_the_root_of_the_keys_width_is_never_certified(text):
    assert "certified" not in _scale_verdicts(text)


FACTOR = (
    "One aspect we haven't discussed yet is the scaling factor of $1/\\sqrt{d_k}$. This scaling factor "
    "is crucial to maintain an appropriate variance of the attention scores after initialization.\n"
)


def test_a_scaling_factor_named_before_it_is_read_as_the_scale_of_the_scores():
    assert _scale_verdicts(FACTOR) == ["certified"]
    assert _scale_verdicts(FACTOR.replace("1/\\sqrt{d_k}", "1/d_k")) == ["wrong"]


@pytest.mark.parametrize(
    "text",
    [
        # no scores, no variance as the reason, a choice made on purpose, a head scaled by the model's width
        "To pool the $D$ tokens we average them: the scaling factor is $1/D$ for $D$ tokens.",
        "In attention we use the scaling factor of $1/d_k$, so that the best learning rate transfers "
        "from narrow to wide models.",
        "Uniform attention over $D$ positions gives each the scaling factor of $1/D$.",
        "With $h$ heads, each head scales its scores by the scaling factor of $1/\\sqrt{D}$, where $D$ is "
        "the model width and the variance stays 1.",
    ],
)
def test_a_factor_of_something_else_is_not_read(text):
    assert _scale_verdicts(text + "\n") == []


SATURATION = (
    "If we do not scale down the variance back to $\\sim\\sigma^2$, the softmax over the logits will "
    "already saturate to $1$ for one random element and $0$ for all others.\n"
)


def test_unscaled_scores_saturate_the_softmax_to_one_weight():
    from symattn.grading.audit.scaling import SATURATION_RULE

    def verdicts(text: str) -> list[str]:
        return [c.verdict for c in audit_claims(text) if c.rule == SATURATION_RULE]

    assert verdicts(SATURATION) == ["certified"]
    assert verdicts(SATURATION.replace("saturate to $1$", "saturate to $0.5$")) == ["wrong"]
    assert verdicts(
        SATURATION.replace("$1$ for one", "$0$ for one").replace("$0$ for all", "$1$ for all")
    ) == ["wrong"]
    for other in (
        SATURATION.replace("the softmax over the logits", "the gradient of the softmax"),
        SATURATION.replace("the softmax over the logits", "a sigmoid gate"),
        SATURATION.replace(", the softmax", " as $d_k \\to 0$, the softmax"),
        SATURATION.replace("others.", "others, because the variance shrinks to $0$."),
    ):
        assert verdicts(other) == []


def test_the_variance_of_one_wrapped_onto_the_next_line_is_part_of_the_claim():
    """Goon's lines 182-183: the "1" of the reason is the claim's, not one of its own."""
    text = (
        "The $\\sqrt{D/A}$ normalization is motivated by demanding\n"
        "that the variance of the Softmax argument be 1 at initialization.\n"
    )
    claims = audit_claims(text)
    assert [(c.line, c.through, c.verdict) for c in claims] == [(1, 2, "certified")]


DOT = (
    "The scaling factor of $1/\\sqrt{d_k}$ keeps the variance. Remember that $Q$ and $K$ might also have "
    "a variance close to $1$. However, performing a dot product over two vectors with a variance $\\sigma^2$ "
    "results in a scalar having $d_k$-times higher variance.\n"
)


def test_the_variance_a_dot_product_picks_up_with_unit_inputs():
    """UvA's tutorial 6: d_k σ⁴ is d_k times σ² only where σ² = 1, as the sentence before takes it."""
    from symattn.grading.audit.scaling import DOT_RULE

    def verdicts(text: str) -> list[str]:
        return [c.verdict for c in audit_claims(text) if c.rule == DOT_RULE]

    assert verdicts(DOT) == ["certified"]
    assert verdicts(DOT.replace("$d_k$-times", "$d_k^2$-times")) == ["wrong"]
    assert verdicts(DOT.replace("a variance close to $1$", "any variance")) == []  # no σ² = 1: not decided
