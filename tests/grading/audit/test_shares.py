"""Shares of one whole in percentages (symattn/grading/audit/shares.py, issue 47): a split adds
up to 100 %, the probabilities of different outcomes to at most 100 %. Sentences after UvA's
tutorial 6; the sums are worked by hand."""

from __future__ import annotations

import pytest

from symattn.grading.audit.keys import audit_claims
from symattn.grading.audit.shares import RULE


def _verdicts(text: str) -> list[tuple[str, str | None]]:
    return [(c.verdict, c.value) for c in audit_claims(text) if c.rule == RULE]


@pytest.mark.parametrize(
    ("sentence", "verdict", "said"),
    [
        (
            "We will split the training set into 90% training, 10% validation.",
            "certified",
            "90 % + 10 % = 100 %",
        ),
        (
            "We will split the training set into 90% training, 20% validation.",
            "wrong",
            "90 % + 20 % = 110 % ≠ 100 %",
        ),
        (
            "We divide the data into 80% training, 10% validation and 10% test.",
            "certified",
            "80 % + 10 % + 10 % = 100 %",
        ),
        (
            "The model confuses a palm tree with a building, giving a probability of ~90% to image 2, "
            "and 8% to "
            "the actual anomaly.",
            "certified",
            "90 % + 8 % = 98 % ≤ 100 %",
        ),
        (
            "The model gives a probability of 90% to image 2, and 18% to the actual anomaly.",
            "wrong",
            "90 % + 18 % = 108 % > 100 %",
        ),
    ],
)
def test_shares_of_one_whole(sentence, verdict, said):
    assert _verdicts(sentence + "\n") == [(verdict, said)]


@pytest.mark.parametrize(
    "sentence",
    [
        "The model reaches 94% accuracy on the test set and 90% on validation.",  # shares of two wholes
        "Each head has a probability of 60% to attend to the first token, and 70% to the last.",
        "We split the data into two halves, keeping 50% of it.",  # one share only
        # a hostile review's: shares of overlapping events, a change, conditional shares, other parts
        "The probability of rain on Saturday is 60% and the probability of rain on Sunday is 70%.",
        "The probability of error drops from 12% to 8% with the larger model.",
        "The probability of a token being masked is 15%, and of those, 80% are replaced by [MASK].",
        "We split the documents into paragraphs, and 30% of them into sentences, and 10% into words.",
    ],
)
def test_percentages_that_are_no_parts_of_one_whole_are_not_read(sentence):
    assert _verdicts(sentence + "\n") == []
