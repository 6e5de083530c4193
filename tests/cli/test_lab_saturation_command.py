"""`symattn lab saturation`: --seed and --method reach the run and its header; text unless --json."""

from __future__ import annotations

import json

import pytest

ARGV = ["lab", "saturation", "--trials", "50"]


def test_seed_and_method_are_used_and_named(cli):
    runs = {}
    for seed, method in (("1", "direct"), ("2", "direct"), ("1", "reduced")):
        code, out, err = cli(*ARGV, "--seed", seed, "--method", method)
        assert (code, err) == (0, "")
        assert out.splitlines()[0].endswith(f"p_max > 0.99 ({method}, seed {seed})")
        runs[seed, method] = out.splitlines()[2:]
    assert len({tuple(rows) for rows in runs.values()}) == 3  # each changes the draws


def test_text_unless_json(cli):
    code, out, _ = cli(*ARGV, "--seed", "1")
    assert code == 0 and out.startswith("50 trials, d_k = 128, 64 keys, p_max > 0.99 (direct, seed 1)\n")
    code, out, _ = cli(*ARGV, "--seed", "1", "--json")
    assert code == 0 and isinstance(json.loads(out), dict)


def test_a_figure_over_the_limit_is_refused_before_the_run(cli, tmp_path):
    """The figure draws 20,000 trials of keys + 1 numbers at each of its 5 widths: from 20,000 keys
    that is over 2 x 10^9, refused in one line, and nothing is written."""
    figure = tmp_path / "f.svg"
    code, out, err = cli(*ARGV, "--keys", "20000", "--plot", str(figure))
    assert (code, out) == (2, "")
    assert (
        err == "symattn: error: the figure would draw 2e+09 random numbers, more than the limit of 2 x 10^9\n"
    )
    assert not figure.exists()


@pytest.fixture
def drawings(monkeypatch) -> list[tuple[str, dict]]:
    """The saturation figures --plot asks for, (path, arguments) each; none drawn (minutes)."""
    from symattn.labs import figures

    calls: list[tuple[str, dict]] = []
    monkeypatch.setattr(figures, "saturation_curve", lambda path, **kw: calls.append((str(path), kw)))
    return calls


def test_the_figure_is_drawn_with_the_runs_keys_threshold_and_seed(cli, tmp_path, drawings):
    """--plot draws the lab's figure for the keys, threshold and seed of the run (the figure's
    own curves are checked against a simulation in tests/labs/test_figures.py)."""
    figure = tmp_path / "f.svg"
    argv = [*ARGV, "--keys", "32", "--threshold", "0.9", "--seed", "7", "--plot", str(figure)]
    code, _, err = cli(*argv)
    assert (code, err) == (0, "")
    assert drawings == [(str(figure), {"keys": 32, "threshold": 0.9, "seed": 7})]


def test_a_figure_of_exactly_the_limit_is_drawn(cli, tmp_path, drawings):
    """At 19,999 keys the figure draws 5 x 20,000 x 20,000 = 2 x 10^9 numbers, exactly the limit:
    allowed."""
    argv = [*ARGV, "--method", "reduced", "--keys", "19999", "--plot", str(tmp_path / "f.svg")]
    code, _, err = cli(*argv)
    assert (code, err, [kw["keys"] for _, kw in drawings]) == (0, "", [19999])
