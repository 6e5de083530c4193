"""Grading a class (symattn/grading/batch/grade.py, files.py): check's verdicts, nothing lost,
resumable."""

from __future__ import annotations

import csv
import json
import os
import re
import signal
import subprocess
import sys
import time
from fractions import Fraction
from pathlib import Path

import pytest
from terminal import Terminal

from symattn.grading.batch import grade as grade_module
from symattn.grading.batch.grade import grade_file
from symattn.grading.outcomes import OUT_OF_TIME

DATA = Path(__file__).parents[2] / "data"
HEADER = ["learner", "exercise", "answer", "seed"]
RESULTS = [
    "steps_sha256",
    "verdict",
    "feedback",
    "mistake",
    "read_as",
    "read_as_latex",
    "read_as_typed",
    "notes",
    "seconds",
]


def write_csv(path: Path, rows: list[dict[str, str]], header: list[str] = HEADER) -> Path:
    with open(path, "w", encoding="utf-8", newline="") as fh:
        w = csv.DictWriter(fh, header, extrasaction="ignore")
        w.writeheader()
        w.writerows(rows)
    return path


def read_csv(path: Path) -> list[dict[str, str]]:
    with open(path, encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh))


def read_bank(path: Path) -> list[dict[str, str]]:
    """An answer bank: CSV or JSON Lines with at least exercise, seed and answer."""
    if path.suffix == ".csv":
        rows = read_csv(path)
    elif path.suffix == ".json":
        rows = json.loads(path.read_text(encoding="utf-8"))
    else:
        rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return [
        {
            "exercise": str(r["exercise"]),
            "seed": "" if r.get("seed") is None else str(r["seed"]),
            "answer": str(r["answer"]),
            "verdict": str(r.get("verdict") or ""),  # the bank's own verdict, if it states one
        }
        for r in rows
    ]


def check_json(cli, exercise: str, seed: str, answer: str) -> tuple[int, dict | None]:
    """`symattn check` on one row, in-process: its exit code and its --json verdict."""
    argv = ["check", exercise, "--json"] + (["--seed", seed] if seed else []) + ["--", answer]
    code, out, _ = cli(*argv)
    return code, (json.loads(out) if out.strip() else None)


def assert_same_as_check(cli, graded: dict[str, str], cache: dict) -> None:
    key = (graded["exercise"], graded["seed"], graded["answer"])
    if key not in cache:
        cache[key] = check_json(cli, *key)
    code, doc = cache[key]
    where = f"{key}: grade said {graded['verdict']} ({graded['feedback']}), check exit {code} {doc}"
    if doc is None:  # check refused the row itself (unknown exercise, bad seed): exit 2
        assert code == 2 and graded["verdict"] == "invalid", where
        assert graded["feedback"].startswith(f"line {graded['line']}: "), where
        return
    assert graded["verdict"] == doc["verdict"], where
    assert code == {"correct": 0, "incorrect": 1, "invalid": 2}[graded["verdict"]], where
    if graded["feedback"].startswith("too costly to check"):  # which limit trips first may vary
        assert doc["feedback"].startswith("too costly to check"), where
        return
    assert graded["feedback"] == doc["feedback"], where
    assert graded["mistake"] == (doc["mistake"] or ""), where
    assert graded["read_as"] == doc["given"], where
    assert graded["notes"] == "; ".join(doc.get("notes", [])), where


# -- verdicts equal to check ----------------------------------------------------------------------
BANKS = [*sorted(DATA.glob("answer_bank.*")), DATA / "grade_bank.csv"]


#: Rows of a bank compared with the whole of check's output, in-process: every STRIDE-th (all of
#: them with SYMATTN_GRADE_FULL_BANK=1; about 4 minutes on a busy 2-core machine).
STRIDE = 1 if os.environ.get("SYMATTN_GRADE_FULL_BANK") else 8


@pytest.mark.exhaustive  # the whole of what quicker tests sample (CI's second run leaves it out)
@pytest.mark.parametrize("bank", BANKS, ids=lambda p: p.name)
def test_verdicts_equal_check_on_the_whole_bank(bank, tmp_path, cli):
    """Every answer of the bank gets from `grade` the verdict `symattn check` gives it.

    Where the bank states verdicts (tests/grading/answers/test_answer_bank.py asserts the judge gives each of
    them), every row's verdict must be the bank's; and on every STRIDE-th row (every row of a
    bank that states none) grade's verdict, feedback, slip, reading and notes must be exactly
    those of `symattn check` run in-process on that row."""
    bank_rows = read_bank(bank)
    rows = [
        {k: r[k] for k in ("exercise", "seed", "answer")} | {"learner": f"L{i}"}
        for i, r in enumerate(bank_rows)
    ]
    klass = write_csv(tmp_path / "class.csv", rows)
    code, _, err = cli("grade", str(klass), "--out", str(tmp_path / "out.csv"), "--jobs", "2")
    assert code == 0, err
    graded = read_csv(tmp_path / "out.csv")
    assert [g["answer"] for g in graded] == [r["answer"] for r in rows]
    stated = all(r["verdict"] for r in bank_rows)
    cache: dict = {}
    for i, (g, r) in enumerate(zip(graded, bank_rows, strict=True)):
        if stated:
            assert g["verdict"] == r["verdict"], (r, g)
        if not stated or i % STRIDE == 0:
            assert_same_as_check(cli, g, cache)


def test_a_class_of_1000_rows(tmp_path, cli):
    """The 1,000-row class of the tests: one output row per input row in order, check's
    verdicts, a summary table, and a second run with the same --out re-grades nothing."""
    klass = DATA / "class_1000.csv"
    out = tmp_path / "graded.csv"
    code, stdout, err = cli("grade", str(klass), "--out", str(out), "--jobs", "2")
    assert code == 0, err
    rows, graded = read_csv(klass), read_csv(out)
    assert len(graded) == len(rows) == 1000
    assert [(g["learner"], g["exercise"], g["answer"]) for g in graded] == [
        (r["learner"], r["exercise"], r["answer"]) for r in rows
    ]
    cache: dict = {}
    for g in graded:
        assert_same_as_check(cli, g, cache)
    # The summary table's counts and shares, from check's verdicts (shares rounded half to even).
    for exercise in ("ex6.2", "ex6.4", "ex6.5"):
        mine = [cache[(r["exercise"], r["seed"], r["answer"])] for r in rows if r["exercise"] == exercise]
        codes = [code for code, _ in mine]
        cells = [
            f"{n} ({float(round(Fraction(1000 * n, len(codes)))) / 10:.1f}%)"
            for n in (codes.count(0), codes.count(1), codes.count(2), codes.count(75))
        ]
        mine = [r for r in rows if r["exercise"] == exercise]
        learners = len({r["learner"] for r in mine})
        # learners correct at their best attempt (ex6.2 counts its seed-7 variant too)
        right = {r["learner"] for r in mine if cache[(r["exercise"], r["seed"], r["answer"])][0] == 0}
        share = f"{float(round(Fraction(1000 * len(right), learners))) / 10:.1f}%"
        line = next(x for x in stdout.splitlines() if x.startswith(exercise + " "))
        expected = [exercise, str(len(codes)), str(learners), f"{len(right)} ({share})", *cells]
        assert re.split(r"\s{2,}", line) == expected
    judged = []
    graded_again = grade_file(str(klass), str(out), jobs=2, on_row=lambda row, rec: judged.append(row))
    assert judged == [] and graded_again.resumed == 1000 and graded_again.judged == 0
    assert read_csv(out) == graded


# -- output ----------------------------------------------------------------------------------------
def test_rows_keep_input_order_and_fields(tmp_path, cli):
    """Output rows are the input rows in order (extra columns kept) plus line and the results."""
    rows = [
        {"learner": "ann", "exercise": "ex6.2", "answer": "1.96", "seed": "", "group": "A"},
        {"learner": "bo", "exercise": "ex6.5", "answer": "N > 4096", "seed": "", "group": "B"},
        {"learner": "cy", "exercise": "ex6.2", "answer": "4", "seed": "", "group": "A"},
    ]
    klass = write_csv(tmp_path / "c.csv", rows, [*HEADER, "group"])
    code, _, _ = cli("grade", str(klass), "--out", str(tmp_path / "o.csv"), "--jobs", "2")
    assert code == 0
    with open(tmp_path / "o.csv", newline="") as fh:
        header = next(csv.reader(fh))
    assert header == ["line", *HEADER, "group", *RESULTS]
    graded = read_csv(tmp_path / "o.csv")
    assert [g["line"] for g in graded] == ["2", "3", "4"]
    assert [g["group"] for g in graded] == ["A", "B", "A"]
    assert [(g["verdict"], g["mistake"]) for g in graded] == [
        ("correct", ""),
        ("incorrect", "crossover-at-d-model"),
        ("incorrect", "uniform-weights"),
    ]
    assert all(float(g["seconds"]) >= 0 for g in graded)


def test_json_lines_in_and_out(tmp_path, cli):
    """JSON Lines input (a number as answer and seed) gives JSON Lines output with --format jsonl.

    Seed 7 of ex6.2 has scores [-1, 1, 3] and values [-5, -4, 3]: the output is
    (-5/e - 4e + 3e^3) / (1/e + e + e^3) = 2.0518..., so 2.05 is within 0.01."""
    klass = tmp_path / "c.jsonl"
    klass.write_text(
        '{"learner": "ann", "exercise": "ex6.5", "answer": 8192}\n'
        "\n"
        '{"learner": "bo", "exercise": "ex6.2", "answer": "2.05", "seed": 7}\n'
        "[1, 2]\n"
    )
    out = tmp_path / "o.out"
    assert cli("grade", str(klass), "--out", str(out), "--format", "jsonl", "--jobs", "2")[0] == 0
    graded = [json.loads(x) for x in out.read_text().splitlines()]
    assert [(g["line"], g["verdict"]) for g in graded] == [
        (1, "correct"),
        (3, "correct"),
        (4, "invalid"),
    ]
    assert graded[1]["seed"] == "7" and graded[0]["answer"] == "8192"
    assert all(isinstance(g["seconds"], float) for g in graded)
    assert graded[2]["feedback"] == "line 4: not a JSON object"


def test_rows_on_stdout_without_out(tmp_path, cli):
    """Without --out the graded rows are CSV on stdout and the summary goes to stderr."""
    klass = write_csv(tmp_path / "c.csv", [{"learner": "a", "exercise": "ex6.2", "answer": "1.96"}])
    code, out, err = cli("grade", str(klass), "--jobs", "1")
    assert code == 0
    assert next(iter(csv.DictReader(out.splitlines())))["verdict"] == "correct"
    assert "exercise" in err and "1 (100.0%)" in err


def test_one_value_typed_differently_is_one_group_and_each_row_keeps_its_digits(tmp_path, cli):
    """1.97, 1.970 and \\frac{197}{100} are one unrecognised wrong answer in the summary (grouped
    by the exact reading, read_as), while each row keeps what its learner typed (read_as_typed)."""
    answers = {"a": "1.97", "b": "1.970", "c": "1.9700", "d": r"\frac{197}{100}"}
    rows = [{"learner": k, "exercise": "ex6.2", "answer": a} for k, a in answers.items()]
    klass = write_csv(tmp_path / "c.csv", rows)
    out, summary = tmp_path / "graded.csv", tmp_path / "s.json"
    code, _, err = cli("grade", str(klass), "--out", str(out), "--summary-json", str(summary), "--jobs", "1")
    assert code == 0, err
    graded = {r["learner"]: r for r in read_csv(out)}
    assert {k: (r["verdict"], r["read_as"]) for k, r in graded.items()} == dict.fromkeys(
        answers, ("incorrect", "197/100")
    )
    assert {k: r["read_as_typed"] for k, r in graded.items()} == {
        "a": "1.97",
        "b": "1.970",
        "c": "1.9700",
        "d": "197/100",
    }
    (exercise,) = json.loads(summary.read_text(encoding="utf-8"))["exercises"]
    groups = exercise["unrecognised_wrong"]
    assert [(g["read_as"], g["learners"], g["latex"]) for g in groups] == [("197/100", 4, r"\frac{197}{100}")]


# -- nothing lost ------------------------------------------------------------------------------------
UNREADABLE = (
    "learner,exercise,answer,seed\n"
    "ann,ex6.2,1.96,\n"  # line 2
    'bo,ex6.2,"1.9\n'  # line 3: a quote never closed
    "cy,ex9,1,\n"  # line 4: no such exercise
    "di,ex6.2\n"  # line 5: no answer
    "ed,,1.96,\n"  # line 6: no exercise
    "fa,ex6.2,1.96,seven\n"  # line 7: a seed that is not a number
    "gu,ex6.2,1.96,,extra\n"  # line 8: one field too many
    "ha,ex6.1,1,\n"  # line 9: no checkable answer
    "iv,ex6.2,1.9\xff6,\n"  # line 10: a byte that is not UTF-8
    "jo,ex6.5,N > 8192,\n"  # line 11
)


def test_unreadable_rows_are_invalid_with_their_line(tmp_path, cli):
    """Each unreadable row is invalid with its line number and reason; the batch goes on."""
    klass = tmp_path / "c.csv"
    klass.write_bytes(UNREADABLE.replace("\xff", "\udcff").encode("utf-8", "surrogateescape"))
    out = tmp_path / "o.csv"
    code, _, err = cli("grade", str(klass), "--out", str(out), "--jobs", "2")
    assert code == 0, err
    got = {g["line"]: (g["verdict"], g["feedback"]) for g in read_csv(out)}
    assert got["2"] == ("correct", "correct") and got["11"] == ("correct", "correct")
    expect = {
        "3": "a quoted field is not closed",
        "4": "no exercise 'ex9'",
        "5": "missing answer",
        "6": "missing exercise",
        "7": "seed: not a whole number",
        "8": "5 fields where the header names 4",
        "9": "ex6.1 has no machine-checkable answer",
        "10": "not UTF-8 text",
    }
    for line, reason in expect.items():
        verdict, feedback = got[line]
        assert verdict == "invalid" and feedback.startswith(f"line {line}: ") and reason in feedback


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "cannot read"),
        (b"", "empty"),
        (b"name,answer\nann,1.96\n", "the header must name the columns learner, exercise, answer"),
        (b'{"a": 1\n[2]\n', "no line is a JSON object"),
        (b"\x89PNG\r\n\x1a\n\x00\x00", "the header is not UTF-8 text"),  # a binary file
    ],
)
def test_a_file_that_cannot_be_read_exits_2(tmp_path, cli, content, message):
    """A missing, empty, headerless or non-class file: exit 2 with one line on stderr."""
    path = tmp_path / "class.csv"
    if content is not None:
        path.write_bytes(content)
    code, out, err = cli("grade", str(path), "--out", str(tmp_path / "o.csv"))
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and message in err
    assert not (tmp_path / "o.csv").exists()


def test_interrupted_run_resumes_without_regrading(tmp_path):
    """Interrupted after 4 rows, a rerun with the same --out judges only the other rows, and the
    file ends as a run that was never interrupted, in input order."""
    answers = ["1.96", "4", "1", "18.39", "0.787", "2", "1.97", "1.959", "N > 8192", "3"]
    rows = [
        {"learner": f"L{i}", "exercise": "ex6.5" if "N" in a else "ex6.2", "answer": a}
        for i, a in enumerate(answers)
    ]
    klass = write_csv(tmp_path / "c.csv", rows)
    out = tmp_path / "o.csv"
    first: list[int] = []

    def stop_after_four(row, record):
        first.append(row.number)
        if len(first) == 4:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        grade_file(str(klass), str(out), jobs=2, on_row=stop_after_four)
    partial = read_csv(out)
    assert sorted(int(g["line"]) - 1 for g in partial) == sorted(first)
    n = min(set(range(1, 11)) - set(first))  # a row not graded yet, torn by the interruption
    with open(out, "a", encoding="utf-8") as fh:
        fh.write(f"{n + 1},L{n - 1},{rows[n - 1]['exercise']},{answers[n - 1]},,corr")
    second: list[int] = []
    graded = grade_file(str(klass), str(out), jobs=2, on_row=lambda row, rec: second.append(row.number))
    assert sorted(first + second) == list(range(1, 11))
    assert graded.resumed == 4 and graded.judged == 6
    final = read_csv(out)
    fresh = grade_file(str(klass), str(tmp_path / "fresh.csv"), jobs=2).records
    drop = [{k: v for k, v in r.items() if k != "seconds"} for r in final]
    assert drop == [{k: v for k, v in r.items() if k != "seconds"} for r in fresh]


def test_killed_process_resumes(tmp_path):
    """A `symattn grade` process killed with SIGKILL mid-batch leaves its finished rows in --out;
    the rerun judges none of them again."""
    answers = [f"1.{i:02d}" for i in range(40)]
    rows = [{"learner": f"L{i}", "exercise": "ex6.2", "answer": a} for i, a in enumerate(answers)]
    klass = write_csv(tmp_path / "c.csv", rows)
    out = tmp_path / "o.csv"
    proc = subprocess.Popen(
        [sys.executable, "-m", "symattn", "grade", str(klass), "--out", str(out), "--jobs", "2"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    deadline = time.monotonic() + 60
    try:
        while time.monotonic() < deadline and (not out.exists() or len(read_csv(out)) < 5):
            time.sleep(0.1)
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    before = {g["answer"] for g in read_csv(out) if g["seconds"]}  # complete rows
    assert 5 <= len(before) < 40
    judged: list[str] = []
    grade_file(str(klass), str(out), jobs=2, on_row=lambda row, rec: judged.append(row.get("answer")))
    assert not before & set(judged)
    assert sorted(before | set(judged)) == sorted(answers)
    assert [g["answer"] for g in read_csv(out)] == answers


def test_a_hostile_answer_delays_only_its_row(tmp_path, monkeypatch):
    """A costly answer first in the file (here one the stand-in judge takes 4 s over): every
    other row finishes before it does."""
    monkeypatch.setattr(grade_module, "check_row", die_on_answer)
    answers = ["slow", "1.96", "4", "1", "18.39", "0.787", "2", "1.97", "1.959", "3", "1.5"]
    rows = [{"learner": f"L{i}", "exercise": "ex6.2", "answer": a} for i, a in enumerate(answers)]
    klass = write_csv(tmp_path / "c.csv", rows)
    order: list[str] = []
    graded = grade_file(
        str(klass), str(tmp_path / "o.csv"), jobs=2, on_row=lambda r, rec: order.append(r.get("answer"))
    )
    assert order[-1] == "slow" and sorted(order) == sorted(answers)
    assert [r["verdict"] for r in graded.records[1:3]] == ["correct", "incorrect"]


def die_on_answer(exercise, seed, answer, steps=None):
    """A stand-in for check_row whose worker dies on one answer, hangs on another, is slow on a third."""
    if answer == "die":
        os.kill(os.getpid(), signal.SIGKILL)
    if answer == "hang":
        time.sleep(60)
    if answer == "slow":
        time.sleep(4)
    if answer == "flaky" and not FLAKY[0].exists():  # out of the judge's wall clock the first time only
        FLAKY[0].touch()
        return grade_module.Outcome("unchecked", OUT_OF_TIME, "", "", 4.0)
    return REAL_CHECK_ROW(exercise, seed, answer, steps)


REAL_CHECK_ROW = grade_module.check_row
FLAKY: list[Path] = [Path("/nonexistent")]


def test_a_dead_or_stuck_worker_is_replaced_without_losing_the_row(tmp_path, monkeypatch):
    """A worker that dies, or outlives the pool's deadline, is replaced: a dead worker's row is
    invalid ("too costly to check"), a stuck one's unchecked ("try again"), and every other row
    is judged. A row out of time (the judge's net or the pool's) is tried once more after the
    rest."""
    monkeypatch.setattr(grade_module, "check_row", die_on_answer)
    monkeypatch.setattr(grade_module, "ROW_TIMEOUT", 3.0)
    monkeypatch.setattr(sys.modules[__name__], "FLAKY", [tmp_path / "flaky-once"])
    answers = ["die", "1.96", "hang", "4", "die", "1.959", "1", "flaky"]
    rows = [{"learner": f"L{i}", "exercise": "ex6.2", "answer": a} for i, a in enumerate(answers)]
    klass = write_csv(tmp_path / "c.csv", rows)
    graded = grade_file(str(klass), str(tmp_path / "o.csv"), jobs=2).records
    assert [g["verdict"] for g in graded[:7]] == [
        "invalid",
        "correct",
        "unchecked",
        "incorrect",
        "invalid",
        "correct",
        "incorrect",
    ]
    assert graded[0]["feedback"] == "too costly to check: the worker stopped without a result"
    # stopped by the pool's own backstop, twice (judged again once, after the rest): no verdict
    assert graded[2]["feedback"] == OUT_OF_TIME
    # Out of the judge's time once, judged again after the rest: the judge's own verdict.
    assert graded[7]["verdict"] == "invalid" and (tmp_path / "flaky-once").exists()
    assert graded[7]["feedback"] == "'flaky' is not a number or a symbol of this exercise"


CALLS: list[Path] = []


def counting(exercise, seed, answer, steps=None):
    """A stand-in for check_row that notes each answer it judges in the file CALLS[0]."""
    with open(CALLS[0], "a") as fh:
        fh.write(answer + "\n")
    return REAL_CHECK_ROW(exercise, seed, answer, steps)


def test_identical_answers_are_judged_once(tmp_path, monkeypatch):
    """Rows with the same exercise, seed and answer share one judgement (and its verdict)."""
    calls = tmp_path / "calls"
    monkeypatch.setattr(sys.modules[__name__], "CALLS", [calls])
    monkeypatch.setattr(grade_module, "check_row", counting)
    rows = [
        {"learner": f"L{i}", "exercise": "ex6.2", "answer": a} for i, a in enumerate(["4", "1.96", "4", "4"])
    ]
    rows.append({"learner": "L9", "exercise": "ex6.2", "answer": "4", "seed": "7"})
    graded = grade_file(str(write_csv(tmp_path / "c.csv", rows)), str(tmp_path / "o.csv"), jobs=2).records
    assert sorted(calls.read_text().split()) == ["1.96", "4", "4"]
    assert [g["mistake"] for g in graded[:4]] == ["uniform-weights", "", "uniform-weights", "uniform-weights"]


@pytest.mark.exhaustive  # the whole of what quicker tests sample (CI's second run leaves it out)
def test_steps_file_rows_are_judged_as_check_steps(tmp_path, cli, monkeypatch):
    """A row with a steps_file (relative to the class file) gets `check ID --steps FILE`'s verdict,
    feedback and slip.

    No proof here is meant to run out of time, so the derivation's budgets are raised (for grade's
    forked pool workers too), as in the bank's own test: a correct 2 s proof (c13_cases) hit the
    3.5 s CPU budget in a pool worker, and again when graded alone, while the other test worker
    shared the two cores. The budgets themselves are tested in test_proof_judge.py. The wall-clock
    one stays under grade's row timeout."""
    import symattn.grading.proofs.proof_judge as proof_judge

    monkeypatch.setattr(proof_judge, "TOTAL_SECONDS", 4 * proof_judge.TOTAL_SECONDS)
    assert proof_judge.WALL_SECONDS < grade_module.ROW_TIMEOUT
    proofs = sorted((DATA / "learner_proofs").glob("ex6.*/*.tex"))[::6]
    for p in proofs:
        (tmp_path / p.parent.name).mkdir(exist_ok=True)
        (tmp_path / p.parent.name / p.name).write_bytes(p.read_bytes())
    rows = [
        {"learner": f"L{i}", "exercise": p.parent.name, "steps_file": f"{p.parent.name}/{p.name}"}
        for i, p in enumerate(proofs)
    ]
    klass = write_csv(tmp_path / "c.csv", rows, ["learner", "exercise", "answer", "steps_file"])
    graded = grade_file(str(klass), str(tmp_path / "o.csv"), jobs=2).records
    assert {g["verdict"] for g in graded} == {"correct", "incorrect", "invalid"}
    for g, p in zip(graded, proofs, strict=True):
        _, out, _ = cli("check", p.parent.name, "--steps", str(p), "--json")
        doc = json.loads(out)
        assert [g[k] for k in ("verdict", "feedback", "mistake")] == [
            doc[k] for k in ("verdict", "feedback", "mistake")
        ], p


# -- progress ----------------------------------------------------------------------------------------
def test_progress_only_on_a_terminal(tmp_path, cli, monkeypatch):
    """On a terminal stderr shows rows done, rate and time left; otherwise nothing of it."""
    klass = write_csv(tmp_path / "c.csv", [{"learner": "a", "exercise": "ex6.2", "answer": "1.96"}])
    _, _, err = cli("grade", str(klass), "--out", str(tmp_path / "a.csv"), "--jobs", "1")
    assert "row/s" not in err and "1/1" not in err
    term = Terminal()
    monkeypatch.setattr(sys, "stderr", term)
    from symattn.cli import main

    assert main(["grade", str(klass), "--out", str(tmp_path / "b.csv"), "--jobs", "1"]) == 0
    assert "1/1" in term.text and "row" in term.text and "<" in term.text


def test_a_row_the_pool_gave_up_on_reads_nothing_and_names_no_mistake(tmp_path, monkeypatch):
    """A row whose worker died (invalid) or outlived the deadline (1 s here: unchecked): nothing
    read, no mistake, and the seconds it was given."""
    monkeypatch.setattr(grade_module, "check_row", die_on_answer)
    monkeypatch.setattr(grade_module, "ROW_TIMEOUT", 1.0)
    rows = [{"learner": f"L{i}", "exercise": "ex6.2", "answer": a} for i, a in enumerate(["die", "hang"])]
    graded = grade_file(str(write_csv(tmp_path / "c.csv", rows)), None, jobs=1).records
    assert [(g["verdict"], g["mistake"], g["read_as"], g["seconds"]) for g in graded] == [
        ("invalid", "", "", "0.000"),
        ("unchecked", "", "", "1.000"),
    ]


def test_a_row_that_cannot_be_read_is_not_judged_and_takes_no_time(tmp_path):
    rows = [
        {"learner": "a", "exercise": "", "answer": "4"},
        {"learner": "b", "exercise": "ex6.2", "answer": "4"},
    ]
    graded = grade_file(str(write_csv(tmp_path / "c.csv", rows)), None, jobs=1).records
    assert (graded[0]["verdict"], graded[0]["feedback"]) == ("invalid", "line 2: missing exercise")
    assert (graded[0]["mistake"], graded[0]["read_as"], graded[0]["seconds"]) == ("", "", "0.000")


STARVE: list[Path] = [Path("/nonexistent")]
STARVED = grade_module.Outcome("unchecked", OUT_OF_TIME, "", "", 4.0)


def starving(exercise, seed, answer, steps=None):
    """A stand-in for check_row, out of the judge's wall clock on its first calls (see each
    answer); it notes each call in the file STARVE[0]."""
    with open(STARVE[0], "a") as fh:
        fh.write(answer + "\n")
    n = STARVE[0].read_text().split().count(answer)
    if answer == "always" and n <= 2:
        return STARVED
    if answer in ("once", "then-hang") and n == 1:
        return STARVED
    if answer == "slow":
        time.sleep(1.5)
    if answer == "then-hang" and n == 2:
        time.sleep(60)
    return grade_module.Outcome("invalid", f"judged {n} times", "", "", 0.0)  # fails, never hangs


def test_a_row_out_of_wall_clock_twice_keeps_that_verdict(tmp_path, monkeypatch):
    """Judged once more after the rest, and out of time again: that verdict stands (no third try)."""
    monkeypatch.setattr(grade_module, "check_row", starving)
    monkeypatch.setattr(sys.modules[__name__], "STARVE", [tmp_path / "calls"])
    rows = [{"learner": "a", "exercise": "ex6.2", "answer": "always"}]
    graded = grade_file(str(write_csv(tmp_path / "c.csv", rows)), None, jobs=1).records
    assert (graded[0]["verdict"], graded[0]["feedback"]) == ("unchecked", OUT_OF_TIME)
    assert (tmp_path / "calls").read_text().split() == ["always", "always"]


def test_the_second_try_of_a_row_has_the_pools_deadline_too(tmp_path, monkeypatch):
    monkeypatch.setattr(grade_module, "check_row", starving)
    monkeypatch.setattr(grade_module, "ROW_TIMEOUT", 1.0)
    monkeypatch.setattr(sys.modules[__name__], "STARVE", [tmp_path / "calls"])
    rows = [{"learner": "a", "exercise": "ex6.2", "answer": "then-hang"}]
    graded = grade_file(str(write_csv(tmp_path / "c.csv", rows)), None, jobs=1).records
    assert (graded[0]["verdict"], graded[0]["feedback"]) == ("unchecked", OUT_OF_TIME)


def test_a_row_out_of_wall_clock_is_tried_again_only_after_the_rest(tmp_path, monkeypatch):
    """The second try waits for every other row, so that it does not compete with them."""
    monkeypatch.setattr(grade_module, "check_row", starving)
    monkeypatch.setattr(sys.modules[__name__], "STARVE", [tmp_path / "calls"])
    rows = [{"learner": a, "exercise": "ex6.2", "answer": a} for a in ("once", "slow")]
    order: list[str] = []
    klass = write_csv(tmp_path / "c.csv", rows)
    graded = grade_file(str(klass), None, jobs=2, on_row=lambda r, _: order.append(r.get("answer")))
    assert order == ["slow", "once"]
    assert (tmp_path / "calls").read_text().split()[-1] == "once"
    assert graded.records[0]["feedback"] == "judged 2 times"


def raising(exercise, seed, answer, steps=None):
    """A stand-in for check_row that fails in its worker (check_row itself never raises)."""
    raise KeyError(answer)


def test_a_row_whose_worker_fails_is_invalid_and_says_to_report_it(tmp_path, monkeypatch):
    monkeypatch.setattr(grade_module, "check_row", raising)
    rows = [{"learner": "a", "exercise": "ex6.2", "answer": "1.96"}]
    graded = grade_file(str(write_csv(tmp_path / "c.csv", rows)), None, jobs=1).records
    assert [(g["verdict"], g["feedback"], g["mistake"], g["read_as"], g["seconds"]) for g in graded] == [
        ("invalid", "could not be checked (internal error KeyError; please report it)", "", "", "0.000")
    ]


# -- grade_file's own contract ---------------------------------------------------------------------
def test_out_naming_the_class_file_itself_is_refused_and_the_file_left_alone(tmp_path):
    """By its own name or through a symbolic link: the class file would be overwritten."""
    from symattn.errors import InputError

    klass = write_csv(tmp_path / "c.csv", [{"learner": "a", "exercise": "ex6.2", "answer": "4"}])
    before = klass.read_bytes()
    (tmp_path / "link.csv").symlink_to(klass)
    for out in (str(klass), str(tmp_path / "link.csv")):
        with pytest.raises(InputError) as refused:
            grade_file(str(klass), out, jobs=1)
        assert str(refused.value) == f"--out {out} is the class file itself"
    assert klass.read_bytes() == before


def test_each_row_is_reported_with_the_record_written_for_it(tmp_path, capsys):
    """on_row gets each judged row and its record, the one --out holds; no progress is shown unless
    asked; the time taken lies within the call's."""
    rows = [
        {"learner": "a", "exercise": "ex6.2", "answer": "1.96"},
        {"learner": "b", "exercise": "ex6.2", "answer": "4"},
    ]
    klass = write_csv(tmp_path / "c.csv", rows)
    seen: list[tuple[str, dict[str, str]]] = []
    began = time.perf_counter()
    graded = grade_file(
        str(klass),
        str(tmp_path / "o.csv"),
        jobs=1,
        on_row=lambda r, rec: seen.append((r.get("learner"), rec)),
    )
    took = time.perf_counter() - began
    assert [(learner, rec["verdict"]) for learner, rec in seen] == [("a", "correct"), ("b", "incorrect")]
    assert [rec for _, rec in seen] == graded.records
    assert [r["verdict"] for r in read_csv(tmp_path / "o.csv")] == ["correct", "incorrect"]
    assert graded.classfile.columns == HEADER and (graded.judged, graded.resumed) == (2, 0)
    assert 0 < graded.seconds <= took
    assert capsys.readouterr().err == ""
