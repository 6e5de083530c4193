"""Derivations as LaTeX, Markdown and text (symattn/present/proof_render.py)."""

from __future__ import annotations

import re

import pytest

from symattn.present.proof_render import escape_text, to_latex, to_markdown, to_text

NAMES = [
    "attention_by_hand",
    "variance_scaling",
    "softmax_jacobian",
    "permutation_equivariance",
    "multihead_flops",
]


def test_escape_keeps_inline_math():
    """Specials are escaped in words; $...$ stretches pass through as math."""
    assert escape_text("a_b & 50%") == r"a\_b \& 50\%"
    assert escape_text("rule $d_k^2$ here_") == r"rule $d_k^2$ here\_"


@pytest.mark.parametrize("name", NAMES)
def test_latex_structure(verify, name):
    """LaTeX has one align* per part, every step's justification in \\text{}, balanced braces."""
    d, report = verify(name)
    tex = to_latex(d, report)
    assert tex.count(r"\begin{align*}") == tex.count(r"\end{align*}") >= 1
    assert tex.count(r"\text{") >= len(report.steps)
    assert tex.count("{") - tex.count(r"\{") == tex.count("}") - tex.count(r"\}")
    for r in report.steps:
        assert escape_text(r.step.rule) in tex


def test_symbols_as_the_module_writes_them(verify):
    """d_k, q_i k_i in that order, E[...] and Var(...) print as in the module."""
    d, report = verify("variance_scaling")
    tex = to_latex(d, report)
    assert r"\sum_{i=1}^{d_{k}} q_{i} k_{i}" in tex
    assert r"\mathbb{E}\left[" in tex and r"\operatorname{Var}\left(" in tex
    d2, report2 = verify("attention_by_hand")
    assert r"-\infty" in to_latex(d2, report2)


def test_markdown_blocks_and_check_table(verify):
    """Markdown: $$ aligned blocks, then a table with one row per step saying how it was checked."""
    d, report = verify("softmax_jacobian")
    md = to_markdown(d, report)
    assert md.count("$$") % 2 == 0 and md.count(r"\begin{aligned}") >= 5
    rows = re.findall(r"^\| (\d+) \|", md, re.M)
    assert [int(r) for r in rows] == list(range(1, len(report.steps) + 1))
    assert "at sizes 2, 3, 4, 5 and 1, chosen by the engine (rank n - 1)" in md


def test_text_lists_steps_with_labels(verify):
    """Text numbers each chain and shows [rule; check] under every step."""
    d, report = verify("multihead_flops")
    text = to_text(d, report)
    assert text.count("[") >= len(report.steps)
    assert "<=>" in text and "symbolic" in text


def test_text_is_pretty_printed_without_latex(verify):
    """Text: matrices drawn by SymPy's Unicode printer and indented under their step; rules
    and titles in Unicode words; no LaTeX command and no SymPy repr anywhere."""
    d, report = verify("attention_by_hand")
    text = to_text(d, report)
    assert "\\" not in text and "Matrix(" not in text and "Sum(" not in text
    lines = text.splitlines()
    top = lines.index(next(line for line in lines if "⎡-18  0⎤" in line))
    # The step's left side, Q K^T in the names of the notation (drawn with T raised), then its matrix.
    assert lines[top - 1].startswith("   1. Q⋅K") and lines[top - 2].rstrip().endswith("T")
    assert lines[top].startswith("        ⎡") and lines[top + 1].startswith("      = ⎢")
    assert "[e^(-∞) = 0; row 1 keeps its only key; symbolic]" in text
    assert "softmax⎜" in text and "RowSoftmax" not in text
    assert "Scale by √dₖ = √2" in text
    d2, report2 = verify("variance_scaling")
    text2 = to_text(d2, report2)
    assert "𝔼[qᵢ] = 0" in text2 and "\\mathbb" not in text2
    assert "Sum(" not in text2 and "∑" in text2


@pytest.mark.parametrize(
    ("latex", "text"),
    [
        (r"\mathbb{E}[q_i^2] = \operatorname{Var}(q_i) = 1", "𝔼[qᵢ²] = Var(qᵢ) = 1"),
        (r"\tfrac14 - p(1-p) = (p - \tfrac12)^2", "1/4 - p(1-p) = (p - 1/2)²"),
        (r"A = \operatorname{softmax}(\tilde{Z})", "A = softmax(Z̃)"),
        (r"d_k = d_{\text{model}} / h", "dₖ = d_model / h"),
        (r"e^{-9\sqrt{2}}", "e^(-9√2)"),
        (r"\frac{S}{\sqrt{d_k}}", "S/√dₖ"),
    ],
)
def test_latex_rules_read_as_unicode(latex, text):
    """The rules' inline LaTeX reads as Unicode text (hand-written expectations)."""
    from symattn.present.text_math import to_unicode

    assert to_unicode(latex) == text
