"""symattn lab on the command line: output, limits stated in errors and help, output failures,
and a fixed-seed fuzz over the lab's arguments."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from terminal import Terminal

from symattn.cli import app as cli_module


def test_variance_json(cli):
    """lab variance --json gives per-width ratio and intervals, one variance per width."""
    code, out, _ = cli("lab", "variance", "--draws", "5000", "--widths", "8,16", "--json")
    doc = json.loads(out)
    assert code == 0
    assert [w["d_k"] for w in doc["widths"]] == [8, 16]
    for w in doc["widths"]:
        assert 0 < w["ratio_ci"][0] < w["ratio"] < w["ratio_ci"][1]
        assert set(w) == {"d_k", "ratio", "ratio_ci"}


def test_saturation_json(cli):
    """lab saturation --json has unscaled/scaled share, ci, mean p(1-p) with its ci, trial count."""
    code, out, _ = cli("lab", "saturation", "--trials", "500", "--json")
    doc = json.loads(out)
    assert code == 0 and doc["trials"] == 500
    for name in ("unscaled", "scaled"):
        assert set(doc[name]) >= {"share", "ci", "mean_p_one_minus_p", "mean_p_one_minus_p_ci"}
        assert doc[name]["ci"][0] <= doc[name]["share"] <= doc[name]["ci"][1]
    lo, hi = doc["unscaled"]["mean_p_one_minus_p_ci"]
    assert lo < doc["unscaled"]["mean_p_one_minus_p"] < hi


def test_plot_option(cli, tmp_path):
    """--plot writes the lab's figure."""
    path = tmp_path / "sat.svg"
    code, _, _ = cli("lab", "saturation", "--trials", "200", "--plot", str(path))
    assert code == 0 and path.read_text().lstrip().startswith("<?xml")


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["lab", "variance", "--widths", "8,x"], "whole numbers"),
        (["lab", "variance", "--widths", "0"], "1 to 10^6"),
        (["lab", "variance", "--widths", "1000001"], "1 to 10^6"),
        (["lab", "variance", "--widths", ",".join(["1"] * 65)], "1 to 64"),
        (["lab", "variance", "--draws", "1"], "at least 1,000 draws"),
        (["lab", "variance", "--draws", "2"], "at least 1,000 draws"),
        (["lab", "variance", "--draws", "999"], "at least 1,000 draws"),
        (["lab", "variance", "--draws", str(10**12)], "10^9"),
        (["lab", "variance", "--draws", "5000000", "--widths", "1000000"], "limit of 2 x 10^9"),
        (["lab", "saturation", "--threshold", "2"], "strictly between 0 and 1"),
        (["lab", "saturation", "--threshold", "nan"], "strictly between 0 and 1"),
        (["lab", "saturation", "--trials", str(10**12)], "10^9"),
        (["lab", "saturation", "--width", str(10**12)], "10^6"),
        (["lab", "saturation", "--keys", str(10**12)], "10^6"),
        (["lab", "saturation", "--width", "1000000", "--trials", "1000000"], "limit of 2 x 10^9"),
        (["lab", "saturation", "--plot", "out.txt"], ".svg, .png or .pdf"),
    ],
)
def test_bad_lab_arguments(cli, argv, says):
    """Bad sizes are one line on stderr naming the limit, exit 2, and nothing on stdout."""
    code, out, err = cli(*argv)
    assert code == 2 and err.count("\n") == 1 and says in err and out == ""


def test_fewest_draws_give_a_positive_interval(cli):
    """At 1,000 draws (the minimum) the issue's --widths 4 --seed 31 gives an interval above 0."""
    code, out, _ = cli("lab", "variance", "--draws", "1000", "--widths", "4", "--seed", "31", "--json")
    (row,) = json.loads(out)["widths"]
    assert code == 0 and 0 < row["ratio_ci"][0] < 1 < row["ratio_ci"][1]


def test_plot_to_a_missing_folder_fails_before_the_lab_runs(cli, tmp_path):
    """The figure's folder is checked first: one line, exit 2, no results printed before it."""
    code, out, err = cli("lab", "saturation", "--trials", "100", "--plot", str(tmp_path / "no" / "x.svg"))
    assert code == 2 and out == "" and err.count("\n") == 1 and "does not exist" in err


def test_figure_write_failure_is_one_line(cli, tmp_path, monkeypatch):
    """A disk that fills while the figure is saved gives one line and exit 2, no traceback."""
    import matplotlib.figure

    def full(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(matplotlib.figure.Figure, "savefig", full)
    code, _, err = cli("lab", "saturation", "--trials", "100", "--plot", str(tmp_path / "x.svg"))
    assert code == 2 and err.count("\n") == 1 and "No space left on device" in err


class _FullDevice:
    def write(self, text: str) -> int:
        raise OSError(28, "No space left on device")

    def flush(self) -> None:
        raise OSError(28, "No space left on device")


def test_full_stdout_is_one_line(monkeypatch, capsys):
    """Writing the results to a full device is one line on stderr, exit 2."""
    monkeypatch.setattr(sys, "stdout", _FullDevice())
    code = cli_module.main(["lab", "saturation", "--trials", "100"])
    assert (
        code == 2
        and capsys.readouterr().err
        == "symattn: error: cannot write to standard output: No space left on device\n"
    )


def test_dev_full_in_a_real_process():
    """`symattn lab saturation > /dev/full`: exit 2, one line, and no 'Exception ignored' from
    Python's final flush (only a real process shows that)."""
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [sys.executable, "-m", "symattn", "lab", "saturation", "--trials", "100"],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            timeout=120,
        )
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "No space left" in done.stderr


@pytest.mark.parametrize("argv", [["lab"], ["lab", "variance"], ["lab", "saturation"]])
def test_help_shows_every_default(argv, cli):
    """--help works (a bare % once crashed it) and every option with a value states its default."""
    code, out, _ = cli(*argv, "--help")
    assert code == 0 and "usage: symattn lab" in out
    parser = cli_module.build_parser()
    sub = parser._subparsers._group_actions[0].choices["lab"]
    if len(argv) == 2:
        sub = sub._subparsers._group_actions[0].choices[argv[1]]
        for action in sub._actions:
            if action.option_strings and action.nargs != 0:
                assert action.help and "(default: " in action.help, action.dest
    else:
        assert "10^6" in out and "2 x 10^9" in out


# -- fuzz -------------------------------------------------------------------------------------
_FLAGS = {
    "variance": ["--draws", "--widths", "--seed", "--method", "--json", "--plot"],
    "saturation": ["--trials", "--width", "--keys", "--threshold", "--seed", "--method", "--json", "--plot"],
}
_BAD = [
    "-1",
    "0",
    "x",
    "",
    "1e3",
    "1.5",
    "nan",
    "inf",
    "-inf",
    "١٢",
    "𝟙𝟚",
    "9" * 5000,
    str(2**64),
    "--",
    "💥",
]
_SMALL = {  # valid values whose runs are quick
    "--draws": ["1000", "1200", "999", "1"],
    "--widths": ["1", "3,5", "16", "1,2,3", " 7 ", "1000001", ",".join(["2"] * 64)],
    "--trials": ["1", "2", "50", "300"],
    "--width": ["1", "8", "128"],
    "--keys": ["1", "2", "64"],
    "--threshold": ["0.5", "0.99", "1e-300", "0.9999999999999999", "1", "0"],
    "--seed": ["0", "31", str(2**63 - 1), str(2**63)],
    "--method": ["direct", "reduced", "magic"],
}


def _argv(rng: random.Random, tmp: Path) -> list[str]:
    lab = rng.choice(["variance", "saturation", "nope", ""])
    argv = ["lab", lab] if lab else ["lab"]
    flags = _FLAGS.get(lab, _FLAGS["variance"])
    # keep accepted runs short: always give the run's size
    chosen = [flags[0], *rng.sample(flags[1:], rng.randint(0, 3))]
    for flag in chosen:
        argv.append(flag)
        if flag == "--json":
            continue
        if flag == "--plot":
            argv.append(rng.choice([str(tmp / "f.svg"), str(tmp / "no" / "f.svg"), str(tmp), "f.txt", ""]))
        elif rng.random() < 0.7:
            argv.append(rng.choice(_SMALL[flag]))
        else:
            argv.append(rng.choice(_BAD))
    if rng.random() < 0.1:
        argv.append(rng.choice([*_BAD, "--help", "-h", "--unknown"]))
    return argv


def test_lab_fuzz(cli, tmp_path):
    """300 random lab argument lists (fixed seed): exit 0 or 2, at most one line on stderr, never
    a traceback (bench/limits.py times them)."""
    rng = random.Random(12)
    for _ in range(300):
        argv = _argv(rng, tmp_path)
        code, out, err = cli(*argv)
        assert code in (0, 2), (argv, code, err)
        assert "Traceback" not in err and err.count("\n") <= 1, (argv, err)
        if code == 0 and "--help" not in argv and "-h" not in argv:
            assert out and err == ""


@pytest.mark.parametrize(
    ("method", "tty", "hinted"), [("direct", True, True), ("direct", False, False), ("reduced", True, False)]
)
def test_a_long_direct_saturation_run_suggests_the_reduced_method(monkeypatch, capsys, method, tty, hinted):
    """On a terminal, a direct saturation run past the threshold of random numbers says that
    --method reduced draws (1 + keys) x width / (1 + keys) = width times fewer; not otherwise."""
    from symattn.cli import commands, main

    monkeypatch.setattr(commands, "REDUCED_HINT_NUMBERS", 1)
    term = Terminal()
    if tty:
        monkeypatch.setattr(sys, "stderr", term)
    assert (
        main(["lab", "saturation", "--trials", "20", "--width", "16", "--keys", "4", "--method", method]) == 0
    )
    err = term.text + capsys.readouterr().err
    assert ("--method reduced gives the same distribution from 16 times fewer" in err) == hinted


@pytest.mark.parametrize(("threshold", "hinted"), [(1600, True), (1601, False)])
def test_the_hint_starts_at_its_threshold_exactly(monkeypatch, threshold, hinted):
    """20 direct trials of 4 keys at width 16 draw 20 x (4 + 1) x 16 = 1,600 numbers: a threshold
    of 1,600 is reached (hint), one of 1,601 is not."""
    from symattn.cli import commands, main

    monkeypatch.setattr(commands, "REDUCED_HINT_NUMBERS", threshold)
    term = Terminal()
    monkeypatch.setattr(sys, "stderr", term)
    argv = ["lab", "saturation", "--trials", "20", "--width", "16", "--keys", "4", "--method", "direct"]
    assert main(argv) == 0
    assert ("--method reduced gives the same distribution" in term.text) == hinted
