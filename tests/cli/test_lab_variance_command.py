"""`symattn lab variance`: --seed, --method, --json and --plot each reach what it prints or draws."""

from __future__ import annotations

import json

ARGV = ["lab", "variance", "--widths", "2", "--draws", "1000"]


def test_seed_and_method_are_used_and_named(cli):
    code, out, err = cli(*ARGV, "--seed", "3", "--method", "reduced")
    assert (code, err) == (0, "")
    assert out.splitlines()[0].endswith("over 1,000 draws per width (reduced, seed 3)")
    _, direct, _ = cli(*ARGV, "--seed", "3")
    _, other_seed, _ = cli(*ARGV, "--seed", "4", "--method", "reduced")
    assert direct.splitlines()[0].endswith("(direct, seed 3)")
    rows = [text.splitlines()[3] for text in (out, direct, other_seed)]
    assert len(set(rows)) == 3  # each changes the numbers


def test_json_names_seed_and_method(cli):
    code, out, _ = cli(*ARGV, "--seed", "3", "--method", "reduced", "--json")
    doc = json.loads(out)
    assert code == 0 and (doc["seed"], doc["method"], doc["draws"]) == (3, "reduced", 1000)
    assert [w["d_k"] for w in doc["widths"]] == [2]


def test_plot_draws_the_figure_for_the_seed(cli, tmp_path):
    figures = []
    for seed in ("1", "2"):
        path = tmp_path / f"v{len(figures)}.svg"
        code, _, err = cli(*ARGV, "--seed", seed, "--plot", str(path))
        assert (code, err) == (0, "")
        figures.append(path.read_text())
    assert figures[0].lstrip().startswith("<?xml")
    assert figures[0] != figures[1]  # the figure's draws follow --seed
