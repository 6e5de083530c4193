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


# -- what main says for each way a command can fail (app.main's handlers) -----------------------
def raising(exc: BaseException):
    def run(args):
        raise exc

    return run


@pytest.mark.parametrize(
    ("exc", "line"),
    [
        (
            OSError(errno.EACCES, "Permission denied", "class.csv"),
            "cannot read or write class.csv: Permission denied",
        ),
        (
            OSError(errno.ENOSPC, "No space left on device"),
            "cannot write to standard output: No space left on device",
        ),
        (
            OSError(errno.EDQUOT, "Disk quota exceeded"),
            "cannot write to standard output: Disk quota exceeded",
        ),
        (OSError(errno.EFBIG, "File too large"), "cannot write to standard output: File too large"),
        (OSError(errno.EIO, "Input/output error"), "cannot read or write: Input/output error"),
        (MemoryError(), "out of memory: the problem is too large for this machine"),
        (RecursionError("maximum recursion depth exceeded"), "input nested too deeply"),
        (
            # a run of two characters the codec lacks, as encode() reports it: the first is named
            UnicodeEncodeError("ascii", "a\u221a\u03c0b", 1, 3, "ordinal not in range(128)"),
            "cannot write to standard output: its encoding, ascii, has no '\u221a' "
            "(set PYTHONIOENCODING=utf-8)",
        ),
    ],
    ids=[
        "a-named-file",
        "a-full-device",
        "a-quota",
        "a-file-too-large",
        "no-file-no-room",
        "memory",
        "recursion",
        "encoding",
    ],
)
def test_each_failure_is_its_own_one_line(cli, monkeypatch, exc, line):
    """The system's words after the file, or after standard output when a write found no room
    (no file named: symattn's own files name themselves); the one character the terminal lacks."""
    monkeypatch.setattr(commands, "flops", raising(exc))
    assert cli("flops", "--n", "2", "--d-model", "4") == (2, "", f"symattn: error: {line}\n")


def test_a_flush_that_finds_no_room_is_the_one_line(capsys, monkeypatch):
    """What the command printed is flushed before main returns, where a full device says so."""

    class Full(io.StringIO):
        def flush(self) -> None:
            raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(sys, "stdout", Full())
    code = main(["flops", "--n", "2", "--d-model", "4"])
    assert (code, capsys.readouterr().err) == (
        2,
        "symattn: error: cannot write to standard output: No space left on device\n",
    )


def test_a_parse_that_ends_with_a_code_that_is_not_a_number_is_exit_2(monkeypatch, capsys):
    def ends(argv):
        raise SystemExit("not a number")

    monkeypatch.setattr(app, "_check_argv", ends)
    assert main(["check", "ex6.2", "1.96"]) == 2


def test_a_standard_output_closed_at_the_start_is_the_one_line(monkeypatch, capsys):
    """Started with >&- (Python's sys.stdout is None): exit 2 and the reason, nothing run."""
    monkeypatch.setattr(commands, "flops", raising(AssertionError("must not run")))
    monkeypatch.setattr(sys, "stdout", None)
    code = main(["flops", "--n", "2", "--d-model", "4"])
    assert (code, capsys.readouterr().err) == (
        2,
        "symattn: error: cannot write to standard output: it is closed\n",
    )


def test_a_standard_error_closed_at_the_start_becomes_dev_null(monkeypatch, capsys):
    """Started with 2>&- (sys.stderr is None): errors go to a writable /dev/null, never to
    stdout, and the exit code is the same."""
    monkeypatch.setattr(sys, "stderr", None)
    assert main(["attention", "--q", "[[1,2],[3]]", "--k", "[[1]]", "--v", "[[1]]"]) == 2
    stderr = sys.stderr
    try:
        assert stderr.name == os.devnull and stderr.writable() and not stderr.closed
        assert capsys.readouterr().out == ""
    finally:
        stderr.close()


def test_a_failed_check_keeps_its_own_exit_code(cli, monkeypatch):
    """A library error carries its exit code: a derivation step that fails is 1 (the check said
    no), not 2 (bad input)."""
    from symattn.proof.engine import StepFailed

    assert StepFailed.exit_code == 1
    monkeypatch.setattr(commands, "flops", raising(StepFailed("step 1 (wrong): the two sides differ")))
    assert cli("flops", "--n", "2", "--d-model", "4") == (
        1,
        "",
        "symattn: error: step 1 (wrong): the two sides differ\n",
    )
