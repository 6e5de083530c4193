"""Resuming from an --out an earlier run left (symattn/grading/batch/files.py, ResultFile.load): a
torn or foreign row is judged again, every other row is kept, whatever the format of --out, its
line ends or its size; an --out over the limit is refused."""

from __future__ import annotations

import csv
import io
import json

import pytest
from reads import os_reads

import symattn.grading.batch.files as files
from symattn.grading.batch.grade import grade_file


def test_a_row_torn_before_its_seconds_is_judged_again(tmp_path):
    klass, out = tmp_path / "c.csv", tmp_path / "o.csv"
    klass.write_text("learner,exercise,answer\na,ex6.2,1.96\nb,ex6.2,4\n", encoding="utf-8")
    first = grade_file(str(klass), str(out), jobs=1)
    assert [r["verdict"] for r in first.records] == ["correct", "incorrect"]
    raw = out.read_bytes()
    assert raw.endswith(b"\r\n") or raw.endswith(b"\n")
    out.write_bytes(raw[: raw.rstrip(b"\r\n").rindex(b",") + 1])  # b's row up to its last comma
    judged: list[str] = []
    again = grade_file(
        str(klass), str(out), jobs=1, on_row=lambda row, rec: judged.append(row.get("learner"))
    )
    assert judged == ["b"] and again.resumed == 1
    assert [r["verdict"] for r in again.records] == ["correct", "incorrect"]
    assert float(again.records[1]["seconds"]) >= 0


# -- what a resumed run keeps, and what it judges again (files.py: ResultFile.load) --------------
def two_rows(tmp_path, answer_a: str = "1.96", header: str = "learner,exercise,answer"):
    """A class file of two rows (a: ``answer_a``, b: 4) as CSV, with ``header``."""
    klass = tmp_path / "c.csv"
    seed = "," if header.endswith(",seed") else ""
    text = f"{header}\r\na,ex6.2,{answer_a}{seed}\r\nb,ex6.2,4{seed}\r\n"
    klass.write_bytes(text.encode("utf-8"))
    return klass


def rerun(klass, out):
    """Grade again with the same --out: the learners judged (in order) and the Graded."""
    judged: list[str] = []
    again = grade_file(str(klass), str(out), jobs=1, on_row=lambda row, _: judged.append(row.get("learner")))
    return judged, again


def test_a_final_invalid_row_is_not_judged_again_on_resume(tmp_path, cli):
    """An answer that cannot be read is invalid once and for all: a rerun keeps its verdict
    (only a provisional invalid verdict, see test_course, is judged again)."""
    klass, out = two_rows(tmp_path, answer_a=")("), tmp_path / "o.csv"
    code, _, err = cli("grade", str(klass), "--out", str(out), "--jobs", "1")
    assert code == 0, err
    assert [r["verdict"] for r in csv.DictReader(io.StringIO(out.read_text(encoding="utf-8")))] == [
        "invalid",
        "incorrect",
    ]
    code, head, err = cli("grade", str(klass), "--out", str(out), "--jobs", "1")
    assert code == 0, err
    assert head.splitlines()[0].startswith(f"2 rows from {klass}: 0 judged in ")
    assert head.splitlines()[0].endswith(f", 2 already graded in {out}")


def test_a_jsonl_out_is_resumed(tmp_path):
    klass, out = two_rows(tmp_path), tmp_path / "o.jsonl"
    first = grade_file(str(klass), str(out), jobs=1)
    assert [r["verdict"] for r in first.records] == ["correct", "incorrect"]
    judged, again = rerun(klass, out)
    assert judged == [] and again.resumed == 2
    assert [r["verdict"] for r in again.records] == ["correct", "incorrect"]


def test_a_torn_last_line_of_a_jsonl_out_is_judged_again(tmp_path):
    klass, out = two_rows(tmp_path), tmp_path / "o.jsonl"
    grade_file(str(klass), str(out), jobs=1)
    lines = out.read_text(encoding="utf-8").splitlines(keepends=True)
    out.write_text(lines[0] + lines[1][: len(lines[1]) // 2], encoding="utf-8")  # b's line cut in two
    judged, again = rerun(klass, out)
    assert judged == ["b"] and again.resumed == 1
    assert [r["verdict"] for r in again.records] == ["correct", "incorrect"]


def test_null_fields_of_a_jsonl_out_are_read_as_empty(tmp_path):
    """A JSON Lines --out whose empty fields another tool rewrote as null still resumes."""
    klass, out = two_rows(tmp_path), tmp_path / "o.jsonl"
    grade_file(str(klass), str(out), jobs=1)
    objects = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert objects[0]["steps_sha256"] == "" and objects[0]["mistake"] == ""
    nulled = [{k: (None if v == "" else v) for k, v in obj.items()} for obj in objects]
    out.write_text("".join(json.dumps(obj) + "\n" for obj in nulled), encoding="utf-8")
    judged, again = rerun(klass, out)
    assert judged == [] and again.resumed == 2


def test_a_jsonl_out_that_starts_with_a_blank_line_is_resumed(tmp_path):
    klass, out = two_rows(tmp_path), tmp_path / "o.jsonl"
    grade_file(str(klass), str(out), jobs=1)
    out.write_text("\n" + out.read_text(encoding="utf-8"), encoding="utf-8")
    judged, again = rerun(klass, out)
    assert judged == [] and again.resumed == 2


def test_an_answer_with_a_line_end_inside_is_resumed_from_a_csv_out(tmp_path):
    """A quoted answer holding CR LF (typed on two lines) is read back as written, so it is
    the same answer and its row is kept."""
    klass, out = two_rows(tmp_path, answer_a='"1.96\r\n"'), tmp_path / "o.csv"
    first = grade_file(str(klass), str(out), jobs=1)
    assert first.records[0]["answer"] == "1.96\r\n"
    judged, again = rerun(klass, out)
    assert judged == [] and again.resumed == 2


def test_a_row_with_an_unknown_verdict_in_the_out_is_judged_again(tmp_path):
    """A row of --out whose verdict is none of correct, incorrect, invalid was not written by
    grade: it is judged again, and the others kept."""
    klass, out = two_rows(tmp_path), tmp_path / "o.csv"
    grade_file(str(klass), str(out), jobs=1)
    with open(out, encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh))
    rows[1]["verdict"] = "pending"
    with open(out, "w", encoding="utf-8", newline="") as fh:
        writer = csv.DictWriter(fh, list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    judged, again = rerun(klass, out)
    assert judged == ["b"] and again.resumed == 1
    assert [r["verdict"] for r in again.records] == ["correct", "incorrect"]


def test_an_empty_column_added_to_the_class_file_keeps_its_rows_graded(tmp_path):
    """Adding an empty seed column changes no answer: the rows graded before are kept."""
    klass, out = two_rows(tmp_path), tmp_path / "o.csv"
    grade_file(str(klass), str(out), jobs=1)
    two_rows(tmp_path, header="learner,exercise,answer,seed")
    judged, again = rerun(klass, out)
    assert judged == [] and again.resumed == 2


def test_an_out_over_one_megabyte_is_read_back_whole(tmp_path):
    """Two learners with names of 700,000 characters: --out is about 1.4 MB, read in more than
    one piece, and both rows are kept."""
    klass, out = tmp_path / "c.csv", tmp_path / "o.csv"
    names = ["a" * 700_000, "b" * 700_000]
    klass.write_text("learner,exercise,answer\n" + "".join(f"{n},ex6.2,4\n" for n in names), encoding="utf-8")
    grade_file(str(klass), str(out), jobs=1)
    assert out.stat().st_size > 1 << 20
    judged, again = rerun(klass, out)
    assert judged == [] and again.resumed == 2


def test_a_csv_out_with_carriage_returns_alone_as_line_ends_is_resumed(tmp_path):
    """--out saved again with CR line ends (an old Mac convention) is still read row by row."""
    klass, out = two_rows(tmp_path), tmp_path / "o.csv"
    grade_file(str(klass), str(out), jobs=1)
    raw = out.read_bytes()
    assert raw.count(b"\r\n") == 3  # the header and two rows
    out.write_bytes(raw.replace(b"\r\n", b"\r"))
    judged, again = rerun(klass, out)
    assert judged == [] and again.resumed == 2


def test_an_out_over_the_resume_limit_is_refused_after_one_byte_past_it(tmp_path, monkeypatch):
    """An --out larger than the limit is refused, and no more than the limit and one byte of it is
    read (the limit lowered to 2 MiB here, so that it is read in pieces of 1 MiB)."""
    limit = 2 << 20
    monkeypatch.setattr(files, "MAX_RESUME_BYTES", limit)
    out = tmp_path / "o.csv"
    out.write_bytes(b"x" * (limit + (1 << 20)))
    results = files.ResultFile(str(out), "csv", ["line", "learner", "exercise", "answer", *files.RESULTS])
    with os_reads() as taken, pytest.raises(files.ClassFileError) as refused:
        results.load()
    assert str(refused.value) == f"cannot read {out} to resume: larger than 2 MB"
    assert sum(taken) == limit + 1


def test_a_column_added_to_out_by_hand_is_dropped_and_its_rows_kept(tmp_path):
    """A teacher's own column added to --out (a spreadsheet's note): the rows are still resumed,
    and the rewritten --out has grade's columns only."""
    klass, out = two_rows(tmp_path), tmp_path / "o.csv"
    grade_file(str(klass), str(out), jobs=1)
    with open(out, encoding="utf-8", newline="") as fh:
        table = list(csv.reader(fh))
    columns = table[0]
    with open(out, "w", encoding="utf-8", newline="") as fh:
        csv.writer(fh).writerows([[*row, "note" if i == 0 else "seen"] for i, row in enumerate(table)])
    judged, again = rerun(klass, out)
    assert judged == [] and again.resumed == 2 and again.judged == 0
    with open(out, encoding="utf-8", newline="") as fh:
        assert next(csv.reader(fh)) == columns


def test_a_line_of_out_nested_too_deeply_is_skipped_and_the_others_resumed(tmp_path):
    """json raises RecursionError past Python's depth: on resume, that line is not a record, and
    the rows before it are kept."""
    klass, out = two_rows(tmp_path), tmp_path / "o.jsonl"
    grade_file(str(klass), str(out), jobs=1)
    with open(out, "a", encoding="utf-8") as fh:
        fh.write('{"learner": ' + "[" * 200_000 + "]" * 200_000 + "}\n")
    judged, again = rerun(klass, out)
    assert judged == [] and again.resumed == 2


def test_a_line_separator_in_an_answer_does_not_split_its_record_on_resume(tmp_path):
    """--out in JSON Lines holds U+2028 as itself (json.dumps with ensure_ascii=False): on resume it
    is part of the answer, not a line end, so the row is kept, not judged again."""
    klass, out = two_rows(tmp_path, answer_a="1.96\u2028"), tmp_path / "o.jsonl"
    grade_file(str(klass), str(out), jobs=1)
    assert "\u2028" in out.read_text(encoding="utf-8")
    judged, again = rerun(klass, out)
    assert judged == [] and again.resumed == 2
