"""What a normalisation divides by (symattn/grading/audit/normalising.py, issue 47): the standard
deviation, not the variance. Texts after Goon's LayerNorm paragraph (a real error there)."""

from __future__ import annotations

import pytest

from symattn.grading.audit.keys import audit_claims
from symattn.grading.audit.normalising import RULE

LAYER_NORM = (
    "Given the input tensor $z_{bsd}$\n"
    "whose mean and variance over the $d$-index are $\\mu_{bs}$ and $\\sigma_{bs}$,\n"
    "respectively, the LayerNorm output is\n"
    "$$z_{bsd} \\leftarrow \\left(\\frac{z_{bsd} - \\mu_{bs}}{\\sigma_{bs}}\\right) "
    "\\times \\gamma_d + \\beta_d$$\n"
)


def _verdicts(text: str) -> list[tuple[str, str]]:
    from symattn.grading.audit.keys import audit_module
    from symattn.grading.audit.sources import read_source

    audit = audit_module(read_source(text))
    return [(audit.lines_of(c), c.verdict) for c in audit.claims if c.rule == RULE]


def test_a_centred_value_divided_by_the_variance_is_flagged():
    assert _verdicts(LAYER_NORM) == [("2–4", "wrong")]


def test_a_centred_value_divided_by_the_standard_deviation_is_certified():
    named = LAYER_NORM.replace("mean and variance", "mean and standard deviation")
    assert _verdicts(named) == [("2–4", "certified")]


@pytest.mark.parametrize(
    "change",
    [
        ("}{\\sigma_{bs}}", "}{\\sqrt{\\sigma_{bs}}}"),  # a root: which statistic, the text says
        ("}{\\sigma_{bs}}", "}{\\sigma_{bs}^2}"),
        ("the LayerNorm output is", "the score is"),  # not a normalisation
    ],
)
def test_a_divisor_with_a_root_or_a_power_or_outside_a_normalisation_is_not_read(change):
    assert _verdicts(LAYER_NORM.replace(*change)) == []


def test_statistics_that_divide_nothing_are_not_judged():
    text = LAYER_NORM.split("respectively")[0] + "respectively.\n"
    assert _verdicts(text) == []
    assert [c for c in audit_claims(text) if c.rule == RULE] == []
