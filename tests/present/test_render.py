"""Presentation of attention steps (symattn/present/render.py)."""

from __future__ import annotations

import json

import pytest

from symattn.core.exact import attention
from symattn.present.render import to_json, to_latex, to_markdown, to_text

Q, K, V = [[3, -3], [1, 1]], [[-3, 3], [1, 1]], [[0, -1], [1, 2]]


@pytest.fixture(scope="module")
def steps():
    return attention(Q, K, V, "causal")


def test_text_shows_every_stage_exact_and_decimal(steps):
    """Text lists inputs and the five stages, each entry with its exact form and decimal."""
    text = to_text(steps)
    for title in ("Scores", "Scaled scores", "Masked scores", "Weights", "Output"):
        assert title in text
    assert "S[1,1] = -18" in text
    assert "Z[1,1] = -9*sqrt(2) ≈ -12.7279220613579" in text
    assert "Z~[1,2] = -oo" in text
    assert "A[2,1] = 1/(1 + exp(sqrt(2))) ≈ 0.195570317493043" in text
    assert "O[2,2] = (-1 + 2*exp(sqrt(2)))/(1 + exp(sqrt(2))) ≈ 1.41328904752087" in text


def test_markdown_tables(steps):
    """Markdown has a table per stage with math cells and decimals."""
    md = to_markdown(steps, digits=6)
    assert md.count("| query 1 |") == 5
    assert r"| query 2 | $\frac{1}{1 + e^{\sqrt{2}}}$ ≈ 0.195570 |" in md
    assert "$$" in md and r"-\infty" in md


def test_latex_is_one_align_block(steps):
    """LaTeX is an align* block with bmatrix stages, -\\infty for the blocked score."""
    tex = to_latex(steps, digits=4)
    assert tex.startswith("\\begin{align*}") and tex.rstrip().endswith("\\end{align*}")
    assert tex.count(r"\begin{bmatrix}") == tex.count(r"\end{bmatrix}")
    assert r"\frac{e^{\sqrt{2}}}{1 + e^{\sqrt{2}}}" in tex
    # exact entries keep their exact decimal (-1, not -1.000) inside the approximate matrix
    assert r"\approx \begin{bmatrix} 0 & -1 \\ 0.8044 & 1.413 \end{bmatrix}" in tex
    assert "-\\infty" in tex


def test_json_document(steps):
    """JSON has exactly the five stage keys; entries carry latex and a decimal value string."""
    doc = json.loads(to_json(steps, digits=10))
    assert list(doc) == ["scores", "scaled", "masked", "weights", "output"]
    assert doc["masked"][0][1] == {"latex": r"-\infty", "value": "-inf", "exact": True}
    assert doc["weights"][1][1]["value"] == "0.8044296825"
    assert doc["output"][1][1]["value"] == "1.413289048"
    assert doc["scores"][0][0] == {"latex": "-18", "value": "-18", "exact": True}
    assert doc["weights"][1][1]["exact"] is False


def test_json_without_mask_repeats_the_scaled_scores():
    """Without a mask, 'masked' equals 'scaled' (the mask adds nothing)."""
    doc = json.loads(to_json(attention(Q, K, V)))
    assert doc["masked"] == doc["scaled"]
    # 1/(1 + e^(9 sqrt 2)) by mpmath at 40 digits: 0.0000029671014380993320949925...
    assert doc["weights"][0][0]["value"] == "0.00000296710143809933"


def test_no_scale_labels_say_z_equals_s():
    """With scale off, the formula, the header and step 2 name no sqrt(d_k)."""
    for render in (to_text, to_markdown, to_latex):
        assert "d_k" not in render(attention(Q, K, V, "causal", scale=False), 6).split("d_k =")[0]
    text = to_text(attention(Q, K, V, "causal", scale=False), 6)
    assert "Attention(Q, K, V) = softmax(Q K^T + M) V" in text
    assert "scale: none" in text and "sqrt(d_k)" not in text
    assert "Step 2. Scores, not scaled: Z = S" in text
    assert r"Z = \frac" not in to_latex(attention(Q, K, V, scale=False), 6)


def test_without_a_mask_no_step_names_z_tilde():
    """No mask: the header has no + M and the weights are softmax(Z), never Z~."""
    steps = attention(Q, K, V)
    text, md, tex = to_text(steps, 6), to_markdown(steps, 6), to_latex(steps, 6)
    assert "Z~" not in text and "A = softmax(Z)" in text
    assert "+ M" not in text
    assert r"\tilde" not in md and r"\tilde" not in tex
    with_mask = to_text(attention(Q, K, V, "causal"), 6)
    assert "A = softmax(Z~)" in with_mask and "softmax(Q K^T / sqrt(d_k) + M) V" in with_mask


def test_exact_values_have_no_approximation_sign_or_padding():
    """1/2 prints as '1/2 = 0.5'; integers print alone; only true approximations get ≈."""
    steps = attention([[1, 0]], [[2, 0], [2, 0]], [["1/2", "-18"], [1, "1/3"]], scale=False)
    text = to_text(steps, 6)
    assert "A[1,1] = 1/2 = 0.5\n" in text  # equal scores: exactly one half each
    assert "O[1,1] = 3/4 = 0.75\n" in text
    assert "O[1,2] = -53/6 ≈ -8.83333\n" in text
    assert "S[1,1] = 2\n" in text
    assert "≈ 0.500000" not in text and "-18.0000" not in to_latex(steps, 6)
    assert r"= \begin{bmatrix} 0.5 & 0.5 \end{bmatrix}" in to_latex(steps, 6)


def test_counts_agree_in_number():
    """One query, one key: the header says 1 query and 1 key."""
    text = to_text(attention([[1, 2]], [[1, 1]], [[5]]), 6)
    assert "N = 1 query, M = 1 key," in text
    assert "N = 2 queries, M = 2 keys," in to_text(attention(Q, K, V), 6)


def test_long_round_integers_print_exactly_in_powers_of_ten():
    """10^300 prints as 10**300 (text) and 10^{300} (LaTeX); the text reads back exactly."""
    import sympy as sp

    from symattn.present.render import latex_entry, text_entry

    big = sp.Integer(5 * 10**299)
    cases = [big * sp.sqrt(2), sp.sqrt(2) / big, sp.Rational(3, 7 * 10**299), -big, sp.exp(-big) / 3]
    for x in cases:
        assert sp.sympify(text_entry(x)) == x  # our own output, read back to check the text
    assert text_entry(big * sp.sqrt(2)) == "5*10**299*sqrt(2)"
    assert latex_entry(sp.Integer(10**300)) == "10^{300}"
    assert latex_entry(sp.sqrt(2) / big) == r"\frac{\sqrt{2}}{5 \cdot 10^{299}}"
    assert text_entry(sp.Integer(123456789012345678)) == "123456789012345678"


def test_long_integers_are_shortened_in_text_only():
    """A score of 10^400 + 1 shows in text as its first and last ten digits and its length, with
    its decimal beside it; JSON keeps every digit. Forty digits still print in full."""
    import re

    steps = attention([[10**400, 1]], [[1, 1]], [[1]], mask="none")
    text = to_text(steps)
    assert not re.search(r"\d{41}", text)
    assert "S[1,1] = 1000000000...0000000001 (401 digits) ≈ 1.00000000000000E+400" in text
    assert str(10**400 + 1) in json.dumps(to_json(steps))
    forty = 10**39 + 7
    assert f"[[{forty}, 1]]" in to_text(attention([[forty, 1]], [[1, 1]], [[1]], mask="none"))
