"""Indexing written as code and said in words (symattn/grading/audit/slices.py, issue 47): a slice
that reverses, targets shifted by one. Slices are applied by hand to 0..6."""

from __future__ import annotations

import pytest

from symattn.grading.audit.keys import audit_claims
from symattn.grading.audit.slices import RULE, SHIFT_RULE

TASK = "Given a sequence of $N$ numbers, the task is to reverse the input sequence. "


def _verdicts(text: str, rule: str = RULE) -> list[tuple[str, str | None]]:
    return [(c.verdict, c.value) for c in audit_claims(text) if c.rule == rule]


@pytest.mark.parametrize(
    ("slice_", "verdict", "said"),
    [
        ("[::-1]", "certified", "[::-1] of [0, 1, 2, 3, 4, 5, 6] is [6, 5, 4, 3, 2, 1, 0]"),
        ("[::1]", "wrong", "[::1] of [0, 1, 2, 3, 4, 5, 6] is [0, 1, 2, 3, 4, 5, 6], not the items reversed"),
        ("[1::-1]", "wrong", "[1::-1] of [0, 1, 2, 3, 4, 5, 6] is [1, 0], not the items reversed"),
        ("[-1::-1]", "certified", "[-1::-1] of [0, 1, 2, 3, 4, 5, 6] is [6, 5, 4, 3, 2, 1, 0]"),
    ],
)
def test_a_slice_said_to_reverse_is_applied(slice_, verdict, said):
    text = TASK + f"In NumPy notation, if our input is $x$, the output should be $x${slice_}.\n"
    assert _verdicts(text) == [(verdict, said)]


@pytest.mark.parametrize(
    "text",
    [
        "Backpropagation is reverse-mode differentiation. For language modeling, the inputs are x[:-1].",
        "Note that x[::1] does not reverse the sequence; only x[::-1] does.",
        "To reverse only the first three elements, we write x[2::-1] and concatenate the rest.",
        "We sort the weights in reverse order of importance. The three most important keys are then idx[:3].",
        "Slicing with a negative step reverses: x[::-1] gives it backwards, whereas x[::2] keeps every "
        "second.",
        TASK + "The first token is a start symbol, so the model only predicts x[1:].",
    ],
)
def test_slices_of_something_else_are_not_read(text):
    assert _verdicts(text + "\n") == []


SHIFT = (
    "The data are token inputs $x_{bs}$ along with their shifted-by-one relatives $y_{bs}$ where "
    "`x[:, s + 1] == y[:, s]`.\n\n"
)


def test_targets_shifted_by_one_agree_with_the_code_and_later_equations():
    assert _verdicts(SHIFT, SHIFT_RULE) == [("certified", "y[:, s] is x[:, s + 1]: shifted by 1")]
    wrong = SHIFT.replace("s + 1]", "s + 2]")
    assert [v for v, _ in _verdicts(wrong, SHIFT_RULE)] == ["wrong"]
    later = SHIFT + "The loss is $L = -\\sum_{b,s} \\ln p(x_{b(s+1)} = y_{b(s+1)} | x_{bs})$.\n"
    assert _verdicts(later, SHIFT_RULE)[1:] == [
        ("wrong", "y[:, s] is x[:, s + 1], so x at s+1 is y at s, not at s+1")
    ]
    kept = SHIFT + "The loss is $L = -\\sum_{b,s} \\ln p(x_{b(s+1)} = y_{bs} | x_{bs})$.\n"
    assert len(_verdicts(kept, SHIFT_RULE)) == 1  # kept: the formula is not certified for it
