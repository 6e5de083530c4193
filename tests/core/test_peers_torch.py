"""Peer checks against PyTorch 2.13 (CPU, float64): attention, multi-head attention, the softmax
Jacobian and the FLOP count. scripts/test.sh installs torch==2.13.0, so CI runs these.

torch is imported by the ``torch`` fixture, not at the top: a pytest worker that has imported it
forks more than twice as slowly (18 ms against 7 on these machines), and the checker forks a worker
per answer, thousands of times a run. Collecting this file imports nothing of torch, and
tests/groups.py runs its tests last on each worker."""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp
from peers import missing

from derivations.softmax_jacobian import explicit
from symattn.core.flops import breakdown
from symattn.core.multihead import multihead_numeric
from symattn.core.numeric import attention_numeric, attention_weights_numeric
from symattn.errors import EmptyRowError

SHAPES = [(3, 5, 4, 2), (6, 2, 3, 7), (1, 9, 8, 8), (16, 16, 64, 32), (5, 11, 2, 3)]


def _random(n, m, dk, dv, seed):
    rng = np.random.default_rng(seed)
    return rng.normal(size=(n, dk)), rng.normal(size=(m, dk)), rng.normal(size=(m, dv))


@pytest.fixture(scope="module")
def torch():
    """PyTorch, imported once a test of this file runs (a missing one skips or, when required, fails)."""
    try:
        import torch
    except ImportError:
        missing("torch", "it is not installed (scripts/test.sh installs 2.13.0, whose wheel here is for "
                "Python 3.11 only: .ci/run's newest-Python run has none)")
    return torch


def _sdpa(torch, q, k, v, **kw):
    t = [torch.from_numpy(a) for a in (q, k, v)]
    return torch.nn.functional.scaled_dot_product_attention(*t, **kw).numpy()


@pytest.mark.parametrize("shape", SHAPES)
def test_no_mask_and_explicit_scale(shape, torch):
    """No mask, and an explicit scale, match SDPA to 1e-12 (N != M, d_v != d_k included)."""
    q, k, v = _random(*shape, seed=1)
    assert np.abs(attention_numeric(q, k, v) - _sdpa(torch, q, k, v)).max() <= 1e-12
    assert np.abs(attention_numeric(q, k, v, scale=0.37) - _sdpa(torch, q, k, v, scale=0.37)).max() <= 1e-12


@pytest.mark.parametrize("shape", [s for s in SHAPES if s[0] <= s[1]])
def test_causal_top_left_is_is_causal(shape, torch):
    """symattn's `causal` is torch's is_causal (aligned top-left for N != M)."""
    q, k, v = _random(*shape, seed=2)
    got = attention_numeric(q, k, v, "causal")
    assert np.abs(got - _sdpa(torch, q, k, v, is_causal=True)).max() <= 1e-12


@pytest.mark.parametrize("shape", [s for s in SHAPES if s[0] <= s[1]])
def test_causal_bottom_right(shape, torch):
    """`causal:bottom-right` matches torch.nn.attention.bias.causal_lower_right."""
    from torch.nn.attention.bias import causal_lower_right

    q, k, v = _random(*shape, seed=3)
    n, m = shape[0], shape[1]
    t = [torch.from_numpy(a)[None] for a in (q, k, v)]
    want = torch.nn.functional.scaled_dot_product_attention(*t, attn_mask=causal_lower_right(n, m))[0].numpy()
    assert np.abs(attention_numeric(q, k, v, "causal:bottom-right") - want).max() <= 1e-12


@pytest.mark.parametrize("shape", SHAPES)
def test_padding_and_window_as_boolean_masks(shape, torch):
    """padding and sliding-window masks equal SDPA with the same boolean mask (True = allowed)."""
    from symattn.core.masks import Mask

    q, k, v = _random(*shape, seed=4)
    n, m = shape[0], shape[1]
    for spec in (f"padding:{max(1, m - 1)}", "window:2+padding:" + str(m)):
        mask = Mask.parse(spec)
        if mask.empty_rows(n, m):
            continue
        allowed = torch.from_numpy(mask.allowed(n, m))
        want = _sdpa(torch, q, k, v, attn_mask=allowed)
        assert np.abs(attention_numeric(q, k, v, spec) - want).max() <= 1e-12


@pytest.mark.parametrize("shape", SHAPES)
def test_additive_float_mask(shape, torch):
    """A float mask is added to the scaled scores, as SDPA does."""
    q, k, v = _random(*shape, seed=5)
    bias = np.random.default_rng(6).normal(size=(shape[0], shape[1]))
    want = _sdpa(torch, q, k, v, attn_mask=torch.from_numpy(bias))
    assert np.abs(attention_numeric(q, k, v, bias) - want).max() <= 1e-12


@pytest.mark.parametrize(("n", "d", "h"), [(5, 8, 2), (7, 12, 3), (4, 16, 8), (9, 6, 1)])
def test_multihead_matches_nn_multiheadattention(n, d, h, torch):
    """With nn.MultiheadAttention's weights (in_proj rows [W_q; W_k; W_v], y = x W^T + b),
    symattn's multi-head attention gives the same outputs and per-head weights (1e-12)."""
    torch.manual_seed(n * 100 + d + h)
    mha = torch.nn.MultiheadAttention(d, h, batch_first=True, dtype=torch.float64)
    with torch.no_grad():
        mha.in_proj_bias.normal_()
        mha.out_proj.bias.normal_()
    x = torch.randn(1, n, d, dtype=torch.float64)
    out, weights = mha(x, x, x, need_weights=True, average_attn_weights=False)
    W = mha.in_proj_weight.detach().numpy()
    b = mha.in_proj_bias.detach().numpy()
    dh = d // h
    Wq, Wk, Wv = W[:d], W[d : 2 * d], W[2 * d :]
    bq, bk, bv = b[:d], b[d : 2 * d], b[2 * d :]

    def heads(mat):
        return [mat.T[:, i * dh : (i + 1) * dh] for i in range(h)]

    def parts(vec):
        return [vec[i * dh : (i + 1) * dh] for i in range(h)]

    xs = x[0].numpy()
    got = multihead_numeric(
        xs,
        xs,
        xs,
        heads(Wq),
        heads(Wk),
        heads(Wv),
        mha.out_proj.weight.detach().numpy().T,
        biases=(parts(bq), parts(bk), parts(bv), mha.out_proj.bias.detach().numpy()),
    )
    assert np.abs(got - out[0].detach().numpy()).max() <= 1e-12
    for i in range(h):
        qi = xs @ heads(Wq)[i] + parts(bq)[i]
        ki = xs @ heads(Wk)[i] + parts(bk)[i]
        assert np.abs(attention_weights_numeric(qi, ki) - weights[0, i].detach().numpy()).max() <= 1e-12


@pytest.mark.parametrize("n", [2, 3, 5])
def test_softmax_jacobian_matches_autograd(n, torch):
    """The lambdified J = diag(p) - p p^T equals torch.autograd's Jacobian of softmax (1e-12)."""
    _, jac, zs = explicit(n)
    f = sp.lambdify([zs], jac, "numpy")
    rng = np.random.default_rng(n)
    for _ in range(5):
        z = rng.normal(size=n) * 3
        want = torch.autograd.functional.jacobian(lambda t: torch.softmax(t, 0), torch.from_numpy(z))
        assert np.abs(np.asarray(f(z), float) - want.numpy()).max() <= 1e-12


def _flops(mha, x) -> int:
    """The FLOPs FlopCounterMode counts for ``mha(x, x, x)`` on SDPA's MATH backend."""
    from torch.nn.attention import SDPBackend, sdpa_kernel
    from torch.utils.flop_counter import FlopCounterMode

    with sdpa_kernel(SDPBackend.MATH), FlopCounterMode(display=False) as counter:
        mha(x, x, x, need_weights=False)
    return counter.get_total_flops()


@pytest.mark.parametrize(("n", "d", "h"), [(16, 32, 4), (64, 16, 2), (128, 64, 8), (32, 16, 1)])
def test_flop_count_matches_flopcountermode(n, d, h, torch):
    """FlopCounterMode on nn.MultiheadAttention (MATH backend) counts exactly
    2 (4 N d^2 + 2 N^2 d): two FLOPs per multiply-add of symattn's formula."""
    mha = torch.nn.MultiheadAttention(d, h, batch_first=True, dtype=torch.float64)
    x = torch.randn(1, n, d, dtype=torch.float64)
    assert _flops(mha, x) == 2 * breakdown(n, d, h)["total"]


def test_terms_are_equal_at_the_crossover(torch):
    """At N = 2 d the N^2 terms and the N d^2 terms cost the same (counted by torch)."""
    d, h = 16, 2
    n = 2 * d
    b = breakdown(n, d, h)
    assert b["scores"] + b["weighted_sum"] == b["projections"] + b["output_projection"]
    mha = torch.nn.MultiheadAttention(d, h, batch_first=True, dtype=torch.float64)
    x = torch.randn(1, n, d, dtype=torch.float64)
    assert _flops(mha, x) == 2 * 2 * (b["projections"] + b["output_projection"])


def test_fully_masked_row_differs_by_design(torch):
    """A row with no allowed key: torch returns 0 for it, symattn refuses (JAX returns mean(V))."""
    q, k, v = _random(3, 4, 2, 2, seed=9)
    allowed = np.ones((3, 4), bool)
    allowed[1] = False
    torch_out = _sdpa(torch, q, k, v, attn_mask=torch.from_numpy(allowed))
    assert np.all(torch_out[1] == 0)
    with pytest.raises(EmptyRowError, match="row 2"):
        attention_numeric(q, k, v, np.where(allowed, 0.0, -np.inf))
