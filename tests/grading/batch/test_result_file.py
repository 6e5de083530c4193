"""--out as grade writes it (symattn/grading/batch/files.py: output_format, ResultFile): its format
from its name, JSON Lines as typed, the final rewrite beside the old file and renamed over it, and
each failure named by --out, never by a temporary file. Each case is one a mutation pass found
untested."""

from __future__ import annotations

import errno
import json
import os
import tempfile

import pytest

import symattn.grading.batch.files as files

COLUMNS = ["line", "learner", "exercise", "answer", *files.RESULTS]


def graded(learner: str, **fields: str) -> dict[str, str]:
    base = {"line": "2", "learner": learner, "exercise": "ex6.2", "answer": "4", "seconds": "0.5"}
    return base | {"verdict": "incorrect", "feedback": "uniform weights"} | fields


@pytest.mark.parametrize(
    "out, fmt",
    [
        ("o.jsonl", "jsonl"),
        ("o.ndjson", "jsonl"),
        ("o.json", "jsonl"),
        ("O.NDJSON", "jsonl"),
        ("O.Json", "jsonl"),
        ("o.csv", "csv"),
        ("o.txt", "csv"),
        ("o", "csv"),
        (None, "csv"),
    ],
)
def test_the_format_of_out_comes_from_its_suffix_in_any_case(out, fmt):
    assert files.output_format(out, None) == fmt


def test_a_format_asked_for_is_the_format_whatever_the_suffix():
    assert files.output_format("o.jsonl", "csv") == "csv"
    assert files.output_format("o.csv", "jsonl") == "jsonl"


def test_json_lines_hold_every_column_text_as_typed_and_numbers_as_numbers(tmp_path):
    """A column a record lacks is an empty string (never null); non-ASCII text is written as
    itself, not as \\u escapes."""
    out = tmp_path / "o.jsonl"
    record = graded("Zoë", answer=r"\frac{é}{2}")  # no mistake, no steps_sha256
    files.ResultFile(str(out), "jsonl", COLUMNS).finish([record])
    text = out.read_text(encoding="utf-8")
    assert "Zoë" in text and "\\u" not in text
    (obj,) = [json.loads(line) for line in text.splitlines()]
    assert list(obj) == COLUMNS
    assert obj["mistake"] == "" and obj["learner"] == "Zoë" and obj["answer"] == r"\frac{é}{2}"
    assert obj["line"] == 2 and obj["seconds"] == 0.5


def test_the_rewrite_is_a_hidden_file_beside_out_renamed_over_it(tmp_path, monkeypatch):
    """Beside --out, so the rename stays on one file system (atomic); hidden while it is written."""
    out = tmp_path / "o.csv"
    out.write_text("old\n", encoding="utf-8")
    renames: list[tuple[str, str]] = []
    replace = os.replace

    def recorded(src, dst):
        renames.append((str(src), str(dst)))
        replace(src, dst)

    monkeypatch.setattr(os, "replace", recorded)
    files.ResultFile(str(out), "csv", COLUMNS).finish([graded("a")])
    ((src, dst),) = renames
    assert os.path.dirname(src) == str(tmp_path) and dst == str(out)
    assert os.path.basename(src).startswith(".grade-")
    assert out.read_text(encoding="utf-8").startswith(",".join(COLUMNS))


def test_a_rewrite_that_cannot_start_names_out(tmp_path, monkeypatch):
    def full(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device", os.path.join(str(tmp_path), ".grade-x"))

    monkeypatch.setattr(tempfile, "mkstemp", full)
    out = str(tmp_path / "o.csv")
    with pytest.raises(OSError) as failed:
        files.ResultFile(out, "csv", COLUMNS).finish([graded("a")])
    assert (failed.value.errno, failed.value.strerror, failed.value.filename) == (
        errno.ENOSPC,
        "No space left on device",
        out,
    )


def test_a_rewrite_that_fails_midway_names_out_and_leaves_no_temporary_file(tmp_path, monkeypatch):
    def across(src, dst):
        raise OSError(errno.EXDEV, "Invalid cross-device link", src)

    monkeypatch.setattr(os, "replace", across)
    out = tmp_path / "o.csv"
    out.write_text("old\n", encoding="utf-8")
    with pytest.raises(OSError) as failed:
        files.ResultFile(str(out), "csv", COLUMNS).finish([graded("a")])
    assert (failed.value.errno, failed.value.strerror, failed.value.filename) == (
        errno.EXDEV,
        "Invalid cross-device link",
        str(out),
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["o.csv"]
    assert out.read_text(encoding="utf-8") == "old\n"


def test_an_out_that_cannot_be_opened_to_resume_is_refused_in_the_systems_words(tmp_path, monkeypatch):
    out = tmp_path / "o.csv"
    out.write_text("line\n", encoding="utf-8")

    def refused(*args, **kwargs):
        raise PermissionError(errno.EACCES, "Permission denied")

    monkeypatch.setattr(os, "open", refused)
    with pytest.raises(files.ClassFileError) as failed:
        files.ResultFile(str(out), "csv", COLUMNS).load()
    assert str(failed.value) == f"cannot read {out} to resume: Permission denied"


def test_an_out_of_exactly_the_resume_limit_is_read(tmp_path, monkeypatch):
    """One byte more is refused: test_resume.py's test_an_out_over_the_resume_limit_..."""
    monkeypatch.setattr(files, "MAX_RESUME_BYTES", 3 << 20)
    out = tmp_path / "o.csv"
    out.write_bytes(b"x" * (3 << 20))
    assert files.ResultFile(str(out), "csv", COLUMNS).load() == {}


def test_an_out_that_is_not_a_regular_file_is_refused_unread(tmp_path):
    out = tmp_path / "fifo.csv"
    os.mkfifo(out)
    with pytest.raises(files.ClassFileError) as refused:
        files.ResultFile(str(out), "csv", COLUMNS).load()
    assert str(refused.value) == f"cannot read {out} to resume: not a regular file"


def test_a_row_torn_inside_a_character_is_read_with_a_replacement_not_refused(tmp_path):
    """The bytes of a row cut inside a character do not stop the file being read: the torn row is
    judged again, the rows before it kept."""
    out = tmp_path / "o.csv"
    files.ResultFile(str(out), "csv", COLUMNS).finish([graded("a"), graded("Zoë", line="3")])
    raw = out.read_bytes()
    out.write_bytes(raw[: raw.index("ë".encode()) + 1])  # the second row cut inside ë
    done = files.ResultFile(str(out), "csv", COLUMNS).load()
    assert [r["learner"] for r in done.values()] == ["a"]


def test_out_is_opened_as_utf_8_by_name_to_append_and_to_rewrite(tmp_path, monkeypatch):
    """The file kept open for the rows still to come, and the rewrite renamed over it, are UTF-8,
    named so: without it, open() takes the locale's encoding (ASCII under LANG=C on older
    systems), which test_grade_command's ASCII-locale test shows in a process of its own."""
    from opens import record_fdopens, record_opens

    out = tmp_path / "o.csv"
    appended, rewritten = record_opens(monkeypatch, files, out), record_fdopens(monkeypatch)
    results = files.ResultFile(str(out), "csv", COLUMNS)
    results.start([])
    results.append(graded("é"))
    results.finish([graded("é")])
    assert appended == [("o.csv", "a", "utf-8")]
    assert rewritten == [("w", "utf-8"), ("w", "utf-8")]  # by start, then by finish
