"""Multi-head attention (symattn/core/multihead.py) against a loop written by hand and exact values."""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp
from reference import allowed_reference, attention_reference

from symattn.core.multihead import HeadsShape, define_multihead, multihead_exact, multihead_numeric
from symattn.errors import ShapeError


def reference(x, wq, wk, wv, wo, biases=None, allowed=None):
    heads = []
    for t in range(len(wq)):
        q, k, v = x @ wq[t], x @ wk[t], x @ wv[t]
        if biases is not None:
            q, k, v = q + biases[0][t], k + biases[1][t], v + biases[2][t]
        heads.append(attention_reference(q, k, v, allowed))
    out = np.concatenate(heads, axis=1) @ wo
    return out if biases is None else out + biases[3]


@pytest.mark.parametrize("bias", [False, True])
@pytest.mark.parametrize("mask", [None, "causal"])
def test_numeric_matches_reference(bias, mask):
    """Heads joined then projected, with and without biases and a causal mask, to 1e-13."""
    rng = np.random.default_rng(11)
    n, d, h = 5, 8, 4
    x = rng.normal(size=(n, d))
    w = [[rng.normal(size=(d, d // h)) for _ in range(h)] for _ in range(3)]
    wo = rng.normal(size=(d, d))
    biases = (
        (
            [rng.normal(size=d // h) for _ in range(h)],
            [rng.normal(size=d // h) for _ in range(h)],
            [rng.normal(size=d // h) for _ in range(h)],
            rng.normal(size=d),
        )
        if bias
        else None
    )
    got = multihead_numeric(x, x, x, w[0], w[1], w[2], wo, biases=biases, mask=mask)
    allowed = allowed_reference("causal", n, n) if mask else None
    np.testing.assert_allclose(got, reference(x, w[0], w[1], w[2], wo, biases, allowed), atol=1e-13)


def test_exact_equals_numeric():
    """Exact evaluation of the same expression agrees with the lambdified code."""
    x = sp.Matrix([[1, 0, 2, -1], [0, 1, 1, 1], [sp.Rational(1, 2), -1, 0, 2]])
    w = [
        [
            sp.Matrix(4, 2, lambda r, c, t=t, s=s: sp.Rational((r + 2 * c + t + s) % 5 - 2, 2))
            for t in range(2)
        ]
        for s in range(3)
    ]
    wo = sp.Matrix(4, 4, lambda r, c: (r - c) % 3 - 1)
    exact = multihead_exact(x, x, x, w[0], w[1], w[2], wo)
    f = [[np.array(m, float) for m in ws] for ws in w]
    xf = np.array(x, float)
    got = multihead_numeric(xf, xf, xf, f[0], f[1], f[2], np.array(wo, float))
    np.testing.assert_allclose(got, np.array(exact.evalf(30).tolist(), float), atol=1e-13)


def test_projections_stay_grouped_in_the_code():
    """The generated code computes X W^Q as its own product, not X (W^Q W^K^T) X^T."""
    import inspect

    from symattn.core.multihead import compiled_multihead

    code = inspect.getsource(compiled_multihead(HeadsShape(4, 4, 8, 2), False, False))
    assert "(Xq @ WQ_1) @ numpy.swapaxes((Xk @ WK_1), -1, -2)" in code


def test_width_must_divide():
    """d_model not divisible by h is refused."""
    with pytest.raises(ShapeError):
        define_multihead(HeadsShape(2, 2, 6, 4), masked=False)


def test_exact_multihead_carried_out_bottom_up_matches_sympys_entrywise_evaluation():
    """multihead_exact computes the expression operation by operation (nodes.carry_out); SymPy's
    own entry-by-entry as_explicit of the same expression is the reference."""
    from symattn.core.masks import Mask
    from symattn.core.multihead import HeadsShape, _in_input_order, define_multihead, multihead_exact

    rng = np.random.default_rng(3)

    def rational(rows, cols):
        return sp.Matrix(rows, cols, lambda *_: sp.Rational(int(rng.integers(-9, 10)), 4))

    x, wo = rational(2, 4), rational(4, 4)
    w = [[rational(4, 2) for _ in range(2)] for _ in range(3)]
    got = multihead_exact(x, x, x, w[0], w[1], w[2], wo, "causal")
    d = define_multihead(HeadsShape(2, 2, 4, 2), masked=True)
    values = _in_input_order(x, x, x, w[0], w[1], w[2], wo, None, Mask.parse("causal").exact(2, 2))
    subs = {s: sp.ImmutableMatrix(v) for s, v in zip(d.inputs, values, strict=True)}
    reference = sp.Matrix(d.expression.xreplace(subs).doit().as_explicit())
    assert got.shape == reference.shape
    assert all(sp.simplify(a - b) == 0 for a, b in zip(got, reference, strict=True))
