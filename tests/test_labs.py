"""The labs (symattn/labs.py): the module's results, two methods that agree, bounded memory."""

from __future__ import annotations

import io
import sys
import tracemalloc

import numpy as np
import pytest

from symattn.labs import p_max, saturation_lab, variance_lab


def test_variance_ratio_is_one_within_its_interval():
    """Over 200,000 draws at each width, every 95 % interval for Var(q.k)/d_k contains 1."""
    rows = variance_lab([32, 64, 128, 256], 200_000, seed=3, method="direct", progress=False)
    for r in rows:
        assert r.ratio_ci[0] < 1 < r.ratio_ci[1]
        assert r.ratio_ci[1] - r.ratio_ci[0] < 0.015  # about 2 * 1.96 * sqrt(2/n)
        assert r.scaled_variance == pytest.approx(r.ratio, rel=1e-12)


def test_direct_and_reduced_agree_on_variance():
    """Both methods estimate the same ratio: their difference is within 4 standard errors."""
    for d in (16, 128):
        a = variance_lab([d], 200_000, seed=5, method="direct", progress=False)[0]
        b = variance_lab([d], 200_000, seed=6, method="reduced", progress=False)[0]
        se = ((a.ratio_ci[1] - a.ratio_ci[0]) ** 2 + (b.ratio_ci[1] - b.ratio_ci[0]) ** 2) ** 0.5 / (2 * 1.96)
        assert abs(a.ratio - b.ratio) < 4 * se


def test_direct_and_reduced_agree_on_saturation():
    """The saturated shares of the two methods differ by less than 4 standard errors."""
    a = saturation_lab(40_000, 64, 64, 0.99, seed=7, method="direct", progress=False)
    b = saturation_lab(40_000, 64, 64, 0.99, seed=8, method="reduced", progress=False)
    p = (a.unscaled.share + b.unscaled.share) / 2
    se = (2 * p * (1 - p) / 40_000) ** 0.5
    assert abs(a.unscaled.share - b.unscaled.share) < 4 * se
    assert a.unscaled.mean_p_one_minus_p == pytest.approx(b.unscaled.mean_p_one_minus_p, rel=0.1)


def test_module_saturation_result():
    """At d_k = 128 with 64 keys about a third of unscaled trials saturate, none when scaled;
    the module's 35 % of 500 is inside our interval and p(1-p) is about 0.002."""
    r = saturation_lab(200_000, 128, 64, 0.99, seed=9, method="reduced", progress=False)
    assert 0.32 < r.unscaled.share < 0.345
    assert r.scaled.saturated == 0 and r.scaled.ci[0] == 0.0
    assert r.unscaled.ci[0] < 0.35 + 0.043 and r.unscaled.ci[1] > 0.35 - 0.043
    assert r.unscaled.mean_p_one_minus_p == pytest.approx(0.002, abs=0.0003)


def test_same_seed_same_result_different_seed_different():
    """A seed fixes the result exactly."""
    a = saturation_lab(3000, 32, 16, 0.9, seed=1, method="direct", progress=False)
    b = saturation_lab(3000, 32, 16, 0.9, seed=1, method="direct", progress=False)
    c = saturation_lab(3000, 32, 16, 0.9, seed=2, method="direct", progress=False)
    assert a == b and a != c


def test_memory_stays_bounded():
    """20,000 direct trials at d_k = 128 draw 1.3 GB of numbers but hold under 200 MB at once."""
    tracemalloc.start()
    saturation_lab(20_000, 128, 64, 0.99, seed=0, method="direct", progress=False)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert peak < 200 * 2**20


def test_p_max_is_safe_and_right():
    """p_max matches a direct softmax and stays finite for scores of 1e4."""
    z = np.array([[1.0, 2.0, 3.0], [1e4, 0.0, -1e4]])
    e = np.exp(z[0] - 3)
    assert p_max(z)[0] == pytest.approx(e.max() / e.sum())
    assert p_max(z)[1] == 1.0


@pytest.mark.parametrize("kwargs", [{"trials": 0}, {"width": 0}, {"threshold": 1.0}, {"method": "magic"}])
def test_bad_arguments(kwargs):
    """Nonsense sizes, thresholds and methods raise ValueError."""
    with pytest.raises(ValueError):
        saturation_lab(**{"trials": 10, "progress": False, **kwargs})


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_bar_only_on_a_terminal(monkeypatch):
    """Long runs draw a progress bar on stderr when it is a terminal, and nothing otherwise."""
    fake = _Terminal()
    monkeypatch.setattr(sys, "stderr", fake)
    variance_lab([128], 40_000, seed=0, method="direct")
    assert "variance d_k=128" in fake.getvalue() and "draws" in fake.getvalue()
    quiet = io.StringIO()
    monkeypatch.setattr(sys, "stderr", quiet)
    variance_lab([128], 40_000, seed=0, method="direct")
    assert quiet.getvalue() == ""
