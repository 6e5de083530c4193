"""The cost model (symattn/core/flops.py) against numbers worked by hand."""

from __future__ import annotations

import pytest
import sympy as sp

from symattn.core.flops import N, breakdown, cost_terms, crossover, crossover_n, d_model, total_cost


def test_terms_simplify_to_the_module_formula():
    """The four terms are 3Nd^2, N^2 d, N^2 d, Nd^2 and sum to 4Nd^2 + 2N^2 d."""
    t = cost_terms()
    assert [sp.simplify(t[k]) for k in ("projections", "scores", "weighted_sum", "output_projection")] == [
        3 * N * d_model**2,
        N**2 * d_model,
        N**2 * d_model,
        N * d_model**2,
    ]
    assert sp.expand(total_cost() - (4 * N * d_model**2 + 2 * N**2 * d_model)) == 0


def test_crossover():
    """The quadratic terms win exactly when N > 2 d_model: 8192 at d_model = 4096."""
    assert crossover() == (2 * d_model < N)
    assert crossover_n(4096) == 8192
    assert crossover_n(512) == 1024


def test_breakdown_by_hand():
    """N = 1024, d = 512, h = 8, worked by hand: 3*1024*512^2 = 805,306,368 and so on."""
    b = breakdown(1024, 512, 8)
    assert b == {
        "projections": 805_306_368,
        "scores": 536_870_912,
        "weighted_sum": 536_870_912,
        "output_projection": 268_435_456,
        "total": 2_147_483_648,
        "crossover_n": 1024,
    }


def test_heads_do_not_change_the_cost():
    """Eight heads of width 64 cost what one head of width 512 costs."""
    assert breakdown(300, 512, 8) == breakdown(300, 512, 1)


@pytest.mark.parametrize(("n", "d", "h"), [(0, 8, 1), (4, 0, 1), (4, 10, 3)])
def test_bad_sizes(n, d, h):
    """Non-positive sizes and a width not divisible by the heads are refused."""
    with pytest.raises(ValueError):
        breakdown(n, d, h)
