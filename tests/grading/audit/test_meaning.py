"""Claims by meaning (issue 47, must-have 2): shapes and dimension bookkeeping, complexity, identities
in the text's letters, words for quantities, statistics in any notation, and facts in words
(symattn/grading/audit/shapes.py, complexity.py, letters.py, words.py, meaning.py). Each rule on
a true text written here by hand, then the same text with one planted error, which must be
flagged at its line; the expected verdicts come from reading, not from the audit."""

from __future__ import annotations

import pytest

from symattn.grading.audit.keys import audit_claims


def _verdicts(text: str) -> list[tuple[int, str]]:
    return [(c.line, c.verdict) for c in audit_claims(text)]


def _wrong_lines(text: str) -> list[int]:
    return [c.line for c in audit_claims(text) if c.verdict == "wrong"]


# Each case: a true text, (what to replace, by what) planting one error, the line it lands on.
CASES = {
    "shapes: a product of declared shapes": (
        "The inputs $X$ are of shape $N \\times D_x$ and the weights $W_k$ of shape $D_x \\times D_k$.\n\n"
        "The keys are $K = X W_k$.\n",
        ("$D_x \\times D_k$", "$D_k \\times D_x$"),
        3,
    ),
    "shapes: a dot product of two rows": (
        "Queries $Q \\in \\mathbb{R}^{M \\times D_k}$, keys $K \\in \\mathbb{R}^{N \\times D_k}$ and inputs "
        "$X \\in \\mathbb{R}^{N \\times D_x}$.\n\n"
        "A score is $e_{ij} = q_j \\cdot k_i / \\sqrt{D_k}$.\n",
        ("q_j \\cdot k_i", "q_j \\cdot x_i"),
        3,
    ),
    "shapes: a shape said in words": (
        "Take $Q \\in \\mathbb{R}^{T \\times d_k}$ and $K \\in \\mathbb{R}^{T \\times d_k}$.\n\n"
        "The product $QK^T$ compares every query with every key, resulting in a matrix of the shape "
        "$T \\times T$.\n",
        ("the shape $T \\times T$", "the shape $T \\times d_k$"),
        3,
    ),
    "complexity: from the layer": (
        "Self-attention has a computational complexity of $\\mathcal{O}(n^2 d)$ and "
        "$\\mathcal{O}(1)$ sequential operations.\n",
        ("\\mathcal{O}(n^2 d)", "\\mathcal{O}(n d)"),
        1,
    ),
    "complexity: from the products named": (
        "Multiplying the $d \\times d$ weight matrix and the $d$-dimensional hidden state has a "
        "computational complexity of $\\mathcal{O}(d^2)$.\n",
        ("\\mathcal{O}(d^2)", "\\mathcal{O}(d^3)"),
        1,
    ),
    "letters: an identity under the text's assumptions": (
        "Assume $F = 4D$ and $D = NH$.\n\nThen $\\frac{12BT^2NH}{18BTDF + 24BTDNH} = \\frac{T}{8D}$.\n",
        ("\\frac{T}{8D}", "\\frac{T}{6D}"),
        3,
    ),
    "units: binary bytes": (
        "The cache takes $2 \\cdot 8192 \\cdot 64 \\cdot 8192 = 8\\text{GiB}$.\n",
        ("8\\text{GiB}", "8\\text{GB}"),
        1,
    ),
    "scientific notation": (
        "This run used about `6 * 37e9 * 14.8e12 = 3.3e24` FLOPs.\n",
        ("3.3e24", "3.9e24"),
        1,
    ),
    "words: a ratio": (
        "Here $2048$ is twice $1024$.\n",
        ("twice", "three times"),
        1,
    ),
    "words: an order of magnitude": (
        "So $e^{20}$ is an order of magnitude larger than $e^{18}$.\n",
        ("e^{18}", "e^{12}"),
        1,
    ),
    "words: a percentage": (
        "Then $96$ is 20 % of $480$.\n",
        ("20 %", "25 %"),
        1,
    ),
    "statistics in words, any notation": (
        "Assume the entries of $q$ and $k$ are independent with zero mean and unit variance.\n"
        "The dot product between both vectors has zero mean and a variance of $d_k$.\n",
        ("a variance of $d_k$", "a variance of $\\sqrt{d_k}$"),
        2,
    ),
    "statistics of N(0, sigma^2) entries": (
        "$$q_i \\sim \\mathcal{N}(0,\\sigma^2), k_i \\sim \\mathcal{N}(0,\\sigma^2) \\to "
        "\\text{Var}\\left(\\sum_{i=1}^{d_k} q_i\\cdot k_i\\right) = \\sigma^4\\cdot d_k$$\n",
        ("\\sigma^4\\cdot d_k$$", "\\sigma^2\\cdot d_k$$"),
        1,
    ),
    "facts in words: weights sum to one": (
        "The softmax weights are positive and sum to one.\n",
        ("sum to one", "sum to zero"),
        1,
    ),
    "facts in words: permutation equivariance": (
        "Without positional encodings, self-attention is permutation-equivariant.\n",
        ("permutation-equivariant", "permutation-invariant"),
        1,
    ),
}


@pytest.mark.parametrize("name", list(CASES))
def test_a_true_claim_is_certified_and_its_planted_error_flagged_at_its_line(name):
    text, (before, after), line = CASES[name]
    verdicts = _verdicts(text)
    assert "certified" in [v for _, v in verdicts] and "wrong" not in [v for _, v in verdicts], verdicts
    assert text.count(before) == 1
    assert _wrong_lines(text.replace(before, after)) == [line]


@pytest.mark.parametrize(
    "text",
    [
        # a relation the text never states: the chain may hold under it, so nothing is decided
        "Then $\\frac{12BT^2NH}{18BTDF + 24BTDNH} = \\frac{T}{8D}$.\n",
        # Q redefined for self-attention (M = N there): a definition, never "M x D_k is not N x D_k"
        "Queries $Q$ are of shape $M \\times D_k$, inputs $X$ of shape $N \\times D_x$, and $W_q$ is of "
        "shape $D_x \\times D_k$.\n\nIn self-attention the queries are $Q = X W_q$.\n",
        # "three times smaller" has no agreed meaning: never judged
        "Here $1024$ is three times smaller than $2048$.\n",
        # a denial is not read as the claim it denies
        "With positional encodings, the transformer is no longer permutation-invariant.\n",
        # "roughly" in the sentence before: within one unit of the last digit
        "The total is roughly $L D$. For these numbers, this is $64 \\cdot 260e6 = 16e9$.\n",
        # from a hostile review: true texts the audit once called wrong
        "The base model uses $d_k = d_v = 64$.\n",
        "Self-attention costs $O(n^2 d)$ per layer, and recurrent layers cost $O(n d^2)$.\n",
        "The maximum path length is $O(1)$ for self-attention and $O(n)$ for recurrent layers.\n",
        "Self-attention costs $O(n^2 d)$ time and $O(n^2)$ memory.\n",
        "Here $96$ is 1.5 times $64$, and $64$ is 1/8 of $512$.\n",
        "A matrix of $4096^2 \\times 2 = 32$ MiB, and "
        "$2\\cdot32\\cdot4096\\cdot2\\cdot32\\cdot1024 \\approx 17\\,\\text{GB}$.\n",
        "The attention weights never sum to zero.\n",
        "Attention pooling makes the transformer encoder invariant to the order of the set elements.\n",
        "Let $d_{model} = 512$ and $h = 8$.\n\nIf we instead used $d_{model} = 1024$, each head "
        "would be $d_{model}/h = 128$ wide.\n",
        "<!-- a draft: $1 + 1 = 3$ -->\nAnd $2^{10} = 1\\,024$, while $\\log 1000 = 3$.\n",
        "````markdown\n```\n$1 + 1 = 3$\n```\n````\n",
        "Let $q, k \\in \\mathbb{R}^{d}$ have independent standard normal entries; $q \\cdot k$ has zero "
        "mean and a variance of $d$.\n\nFor a query $q \\in \\mathbb{R}^{q}$, additive attention is used "
        "instead.\n",
    ],
)
def test_what_a_careful_reader_would_not_call_wrong_is_not_flagged(text):
    assert "wrong" not in [v for _, v in _verdicts(text)]


def test_a_relation_the_text_assumes_is_a_premise_and_is_named_by_the_verdict():
    claims = audit_claims("Assume $F = 4D$ and $D = NH$.\n\nThen $18BTDF + 24BTDNH = 96BTD^2$.\n")
    assert [(c.line, c.verdict) for c in claims] == [(3, "certified")]  # F = 4D is not a claim
    assert claims[0].rule.endswith("assuming F = 4*D, D = H*N")
