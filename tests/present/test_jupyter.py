"""Objects display as rendered math in Jupyter: IPython's formatter finds their reprs."""

from __future__ import annotations

from IPython.core.formatters import DisplayFormatter

import derivations
from symattn import attention
from symattn.grading.answers.judge import judge
from symattn.grading.exercises import get


def bundle(obj):
    data, _ = DisplayFormatter().format(obj)
    return data


def test_attention_steps():
    """Attention steps give markdown tables and a LaTeX aligned block."""
    data = bundle(attention([[3, -3], [1, 1]], [[-3, 3], [1, 1]], [[0, -1], [1, 2]], "causal"))
    assert "| query 2 |" in data["text/markdown"]
    assert (
        data["text/latex"].startswith("$$") and r"\frac{e^{\sqrt{2}}}{1 + e^{\sqrt{2}}}" in data["text/latex"]
    )


def test_derivation_report():
    """A verified derivation shows its steps with reasons."""
    report = derivations.load("multihead_flops").verify()
    data = bundle(report)
    assert "## How each step was checked" in data["text/markdown"]
    assert r"\begin{aligned}" in data["text/latex"] and r"\text{" in data["text/latex"]


def test_check_result():
    """A verdict shows as a short markdown line naming the mistake."""
    e = get("ex6.2")
    data = bundle(judge("4", e.expected, e.mistakes))
    assert "**incorrect**" in data["text/markdown"] and "uniform-weights" in data["text/markdown"]
