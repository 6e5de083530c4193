"""Confidence intervals (symattn/intervals.py)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from symattn.intervals import PowerSums, variance_interval, wilson


def test_wilson_closed_forms():
    """With no successes the upper end is z^2/(n + z^2); all successes mirror it."""
    z = 1.959963984540054
    assert wilson(0, 500) == (0.0, pytest.approx(z * z / (500 + z * z)))
    lo, hi = wilson(500, 500)
    assert hi == 1.0 and lo == pytest.approx(500 / (500 + z * z))


def test_wilson_module_figure():
    """175 of 500 (the module's 35 %) has the interval [0.309, 0.393]."""
    lo, hi = wilson(175, 500)
    assert (round(lo, 3), round(hi, 3)) == (0.309, 0.393)


def test_wilson_covers_about_95_percent():
    """Simulated coverage of the true p = 0.3 at n = 200 is close to 95 %."""
    rng = np.random.default_rng(0)
    hits = [wilson(int(k), 200) for k in rng.binomial(200, 0.3, size=2000)]
    coverage = np.mean([lo <= 0.3 <= hi for lo, hi in hits])
    assert 0.93 < coverage < 0.97


def test_variance_interval_for_normal_data():
    """For normal samples the interval half-width is about 1.96 sqrt(2/n), and covers 1 ~95 %."""
    rng = np.random.default_rng(1)
    covered = 0
    for _ in range(400):
        s = PowerSums()
        s.add(rng.standard_normal(2000))
        _, lo, hi = variance_interval(s)
        covered += lo <= 1.0 <= hi
        assert (hi - lo) / 2 == pytest.approx(1.96 * math.sqrt(2 / 2000), rel=0.2)
    assert 0.92 < covered / 400 < 0.98


def test_power_sums_stream():
    """Adding in pieces gives the same variance as numpy on the whole array."""
    x = np.random.default_rng(2).normal(3.0, 2.0, 10_001)
    s = PowerSums()
    for part in np.array_split(x, 7):
        s.add(part)
    assert s.variance() == pytest.approx(x.var(ddof=1), rel=1e-10)
