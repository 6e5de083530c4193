"""derivations/multihead_flops.py: 4 N d^2 + 2 N^2 d and the crossover at N = 2 d_model."""

from __future__ import annotations

import numpy as np
import pytest

from derivations import multihead_flops as mf

NAME = "multihead_flops"


def test_all_steps_verified(verify):
    """Every step passes and the operation count matches the formula exactly."""
    _, report = verify(NAME)
    assert report.ok and report.numeric_steps == 0
    count = next(c for c in report.checks if c.name.startswith("multiply-adds"))
    assert count.error == 0


def test_counter_counts_a_known_product():
    """The counting array counts an (a x b) @ (b x c) product as a b c, batches included."""
    a = np.ones((2, 3, 4)).view(mf.CountingArray)
    mf.CountingArray.count = 0
    _ = a @ np.ones((4, 5))
    assert mf.CountingArray.count == 2 * 3 * 4 * 5


@pytest.mark.parametrize(("n", "d", "h"), [(8, 16, 2), (33, 8, 4), (64, 64, 8)])
def test_generated_code_costs_the_formula(n, d, h):
    """The multiply-adds of symattn's generated multi-head code are 4 N d^2 + 2 N^2 d exactly."""
    assert mf.counted_multihead(n, d, h) == 4 * n * d * d + 2 * n * n * d


def test_equal_terms_at_the_crossover():
    """At N = 2 d (symattn's crossover_n) the two halves of symattn's cost are equal, and each is
    the count written out by hand: 4 N d^2 = 2 N^2 d; one token later the quadratic half is larger."""
    from symattn.core.flops import breakdown, crossover_n

    d = 48
    n = crossover_n(d)
    assert n == 2 * d
    cost = breakdown(n, d)
    linear, quadratic = cost["projections"] + cost["output_projection"], cost["scores"] + cost["weighted_sum"]
    assert linear == quadratic == 3 * n * d * d + n * d * d == 2 * n * n * d
    after = breakdown(n + 1, d)
    assert after["scores"] + after["weighted_sum"] > after["projections"] + after["output_projection"]
