"""The program's entry, `run` (symattn/cli/app.py), called in-process with the process's end
replaced: it runs main on sys.argv, ends with main's exit code, turns a fault of symattn's own into
one line and exit 3, stops a worker left running, and flushes what it can. (Real processes run it
too, in tests/cli/test_cli.py; a mutation pass sees only in-process calls.)"""

from __future__ import annotations

import gc
import io
import multiprocessing
import os
import subprocess
import sys
import time

import pytest
from stand_in import StandIn

from symattn.cli import app


class Ended(Exception):
    def __init__(self, code: int) -> None:
        self.code = code


def _ended(code: int) -> None:
    raise Ended(code)


@pytest.fixture(autouse=True)
def _collector_settings_kept():
    """run() tunes the garbage collector for the process; these tests run it in-process."""
    threshold = gc.get_threshold()
    yield
    gc.set_threshold(*threshold)


@pytest.fixture
def ended(monkeypatch):
    """app's os._exit raises Ended(code) (not os._exit itself: the judge's forked workers end with it)."""
    monkeypatch.setattr(app, "os", StandIn(os, _exit=_ended))


def run(monkeypatch, *argv: str) -> int:
    monkeypatch.setattr(sys, "argv", ["symattn", *argv])
    with pytest.raises(Ended) as done:
        app.run()
    return done.value.code


def test_run_ends_with_mains_exit_code(ended, monkeypatch, capsys):
    assert run(monkeypatch, "flops", "--n", "2", "--d-model", "4") == 0
    assert "FLOPs" in capsys.readouterr().out
    assert run(monkeypatch, "check", "ex6.2", "4") == 1
    assert run(monkeypatch, "flops", "--n", "0", "--d-model", "4") == 2
    assert capsys.readouterr().err.startswith("symattn")


def test_a_fault_of_symattns_own_is_one_line_and_exit_3(ended, monkeypatch, capsys):
    def broken(argv=None):
        raise RuntimeError("boom")

    monkeypatch.setattr(app, "main", broken)
    assert run(monkeypatch) == 3
    assert capsys.readouterr() == (
        "",
        "symattn: error: internal error (RuntimeError: boom); please report it with the command\n",
    )


def test_a_worker_left_running_is_stopped(ended, monkeypatch):
    """(The test's own worker only: run stops every child of the process it ends, and the test
    process may have others.)"""
    worker = multiprocessing.get_context("fork").Process(target=time.sleep, args=(60,))
    worker.start()
    monkeypatch.setattr(multiprocessing, "active_children", lambda: [worker] if worker.is_alive() else [])
    try:
        assert run(monkeypatch, "flops", "--n", "2", "--d-model", "4") == 0
        worker.join(10)
        assert not worker.is_alive() and worker.exitcode == -9  # SIGKILL
    finally:
        if worker.is_alive():
            worker.kill()


class _Unflushable(io.StringIO):
    def flush(self) -> None:
        raise OSError(28, "No space left on device")


def test_what_cannot_be_flushed_is_left_and_what_can_is_flushed(ended, monkeypatch):
    flushed = io.StringIO()
    calls = []
    monkeypatch.setattr(flushed, "flush", lambda: calls.append("flushed"))
    monkeypatch.setattr(app, "main", lambda argv=None: 0)
    monkeypatch.setattr(sys, "stdout", _Unflushable())
    monkeypatch.setattr(sys, "stderr", flushed)
    assert run(monkeypatch) == 0
    assert calls == ["flushed"]
    monkeypatch.setattr(sys, "stdout", flushed)
    monkeypatch.setattr(sys, "stderr", None)  # started with 2>&-
    assert run(monkeypatch) == 0
    assert calls == ["flushed", "flushed"]


def test_a_stream_closed_before_the_end_is_left_alone(ended, monkeypatch):
    """A closed stream's flush raises ValueError (a library that closed sys.stdout, say): the
    program still ends with main's code, and flushes the other stream."""
    closed, flushed = io.TextIOWrapper(io.BytesIO(), encoding="utf-8"), io.StringIO()
    closed.close()  # (a closed StringIO's flush does not raise; a real stream's does)
    calls = []
    monkeypatch.setattr(flushed, "flush", lambda: calls.append("flushed"))
    monkeypatch.setattr(app, "main", lambda argv=None: 1)
    monkeypatch.setattr(sys, "stdout", closed)
    monkeypatch.setattr(sys, "stderr", flushed)
    assert run(monkeypatch) == 1
    assert calls == ["flushed"]


@pytest.mark.parametrize(("command", "size"), [*((c, 100_000) for c in app.VERIFYING), ("check", 1000)])
def test_a_command_that_verifies_derivations_gets_a_larger_sympy_cache(command, size):
    """SymPy reads its cache size once, when it is first imported: a new process shows it."""
    code = (
        "import gc, sys; from symattn.cli.app import _tune; _tune(sys.argv[1:]); "
        "import sympy.core.cache as c; print(c.SYMPY_CACHE_SIZE, gc.get_threshold()[0])"
    )
    env = {k: v for k, v in os.environ.items() if k != "SYMPY_CACHE_SIZE"}
    out = subprocess.run(
        [sys.executable, "-c", code, command], capture_output=True, text=True, env=env, check=True
    )
    assert out.stdout.split() == [str(size), "50000"]
