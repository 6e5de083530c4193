"""symattn lab on the command line."""

from __future__ import annotations

import json


def test_variance_json(cli):
    """lab variance --json gives per-width ratio and intervals."""
    code, out, _ = cli("lab", "variance", "--draws", "5000", "--widths", "8,16", "--json")
    doc = json.loads(out)
    assert code == 0
    assert [w["d_k"] for w in doc["widths"]] == [8, 16]
    for w in doc["widths"]:
        assert w["ratio_ci"][0] < w["ratio"] < w["ratio_ci"][1]
        assert set(w) >= {"d_k", "ratio", "ratio_ci", "scaled_variance", "scaled_variance_ci"}


def test_saturation_json(cli):
    """lab saturation --json has unscaled/scaled share, ci, mean p(1-p) and the trial count."""
    code, out, _ = cli("lab", "saturation", "--trials", "500", "--json")
    doc = json.loads(out)
    assert code == 0 and doc["trials"] == 500
    for name in ("unscaled", "scaled"):
        assert set(doc[name]) >= {"share", "ci", "mean_p_one_minus_p"}
        assert doc[name]["ci"][0] <= doc[name]["share"] <= doc[name]["ci"][1]


def test_plot_option(cli, tmp_path):
    """--plot writes the lab's figure."""
    path = tmp_path / "sat.svg"
    code, _, _ = cli("lab", "saturation", "--trials", "200", "--plot", str(path))
    assert code == 0 and path.read_text().lstrip().startswith("<?xml")


def test_bad_lab_arguments(cli):
    """Bad widths or thresholds are one line and exit 2."""
    code, _, err = cli("lab", "variance", "--widths", "8,x")
    assert code == 2 and err.count("\n") == 1
    code, _, err = cli("lab", "saturation", "--threshold", "2")
    assert code == 2 and err.count("\n") == 1
