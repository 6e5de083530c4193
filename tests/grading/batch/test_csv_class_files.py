"""Class files in CSV (symattn/grading/batch/files.py, read_class): where the header may stand,
blank lines, quoted fields over several lines up to MAX_RECORD_LINES (20), a broken record that
spoils only itself, and the words of each refusal. Each case is one a mutation pass found untested."""

from __future__ import annotations

import csv
import os
from pathlib import Path

import pytest

from symattn.grading.batch.files import ClassFileError, read_class


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "class.csv"
    path.write_bytes(text.encode("utf-8"))
    return path


def test_a_header_after_blank_lines_is_the_header_and_not_a_row(tmp_path):
    rows = read_class(write(tmp_path, "\n\nlearner,exercise,answer\na,ex6.2,1.96\n")).rows
    assert [(r.line, r.fields, r.problem) for r in rows] == [
        (4, {"learner": "a", "exercise": "ex6.2", "answer": "1.96"}, None)
    ]


@pytest.mark.parametrize("blank", ["", "  ", ",,", " , ,\t"], ids=["empty", "spaces", "commas", "mixed"])
def test_a_blank_line_between_rows_is_skipped_and_the_rows_after_it_are_read(tmp_path, blank):
    """A line with no text in any cell (a spreadsheet's empty row) is no row."""
    rows = read_class(write(tmp_path, f"learner,exercise,answer\na,ex6.2,1.96\n{blank}\nb,ex6.2,4\n")).rows
    assert [(r.number, r.line, r.get("learner")) for r in rows] == [(1, 2, "a"), (2, 4, "b")]


def test_a_quoted_answer_over_two_lines_is_one_answer(tmp_path):
    rows = read_class(write(tmp_path, 'learner,exercise,answer\na,ex6.2,"1.96\n"\nb,ex6.2,4\n')).rows
    assert [(r.line, r.get("answer"), r.problem) for r in rows] == [(2, "1.96\n", None), (4, "4", None)]


def test_a_quoted_field_over_exactly_20_lines_is_read(tmp_path):
    text = 'learner,exercise,answer\na,ex6.2,"1\n' + "x\n" * 18 + 'x"\nb,ex6.2,4\n'  # lines 2 to 21
    rows = read_class(write(tmp_path, text)).rows
    assert [(r.line, r.problem) for r in rows] == [(2, None), (22, None)]
    assert rows[0].get("answer") == "1\n" + "x\n" * 18 + "x"


def test_a_quoted_field_over_21_lines_spoils_its_first_line_only(tmp_path):
    text = 'learner,exercise,answer\na,ex6.2,"1\n' + "x\n" * 19 + 'x"\nb,ex6.2,4\n'  # lines 2 to 22
    rows = read_class(write(tmp_path, text)).rows
    assert rows[0].line == 2
    assert rows[0].problem == "line 2: bad CSV: a quoted field runs over 20 lines"
    # From the next line on, each line is read again as a record of its own.
    assert [(r.line, r.get("learner")) for r in rows[1:3]] == [(3, "x"), (4, "x")]
    assert (rows[-1].line, rows[-1].fields, rows[-1].problem) == (
        23,
        {"learner": "b", "exercise": "ex6.2", "answer": "4"},
        None,
    )
    assert len(rows) == 22  # line 2, the 20 lines 3 to 22, and line 23


@pytest.mark.parametrize("after", [0, 19], ids=["last-line", "20-lines-to-the-end"])
def test_a_quote_left_open_to_the_end_of_the_file_is_not_closed(tmp_path, after):
    """Open on line 3 and never closed, with the file ending within 20 lines: not closed (not
    "runs over 20 lines", which it does not)."""
    text = 'learner,exercise,answer\na,ex6.2,4\nb,ex6.2,"4\n' + "x\n" * after
    rows = read_class(write(tmp_path, text)).rows
    assert [r.problem for r in rows[:2]] == [None, "line 3: bad CSV: a quoted field is not closed"]
    assert len(rows) == 2 + after  # each line after the open quote is then a row of its own


def test_another_csv_fault_is_named_in_pythons_words(tmp_path):
    bad = 'b,ex6.2,"1"2\n'
    with pytest.raises(csv.Error) as python:  # the reference: what Python's csv says of the line
        list(csv.reader([bad], strict=True))
    rows = read_class(write(tmp_path, "learner,exercise,answer\na,ex6.2,4\n" + bad)).rows
    assert rows[1].problem == f"line 3: bad CSV: {python.value}"
    assert "not closed" not in rows[1].problem and "None" not in rows[1].problem


HEADER_MUST = (
    "the header must name the columns learner, exercise, answer once each (optional: seed, steps_file)"
)
OPEN_QUOTE = "line 1: cannot read the header: bad CSV: a quoted field is not closed"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('"learner,exercise,answer\n', OPEN_QUOTE),
        (",,\n", "no header"),
        ("learner,exercise,answer,\n", f"{HEADER_MUST}; found: learner, exercise, answer, "),
        ("learner,exercise,answer,answer\n", f"{HEADER_MUST}; found: learner, exercise, answer, answer"),
        ("learner,exercise,ans\x07wer\n", f"{HEADER_MUST}; found: learner, exercise, ans?wer"),
        ("learner,exercise,answer,line,verdict\n", "the column names line, verdict are for the output"),
        ("learner,exercise,answer,line\n", "the column names line are for the output"),
    ],
    ids=["open-quote", "no-header", "empty-name", "twice", "control-character", "output-names", "line"],
)
def test_a_header_that_cannot_be_used_is_refused_naming_the_file(tmp_path, text, message):
    path = write(tmp_path, text)
    with pytest.raises(ClassFileError) as refused:
        read_class(path)
    assert str(refused.value) == f"{path}: {message}"


# -- a row's fields: what is kept as typed, what makes a row unjudgeable, and what is kept of it --
def test_the_answer_is_kept_as_typed_and_every_other_field_is_trimmed(tmp_path):
    (row,) = read_class(write(tmp_path, 'learner,exercise,answer,seed\n L1 ,\tex6.2 ," 4 ", 7 \n')).rows
    assert row.fields == {"learner": "L1", "exercise": "ex6.2", "answer": " 4 ", "seed": "7"}
    assert row.problem is None


def test_each_missing_field_is_named_and_an_empty_answer_is_judged(tmp_path):
    rows = read_class(write(tmp_path, "learner,exercise,answer\n,,4\nL2,,4\nL3,ex6.2,\n")).rows
    missing = ["line 2: missing learner and exercise", "line 3: missing exercise", None]
    assert [r.problem for r in rows] == missing


def test_a_row_with_more_fields_than_the_header_keeps_none_of_them(tmp_path):
    """An unquoted comma (1,96 typed for 1.96) shifts the cells: which is the answer cannot be
    known, so none is kept (the line says which row it was), never "1" shown as the answer."""
    rows = read_class(write(tmp_path, "learner,exercise,answer\na,ex6.2,1,96\nb,ex6.2,4\n")).rows
    assert (rows[0].problem, rows[0].fields) == ("line 2: 4 fields where the header names 3", {})
    assert rows[1].fields == {"learner": "b", "exercise": "ex6.2", "answer": "4"}


@pytest.mark.parametrize("tail", [",", ",,", ", ,\t"], ids=["one", "two", "blank"])
def test_empty_cells_past_the_header_are_dropped(tmp_path, tail):
    """A spreadsheet's trailing commas (a row exported beside a longer one) cost nothing."""
    (row,) = read_class(write(tmp_path, f"learner,exercise,answer\na,ex6.2,1.96{tail}\n")).rows
    assert (row.fields, row.problem) == ({"learner": "a", "exercise": "ex6.2", "answer": "1.96"}, None)


def test_a_row_with_bytes_that_are_not_utf_8_is_refused_and_kept_printable(tmp_path):
    path = tmp_path / "class.csv"
    path.write_bytes(b"learner,exercise,answer\nL\xff1,ex6.2,4\nL2,ex6.2,4\n")
    bad, good = read_class(path).rows
    assert bad.problem == "line 2: not UTF-8 text" and good.problem is None
    assert bad.fields == {"learner": "L?1", "exercise": "ex6.2", "answer": "4"}


def test_a_field_too_large_is_refused_by_name_and_size_and_kept_cut(tmp_path):
    from symattn.grading.batch.files import MAX_FIELD_BYTES

    name = "n" * 45  # a column of the class's own, named at most 40 characters long in the message
    big = "é" * (MAX_FIELD_BYTES // 2 + 1)  # two bytes each
    text = f"learner,exercise,answer,{name}\nL1,ex6.2,4,{big}\n"
    (row,) = read_class(write(tmp_path, text)).rows
    size = 2 * len(big)
    assert row.problem == (
        f"line 2: the field {'n' * 37}... is {size:,} bytes, larger than the 1 MB a field may hold"
    )
    assert row.fields == {"learner": "L1", "exercise": "ex6.2", "answer": "4", name: "é" * 200 + "..."}


# -- the file's size ------------------------------------------------------------------------------
@pytest.mark.parametrize("extra", [0, 1])
def test_a_class_file_is_read_up_to_its_limit_and_one_byte_more_is_refused(tmp_path, monkeypatch, extra):
    """Only the limit and one byte more are read, whatever the file's size (the file a MiB longer
    than that, and read in pieces of at most 1 MiB)."""
    from reads import os_reads

    import symattn.grading.batch.files as files

    monkeypatch.setattr(files, "MAX_BYTES", 3 << 20)
    header = b"learner,exercise,answer\n"
    path = tmp_path / "class.csv"
    body = b"1" * ((3 << 20) - len(header) - 8 + extra)
    path.write_bytes(header + b"a,ex6.2," + body + (b"\n" + b"2" * (1 << 20) if extra else b""))
    if extra:
        with os_reads() as taken, pytest.raises(ClassFileError) as refused:
            read_class(path)
        assert str(refused.value) == f"{path}: larger than 3 MB"
        assert sum(taken) == (3 << 20) + 1
    else:
        with os_reads() as taken:
            rows = read_class(path).rows
        assert len(rows) == 1
        assert sum(taken) == 3 << 20
    assert max(taken) <= 1 << 20


def test_a_class_file_that_cannot_be_read_is_refused_in_the_systems_words(tmp_path):
    with pytest.raises(ClassFileError) as refused:
        read_class(tmp_path / "absent.csv")
    assert str(refused.value) == f"cannot read {tmp_path / 'absent.csv'}: No such file or directory"


@pytest.mark.parametrize("kind", ["fifo", "folder"])
def test_a_class_file_that_is_not_a_regular_file_is_refused_unread(tmp_path, kind):
    """A FIFO would wait for a writer for ever (a review found `grade` hung on one)."""
    path = tmp_path / "class.csv"
    os.mkfifo(path) if kind == "fifo" else path.mkdir()
    with pytest.raises(ClassFileError) as refused:
        read_class(path)
    assert str(refused.value) == f"cannot read {path}: not a regular file"


def test_a_header_that_is_not_utf_8_is_refused_naming_the_file(tmp_path):
    """Its column could not be written to --out (a review found it refused as a terminal fault)."""
    path = tmp_path / "class.csv"
    path.write_bytes(b"learner,exercise,answer,\xff\na,ex6.2,4,x\n")
    with pytest.raises(ClassFileError) as refused:
        read_class(path)
    assert str(refused.value) == f"{path}: the header is not UTF-8 text"


def test_a_byte_order_mark_is_not_part_of_the_first_column(tmp_path):
    """A spreadsheet's UTF-8 export starts with a byte order mark: the header is still learner."""
    path = tmp_path / "class.csv"
    path.write_bytes(b"\xef\xbb\xbflearner,exercise,answer\r\na,ex6.2,1.96\r\n")
    klass = read_class(path)
    assert (klass.path, klass.format, klass.columns) == (str(path), "csv", ["learner", "exercise", "answer"])
    assert (klass.rows[0].fields, klass.rows[0].problem) == (
        {"learner": "a", "exercise": "ex6.2", "answer": "1.96"},
        None,
    )


def test_a_quoted_answer_keeps_its_own_line_ends(tmp_path):
    """Line ends inside a quoted answer are the learner's, CR LF included, as typed."""
    path = tmp_path / "class.csv"
    path.write_bytes(b'learner,exercise,answer\r\na,ex6.3,"x = 1\r\ny = 2"\r\n')
    assert read_class(path).rows[0].fields["answer"] == "x = 1\r\ny = 2"


def test_old_mac_line_ends_end_rows(tmp_path):
    """A file whose lines end in CR alone (classic Mac OS, some exports) is read row by row."""
    path = tmp_path / "class.csv"
    path.write_bytes(b"learner,exercise,answer\ra,ex6.2,1.96\rb,ex6.2,4\r")
    rows = read_class(path).rows
    assert [(r.line, r.get("learner"), r.get("answer"), r.problem) for r in rows] == [
        (2, "a", "1.96", None),
        (3, "b", "4", None),
    ]


def test_a_form_feed_in_a_field_does_not_end_its_row(tmp_path):
    """Only CR and LF end a line of a CSV file; str.splitlines' other breaks (form feed, U+0085,
    U+2028) are characters of the field."""
    path = tmp_path / "class.csv"
    path.write_bytes("learner,exercise,answer\na,ex6.2,1.96\x0c\nb,ex6.2,4\u2028\nc,ex6.2,\x855\n".encode())
    rows = read_class(path).rows
    assert [(r.line, r.get("learner"), r.problem) for r in rows] == [
        (2, "a", None),
        (3, "b", None),
        (4, "c", None),
    ]
