"""The class summary as printed (symattn/present/grade_report.py): text, JSON, Markdown, chart."""

from __future__ import annotations

import csv
import json
import re

import pytest
from graded import record as rec

from symattn.present.grade_report import (
    bar_chart,
    percent,
    report_markdown,
    summarise,
    summary_json,
    summary_text,
)

# ex6.2: 9 rows from 8 learners (d answered twice); ex6.5: one row.
RECORDS = [
    rec("a", "ex6.2", "correct", read_as="1959/1000", answer="1.959"),
    rec("b", "ex6.2", "incorrect", "uniform-weights", "4", "4"),
    rec("c", "ex6.2", "incorrect", "uniform-weights", "4", "4.0"),
    rec("d", "ex6.2", "incorrect", "largest-score-only", "1", "1"),
    rec("d", "ex6.2", "incorrect", "largest-score-only", "1", "1.0"),
    rec("e", "ex6.2", "incorrect", "", "197/100", "1.97"),
    rec("f", "ex6.2", "incorrect", "", "197/100", "1.970"),
    rec("g", "ex6.2", "incorrect", "", "3", "3"),
    rec("h", "ex6.2", "invalid", answer="8192 )"),
    rec("a", "ex6.5", "correct", read_as="N > 8192", answer="N > 8192"),
]


@pytest.mark.parametrize(
    ("part", "whole", "shown"),
    [
        (1, 8, "12.5%"),
        (1, 16, "6.2%"),  # 6.25: a tie, to even
        (3, 16, "18.8%"),  # 18.75: a tie, to even
        (1, 3, "33.3%"),
        (2, 3, "66.7%"),
        (7, 9, "77.8%"),
        (0, 5, "0.0%"),
        (5, 5, "100.0%"),
        (0, 0, "-"),
    ],
)
def test_percent_is_correctly_rounded(part, whole, shown):
    """Shares to one decimal, correctly rounded, ties to even (values worked by hand)."""
    assert percent(part, whole) == shown


def test_counts_shares_slips_and_wrong_answers():
    """Per exercise: counts of each verdict, learners, slips ranked by learners (then rows),
    unrecognised wrong answers grouped by the value they were read as."""
    ex62, ex65 = summarise(RECORDS)
    assert (ex62.exercise, ex62.rows, ex62.learners) == ("ex6.2", 9, 8)
    assert ex62.counts == {"correct": 1, "incorrect": 7, "invalid": 1, "unchecked": 0}
    assert [(g.name, g.learners, g.rows) for g in ex62.slips] == [
        ("uniform-weights", 2, 2),
        ("largest-score-only", 1, 2),
    ]
    assert [(g.name, g.learners, g.rows, g.example) for g in ex62.wrong] == [
        ("197/100", 2, 2, "1.97"),
        ("3", 1, 1, "3"),
    ]
    assert (ex65.rows, ex65.counts["correct"], ex65.slips, ex65.wrong) == (1, 1, [], [])


def test_text_table():
    """The text summary: one table line per exercise with counts and shares, then the slips and
    the wrong answers."""
    text = summary_text(summarise(RECORDS))
    lines = text.splitlines()
    ex62 = next(x for x in lines if x.startswith("ex6.2 "))
    # attempts, learners, learners correct at their best attempt, then rows by verdict
    cells = ["ex6.2", "9", "8", "1 (12.5%)", "1 (11.1%)", "7 (77.8%)", "1 (11.1%)", "0 (0.0%)"]
    assert re.split(r"\s{2,}", ex62) == cells
    assert re.split(r"\s{2,}", next(x for x in lines if x.startswith("ex6.5 "))) == [
        "ex6.5",
        "1",
        "1",
        "1 (100.0%)",
        "1 (100.0%)",
        "0 (0.0%)",
        "0 (0.0%)",
        "0 (0.0%)",
    ]
    slips = text.split("Slips, by learners\n")[1]
    assert slips.index("uniform-weights") < slips.index("largest-score-only")
    assert "197/100" in text.split("Most frequent unrecognised wrong answers, by value\n")[1]


def test_summary_json():
    """The JSON summary carries the same counts, exact shares as floats, slips and values."""
    doc = summary_json(summarise(RECORDS))
    ex62 = doc["exercises"][0]
    assert ex62["counts"] == {"correct": 1, "incorrect": 7, "invalid": 1, "unchecked": 0}
    assert ex62["shares"]["incorrect"] == 7 / 9
    assert ex62["slips"][0] == {"mistake": "uniform-weights", "learners": 2, "rows": 2, "example": "4"}
    assert ex62["unrecognised_wrong"][0]["read_as"] == "197/100"
    json.dumps(doc)


def test_markdown_report_keeps_hostile_text_in_its_cell():
    """An answer with pipes and backticks stays inside one table cell of the report."""
    records = [*RECORDS, rec("z", "ex6.2", "incorrect", "", "Abs(x)", "|x| `y`")]
    text = report_markdown(summarise(records), "Class", "chart.svg")
    assert "![Share of correct, incorrect and invalid answers per exercise](chart.svg)" in text
    row = next(x for x in text.splitlines() if "Abs(x)" in x)
    assert len(re.findall(r"(?<!\\)\|", row)) == 5  # four cells


def test_bar_chart_is_an_svg_with_every_count(tmp_path):
    """The chart names each exercise and labels each non-empty bar with its count; the same
    summary gives the same bytes."""
    a = bar_chart(summarise(RECORDS), tmp_path / "a.svg").read_text()
    b = bar_chart(summarise(RECORDS), tmp_path / "b.svg").read_text()
    assert a == b and a.lstrip().startswith("<?xml")
    labels = re.findall(r"<!-- (.*?) -->", a)
    assert "ex6.2" in labels and "ex6.5" in labels
    assert labels.count("7") == 1 and labels.count("1") == 3  # 7 incorrect; 1 correct twice, 1 invalid


def test_grade_writes_summary_json_and_report(tmp_path, cli):
    """`grade --summary-json --report` writes both, consistent with the graded rows."""
    klass = tmp_path / "c.csv"
    with open(klass, "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerows(
            [
                ["learner", "exercise", "answer"],
                ["a", "ex6.2", "4"],
                ["b", "ex6.2", "4"],
                ["c", "ex6.2", "1.96"],
            ]
        )
    code, out, err = cli(
        "grade",
        str(klass),
        "--out",
        str(tmp_path / "o.csv"),
        "--jobs",
        "2",
        "--summary-json",
        str(tmp_path / "s.json"),
        "--report",
        str(tmp_path / "r.md"),
    )
    assert code == 0, err
    doc = json.loads((tmp_path / "s.json").read_text())
    assert doc["exercises"][0]["counts"] == {"correct": 1, "incorrect": 2, "invalid": 0, "unchecked": 0}
    assert doc["exercises"][0]["slips"][0]["mistake"] == "uniform-weights"
    report = (tmp_path / "r.md").read_text()
    assert "(r.svg)" in report and (tmp_path / "r.svg").exists()
    assert "| ex6.2 | 3 | 3 | 1 (33.3%) | 1 (33.3%) | 2 (66.7%) | 0 (0.0%) |" in report
    assert "uniform-weights" in out


def test_a_slip_named_in_latex_is_unicode_in_the_text_and_the_report():
    """A derivation's slip is named with its math between dollars (as --json holds it): the
    terminal's summary and the Markdown report show it as Unicode, never the LaTeX source."""
    slip = r"$\operatorname{Var}(aX) = a \operatorname{Var}(X)$"
    records = [rec("a", "ex6.3", "incorrect", mistake=slip), rec("b", "ex6.3", "incorrect", mistake=slip)]
    text = summary_text(summarise(records))
    report = report_markdown(summarise(records), "A class", chart=None)
    for shown in (text.split("Slips, by learners\n")[1], report):
        assert "Var(aX) = a Var(X)" in shown
        assert "operatorname" not in shown and "$" not in shown
