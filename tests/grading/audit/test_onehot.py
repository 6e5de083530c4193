"""Categories as one-hot vectors (symattn/grading/audit/onehot.py, issue 47): any two are √2
apart. After UvA's tutorial 6, where single scalars are said to make 0 and 1 seem related."""

from __future__ import annotations

import pytest

from symattn.grading.audit.keys import audit_claims
from symattn.grading.audit.onehot import RULE

TEXT = (
    "Every number is represented as a one-hot vector. Representing the categories as single scalars "
    "decreases the expressiveness of the model, as $0$ and $1$ are not closer related than $0$ and $9$.\n"
)


def _verdicts(text: str) -> list[str]:
    return [c.verdict for c in audit_claims(text) if c.rule == RULE]


def test_one_hot_categories_are_no_closer_than_any_other_two():
    claims = [c for c in audit_claims(TEXT) if c.rule == RULE]
    assert [c.verdict for c in claims] == ["certified"]
    assert "‖e_0 − e_1‖ = √2" in claims[0].value and "‖e_0 − e_9‖ = √2" in claims[0].value


def test_one_hot_vectors_said_closer_are_wrong():
    text = (
        "We represent the categories as one-hot vectors. With one-hot vectors, 0 and 1 are closer related "
        "than 0 and 9.\n"
    )
    assert _verdicts(text) == ["wrong"]


@pytest.mark.parametrize(
    "text",
    [
        "If we encode the categories as single scalars, 0 and 1 are closer than 0 and 9.",
        "With categories given as scalars, a linear layer sees that 0 and 1 are more closely related "
        "than 0 and 9.",
        "The categories are one-hot encoded, then embedded; after training 0 and 1 are closer related than 0 "
        "and 9 in embedding space.",
        "Unlike one-hot vectors, sinusoidal encodings are smooth: positions 0 and 1 are closer related "
        "than 0 and 9.",
        "Digits are one-hot labels. Visually, 1 and 7 are more closely related than 1 and 0.",
        "If the categories are written as single scalars, then 0 and 1 are not closer related than 0 and 9.",
        "Positions 3 and 4 are closer than 3 and 9 in a local window.",
    ],
)
def test_other_closeness_is_not_read(text):
    assert _verdicts(text + "\n") == []
