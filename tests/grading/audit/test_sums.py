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
    ],
)
def test_a_false_identity_of_sums_is_flagged(tex):
    assert _verdicts(f"We have ${tex}$.\n") == ["wrong"]


def test_a_wrong_sum_names_what_its_left_side_comes_to():
    text = r"Here $\sum_{i=1}^{d} 2 = \sum_{i=1}^{d} 1$." + "\n"
    claims = [c for c in audit_claims(text) if c.rule.startswith("sums")]
    assert [(c.verdict, c.value) for c in claims] == [("wrong", "the left side is 2*d")]


@pytest.mark.parametrize(
    "text",
    [
        # an equation under a condition, or one to solve: not an identity
        "If $\\sum_i x_i = 0$ then the mean is zero.\n",
        # two index letters: which one a bare sum takes is not read
        "Then $\\sum_i \\sum_j a_i b_j = \\sum_j \\sum_i a_i b_j$.\n",
        # expectations are the statistics rules' to read
        "So $\\operatorname{Var}(z) = \\sum_{i=1}^{d} 1 = d$.\n",
        # a sum set equal to what holds no sum: a constraint, a definition or a count in the
        # text's letters, which writing the sum out does not decide (hostile review)
        "The weights satisfy $\\sum_j \\alpha_{ij} = 1$.\n",
        "Let $Z=\\sum_j e^{s_j}$ and $p_j=e^{s_j}/Z$. Then $\\sum_j p_j = 1$.\n",
        "The dot product is $\\mathbf{x}^\\top \\mathbf{y} = \\sum_{i=1}^{d} x_i y_i$.\n",
        "Softmax is $\\hat y_j = \\frac{\\exp(o_j)}{\\sum_k \\exp(o_k)}$.\n",
        "Each head adds up: $\\sum_h 1 = H$, and $\\sum_{i=1}^{n} i^2 = n(n+1)(2n+1)/6$.\n",
        "After centering, $\\sum_{i=1}^{n} (x_i - \\bar x) = 0$ and $\\sum_{i=1}^{n} x_i = n\\bar{x}$.\n",
        # a letter the sentence gives a value
        "With $\\alpha_j = 1/n$, $\\sum_{j=1}^{n} \\alpha_j v_j = \\frac1n \\sum_{j=1}^{n} v_j$.\n",
        # names in words, derivatives: not read
        "Then $\\sum_{i=1}^{n} c = \\sum_{i=1}^{n} 1 \\cdot nc$ and "
        "$\\frac{\\partial}{\\partial b}\\sum_i(a_i+b)=\\sum_i 1$.\n",
        # powers and numbers too large to write out: not read, and never a crash
        "Then $\\sum_i (x_i + c)^{100000} = \\sum_i x_i^{100000}$ and "
        "$\\sum_i x_i^{1000000000} = \\sum_i x_i^{1000000001}$.\n",
    ],
)
def test_what_this_rule_does_not_read_gets_no_verdict_from_it(text):
    assert _verdicts(text) == []


def test_a_name_set_to_a_sum_is_a_definition_not_an_identity():
    """The JAX book's L^2 = sum_i exp(...) names a sum (the 2 a label, not a square)."""
    text = "Let $$L^2 = \\sum_i \\exp(Q \\cdot K_i^2 - \\max_j Q \\cdot K_j^2)$$ be the second sum.\n"
    assert _verdicts(text) == []
    assert _verdicts("Let $S = \\sum_i x_i = \\sum_i 2 x_i$.\n") == ["wrong"]  # the chain goes on


@pytest.mark.parametrize(
    "tex",
    [
        # alpha_ij runs with j: taken out of the sum, its j is left dangling (hostile review: these
        # were certified when a subscript of two letters was read as a constant)
        r"\sum_j \alpha_{ij} x_j = \alpha_{ij} \sum_j x_j",
        r"\sum_{j=1}^{n} A_{ji} x_j = A_{ji} \sum_j x_j",
        r"\sum_{j=1}^{n} A_{ij} B_{jk} = A_{ij} \sum_{j=1}^{n} B_{jk}",
    ],
)
def test_a_family_taken_out_of_its_sum_is_never_certified(tex):
    assert "certified" not in _verdicts(f"We have ${tex}$.\n")


def _normalised(text: str) -> list[tuple[str, str | None]]:
    return [(c.verdict, c.value) for c in audit_claims(text) if c.rule.startswith("normalisation")]


@pytest.mark.parametrize(
    "tex",
    [
        # the JAX scaling book's softmax, line 419: the key's index j where the sum runs over k
        r"S_{ij} = \frac{e^{\tau q_i \cdot k_j}}{\sum_k e^{\tau q_i \cdot k_j}}",
        r"\alpha_{ij} = \frac{\exp(e_{ij})}{\sum_{k=1}^{n} \exp(e_{ij})}",
    ],
)
def test_a_normalising_sum_whose_summand_forgot_its_index_is_flagged(tex):
    said = "1/n for n terms: the summand of the sum over k does not hold k"
    assert _normalised(f"Define $${tex}$$\n") == [("wrong", said)]


@pytest.mark.parametrize(
    ("tex", "index"),
    [
        (r"S_{ij} = \frac{e^{\tau q_i \cdot k_j}}{\sum_k e^{\tau q_i \cdot k_k}}", "j"),  # line 432's, right
        (r"\alpha_{ij} = \frac{\exp(e_{ij})}{\sum_{k=1}^{n} \exp(e_{ik})}", "j"),
        (r"w_i = \frac{e^{x_i}}{\sum_j e^{x_j}}", "i"),
        # UvA's tutorial: a score function of two arguments, compared as written
        (
            r"\alpha_i = \frac{\exp(f_{attn}(\text{key}_i, \text{query}))}"
            r"{\sum_j \exp(f_{attn}(\text{key}_j, \text{query}))}",
            "i",
        ),
    ],
)
def test_a_normalising_sum_over_its_index_is_certified(tex, index):
    said = f"positive terms that sum to 1 over {index}: the denominator sums the numerator over every {index}"
    assert _normalised(f"Define $${tex}$$\n") == [("certified", said)]


@pytest.mark.parametrize(
    "tex",
    [
        r"p = \frac{x}{\sum_{i=1}^{n} x} = \frac{1}{n}",  # a constant summed on purpose: no index
        r"w_i = \frac{e^{x_i}}{\sum_j e^{y_j}}",  # another family in the denominator
        r"w_i = \frac{e^{x_i}}{\sum_i e^{x_i}}",  # the free index reused as the summed one
        r"O_d = \sum_j \frac{e^{x_j}}{\sum_k e^{x_k}} V_{jd}",  # a factor of a member, not the member
    ],
)
def test_a_fraction_that_is_no_normalisation_is_not_judged(tex):
    assert _normalised(f"Define $${tex}$$\n") == []
