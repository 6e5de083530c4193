"""The labs (symattn/labs/simulation.py): the module's results, two methods that agree, bounded memory."""

from __future__ import annotations

import io
import re
import sys
import tracemalloc

import numpy as np
import pytest
from terminal import Terminal

from symattn.labs import simulation as labs
from symattn.labs.simulation import _chunks, p_max, saturation_lab, scores_for_saturation, variance_lab


def test_variance_ratio_is_one_within_its_interval():
    """Over 200,000 draws at each width, every 95 % interval for Var(q.k)/d_k contains 1."""
    rows = variance_lab([32, 64, 128, 256], 200_000, seed=3, method="direct", progress=False)
    for r in rows:
        assert r.ratio_ci[0] < 1 < r.ratio_ci[1]
        assert r.ratio_ci[1] - r.ratio_ci[0] < 0.015  # about 2 * 1.96 * sqrt(2/n)


def test_variance_ratio_is_the_scaled_variance():
    """One number: Var(q.k)/d_k from the lab equals numpy's variance of q.k/sqrt(d_k), same seed."""
    (row,) = variance_lab([8], 1000, seed=4, method="direct", progress=False)
    (_, rng), *_ = _chunks(1000, 16, 4 * 1_000_003, "", False)
    z = np.einsum("ij,ij->i", rng.standard_normal((1000, 8)), rng.standard_normal((1000, 8)))
    assert row.ratio == pytest.approx(np.var(z / np.sqrt(8), ddof=1), rel=1e-12)


def test_small_run_interval_never_below_zero():
    """The issue's example (10 draws, d_k = 4, seed 31) gave [-0.2327, 5.0539]; at the fewest
    draws allowed the interval is positive and longer above the estimate than below."""
    for seed in range(31, 41):
        (r,) = variance_lab([4], 1000, seed=seed, method="direct", progress=False)
        assert 0 < r.ratio_ci[0] < r.ratio < r.ratio_ci[1]
        assert r.ratio_ci[1] - r.ratio > r.ratio - r.ratio_ci[0]


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
    lo, hi = r.unscaled.mean_p_one_minus_p_ci
    assert 0 < lo < r.unscaled.mean_p_one_minus_p < hi < 0.0099  # p > 0.99 means p(1-p) < 0.0099
    assert r.scaled.mean_p_one_minus_p is None and r.scaled.mean_p_one_minus_p_ci is None


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


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"trials": 0}, "trials must be from 1 to 10^9"),
        ({"trials": 10**12}, "trials must be from 1 to 10^9"),
        ({"width": 0}, "width must be from 1 to 10^6"),
        ({"width": 10**12}, "width must be from 1 to 10^6"),
        ({"keys": 10**12}, "keys must be from 1 to 10^6"),
        ({"threshold": 1.0}, "threshold"),
        ({"threshold": float("nan")}, "threshold"),
        ({"method": "magic"}, "method"),
        ({"trials": 10**9, "method": "reduced"}, "limit of 2 x 10^9"),
        ({"width": 10**6, "trials": 10**6}, "limit of 2 x 10^9"),
    ],
)
def test_bad_saturation_arguments(kwargs, message):
    """Sizes the lab cannot bound, thresholds and methods are refused at once, naming the limit."""
    with pytest.raises(ValueError, match=re.escape(message)):
        saturation_lab(**{"trials": 10, "progress": False, **kwargs})


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (([4], 1), "draws must be from 1,000"),
        (([4], 999), "draws must be from 1,000"),
        (([4], 10**12), "to 10^9"),
        (([0], 1000), "width must be from 1 to 10^6"),
        (([10**12], 1000), "width must be from 1 to 10^6"),
        (([], 1000), "widths"),
        (([10**6], 10**5), "limit of 2 x 10^9"),
    ],
)
def test_bad_variance_arguments(args, message):
    """Too few draws for a calibrated interval, and sizes beyond the shared limits, are refused."""
    with pytest.raises(ValueError, match=re.escape(message)):
        variance_lab(*args, progress=False)


def test_chunk_seeds_are_spawned_lazily_and_unchanged():
    """The k-th chunk's generator is that of SeedSequence(seed).spawn(count)[k]: results are those
    of the eager version, and a run of 10^9 trials needs no list of 10^9 / chunk seeds."""
    eager = np.random.SeedSequence(7).spawn(5)
    lazy = list(_chunks(5 * labs.CHUNK, 1, 7, "", False))
    assert len(lazy) == 5
    for (_, rng), ss in zip(lazy, eager, strict=True):
        assert rng.integers(0, 2**62) == np.random.default_rng(ss).integers(0, 2**62)
    many = _chunks(10**9, labs.CHUNK, 7, "", False)  # 10^9 chunks: only the first is made
    assert next(many)[0] == 1


def test_large_direct_trial_draws_keys_in_blocks(monkeypatch):
    """A direct trial larger than a chunk gives the same scores as drawing its keys at once."""
    rng_a, rng_b = np.random.default_rng(5), np.random.default_rng(5)
    whole = scores_for_saturation(1, 100, 37, rng_a, "direct")
    monkeypatch.setattr(labs, "CHUNK", 1000)  # 10 keys of width 100 per block
    blocks = scores_for_saturation(1, 100, 37, rng_b, "direct")
    assert blocks.shape == (1, 37)
    np.testing.assert_allclose(blocks, whole, rtol=1e-12)  # same draws; BLAS may sum in another order


def test_width_of_a_million_stays_bounded():
    """--width 1000000 --trials 2 (direct) took 578 MB; blocks keep it under 100 MB."""
    tracemalloc.start()
    r = saturation_lab(2, 10**6, 16, 0.99, seed=0, method="direct", progress=False)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert peak < 100 * 2**20
    assert r.unscaled.saturated == 2  # raw scores of spread 1000: one weight takes everything


def test_progress_bar_only_on_a_terminal(monkeypatch):
    """Long runs draw a progress bar on stderr when it is a terminal, and nothing otherwise."""
    fake = Terminal()
    monkeypatch.setattr(sys, "stderr", fake)
    variance_lab([128], 40_000, seed=0, method="direct")
    assert "variance d_k=128" in fake.getvalue() and "draws" in fake.getvalue()
    quiet = io.StringIO()
    monkeypatch.setattr(sys, "stderr", quiet)
    variance_lab([128], 40_000, seed=0, method="direct")
    assert quiet.getvalue() == ""
