"""Properties of attention over many generated inputs (Hypothesis).

Exact-equals-numeric on random rational inputs across masks and shapes is in test_numeric.py.
"""

from __future__ import annotations

import mpmath
import numpy as np
import sympy as sp
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from reference import allowed_for_spec, padding_fits
from strategies import as_text, mask_specs, problems

from symattn.core.exact import attention
from symattn.core.numeric import attention_numeric, attention_weights_numeric

finite = st.floats(-10, 10, allow_nan=False, allow_infinity=False)


@st.composite
def qkv(draw, max_n=6, max_d=4):
    n, m = draw(st.integers(1, max_n)), draw(st.integers(1, max_n))
    dk, dv = draw(st.integers(1, max_d)), draw(st.integers(1, max_d))
    return (
        draw(arrays(np.float64, (n, dk), elements=finite)),
        draw(arrays(np.float64, (m, dk), elements=finite)),
        draw(arrays(np.float64, (m, dv), elements=finite)),
    )


def _allowed(spec, n, m):
    """The pairs the mask allows at N x M, by the reference; assume() keeps only the inputs the
    properties are about (each padding fits the keys, every query keeps a key). What the code
    raises on those is the test's failure, never a reason to skip."""
    assume(padding_fits(spec, m))
    ok = allowed_for_spec(spec, n, m)
    assume(ok.any(axis=1).all())
    return ok


@settings(max_examples=150, deadline=None)
@given(qkv(), mask_specs)
def test_weight_rows_sum_to_one_and_masked_weights_are_zero(data, spec):
    """Every row of weights sums to 1 (to 1e-12) and every blocked pair has weight exactly 0."""
    q, k, _ = data
    ok = _allowed(spec, len(q), len(k))
    w = attention_weights_numeric(q, k, spec)
    assert np.abs(w.sum(axis=1) - 1).max() <= 1e-12
    assert np.all(w[~ok] == 0.0)
    assert np.all(w >= 0)


@settings(max_examples=40, deadline=None)
@given(problems(max_size=3), mask_specs)
def test_exact_masked_weights_are_zero_and_rows_sum_to_one(problem, spec):
    """Exactly: blocked weights are the integer 0 and each row sums to exactly 1."""
    q, k, v = problem
    ok = _allowed(spec, len(q), len(k))
    w = attention(as_text(q), as_text(k), as_text(v), spec).weights
    for i in range(w.rows):
        assert sp.cancel(sum(w.row(i)) - 1) == 0
        for j in range(w.cols):
            if not ok[i, j]:
                assert w[i, j] == 0


@settings(max_examples=100, deadline=None)
@given(qkv(max_n=7), st.randoms(use_true_random=False))
def test_permutation_equivariance_without_mask(data, rnd):
    """Self-attention of PX is P times self-attention of X (1e-12)."""
    x = data[0]
    order = list(range(len(x)))
    rnd.shuffle(order)
    base = attention_numeric(x, x, x)
    assert np.abs(attention_numeric(x[order], x[order], x[order]) - base[order]).max() <= 1e-12


big = st.floats(-1e3, 1e3, allow_nan=False, allow_infinity=False)


@settings(max_examples=60, deadline=None)
@given(
    arrays(np.float64, (2, 2), elements=big),
    arrays(np.float64, (3, 2), elements=big),
    arrays(np.float64, (3, 2), elements=finite),
)
def test_huge_scores_stay_finite_and_correct(q, k, v):
    """Scores up to about 1e6 in size: finite output, equal to a 50-digit mpmath evaluation."""
    out = attention_numeric(q, k, v, scale=False)
    assert np.isfinite(out).all()
    with mpmath.workdps(50):
        for i in range(2):
            s = [sum(mpmath.mpf(q[i, c]) * mpmath.mpf(k[j, c]) for c in range(2)) for j in range(3)]
            top = max(s)
            e = [mpmath.exp(x - top) for x in s]
            total = sum(e)
            for c in range(2):
                want = sum(e[j] * mpmath.mpf(v[j, c]) for j in range(3)) / total
                assert abs(out[i, c] - float(want)) <= 1e-9 * max(1.0, abs(float(want)))
