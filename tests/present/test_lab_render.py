"""Lab output (symattn/present/lab_render.py): intervals rounded outward on the exact binary value."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from symattn.labs import SaturationResult, Share, VarianceRow
from symattn.labs.intervals import wilson
from symattn.present.lab_render import (
    nearest,
    outward,
    percent_texts,
    saturation_json,
    saturation_markdown,
    saturation_text,
    variance_markdown,
    variance_text,
)

Z = 1.959963984540054


def _share(successes: int, n: int) -> Share:
    return Share(successes / n, wilson(successes, n), successes, None, None)


@given(
    st.floats(0, 1e6, allow_nan=False),
    st.floats(0, 1e6, allow_nan=False),
    st.integers(0, 8),
)
def test_outward_contains_the_exact_interval(a, b, places):
    """The printed low end is <= the exact low end and the printed high end >= the exact high
    end, each within one unit of the last place (checked with Fraction, exactly)."""
    low, high = min(a, b), max(a, b)
    lo, hi = outward(low, high, places)
    unit = Fraction(1, 10**places)
    assert Fraction(lo) <= Fraction(low) < Fraction(lo) + unit
    assert Fraction(hi) - unit < Fraction(high) <= Fraction(hi)


def test_outward_rounds_the_binary_value():
    """The double 0.1 is a little above 1/10, so its upper rounding at one place is 0.2; the
    double 0.3 is a little below 3/10, so its lower rounding is 0.2."""
    assert outward(0.1, 0.1, 1) == ("0.1", "0.2")
    assert outward(0.3, 0.3, 1) == ("0.2", "0.3")
    assert outward(0.25, 0.75, 2) == ("0.25", "0.75")  # exact in binary: unchanged
    assert nearest(0.125, 2) == "0.12"  # exact tie: to even


def test_nonzero_upper_bound_never_prints_as_zero():
    """0 saturated of 100,000 has the upper bound z^2/(n + z^2) = 0.00384 %: shown as 0.0039 %,
    not 0.00 % (the issue's bug); of 1,000,000, as 0.00039 %."""
    share, lo, hi = percent_texts(_share(0, 100_000))
    assert (share, lo, hi) == ("0.0000", "0.0000", "0.0039")
    assert pytest.approx(0.0038414, rel=1e-4) == 100 * Z * Z / (100_000 + Z * Z)  # hand figure
    assert percent_texts(_share(0, 1_000_000))[2] == "0.00039"


def test_module_share_in_percent():
    """175 of 500: 35.00 % with the Wilson interval [30.948..., 39.280...] % (mpmath, 30 digits:
    0.309480173144661, 0.392807128993805), so [30.94 %, 39.29 %] rounded outward."""
    assert percent_texts(_share(175, 500)) == ("35.00", "30.94", "39.29")


def _result() -> SaturationResult:
    unscaled = Share(0.348, wilson(174, 500), 174, 0.0018007, (0.0014324, 0.0021690))
    return SaturationResult(unscaled, _share(0, 500), 500, 128, 64, 0.99, "direct", 0)


def test_saturation_text_shows_counts_shares_and_both_intervals():
    """Each row gives the count, the share, its interval, and the mean p(1-p) with its interval."""
    text = saturation_text(_result())
    assert "174 of 500 saturated  34.80%  [30.75%, 39.08%]" in text
    assert "0.00180 [0.00143, 0.00217]" in text
    assert "0 of 500 saturated  0.00%  [0.00%, 0.77%]" in text


def test_saturation_markdown_and_json():
    """The docs table has the same figures; JSON keeps the exact floats and the mean's interval."""
    md = saturation_markdown(_result())
    assert "| unscaled | 174 of 500 | 34.80 % | [30.75 %, 39.08 %] | 0.00180 | [0.00143, 0.00217] |" in md
    doc = json.loads(saturation_json(_result()))
    assert doc["unscaled"]["mean_p_one_minus_p_ci"] == [0.0014324, 0.002169]
    assert doc["scaled"]["mean_p_one_minus_p_ci"] is None


def test_variance_output_has_one_variance_column():
    """Var(q.k)/d_k and Var(q.k/sqrt(d_k)) are one number: one column, its interval outward."""
    rows = [VarianceRow(32, 1.00494, (0.998412, 1.011461), 200_000)]
    text = variance_text(rows, 0, "direct")
    header = text.splitlines()[2]
    assert header.count("Var(") == 1
    assert text.splitlines()[3].split() == ["32", "1.0049", "[0.9984,", "1.0115]"]
    md = variance_markdown(rows)
    assert md.splitlines()[0].count("|") == 4 and "| 32 | 1.0049 | [0.9984, 1.0115] |" in md
