"""The answer bank (tests/data/answer_bank.csv): every verdict a careful grader gives.

Each row is an exercise, an optional variant seed, an answer a class might type, the verdict
(correct, incorrect, invalid) and a one-line reason. The verdicts were decided by rule in
tests/data/make_answer_bank.py, never by running the judge. Every answer runs the real path:
precheck, then the limited worker.
"""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
from sampled import sampled

from symattn.grading.answers.judge import judge
from symattn.grading.exercises import get

BANK = Path(__file__).parents[2] / "data" / "answer_bank.csv"


def rows() -> list[dict[str, str]]:
    with BANK.open(encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh))


ROWS = rows()


def test_bank_covers_every_checkable_exercise_and_a_dozen_variants():
    """471 answers, every checkable exercise, 13 seeds, all three verdicts."""
    assert len(ROWS) == 471
    assert {r["exercise"] for r in ROWS} == {"ex6.2", "ex6.4", "ex6.5"}
    assert len({r["seed"] for r in ROWS if r["seed"]}) == 13
    assert {r["verdict"] for r in ROWS} == {"correct", "incorrect", "invalid"}
    assert all(r["reason"].strip() for r in ROWS)


@pytest.mark.parametrize(
    "row",
    sampled(ROWS, 3, lambda i, r: f"{r['exercise']}:{r['seed']}:{i}"),  # one in 3 in CI's second run
)
def test_bank_verdict(row):
    """The judge gives the bank's verdict in the learner's words. (An answer its time limit stops
    is "invalid", too costly, which is no row's verdict for that reason; bench/limits.py times them.)"""
    ex = get(row["exercise"], int(row["seed"]) if row["seed"] else None)
    v = judge(row["answer"], ex.expected, ex.mistakes)
    assert v.verdict == row["verdict"], f"{row['answer']!r}: {row['reason']} -> {v}"
    assert v.feedback and "\n" not in v.feedback
    assert "Error" not in v.feedback and "Traceback" not in v.feedback
