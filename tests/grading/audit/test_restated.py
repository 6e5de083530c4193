"""Figures said again in words (symattn/grading/audit/restated.py, issue 47, must-have 2): a
figure with its scale ("16B", "2.79M", "512kB", "10.0 billion") beside the formula that computes
or uses it. Each true sentence below is written in the forms of a public text's worked
examples; the planted versions change only the figure in words, and the values in the
assertions are worked by hand."""

from __future__ import annotations

import pytest

from symattn.grading.audit.keys import audit_claims

KV = "Per token, our KV caches are $$2 \\cdot 64 \\cdot 4096$$ in int8, which is 512kB / token.\n"
RUN = "The run took $2.79e6 \\cdot 3600$ seconds, that is 10.0 billion seconds.\n"
HOURS = "It ran for 2.79M hours, i.e. $2.79e6 \\cdot 3600 = 1.0e10$ seconds.\n"


def _said(text: str) -> dict[str, str]:
    """The verdict on each figure in words (the claims the rule adds)."""
    return {c.text: c.verdict for c in audit_claims(text) if not c.text.startswith("⟨")}


@pytest.mark.parametrize(
    ("text", "figure"),
    [
        (KV, "512kB"),  # 2 * 64 * 4096 = 524,288 bytes: 512 KiB (texts write kB for it)
        (RUN, "10.0 billion"),  # 2.79e6 * 3600 = 1.0044e10
        (HOURS, "2.79M"),  # the figure the formula writes, 2.79e6
    ],
)
def test_a_figure_said_again_in_its_scale_is_certified(text, figure):
    assert _said(text) == {figure: "certified"}


@pytest.mark.parametrize(
    ("text", "old", "new"),
    [
        (KV, "512kB", "600kB"),  # 524,288 bytes is neither 600,000 nor 614,400
        (RUN, "10.0 billion", "12.0 billion"),
    ],
)
def test_a_figure_said_to_restate_the_formula_before_must_be_its_value(text, old, new):
    assert _said(text.replace(old, new)) == {new: "wrong"}


def test_a_figure_not_said_to_restate_anything_is_left_alone():
    """12.0 billion beside a formula worth 1.0e10, without "or", "i.e.", "that is": another
    figure, not a wrong one."""
    text = "The run took $2.79e6 \\cdot 3600$ seconds; the budget was 12.0 billion seconds.\n"
    assert "wrong" not in _said(text).values()


def test_a_figure_of_one_digit_is_never_certified_by_a_coincidence():
    """An 8k context beside D = 8192: the same number, another quantity."""
    text = "A model with 8k context length and $D = 8192$ is moderately sized.\n"
    assert _said(text).get("8k") != "certified"
