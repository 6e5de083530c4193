"""The summary's percentages, rounded half to even on exact tenths, and rows with no learner."""

from __future__ import annotations

import pytest
from graded import record

from symattn.grading.batch.summary import gradebook, percent, summarise


@pytest.mark.parametrize(
    ("part", "whole", "shown"),
    [
        (0, 0, "-"),
        (0, 7, "0.0%"),
        (1, 3, "33.3%"),
        (2, 3, "66.7%"),
        (1, 6, "16.7%"),
        (1, 16, "6.2%"),  # 6.25: the even tenth
        (3, 16, "18.8%"),  # 18.75: the even tenth is up
        (5, 16, "31.2%"),  # 31.25
        (1, 1, "100.0%"),
        (999, 1000, "99.9%"),
        (1999, 2000, "100.0%"),  # 99.95: up to the even tenth
    ],
)
def test_percent_is_correctly_rounded_half_to_even(part, whole, shown):
    assert percent(part, whole) == shown


def test_a_row_without_a_learner_field_is_its_line_and_not_in_the_gradebook():
    unnamed = record("", "ex6.2", "correct", line="4")
    del unnamed["learner"]
    s = summarise([record("a", "ex6.2", "correct"), unnamed])
    assert [(x.learner, x.named) for x in s.learners] == [("a", True), ("line 4", False)]
    assert gradebook(s) == (["learner", "ex6.2", "total"], [["a", "1", "1"]])


def test_a_row_with_neither_learner_nor_line_is_line_question_mark():
    row = record("", "ex6.2", "incorrect")
    del row["learner"], row["line"]
    assert [(x.learner, x.named) for x in summarise([row]).learners] == [("line ?", False)]
