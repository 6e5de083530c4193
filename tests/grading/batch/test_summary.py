"""The teacher's summary (symattn/grading/batch/summary.py): best attempts, learners correct,
slips of answers and of derivations, invalid rows by reason, the gradebook."""

from __future__ import annotations

import pytest
from graded import record as rec

from symattn.grading.batch.summary import best, gradebook, invalid_reason, summarise

# ex6.2: ann wrong then right, bo wrong twice, cy unreadable; ex6.3: two derivations with the
# same named slip (by two learners), one stopping short, one unreadable; a row with no learner.
RECORDS = [
    rec("ann", "ex6.2", "incorrect", "uniform-weights"),
    rec("bo", "ex6.2", "incorrect", "uniform-weights"),
    rec("ann", "ex6.2", "correct"),
    rec("bo", "ex6.2", "invalid", feedback="line 5: 'banana' is not a number or a symbol of this exercise"),
    rec("cy", "ex6.2", "invalid", feedback="line 6: 'apple' is not a number or a symbol of this exercise"),
    rec("ann", "ex6.3", "incorrect", "Var(aX) = a Var(X)", read_as="line 6: = 2 d_k"),
    rec("bo", "ex6.3", "incorrect", "Var(aX) = a Var(X)", read_as="line 3: = d_k^2"),
    rec("cy", "ex6.3", "incorrect", "stops short of the goal"),
    rec("cy", "ex6.3", "invalid", feedback="line 9: line 3 cannot be read: unknown symbol x: ex6.3 knows z"),
    rec("", "ex6.3", "invalid", feedback="line 10: missing learner"),
]


@pytest.mark.parametrize(
    ("verdicts", "expected"),
    [
        (["invalid", "incorrect", "correct"], "correct"),
        (["invalid", "incorrect"], "incorrect"),
        (["incorrect", "invalid", "incorrect"], "incorrect"),
        (["invalid"], "invalid"),
    ],
)
def test_best_attempt(verdicts, expected):
    assert best(verdicts) == expected


def test_learners_are_counted_at_their_best_attempt():
    """Attempts count rows; learners correct count learners whose best attempt is correct."""
    summary = summarise(RECORDS)
    ex62, ex63 = summary.exercises
    assert (ex62.rows, ex62.learners, ex62.learners_correct, ex62.learners_share) == (5, 3, 1, "33.3%")
    assert (ex63.rows, ex63.learners, ex63.learners_correct) == (5, 4, 0)  # "line 10" counts apart
    ann = next(s for s in summary.learners if s.learner == "ann")
    assert ann.attempts == {"ex6.2": 2, "ex6.3": 1} and ann.best == {"ex6.2": "correct", "ex6.3": "incorrect"}
    assert [s.learner for s in summary.learners if s.named] == ["ann", "bo", "cy"]


def test_slips_of_derivations_and_reasons_of_invalid_rows():
    """A derivation's slip is ranked with the answers' slips, by learners; invalid rows are grouped
    by reason, their quoted text, line numbers and positions left out."""
    ex62, ex63 = summarise(RECORDS).exercises
    assert [(g.name, g.learners, g.rows) for g in ex62.slips] == [("uniform-weights", 2, 2)]
    assert [(g.name, g.learners, g.rows) for g in ex63.slips] == [
        ("Var(aX) = a Var(X)", 2, 2),
        ("stops short of the goal", 1, 1),
    ]
    assert [(g.name, g.learners, g.rows) for g in ex62.invalid] == [
        ("'…' is not a number or a symbol of this exercise", 2, 2)
    ]
    assert {g.name for g in ex63.invalid} == {"unknown symbol x", "missing learner"}
    assert ex63.wrong == []  # every incorrect derivation has a name


@pytest.mark.parametrize(
    ("feedback", "reason"),
    [
        ("line 7: seed: not a whole number: 'seven'", "seed: not a whole number"),
        ("line 4: no exercise 'ex9'; the exercises are ex6.1, ex6.2", "no exercise '…'"),
        ("unmatched parenthesis at position 6", "unmatched parenthesis"),
        (
            "the answer is too long (6001 characters, at most 400)",
            "the answer is too long (N characters, at most N)",
        ),
        (
            "the conclusion cannot be checked: too costly to check: the derivation took more than 3.5 s",
            "the conclusion cannot be checked",
        ),
        (
            "line 3 cannot be read: the command \\def at position 1 is not accepted here",
            "the command \\def is not accepted here",
        ),
        (
            "line 12: steps_file leads out of the class file's folder: ../../etc/hostname",
            "steps_file leads out of the class file's folder",
        ),
        ("", "no reason given"),
    ],
)
def test_invalid_reason(feedback, reason):
    assert invalid_reason(feedback) == reason


def test_gradebook_is_wide_and_counts_the_best_attempt():
    """One row per named learner, a column per exercise asked for (1 when the best attempt is
    correct), a total; an exercise a learner never tried is 0."""
    header, rows = gradebook(summarise(RECORDS), ["ex6.2", "ex6.3", "ex6.5"])
    assert header == ["learner", "ex6.2", "ex6.3", "ex6.5", "total"]
    assert rows == [["ann", "1", "0", "0", "1"], ["bo", "0", "0", "0", "0"], ["cy", "0", "0", "0", "0"]]
    header, _ = gradebook(summarise(RECORDS))
    assert header == ["learner", "ex6.2", "ex6.3", "total"]


def test_a_learner_named_like_a_row_without_one_stays_apart():
    """A learner whose id is "line 10" is not merged with the row at line 10 that has no learner."""
    records = [*RECORDS, rec("line 10", "ex6.3", "correct", line="11")]
    ex63 = summarise(records).exercises[1]
    assert (ex63.learners, ex63.learners_correct) == (5, 1)
    _, rows = gradebook(summarise(records))
    assert [r[0] for r in rows] == ["ann", "bo", "cy", "line 10"] and rows[-1][2] == "1"


def test_unknown_exercises_are_one_group_when_the_exercises_are_known():
    """With the exercise ids given, rows naming others are one "(unknown exercise)" entry."""
    records = [rec("a", name, "invalid", feedback="no exercise") for name in ("ex9", "junk", "EX9 ")]
    summary = summarise([*RECORDS, *records], known={"ex6.2", "ex6.3"})
    assert [s.exercise for s in summary] == ["ex6.2", "ex6.3", "(unknown exercise)"]
    assert summary.exercises[2].rows == 3
