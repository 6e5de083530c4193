"""The command line (symattn/cli.py): outputs, exit codes, one-line errors."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from symattn.cli import main

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
