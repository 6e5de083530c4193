"""Class files in JSON Lines (symattn/grading/batch/files.py): numbers keep their text, a line that
is not an object spoils only itself, output columns given back are ignored, and the refusals."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from symattn.grading.batch.files import ClassFileError, read_class
from symattn.grading.batch.summary import invalid_reason

LINES = [
    "not json",
    "[1, 2]",
    '{"line": 5, "learner": "a", "exercise": "ex6.2", "answer": 1.960, "verdict": "correct", "seed": null}',
    '{"learner": "b", "extra": [1], "exercise": "ex6.2", "answer": "1", "note": "n"}',
    '{"learner": "c", "exercise": "ex6.2", "answer": 2, "seed": 7}',
]


def write(tmp_path: Path, lines: list[str], name: str = "class.jsonl") -> Path:
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_each_line_is_a_row_numbered_from_one(tmp_path):
    path = write(tmp_path, LINES)
    c = read_class(path)
    assert (c.path, c.format) == (str(path), "jsonl")
    assert c.columns == ["learner", "exercise", "answer", "seed", "note"]  # a field not text: not a column
    assert [(r.number, r.line) for r in c.rows] == [(1, 1), (2, 2), (3, 3), (4, 4), (5, 5)]
    assert c.rows[0].problem == "line 1: not a JSON object: Expecting value"
    assert c.rows[1].problem == "line 2: not a JSON object"
    # numbers keep their text, null is empty, and the output's own columns are not input
    assert c.rows[2].fields == {"learner": "a", "exercise": "ex6.2", "answer": "1.960", "seed": ""}
    assert c.rows[2].problem is None
    assert c.rows[3].problem == "line 4: the field extra is not text or a number"
    assert c.rows[3].fields == {"learner": "b", "exercise": "ex6.2", "answer": "1", "note": "n"}
    assert c.rows[4].fields == {"learner": "c", "exercise": "ex6.2", "answer": "2", "seed": "7"}


def test_grade_writes_jsonl_rows_with_the_answers_as_typed(cli, tmp_path):
    path = write(tmp_path, [*LINES[2:3], '{"learner": "d", "exercise": "ex6.2", "answer": 1.96}'])
    out = tmp_path / "graded.jsonl"
    code, _, err = cli("grade", str(path), "--jobs", "1", "--out", str(out))
    assert code == 0, err
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [(r["line"], r["answer"], r["verdict"]) for r in rows] == [
        (1, "1.960", "correct"),
        (2, "1.96", "correct"),
    ]


def test_a_file_with_no_object_is_refused_naming_the_fields(tmp_path):
    path = write(tmp_path, ["[1]", "nothing"])
    with pytest.raises(ClassFileError) as caught:
        read_class(path)
    assert str(caught.value) == f"{path}: no line is a JSON object with the fields learner, exercise, answer"


def test_a_one_word_reason_keeps_its_second_part_and_a_longer_one_does_not():
    assert invalid_reason("line 3: seed: not a whole number: 'x'") == "seed: not a whole number"
    assert invalid_reason("line 3: no exercise 'ex9.9': the exercises are ex6.1") == "no exercise '…'"
    assert invalid_reason("two words: more: and more") == "two words"


def test_a_steps_file_stands_for_an_absent_answer_only(tmp_path):
    """A line without an answer needs a steps_file; one missing more says all of it."""
    lines = [
        '{"learner": "a", "exercise": "ex6.3", "steps_file": "p.tex"}',
        '{"learner": "b", "exercise": "ex6.3"}',
        '{"exercise": "ex6.3", "steps_file": "p.tex"}',
        '{"learner": "d", "exercise": "ex6.3", "steps_file": ""}',
    ]
    rows = read_class(write(tmp_path, lines)).rows
    assert [r.problem for r in rows] == [
        None,
        "line 2: missing answer",
        "line 3: missing learner and answer",
        "line 4: missing answer",
    ]


def test_a_line_nested_too_deeply_is_one_invalid_row(tmp_path):
    """json raises RecursionError, not ValueError, past Python's depth: still this line only."""
    deep = '{"learner": "a", "exercise": "ex6.2", "answer": "4", "x": ' + "[" * 200_000 + "]" * 200_000 + "}"
    rows = read_class(write(tmp_path, [deep, '{"learner": "b", "exercise": "ex6.2", "answer": "4"}'])).rows
    assert rows[0].problem.startswith("line 1: not a JSON object: maximum recursion depth exceeded")
    assert "\n" not in rows[0].problem and (rows[1].get("learner"), rows[1].problem) == ("b", None)


def test_a_name_that_is_not_utf_8_spoils_its_line_only(tmp_path):
    lines = [
        '{"learner": "a", "exercise": "ex6.2", "answer": "4", "\\ud800": "x"}',
        '{"learner": "b", "exercise": "ex6.2", "answer": "4"}',
    ]
    klass = read_class(write(tmp_path, lines))
    assert [r.problem for r in klass.rows] == ["line 1: not UTF-8 text", None]
    assert all(not any("\ud800" <= c <= "\udfff" for c in col) for col in klass.columns)


def test_the_fields_after_a_name_that_is_not_utf_8_are_kept(tmp_path):
    """The row is refused, and what it held is still written beside the reason."""
    line = '{"\\ud800": "x", "learner": "a", "exercise": "ex6.2", "answer": "4"}'
    row, _ = read_class(write(tmp_path, [line, '{"learner": "b", "exercise": "ex6.2", "answer": "4"}'])).rows
    assert (row.problem, row.fields) == (
        "line 1: not UTF-8 text",
        {"learner": "a", "exercise": "ex6.2", "answer": "4"},
    )


@pytest.mark.parametrize("name", ["class.ndjson", "class.json", "CLASS.JSONL", "Class.NDJSON"])
def test_a_json_lines_name_is_read_as_json_lines_whatever_its_first_line(tmp_path, name):
    """By its suffix (in any case), a file whose first line is not an object is still JSON Lines."""
    path = write(
        tmp_path, ["learner,exercise,answer", '{"learner": "a", "exercise": "ex6.2", "answer": "4"}'], name
    )
    klass = read_class(path)
    assert klass.format == "jsonl"
    assert [r.problem for r in klass.rows] == ["line 1: not a JSON object: Expecting value", None]


def test_a_first_object_after_spaces_makes_json_lines(tmp_path):
    path = write(tmp_path, ['   {"learner": "a", "exercise": "ex6.2", "answer": "4"}  '], "class.txt")
    klass = read_class(path)
    assert (klass.format, klass.rows[0].fields) == (
        "jsonl",
        {"learner": "a", "exercise": "ex6.2", "answer": "4"},
    )


def test_a_line_separator_inside_a_string_does_not_end_the_line(tmp_path):
    """json.dumps(ensure_ascii=False) writes U+2028 as itself: it is part of the string, not a
    line end, as is a form feed."""
    lines = [json.dumps({"learner": "a\u2028b\x0c", "exercise": "ex6.2", "answer": "4"}, ensure_ascii=False)]
    lines.append('{"learner": "c", "exercise": "ex6.2", "answer": "4"}')
    rows = read_class(write(tmp_path, lines)).rows
    assert [(r.line, r.get("learner"), r.problem) for r in rows] == [(1, "a\u2028b", None), (2, "c", None)]
