"""Lab figures (symattn/labs/figures.py): SVG files that are deterministic."""

from __future__ import annotations

from symattn.labs.figures import saturation_curve, score_histograms


def test_histograms_svg_is_deterministic(tmp_path):
    """The histogram figure is an SVG, identical when drawn twice with one seed."""
    a = score_histograms(tmp_path / "a.svg", widths=(16, 64), draws=2000, seed=1)
    b = score_histograms(tmp_path / "b.svg", widths=(16, 64), draws=2000, seed=1)
    text = a.read_text()
    assert text.startswith("<?xml") and "<svg" in text
    assert a.read_bytes() == b.read_bytes()
    assert "Date" not in text.split("</metadata>")[0]


def test_saturation_curve(tmp_path):
    """The saturation figure is written as SVG."""
    out = saturation_curve(tmp_path / "s.svg", widths=(16, 64), trials=500)
    assert out.stat().st_size > 1000


def test_without_matplotlib_the_labs_still_run(monkeypatch, cli, tmp_path):
    """matplotlib is optional: the lab runs; only --plot fails, with a one-line hint, exit 2."""
    import sys

    monkeypatch.setitem(sys.modules, "matplotlib", None)  # makes `import matplotlib` fail
    code, out, _ = cli("lab", "saturation", "--trials", "100")
    assert code == 0 and "unscaled" in out
    code, _, err = cli("lab", "saturation", "--trials", "100", "--plot", str(tmp_path / "x.svg"))
    assert code == 2 and "symattn[plot]" in err and err.count("\n") == 1


def test_check_target_refuses_before_any_work(tmp_path):
    """A figure path is checked first: known suffix, an existing folder, not a folder itself."""
    import pytest

    from symattn.labs.figures import FigureError, check_target

    assert check_target(tmp_path / "a.svg") == tmp_path / "a.svg"
    assert check_target(tmp_path / "a.PNG").suffix == ".PNG"
    for bad, says in [
        (tmp_path / "a.txt", ".svg, .png or .pdf"),
        (tmp_path / "a", ".svg, .png or .pdf"),
        (tmp_path / "missing" / "a.svg", "does not exist"),
    ]:
        with pytest.raises(FigureError, match=says):
            check_target(bad)
    (tmp_path / "d.svg").mkdir()
    with pytest.raises(FigureError, match="not a file"):
        check_target(tmp_path / "d.svg")
