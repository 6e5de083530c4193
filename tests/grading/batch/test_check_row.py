"""One row judged as its pool worker judges it (symattn/grading/batch/grade.py, check_row), called
here in-process: grade runs it in worker processes, where a mutation pass cannot see it
(bench/mutation.py). Each outcome is compared with what `symattn check --json` prints."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from symattn.grading.batch.grade import check_row

PROOFS = Path(__file__).parents[2] / "data" / "learner_proofs"


def check_json(cli, exercise: str, *argv: str) -> tuple[dict | None, str]:
    """`symattn check EXERCISE --json ARGV...`: its document, and stderr."""
    _, out, err = cli("check", exercise, "--json", *argv)
    return (json.loads(out) if out.strip() else None), err


@pytest.mark.parametrize(
    ("exercise", "seed", "answer"),
    [
        ("ex6.2", "", r"\frac{e^2+11}{e^2+2}"),  # correct
        ("ex6.2", "", "4"),  # a slip with its name
        ("ex6.2", "7", "1.5"),  # a variant, its number as typed
        ("ex6.2", " 7 ", "1.5"),  # a seed with white space round it, as a CSV cell may have
        ("ex6.5", "", r"8\,192"),  # a note on how it was read
        ("ex6.4", "", "[[1, 0], [1, 1]]"),
        ("ex6.2", "", "8192 )"),  # unreadable: invalid with the reader's words
    ],
)
def test_an_answer_row_is_judged_as_check_judges_it(cli, exercise, seed, answer):
    got = check_row(exercise, seed, answer)
    seeded = ["--seed", seed.strip()] if seed.strip() else []
    doc, err = check_json(cli, exercise, *seeded, "--", answer)
    assert doc is not None, err
    assert (got.verdict, got.feedback, got.mistake) == (doc["verdict"], doc["feedback"], doc["mistake"] or "")
    assert (got.read_as, got.read_as_latex) == (doc["given"], doc["given_latex"])
    assert got.read_as_typed == doc["typed"]
    assert got.notes == "; ".join(doc["notes"]) and not got.row_problem and got.seconds >= 0


def test_several_notes_are_one_cell_joined_by_semicolons():
    """A CSV cell holds every note on how the answer was read, in check's order, "; " between."""
    got = check_row("ex6.5", "", r"8\,192 \text{ tokens}")
    assert got.verdict == "correct"
    assert got.notes == r"the unit 'tokens' is ignored; 8\,192 read as 8192"


@pytest.mark.parametrize(
    ("exercise", "seed", "said"),
    [
        ("ex9.9", "", "no exercise 'ex9.9'"),
        ("ex6.2", "x", "seed: not a whole number: 'x'"),
        ("ex6.2", "-1", "seed: must be between 0 and 2^63 - 1, got -1"),
        ("ex6.2", str(2**63), f"seed: must be between 0 and 2^63 - 1, got {2**63}"),
    ],
)
def test_a_row_check_would_refuse_is_invalid_with_its_words(exercise, seed, said):
    got = check_row(exercise, seed, "1")
    assert (got.verdict, got.row_problem, got.mistake, got.read_as) == ("invalid", True, "", "")
    assert got.feedback.startswith(said), got.feedback


def test_the_largest_seed_is_a_seed(cli):
    largest = str(2**63 - 1)
    got = check_row("ex6.2", largest, "1")
    doc, _ = check_json(cli, "ex6.2", "--seed", largest, "--", "1")
    assert not got.row_problem and (got.verdict, got.feedback) == (doc["verdict"], doc["feedback"])


@pytest.mark.parametrize(("seed", "answer"), [("", ""), (" ", " ")], ids=["empty", "blank cells"])
def test_a_steps_row_is_judged_as_check_steps_judges_it(cli, seed, answer):
    """Blank answer and seed cells (white space only, as a spreadsheet may leave them) are empty."""
    path = sorted((PROOFS / "ex6.3").glob("*.tex"))[0]
    got = check_row("ex6.3", seed, answer, path.read_text(encoding="utf-8"))
    doc, _ = check_json(cli, "ex6.3", "--steps", str(path))
    assert (got.verdict, got.feedback, got.mistake) == (doc["verdict"], doc["feedback"], doc["mistake"])
    assert not got.row_problem


@pytest.mark.parametrize(
    ("seed", "answer", "said"),
    [
        ("", "1", "give an answer or a steps_file, not both"),
        ("3", " ", "a seed does not apply to a steps_file"),
    ],
)
def test_a_steps_row_with_an_answer_or_a_seed_is_refused(seed, answer, said):
    got = check_row("ex6.3", seed, answer, "x = 1\n")
    assert (got.verdict, got.feedback, got.row_problem) == ("invalid", said, True)


def test_a_fault_of_the_judge_keeps_the_batch_going_and_says_so(monkeypatch):
    def broken(*args, **kwargs):
        raise KeyError("oops")

    monkeypatch.setattr("symattn.grading.submission.judge_submission", broken)
    got = check_row("ex6.2", "", "1")
    expected = "could not be checked (internal error KeyError; please report it)"
    assert (got.verdict, got.feedback, got.row_problem) == ("invalid", expected, False)


def test_the_smallest_seed_is_a_seed(cli):
    """check --seed takes 0 to 2^63 - 1: seed 0 is judged, not refused."""
    got = check_row("ex6.2", "0", "1")
    doc, _ = check_json(cli, "ex6.2", "--seed", "0", "--", "1")
    assert doc is not None
    assert not got.row_problem and (got.verdict, got.feedback) == (doc["verdict"], doc["feedback"])


def test_a_fault_of_the_judge_reads_nothing_and_names_no_mistake(monkeypatch):
    def broken(*args, **kwargs):
        raise KeyError("oops")

    monkeypatch.setattr("symattn.grading.submission.judge_submission", broken)
    got = check_row("ex6.2", "", "1")
    assert (got.mistake, got.read_as, got.read_as_latex, got.read_as_typed, got.notes) == ("", "", "", "", "")


@pytest.mark.parametrize(
    ("exercise", "answer", "fault"),
    [("ex6.2", "1.96", False), ("ex9", "1", False), ("ex6.2", "1", True)],
    ids=["judged", "refused", "judge-fault"],
)
def test_the_seconds_are_the_time_the_row_took(monkeypatch, exercise, answer, fault):
    """seconds: the wall-clock time of this row, from its start to its outcome (a clock that
    moves 0.25 s between the two readings gives 0.25)."""
    from stand_in import StandIn

    from symattn.grading.batch import grade

    if fault:
        monkeypatch.setattr("symattn.grading.submission.judge_submission", lambda *a, **k: 1 / 0)
    readings = iter([1000.0, 1000.25])
    monkeypatch.setattr(grade, "time", StandIn(time, perf_counter=lambda: next(readings)))
    got = check_row(exercise, "", answer)
    assert got.seconds == 0.25
