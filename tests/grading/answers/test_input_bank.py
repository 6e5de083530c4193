"""The input bank (tests/data/input_bank.csv): answers as input tools and keyboards produce them
(issue 48): MathLive's own LaTeX, NumPy's reprs, Unicode typed on keyboards of several scripts,
spreadsheet, Mathematica, MATLAB and Maple syntax, siunitx, Word, and a model's wrappers.

Its verdicts were decided in tests/data/make_input_bank.py by each row's value, never by running
the judge. Every answer runs the command's own path (ex6.6's formula judge for ex6.6)."""

from __future__ import annotations

import csv
from collections import Counter
from pathlib import Path

import pytest

from symattn.grading.answers.formula import judge_formula
from symattn.grading.answers.judge import judge
from symattn.grading.exercises import get

BANK = Path(__file__).parents[2] / "data" / "input_bank.csv"

with BANK.open(encoding="utf-8", newline="") as fh:
    ROWS = list(csv.DictReader(fh))


def _verdict(row: dict[str, str]):
    if row["exercise"] == "ex6.6":
        return judge_formula(row["answer"])
    ex = get(row["exercise"])
    return judge(row["answer"], ex.expected, ex.mistakes)


def test_the_bank_holds_every_source_right_and_wrong():
    sources = Counter(r["source"] for r in ROWS)
    for source in ("MathLive", "NumPy", "Unicode", "Excel", "Mathematica", "MATLAB", "siunitx", "Word"):
        assert {r["verdict"] for r in ROWS if r["source"] == source} >= {"correct", "incorrect"}, source
    assert sources["MathLive"] >= 20 and len({r["answer"] for r in ROWS}) == len(ROWS)


@pytest.mark.parametrize("row", [r for r in ROWS if r["verdict"] == "incorrect"], ids=lambda r: r["answer"])
def test_no_false_accepts(row):
    assert _verdict(row).verdict != "correct", row["reason"]


@pytest.mark.parametrize("row", [r for r in ROWS if r["verdict"] == "correct"], ids=lambda r: r["answer"])
def test_every_right_answer_is_accepted(row):
    v = _verdict(row)
    assert v.verdict == "correct", (row["reason"], v.feedback)


@pytest.mark.parametrize("row", [r for r in ROWS if r["verdict"] == "invalid"], ids=lambda r: r["answer"])
def test_an_ambiguous_form_is_asked_about_not_guessed(row):
    v = _verdict(row)
    assert v.verdict == "invalid" and "ambiguous" in v.feedback, v.feedback
