"""Perplexity (symattn/grading/audit/perplexity.py, issue 47): e^L is the product of the
probabilities to the power of the loss's coefficient. After Goon's notes, lines 290 and 297."""

from __future__ import annotations

import pytest

from symattn.grading.audit.keys import audit_claims
from symattn.grading.audit.perplexity import RULE

TEXT = (
    "The loss is\n\n"
    "$$L = -\\frac{1}{BK}\\sum_{b,s}\\ln p(x_{b(s+1)} = y_{bs} | x_{bs}, \\ldots, x_{b0})$$\n\n"
    "and the perplexity is $\\mathrm{perplexity} = e^{L} = "
    "\\left(\\prod_{b,s} p(x_{b(s+1)} = y_{bs} | x_{bs}, \\ldots, x_{b0})\\right)^{\\frac{-1}{BK}}$.\n"
)


def _verdicts(text: str) -> list[tuple[str, str | None]]:
    return [(c.verdict, c.value) for c in audit_claims(text) if c.rule == RULE]


def test_the_exponent_is_the_losss_coefficient():
    assert _verdicts(TEXT) == [("certified", "e^(c ∑ ln p) = (∏ p)^c with c = -1/(B*K)")]
    assert _verdicts(TEXT.replace("{\\frac{-1}{BK}}", "{\\frac{1}{BK}}")) == [
        ("wrong", "e^(c ∑ ln p) = (∏ p)^c with c = -1/(B*K), not 1/(B*K)")
    ]


@pytest.mark.parametrize(
    "change",
    [
        ("\\prod_{b,s}", "\\prod_{b}"),  # over other indices: another product
        ("$$L = -", "$$J = -"),  # no loss L written before
    ],
)
def test_other_products_are_not_read(change):
    assert _verdicts(TEXT.replace(*change)) == []
