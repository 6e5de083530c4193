"""The one line an error prints (symattn/cli/app.py's _error): an empty message still says
something, and a stderr that cannot be written changes no exit code."""

from __future__ import annotations

import io
import sys

from symattn.cli import commands, main


def test_an_error_without_words_says_unknown_error(cli, monkeypatch):
    def fails(args):
        raise ValueError("  \n")

    monkeypatch.setattr(commands, "flops", fails)
    code, out, err = cli("flops", "--n", "2", "--d-model", "4")
    assert (code, out, err) == (2, "", "symattn: error: unknown error\n")


def test_an_error_with_many_lines_prints_its_first(cli, monkeypatch):
    def fails(args):
        raise ValueError("\n first line\nsecond line")

    monkeypatch.setattr(commands, "flops", fails)
    assert cli("flops", "--n", "2", "--d-model", "4") == (2, "", "symattn: error: first line\n")


class Unwritable(io.StringIO):
    def write(self, text: str) -> int:
        raise OSError(28, "No space left on device")


def test_an_unwritable_stderr_keeps_the_exit_code(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stderr", Unwritable())
    assert main(["attention", "--q", "[[1,2],[3]]", "--k", "[[1]]", "--v", "[[1]]"]) == 2
