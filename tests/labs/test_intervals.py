"""Confidence intervals (symattn/labs/intervals.py): closed forms, an mpmath reference, and coverage
measured in CI over many seeds with the labs' own draws."""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest

from symattn.labs import scores_for_variance
from symattn.labs.intervals import Z95, PowerSums, chi2_quantile, mean_interval, variance_interval, wilson
from symattn.limits import MIN_DRAWS


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


@pytest.mark.parametrize("nu", [30, 100, 250, 1000, 10**5])
def test_chi2_quantile_against_mpmath(nu):
    """The Wilson-Hilferty quantiles agree with mpmath's inverse of the regularized gamma to 1e-3."""
    for z, p in ((Z95, 0.975), (-Z95, 0.025)):
        exact = mpmath.findroot(lambda x, p=p: mpmath.gammainc(nu / 2, 0, x / 2, regularized=True) - p, nu)
        assert chi2_quantile(nu, z) == pytest.approx(float(exact), rel=1e-3)


def test_variance_interval_normal_data_matches_the_chi_square_interval():
    """For normal data (kurtosis near 3) the interval is close to the exact chi-square interval
    with n - 1 degrees of freedom, computed here with mpmath."""
    x = np.random.default_rng(1).standard_normal(5000)
    s = PowerSums()
    s.add(x)
    v, lo, hi = variance_interval(s)
    n = x.size

    def q(p):
        return float(
            mpmath.findroot(lambda t: mpmath.gammainc((n - 1) / 2, 0, t / 2, regularized=True) - p, n)
        )

    assert v == pytest.approx(x.var(ddof=1), rel=1e-12)
    assert lo == pytest.approx((n - 1) * v / q(0.975), rel=0.01)
    assert hi == pytest.approx((n - 1) * v / q(0.025), rel=0.01)
    assert hi - v > v - lo  # longer above: the skew of a variance estimate


def _coverage(d: int, method: str, seeds: int, draws: int = MIN_DRAWS) -> tuple[float, float, float, float]:
    """(coverage, share missed below 1, share missed above 1, smallest low end) of the variance
    lab's interval for Var(q.k)/d_k over ``seeds`` independent runs of ``draws`` draws each."""
    rng = np.random.default_rng(np.random.SeedSequence([2026, d]))
    lows, highs = [], []
    block = 2000  # seeds per block: about 16 MB of scores at a time
    for start in range(0, seeds, block):
        m = min(block, seeds - start)
        z = scores_for_variance(m * draws, d, rng, method).reshape(m, draws) / math.sqrt(d)
        sums = PowerSums()
        sums.add(z)
        _, lo, hi = variance_interval(sums)
        lows.append(lo)
        highs.append(hi)
    lo, hi = np.concatenate(lows), np.concatenate(highs)
    return (
        float(np.mean((lo <= 1) & (hi >= 1))),
        float(np.mean(hi < 1)),
        float(np.mean(lo > 1)),
        float(lo.min()),
    )


@pytest.mark.parametrize(
    ("d", "method", "seeds"),
    [
        (1, "reduced", 10_000),
        (4, "reduced", 10_000),
        (32, "reduced", 10_000),
        (1024, "reduced", 10_000),
        (2, "direct", 4000),
    ],
)
def test_variance_interval_coverage_at_fewest_draws(d, method, seeds):
    """At the fewest draws the lab allows, the 95 % interval covers the true ratio 1 in 93-97 %
    of seeded runs, its misses are not lopsided (neither side more than twice the other) and it
    never reaches 0. d_k = 1 has the heaviest tail (kurtosis 9)."""
    coverage, below, above, lowest = _coverage(d, method, seeds)
    assert 0.93 <= coverage <= 0.97, (coverage, below, above)
    assert below <= 2 * above and above <= 2 * below, (below, above)
    assert lowest > 0


def test_variance_interval_is_vectorised_like_scalar():
    """Sums over the last axis of a (seeds, n) array give, per row, the scalar interval of that row."""
    x = np.random.default_rng(3).standard_normal((3, 1500))
    rows = PowerSums()
    rows.add(x)
    v, lo, hi = variance_interval(rows)
    for i in range(3):
        one = PowerSums()
        one.add(x[i])
        assert (v[i], lo[i], hi[i]) == pytest.approx(variance_interval(one), rel=1e-12)


def test_variance_interval_needs_two_values():
    """One value has no variance: refused, not a division by zero."""
    s = PowerSums()
    s.add(np.array([1.0]))
    with pytest.raises(ValueError, match="at least 2"):
        variance_interval(s)


def test_power_sums_stream():
    """Adding in pieces gives the same variance as numpy on the whole array."""
    x = np.random.default_rng(2).normal(0.5, 2.0, 10_001)
    s = PowerSums()
    for part in np.array_split(x, 7):
        s.add(part)
    assert s.variance() == pytest.approx(x.var(ddof=1), rel=1e-10)


def test_mean_interval_by_hand():
    """Mean +- 1.96 s / sqrt(n), from sums, cut at the bounds; None below two values."""
    y = np.array([0.1, 0.2, 0.4, 0.3])
    lo, hi = mean_interval(y.sum(), (y * y).sum(), 4, (0.0, 1.0))
    half = Z95 * y.std(ddof=1) / 2
    assert (lo, hi) == pytest.approx((0.25 - half, 0.25 + half))
    assert mean_interval(1e-6, 1e-12 + 0.01, 2, (0.0, 0.25))[0] == 0.0
    assert mean_interval(0.1, 0.01, 1, (0.0, 0.25)) is None
