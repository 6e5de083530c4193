"""Presentation of attention steps (symattn/render.py)."""

from __future__ import annotations

import json

import pytest

from symattn.exact import attention
from symattn.render import to_json, to_latex, to_markdown, to_text

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
    assert r"\approx \begin{bmatrix} 0 & -1.000 \\ 0.8044 & 1.413 \end{bmatrix}" in tex
    assert "-\\infty" in tex


def test_json_document(steps):
    """JSON has exactly the five stage keys; entries carry latex and a decimal value string."""
    doc = json.loads(to_json(steps, digits=10))
    assert list(doc) == ["scores", "scaled", "masked", "weights", "output"]
    assert doc["masked"][0][1] == {"latex": r"-\infty", "value": "-inf"}
    assert doc["weights"][1][1]["value"] == "0.8044296825"
    assert doc["output"][1][1]["value"] == "1.413289048"
    assert doc["scores"][0][0] == {"latex": "-18", "value": "-18.00000000"}


def test_json_without_mask_repeats_the_scaled_scores():
    """Without a mask, 'masked' equals 'scaled' (the mask adds nothing)."""
    doc = json.loads(to_json(attention(Q, K, V)))
    assert doc["masked"] == doc["scaled"]
    # 1/(1 + e^(9 sqrt 2)) by mpmath at 40 digits: 0.0000029671014380993320949925...
    assert doc["weights"][0][0]["value"] == "0.00000296710143809933"
