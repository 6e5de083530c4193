"""The one line an error prints (symattn/cli/app.py's _error): an empty message still says
something, and a stderr that cannot be written changes no exit code."""

from __future__ import annotations

import errno
import io
import os
import sys

import pytest
from stand_in import StandIn

from symattn.cli import app, commands, main


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


# -- after the one line, stdout points at /dev/null (app._silence_stdout) ----------------------
def test_after_an_error_stdout_writes_go_to_dev_null(tmp_path, monkeypatch):
    """Python's last flush of text stdout never took must not fail with a traceback: the
    stream's descriptor is made /dev/null's (writable), and the one opened for it is closed."""
    target = tmp_path / "stdout.txt"
    opened: list[int] = []

    def recorded(*args, **kwargs) -> int:
        opened.append(os.open(*args, **kwargs))
        return opened[-1]

    monkeypatch.setattr(app, "os", StandIn(os, open=recorded))
    with open(target, "w", encoding="utf-8") as stream:
        monkeypatch.setattr(sys, "stdout", stream)
        app._silence_stdout()
        (devnull,) = opened
        with pytest.raises(OSError) as closed:
            os.fstat(devnull)
        assert closed.value.errno == errno.EBADF
        assert os.path.samestat(os.fstat(stream.fileno()), os.stat(os.devnull))
        assert os.write(stream.fileno(), b"lost\n") == 5
    assert target.read_bytes() == b""


def test_silencing_stdout_that_cannot_be_silenced_is_quiet(tmp_path, monkeypatch):
    """A stdout with no descriptor (captured in memory), and a /dev/null that cannot be opened,
    leave stdout as it is and raise nothing."""
    monkeypatch.setattr(sys, "stdout", io.StringIO())
    app._silence_stdout()
    target = tmp_path / "stdout.txt"

    def refused(*args, **kwargs) -> int:
        raise PermissionError(13, "Permission denied", os.devnull)

    with open(target, "w", encoding="utf-8") as stream:
        monkeypatch.setattr(sys, "stdout", stream)
        monkeypatch.setattr(app, "os", StandIn(os, open=refused))
        app._silence_stdout()
        monkeypatch.undo()
        assert os.path.samestat(os.fstat(stream.fileno()), os.stat(target))
