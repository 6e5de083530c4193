"""The command line (symattn/cli/app.py): outputs, exit codes, one-line errors."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from symattn.cli import main
from symattn.cli.app import build_parser

EXAMPLE = ["--q", "[[3,-3],[1,1]]", "--k", "[[-3,3],[1,1]]", "--v", "[[0,-1],[1,2]]"]


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_json_output(capsys):
    """--format json prints the five stages; values have --digits significant digits."""
    code, out, err = run(
        capsys, "attention", *EXAMPLE, "--mask", "causal", "--format", "json", "--digits", "8"
    )
    assert code == 0 and err == ""
    doc = json.loads(out)
    assert doc["weights"][1][0]["value"] == "0.19557032"
    assert doc["output"][1][0]["latex"] == r"\frac{e^{\sqrt{2}}}{1 + e^{\sqrt{2}}}"


def test_no_scale(capsys):
    """--no-scale leaves the scores undivided: scaled equals scores."""
    code, out, _ = run(capsys, "attention", *EXAMPLE, "--no-scale", "--format", "json")
    doc = json.loads(out)
    assert code == 0
    assert doc["scaled"] == doc["scores"]


@pytest.mark.parametrize("fmt", ["text", "markdown", "latex"])
def test_each_format_shows_the_worked_example(capsys, fmt):
    """Every human format shows the weight e^sqrt2/(1+e^sqrt2) and its decimal."""
    code, out, _ = run(capsys, "attention", "--example", "--mask", "causal", "--format", fmt)
    assert code == 0
    assert "0.804429682506957" in out


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (["--q", "[[1,2],[3]]", "--k", "[[1]]", "--v", "[[1]]"], "ragged rows"),
        (["--q", '[["a"]]', "--k", "[[1]]", "--v", "[[1]]"], "not a number"),
        (["--q", "[[1,2]]", "--k", "[[1]]", "--v", "[[1]]"], "columns"),
        (["--q", "[[1]]", "--k", "[[1],[2]]", "--v", "[[1]]"], "rows"),
        ([*EXAMPLE, "--mask", "diagonal"], "unknown mask"),
        ([*EXAMPLE, "--mask", "causal:bottom-right+padding:1+window:1"], "no allowed key"),
        ([*EXAMPLE, "--digits", "0"], "--digits"),
        ([*EXAMPLE, "--format", "html"], "--format"),
        (["--q", "[[1]]"], "--k is required"),
        (["--q", "[[1", "--k", "[[1]]", "--v", "[[1]]"], "not valid JSON"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(capsys, argv, fragment):
    """Each bad input prints one line on stderr naming the problem, and exits 2."""
    try:
        code = main(["attention", *argv])
    except SystemExit as exc:  # argparse's own errors
        code = exc.code
    out, err = capsys.readouterr()
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and fragment in err
    assert "Traceback" not in err


def _console_script() -> str:
    return str(Path(sys.executable).with_name("symattn"))


@pytest.mark.parametrize("launcher", ["module", "script"])
def test_installed_entry_points(launcher):
    """Both `python -m symattn` and the `symattn` console script run and exit with codes."""
    cmd = [sys.executable, "-m", "symattn"] if launcher == "module" else [_console_script()]
    if launcher == "script" and not os.path.exists(cmd[0]):
        pytest.fail("the symattn console script is not installed next to this Python")
    ok = subprocess.run([*cmd, "attention", "--example", "--mask", "causal"], capture_output=True, text=True)
    assert ok.returncode == 0 and "Step 5. Output" in ok.stdout
    bad = subprocess.run([*cmd, "attention", "--example", "--mask", "nope"], capture_output=True, text=True)
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1


def test_the_program_ends_at_once_with_mains_code_and_all_its_output():
    """The console entry (``run``: the ``symattn`` script and ``python -m symattn``) flushes the
    output and ends the process with main's exit code without Python's teardown (os._exit), which
    frees SymPy's caches object by object: an exit handler does not run, and the output is whole."""
    from importlib.metadata import entry_points

    assert entry_points(group="console_scripts")["symattn"].value == "symattn.cli:run"
    code = (
        "import atexit, sys; atexit.register(lambda: print('teardown', file=sys.stderr)); "
        "from symattn.cli import run; sys.argv = ['symattn', *sys.argv[1:]]; run()"
    )
    ok = subprocess.run([sys.executable, "-c", code, "derive", "--list"], capture_output=True, text=True)
    assert ok.returncode == 0 and ok.stderr == ""
    assert ok.stdout.splitlines()[-1].startswith("multihead_flops\t")  # the last line, flushed
    bad = subprocess.run([sys.executable, "-c", code, "derive", "nosuch"], capture_output=True, text=True)
    assert bad.returncode == 2 and bad.stderr.startswith("symattn: error: no derivation named 'nosuch'")
    assert "teardown" not in bad.stderr and bad.stderr.count("\n") == 1


def test_a_fault_of_symattn_itself_is_one_line_and_exit_3_never_a_traceback():
    """A bug (an exception no command expects, such as an ImportError) reaches the user as one
    line asking for a report, with exit code 3."""
    code = (
        "import sys; import symattn.cli.app as app; "
        "app.main = lambda: (_ for _ in ()).throw(ImportError('cannot import name _at')); app.run()"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 3
    assert out.stderr.startswith("symattn: error: internal error (ImportError: cannot import name _at)")
    assert out.stderr.count("\n") == 1 and "Traceback" not in out.stderr


@pytest.mark.parametrize(
    ("argv", "code"), [(("--version",), 0), (("derive", "--list"), 0), (("derive", "nosuch"), 2)]
)
def test_a_stream_closed_at_the_start_keeps_the_documented_exit_codes(argv, code):
    """Started with stderr closed (2>&-, so Python's sys.stderr is None), the exit codes are
    the documented ones (review finding: flushing None made every command exit 1); with stdout
    closed (>&-), nothing can be written: a one-line error and exit 2, not a traceback."""
    script = _console_script()
    closing = ["bash", "-c", '"$@" 2>&-', "_", script, *argv]
    no_err = subprocess.run(closing, stdout=subprocess.PIPE, text=True)
    assert no_err.returncode == code
    closing[2] = '"$@" >&-'
    no_out = subprocess.run(closing, stderr=subprocess.PIPE, text=True)
    assert no_out.returncode == 2
    assert no_out.stderr == "symattn: error: cannot write to standard output: it is closed\n"


def test_the_program_leaves_no_worker_behind():
    """run() ends the process with os._exit, which would leave behind a child still running (a
    pool worker whose clean-up a second Ctrl-C cut short: review finding). It kills any such child."""
    code = (
        "import multiprocessing, sys, time; from symattn.cli import run; "
        "child = multiprocessing.get_context('fork').Process(target=time.sleep, args=(600,)); "
        "child.start(); print(child.pid, flush=True); sys.argv = ['symattn', '--version']; run()"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    pid = int(out.stdout.split()[0])
    deadline = time.monotonic() + 10
    while Path(f"/proc/{pid}").exists() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not Path(f"/proc/{pid}").exists(), "the child outlived the program"


def test_version(capsys):
    """symattn --version prints the installed version and exits 0."""
    from importlib.metadata import version

    code, out, err = run(capsys, "--version")
    assert code == 0 and out == f"symattn {version('symattn')}\n" and err == ""


def _options(parser):
    import argparse

    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from ((f"{name} {n}", a) for n, a in _options(sub))
        elif action.option_strings and action.dest not in ("help", "version"):
            yield "", action


def test_every_option_has_help_that_shows_its_default(capsys):
    """Each option has help text; the help of one with a default shows it. (The lab options
    belong to the labs' own issue and are checked there.)"""
    from symattn.cli.app import build_parser

    for where, action in _options(build_parser()):
        if where.startswith("lab"):
            continue
        assert action.help, f"{where} {action.option_strings} has no help"
    code, out, _ = run(capsys, "attention", "--help")
    assert code == 0
    assert "(default: none)" in out and "(default: 15)" in out and "(default: text)" in out
    code, out, _ = run(capsys, "flops", "--help")
    assert "(default: 1)" in out
    code, out, _ = run(capsys, "build", "--help")
    assert "(default: docs)" in out


def _positionals(parser, where=""):
    import argparse

    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _positionals(sub, f"{where} {name}".strip())
        elif not action.option_strings:
            yield where, action


def test_every_positional_argument_is_described():
    """Each positional argument of each command (the labs' own included) says what it is."""
    from symattn.cli.app import build_parser

    found = list(_positionals(build_parser()))
    assert {w for w, _ in found} >= {"grade", "check", "audit", "exercises show", "derive", "verify"}
    for where, action in found:
        assert action.help, f"{where}: {action.dest} has no help"


def _sub_actions(parser, where="symattn"):
    """(command line, parser) of every action of a command: a sub-parser below a sub-parser."""
    import argparse

    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                if where != "symattn":
                    yield f"{where} {name}", sub
                yield from _sub_actions(sub, f"{where} {name}")


def _all_parsers(parser, where="symattn"):
    import argparse

    yield where, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _all_parsers(sub, f"{where} {name}")


def test_no_command_takes_its_action_as_a_positional_choice():
    """A command's actions are sub-parsers (each with its own help), never a positional with
    choices (whose --help would be the command's)."""
    import argparse

    from symattn.cli.app import build_parser

    for where, parser in _all_parsers(build_parser()):
        for action in parser._actions:
            if not action.option_strings and not isinstance(action, argparse._SubParsersAction):
                assert not action.choices, f"{where}: {action.dest} is a positional choice"


SUB_ACTIONS = [where for where, _ in _sub_actions(build_parser())]


def test_the_sub_actions_are_found():
    """The walk below finds the actions of exercises and lab (so the test means something)."""
    assert {
        "symattn exercises list",
        "symattn exercises show",
        "symattn exercises variant",
        "symattn lab variance",
        "symattn lab saturation",
    } <= set(SUB_ACTIONS)


@pytest.mark.parametrize("where", SUB_ACTIONS)
def test_every_sub_action_has_its_own_help(capsys, where):
    """`symattn COMMAND ACTION --help` is the action's own help, not its command's: its usage
    line, every argument it shows, and examples of the action itself (issue 28, must have 6)."""
    import argparse
    import re

    parser = dict(_sub_actions(build_parser()))[where]
    words = where.split()[1:]
    code, own, err = run(capsys, *words, "--help")
    assert code == 0 and err == ""
    _, parents, _ = run(capsys, *words[:-1], "--help")
    assert own != parents
    assert own.startswith(f"usage: {where} ")
    assert parser.description and " ".join(parser.description.split()[:4]) in " ".join(own.split())
    shown = [a for a in parser._actions if a.help != argparse.SUPPRESS and a.dest != "help"]
    assert shown, f"{where} shows no argument"
    for action in shown:
        name = action.option_strings[-1] if action.option_strings else action.metavar or action.dest
        assert name in own and " ".join(action.help.split()[:3]) in " ".join(own.split()), (where, name)
    examples = own.split("\nexamples:\n", 1)
    assert len(examples) == 2 and re.search(f"^  {where}( |$)", examples[1], re.M), f"{where}: no examples"


def test_symattn_alone_prints_the_help(capsys):
    """`symattn` with no command prints the help (the commands and what they do), exit 0."""
    code, out, err = run(capsys)
    assert code == 0 and err == ""
    assert out.startswith("usage: symattn") and "grade" in out and "check" in out


@pytest.mark.parametrize(
    ("argv", "suggestion"),
    [
        (["atention"], "did you mean attention?"),
        (["grdae", "x.csv"], "did you mean grade?"),
        (["lab", "satration"], "did you mean saturation?"),
        (["exercises", "shwo", "ex6.2"], "did you mean show?"),
    ],
)
def test_a_mistyped_command_gets_the_nearest_one(capsys, argv, suggestion):
    """A command, lab or action that does not exist: one line naming the nearest, exit 2."""
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == "" and err.count("\n") == 1
    assert err.rstrip().endswith(suggestion), err


def test_a_word_like_no_command_lists_them_all(capsys):
    """With nothing close, the error lists the commands to choose from."""
    code, _, err = run(capsys, "zzzzzz")
    assert code == 2 and "choose from attention, derive" in err


def test_help_with_a_percent_sign_does_not_crash(capsys):
    """`lab --help` lists "95% intervals" without a formatting error."""
    code, out, err = run(capsys, "lab", "--help")
    assert code == 0 and "95%" in out and err == ""


def test_duplicate_mask_parts_are_refused(capsys):
    """causal+causal is an error naming the part given twice."""
    code, out, err = run(capsys, "attention", "--example", "--mask", "causal+causal")
    assert code == 2 and out == ""
    assert err == "symattn: error: mask 'causal+causal' has causal twice: give each part once\n"


def test_unwritable_build_folder_fails_at_once(capsys, monkeypatch):
    """build --out under a file is refused in one line before any derivation runs (generating
    the site is not even started; bench/limits.py times the refusal)."""
    from symattn.build import site

    monkeypatch.setattr(site, "generate", lambda *a, **k: pytest.fail("generated before --out was checked"))
    code, _, err = run(capsys, "build", "--out", "/dev/null/docs")
    assert code == 2 and err.count("\n") == 1 and "/dev/null/docs" in err


def test_full_device_and_closed_pipe_end_in_one_line_not_a_traceback():
    """Writing to /dev/full is a one-line error; a reader closing the pipe ends the command
    quietly; both exit 2, neither prints a traceback (run as real processes)."""
    cmd = [sys.executable, "-m", "symattn", "attention", "--example", "--mask", "causal"]
    with open("/dev/full", "w") as full:
        done = subprocess.run(cmd, stdout=full, stderr=subprocess.PIPE, text=True, timeout=120)
    assert done.returncode == 2
    assert done.stderr == "symattn: error: cannot write to standard output: No space left on device\n"
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.close()  # the reader goes away before anything is written
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=120) == 2
    assert "Traceback" not in err and err == ""


def test_sys_exit_in_a_commands_code_is_an_error_not_its_exit_code(cli, monkeypatch):
    """Only the argument parser decides an exit code by SystemExit; code a command runs (a
    plugin's) that calls sys.exit(0) is an error, exit 2 (review finding: it was exit 0)."""
    import sys

    from symattn.cli import commands

    monkeypatch.setattr(commands, "verify", lambda args: sys.exit(0))
    code, _, err = cli("verify")
    assert code == 2 and "called sys.exit(0)" in err


@pytest.mark.parametrize("flag", ["--gradebook", "--summary-json", "--report"])
def test_an_output_grade_cannot_write_is_the_one_line_on_stderr(cli, tmp_path, flag):
    """Found by the fuzz: with the rows on stdout, grade printed its summary to stderr before
    writing --gradebook, so a failure there left 18 lines on stderr. The summary now comes last:
    the error is the only line."""
    klass = tmp_path / "class.csv"
    klass.write_text("learner,exercise,answer\na,ex6.2,1.96\n", encoding="utf-8")
    code, out, err = cli("grade", str(klass), flag, "/dev/full")
    assert code == 2 and err == "symattn: error: cannot write /dev/full: No space left on device\n"
    assert out.startswith("line,learner,exercise,answer")  # the graded rows were written first


@pytest.mark.parametrize("name", ["score_reduction", "attention_by_hand"])
def test_a_terminal_that_cannot_show_the_math_is_told_so_in_one_line(name, capsys, monkeypatch):
    """Under an ASCII terminal (PYTHONIOENCODING=ascii) `derive` said "internal error
    (KeyError: 'sum')": SymPy's printer took its Unicode switch from stdout at import. Now the
    text is drawn in Unicode as documented, and the write is refused in one line, exit 2."""
    import io

    from sympy.printing.pretty.pretty_symbology import pretty_use_unicode

    ascii_out = io.TextIOWrapper(io.BytesIO(), encoding="ascii")
    monkeypatch.setattr(sys, "stdout", ascii_out)
    was = pretty_use_unicode(False)  # what importing SymPy under that terminal sets
    try:
        code = main(["derive", name])
    finally:
        pretty_use_unicode(was)
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1, err
    assert err.startswith("symattn: error: cannot write to standard output: its encoding, ascii, has no ")
    assert err.rstrip().endswith("(set PYTHONIOENCODING=utf-8)")


def test_help_shows_the_version_option_with_its_words(capsys):
    assert main(["--help"]) == 0
    assert re.search(r"--version\s+print the version and exit", capsys.readouterr().out)
