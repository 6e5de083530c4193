"""Lab figures (symattn/labs/figures.py): SVG files that are deterministic."""

from __future__ import annotations

import numpy as np

from symattn.labs.figures import saturation_curve, score_histograms


def test_histograms_svg_is_deterministic(tmp_path):
    """The histogram figure is an SVG, identical when drawn twice with one seed."""
    a = score_histograms(tmp_path / "a.svg", widths=(16, 64), draws=2000, seed=1)
    b = score_histograms(tmp_path / "b.svg", widths=(16, 64), draws=2000, seed=1)
    text = a.read_text()
    assert text.startswith("<?xml") and "<svg" in text
    assert a.read_bytes() == b.read_bytes()
    assert "Date" not in text.split("</metadata>")[0]


def _saturated_share(trials: int, width: int, keys: int, scale: float, seed: int) -> float:
    """Independent of symattn's sampling: raw scores q . k_j of standard normal vectors, drawn
    whole, and the share of trials whose largest softmax weight exceeds 0.99."""
    rng = np.random.default_rng(seed)
    q = rng.standard_normal((trials, 1, width))
    k = rng.standard_normal((trials, keys, width))
    z = (q * k).sum(axis=2) * scale
    z -= z.max(axis=1, keepdims=True)
    return float((1 / np.exp(z).sum(axis=1) > 0.99).mean())


def test_saturation_curve_plots_each_share_under_its_label(tmp_path, monkeypatch):
    """The saturation figure is written as SVG, and its two curves are the shares they are named
    for: the "unscaled" curve is the share saturated without scaling, at each width, within the
    noise of an independent simulation (direct draws of q and k), and the scaled one the share
    with scores divided by sqrt(d_k) (none saturate). Swapped curves or labels fail."""
    from symattn.labs import figures

    drawn = []
    save = figures._save
    monkeypatch.setattr(figures, "_save", lambda fig, path: (drawn.append(fig), save(fig, path))[1])
    widths, trials = (16, 64), 500
    out = saturation_curve(tmp_path / "s.svg", widths=widths, trials=trials)
    assert out.read_text().startswith("<?xml") and out.stat().st_size > 1000
    (ax,) = drawn[0].axes
    curves = {c.get_label(): c.lines[0] for c in ax.containers}
    assert list(curves) == ["unscaled", r"scaled by $1/\sqrt{d_k}$"]
    assert [t.get_text() for t in ax.get_legend().get_texts()] == list(curves)
    for label, scale in (("unscaled", lambda d: 1.0), (r"scaled by $1/\sqrt{d_k}$", lambda d: d**-0.5)):
        x, y = curves[label].get_data()
        assert list(x) == list(widths)
        want = [_saturated_share(4000, d, 64, scale(d), seed=d) for d in widths]
        for got, p in zip(y, want, strict=True):  # 5 standard errors of the two estimates apart at most
            error = np.sqrt(max(p * (1 - p), 1e-3) * (1 / trials + 1 / 4000))
            assert abs(got - p) <= 5 * error, (label, list(y), want)
    unscaled = curves["unscaled"].get_ydata()
    assert unscaled[1] > unscaled[0] > 0  # without scaling, saturation grows with d_k
    assert list(curves[r"scaled by $1/\sqrt{d_k}$"].get_ydata()) == [0.0, 0.0]


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
