"""How the summary groups a class's rows (symattn/grading/batch/summary.py): wrong answers by the
value read, per seed; invalid rows by reason; each group's example; and rows missing a field
(graded files from elsewhere, JSON Lines with fewer columns) summarised, never a crash."""

from __future__ import annotations

from graded import record

from symattn.grading.batch.summary import UNREADABLE, Group, summarise


def only(rows):
    (s,) = summarise(rows).exercises
    return s


def test_unrecognised_wrong_answers_are_grouped_by_value_and_seed():
    rows = [
        record("a", "ex6.2", "incorrect", answer=" 1.97"),
        record("b", "ex6.2", "incorrect", answer="1.97 "),
        record("c", "ex6.2", "incorrect", answer="1.97") | {"seed": " 3 "},
        record("d", "ex6.2", "incorrect", answer="2", read_as="2"),
        record("e", "ex6.2", "incorrect", answer="   "),  # nothing to show: left out
    ]
    assert only(rows).wrong == [
        Group("1.97", 2, 2, " 1.97"),
        Group("1.97 (seed 3)", 1, 1, "1.97"),
        Group("2", 1, 1, "2"),
    ]


def test_rows_missing_a_field_are_summarised():
    bare = {"line": "2", "learner": "a", "verdict": "incorrect"}  # no exercise, answer or seed
    invalid = {"line": "3", "learner": "b", "verdict": "invalid"}  # and no feedback
    s = summarise([bare, invalid])
    (exercise,) = s.exercises
    assert exercise.exercise == UNREADABLE
    assert exercise.wrong == []
    assert exercise.invalid == [Group("no reason given", 1, 1, "")]
    no_seed = {"line": "4", "learner": "c", "exercise": "ex6.2", "verdict": "incorrect", "read_as": "5"}
    assert only([no_seed]).wrong == [Group("5", 1, 1, "")]


def test_a_groups_example_is_its_most_frequent_answer_or_proof():
    rows = [
        record("a", "ex6.2", "incorrect", mistake="slip", answer="x"),
        record("b", "ex6.2", "incorrect", mistake="slip", answer="y"),
        record("c", "ex6.2", "incorrect", mistake="slip", answer="y"),
    ]
    assert only(rows).slips == [Group("slip", 3, 3, "y")]
    proofs = [
        record(who, "ex6.3", "incorrect", mistake="rule", answer="") | {"steps_file": name}
        for who, name in (("a", "p1.tex"), ("b", "p2.tex"), ("c", "p2.tex"))
    ]
    assert only(proofs).slips == [Group("rule", 3, 3, "p2.tex")]


def test_groups_rank_by_learners_then_rows_then_name():
    rows = [
        record("a", "ex6.2", "incorrect", mistake="b-slip"),
        record("a", "ex6.2", "incorrect", mistake="b-slip"),
        record("b", "ex6.2", "incorrect", mistake="a-slip"),
        record("c", "ex6.2", "incorrect", mistake="c-slip"),
        record("d", "ex6.2", "incorrect", mistake="c-slip"),
    ]
    assert [(g.name, g.learners, g.rows) for g in only(rows).slips] == [
        ("c-slip", 2, 2),
        ("b-slip", 1, 2),
        ("a-slip", 1, 1),
    ]
