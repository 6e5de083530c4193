"""Identities between sums (symattn/grading/audit/sums.py, issue 47): written out for 1 to 4
terms to find a counterexample, and proved for every number of terms by SymPy's Sums before they
are certified. Texts written here; the verdicts come from reading."""

from __future__ import annotations

import pytest

from symattn.grading.audit.keys import audit_claims


def _verdicts(text: str) -> list[str]:
    return [c.verdict for c in audit_claims(text) if c.rule.startswith("sums")]


@pytest.mark.parametrize(
    "tex",
    [
        r"\sum_i \exp(a_i + b) = \exp(b) \sum_i \exp(a_i)",  # the softmax's shift, as the JAX book writes it
        r"\sum_i \exp(a_i + b) = \exp(b) \sum \exp(a)",  # the summand's index left off
        r"\sum_j e^{x_j - m} = e^{-m} \sum_j e^{x_j}",
        r"\sum_{i=1}^{n} (x_i + c) = \sum_{i=1}^{n} x_i + n c",  # the bound letter outside the sum
        r"\sum_{i=1}^{n} i^2 = n(n+1)(2n+1)/6",
        r"\sum_{k=1}^{d} 2 w_k = 2 \sum_{k=1}^{d} w_k",
    ],
)
def test_a_true_identity_of_sums_is_certified(tex):
    assert _verdicts(f"We have ${tex}$.\n") == ["certified"]


@pytest.mark.parametrize(
    "tex",
    [
        r"\sum_i \exp(a_i + b) = b \sum \exp(a)",  # the JAX book's line with exp(b) taken for b
        r"\sum_i \exp(a_i + b) = \exp(b) + \sum_i \exp(a_i)",
        r"\sum_{i=1}^{n} (x_i + c) = \sum_{i=1}^{n} x_i + c",  # the n dropped
        r"(\sum_i a_i)^2 = \sum_i a_i^2",
        # true for 1, 2 and 3 terms, false for 4: a counterexample at n = 4
        r"\sum_{i=1}^{n} i = n(n+1)/2 + (n-1)(n-2)(n-3)",
    ],
)
def test_a_false_identity_of_sums_is_flagged(tex):
    assert _verdicts(f"We have ${tex}$.\n") == ["wrong"]


def test_a_wrong_sum_names_what_its_left_side_comes_to():
    claims = [c for c in audit_claims(r"Here $\sum_{i=1}^{d} 1 = 2d$." + "\n") if c.rule.startswith("sums")]
    assert [(c.verdict, c.value) for c in claims] == [("wrong", "the left side is d")]


@pytest.mark.parametrize(
    "text",
    [
        # an equation under a condition, or one to solve: not an identity
        "If $\\sum_i x_i = 0$ then the mean is zero.\n",
        # two index letters: which one a bare sum takes is not read
        "Then $\\sum_i \\sum_j a_i b_j = \\sum_j \\sum_i a_i b_j$.\n",
        # expectations are the statistics rules' to read
        "So $\\operatorname{Var}(z) = \\sum_{i=1}^{d} 1 = d$.\n",
    ],
)
def test_what_this_rule_does_not_read_gets_no_verdict_from_it(text):
    assert _verdicts(text) == []


def test_a_name_set_to_a_sum_is_a_definition_not_an_identity():
    """The JAX book's L^2 = sum_i exp(...) names a sum (the 2 a label, not a square)."""
    text = "Let $$L^2 = \\sum_i \\exp(Q \\cdot K_i^2 - \\max_j Q \\cdot K_j^2)$$ be the second sum.\n"
    assert _verdicts(text) == []
    assert _verdicts("Let $S = \\sum_i x_i = \\sum_i 2 x_i$.\n") == ["wrong"]  # the chain goes on
