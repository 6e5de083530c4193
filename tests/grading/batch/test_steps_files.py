"""A class file's steps files (symattn/grading/batch/files.py, read_steps_file) at their edges: the
size limit to the byte, line ends as check reads them, and the name as a refusal shows it; and the
header message's width. Each case is one a mutation pass found untested (bench/mutation.py)."""

from __future__ import annotations

import hashlib
import os

import pytest

import symattn.grading.batch.files as files
from symattn.grading.batch.files import (
    MAX_STEPS_BYTES,
    ClassFileError,
    StepsFileRefused,
    read_class,
    read_steps_file,
)


def test_a_steps_file_of_exactly_the_limit_is_read_and_one_byte_more_is_refused(tmp_path) -> None:
    line = b"x = 1\n"
    body = line * (MAX_STEPS_BYTES // len(line))
    body += b"%" * (MAX_STEPS_BYTES - len(body))  # a LaTeX comment to the last byte
    assert len(body) == MAX_STEPS_BYTES
    (tmp_path / "full.tex").write_bytes(body)
    text, digest = read_steps_file(tmp_path, "full.tex")
    assert len(text) == MAX_STEPS_BYTES and digest == hashlib.sha256(body).hexdigest()
    (tmp_path / "over.tex").write_bytes(body + b"%")
    with pytest.raises(StepsFileRefused) as refused:
        read_steps_file(tmp_path, "over.tex")
    assert str(refused.value) == (
        f"steps_file is larger than the {MAX_STEPS_BYTES:,} bytes a derivation may hold "
        f"({MAX_STEPS_BYTES + 1:,} bytes): over.tex"
    )


@pytest.mark.parametrize(
    "raw", [b"a = b\rb = c\r", b"a = b\r\nb = c\r\n", b"a = b\nb = c\n"], ids=["CR", "CRLF", "LF"]
)
def test_every_line_end_is_one_newline_as_check_reads_it(tmp_path, raw: bytes) -> None:
    (tmp_path / "p.tex").write_bytes(raw)
    text, digest = read_steps_file(tmp_path, "p.tex")
    assert text == "a = b\nb = c\n"
    assert digest == hashlib.sha256(raw).hexdigest()  # of the bytes as written


def test_a_steps_file_that_is_not_utf8_says_so_with_its_name(tmp_path) -> None:
    (tmp_path / "latin.tex").write_bytes("x = \u00e9\n".encode("latin-1"))
    with pytest.raises(StepsFileRefused) as refused:
        read_steps_file(tmp_path, "latin.tex")
    assert str(refused.value) == "steps_file is not UTF-8 text: latin.tex"


@pytest.mark.parametrize(
    ("length", "shown"),
    [
        (60, "n" * 56 + ".tex"),
        (61, "n" * 57 + "..."),  # the first length shortened: 57 characters and "..."
        (75, "n" * 57 + "..."),  # between 61 and 80: still shortened to 60
    ],
)
def test_a_refused_name_is_shown_whole_up_to_60_characters(tmp_path, length: int, shown: str) -> None:
    name = "n" * (length - 4) + ".tex"
    with pytest.raises(StepsFileRefused) as refused:
        read_steps_file(tmp_path, name)
    message = str(refused.value)
    assert message.startswith("steps_file cannot be read (No such file or directory): ")
    assert message.endswith(": " + shown)


@pytest.mark.parametrize(("extra", "shortened"), [(80, False), (81, True)])
def test_the_header_message_shows_at_most_80_characters_of_what_was_found(
    tmp_path, extra: int, shortened: bool
) -> None:
    """A header missing a column is quoted up to 80 characters, then cut to 77 and '...'."""
    header = "learner,exercise," + "z" * (extra - len("learner, exercise, "))
    found = ", ".join(header.split(","))
    assert len(found) == extra
    path = tmp_path / "class.csv"
    path.write_text(header + "\n")
    with pytest.raises(ClassFileError) as refused:
        read_class(path)
    shown = str(refused.value).split("found: ", 1)[1]
    assert shown == (found[:77] + "..." if shortened else found)


@pytest.mark.parametrize("race", ["removed", "replaced"])
def test_a_steps_file_changed_while_it_was_read_is_refused(tmp_path, monkeypatch, race: str) -> None:
    """The bytes read must be the file's that was resolved inside the folder: one removed or
    replaced (another file put at its name) between the read and the check is refused."""
    path = tmp_path / "p.tex"
    path.write_text("a = b\n", encoding="utf-8")
    read = files._read_regular

    def racing(name: str, limit: int):
        got = read(name, limit)
        if race == "replaced":  # a new file, made while the old one still holds its inode
            (tmp_path / "new.tex").write_text("a = c\n", encoding="utf-8")
            os.replace(tmp_path / "new.tex", path)
        else:
            path.unlink()
        return got

    monkeypatch.setattr(files, "_read_regular", racing)
    with pytest.raises(StepsFileRefused) as refused:
        read_steps_file(tmp_path, "p.tex")
    assert str(refused.value) == "steps_file changed while it was read: p.tex"


def test_a_steps_file_that_grew_while_it_was_read_is_refused(tmp_path, monkeypatch) -> None:
    """Its size said it fitted, but more than the limit came: refused, not cut to the limit."""
    (tmp_path / "p.tex").write_text("a = b\n", encoding="utf-8")
    read = files._read_regular

    def grown(name: str, limit: int):
        raw, info = read(name, limit)
        return raw + b"%" * (limit + 1 - len(raw)), info

    monkeypatch.setattr(files, "_read_regular", grown)
    with pytest.raises(StepsFileRefused) as refused:
        read_steps_file(tmp_path, "p.tex")
    assert str(refused.value) == (
        f"steps_file is larger than the {MAX_STEPS_BYTES:,} bytes a derivation may hold: p.tex"
    )
