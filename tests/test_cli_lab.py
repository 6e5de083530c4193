"""symattn lab on the command line."""

from __future__ import annotations

import json

from symattn.cli import main


def run(capsys, *argv):
    try:
        code = main(list(argv))
    except SystemExit as exc:
        code = exc.code
    out, err = capsys.readouterr()
    return code, out, err


def test_variance_json(capsys):
    """lab variance --json gives per-width ratio and intervals."""
    code, out, _ = run(capsys, "lab", "variance", "--draws", "5000", "--widths", "8,16", "--json")
    doc = json.loads(out)
    assert code == 0
    assert [w["d_k"] for w in doc["widths"]] == [8, 16]
    for w in doc["widths"]:
        assert w["ratio_ci"][0] < w["ratio"] < w["ratio_ci"][1]
        assert set(w) >= {"d_k", "ratio", "ratio_ci", "scaled_variance", "scaled_variance_ci"}


def test_saturation_json(capsys):
    """lab saturation --json has unscaled/scaled share, ci, mean p(1-p) and the trial count."""
    code, out, _ = run(capsys, "lab", "saturation", "--trials", "500", "--json")
    doc = json.loads(out)
    assert code == 0 and doc["trials"] == 500
    for name in ("unscaled", "scaled"):
        assert set(doc[name]) >= {"share", "ci", "mean_p_one_minus_p"}
        assert doc[name]["ci"][0] <= doc[name]["share"] <= doc[name]["ci"][1]


def test_plot_option(capsys, tmp_path):
    """--plot writes the lab's figure."""
    path = tmp_path / "sat.svg"
    code, _, _ = run(capsys, "lab", "saturation", "--trials", "200", "--plot", str(path))
    assert code == 0 and path.read_text().lstrip().startswith("<?xml")


def test_bad_lab_arguments(capsys):
    """Bad widths or thresholds are one line and exit 2."""
    code, _, err = run(capsys, "lab", "variance", "--widths", "8,x")
    assert code == 2 and err.count("\n") == 1
    code, _, err = run(capsys, "lab", "saturation", "--threshold", "2")
    assert code == 2 and err.count("\n") == 1
