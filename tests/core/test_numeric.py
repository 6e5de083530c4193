"""Lambdified NumPy attention (symattn/core/numeric.py) vs exact values and a hand-written reference."""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp
from hypothesis import HealthCheck, assume, given, settings
from reference import allowed_for_spec, allowed_reference, attention_reference, padding_fits
from strategies import as_float, as_text, mask_specs, problems

from symattn.core.definition import Shape
from symattn.core.exact import attention
from symattn.core.masks import Mask
from symattn.core.numeric import attention_numeric, source
from symattn.errors import EmptyRowError, ShapeError


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problems(), mask_specs)
def test_exact_numeric_and_reference_agree(problem, spec):
    """On random rational inputs, exact, lambdified and hand-written NumPy agree within 1e-12."""
    q, k, v = problem
    n, m = len(q), len(k)
    mask = Mask.parse(spec)
    assume(padding_fits(spec, m))  # padding longer than the keys is refused: test_masks.py's concern
    allowed = allowed_for_spec(spec, n, m)
    assert np.array_equal(mask.allowed(n, m), allowed)
    if not allowed.any(axis=1).all():
        with pytest.raises(EmptyRowError):
            attention_numeric(np.array(as_float(q)), np.array(as_float(k)), np.array(as_float(v)), mask)
        return
    exact = attention(as_text(q), as_text(k), as_text(v), mask).output
    exact_f = np.array(exact.evalf(30).tolist(), dtype=float)
    fast = attention_numeric(np.array(as_float(q)), np.array(as_float(k)), np.array(as_float(v)), mask)
    ref = attention_reference(as_float(q), as_float(k), as_float(v), allowed)
    np.testing.assert_allclose(fast, exact_f, rtol=0, atol=1e-12)
    np.testing.assert_allclose(ref, exact_f, rtol=0, atol=1e-12)


def test_generated_code_is_matrix_level():
    """The lambdified source uses @ products and one vectorised softmax, no per-entry code."""
    code = source(Shape(64, 48, 16, 8), True)
    assert "@" in code and "swapaxes" in code and ".max(axis=-1" in code
    assert "Q[" not in code and "K[" not in code  # no entry-by-entry indexing
    assert len(code) < 600


def test_module_example_numeric():
    """The section 6.2 example through NumPy: [0, -1] and [0.80443, 1.41329]."""
    out = attention_numeric(
        np.array([[3.0, -3], [1, 1]]),
        np.array([[-3.0, 3], [1, 1]]),
        np.array([[0.0, -1], [1, 2]]),
        "causal",
    )
    np.testing.assert_allclose(out, [[0, -1], [0.8044296825069569, 1.4132890475208707]], atol=1e-15)


def test_huge_scores_stay_finite():
    """Scores of magnitude 1e6 give finite weights and the right answer (one key wins)."""
    q = np.array([[1000.0, 0.0], [-1000.0, 0.0]])
    k = np.array([[1000.0, 0.0], [-1000.0, 0.0], [0.0, 1000.0]])
    v = np.eye(3)
    out = attention_numeric(q, k, v, scale=False)
    assert np.isfinite(out).all()
    np.testing.assert_array_equal(out, [[1, 0, 0], [0, 1, 0]])


def test_float32_stays_float32_and_batches_work():
    """float32 inputs give float32 output; a leading batch axis is attention per batch."""
    rng = np.random.default_rng(0)
    q, k, v = rng.normal(size=(3, 5, 4)), rng.normal(size=(3, 6, 4)), rng.normal(size=(3, 6, 2))
    out = attention_numeric(q, k, v, "causal:bottom-right")
    allowed = allowed_reference("causal", 5, 6, align="bottom-right")
    for b in range(3):
        np.testing.assert_allclose(out[b], attention_reference(q[b], k[b], v[b], allowed), atol=1e-13)
    out32 = attention_numeric(q.astype(np.float32), k.astype(np.float32), v.astype(np.float32))
    assert out32.dtype == np.float32


def test_additive_float_mask_and_explicit_scale():
    """An additive float mask is added to the scores; an explicit scale replaces 1/sqrt(d_k)."""
    rng = np.random.default_rng(1)
    q, k, v = rng.normal(size=(3, 4)), rng.normal(size=(5, 4)), rng.normal(size=(5, 2))
    bias = rng.normal(size=(3, 5))
    out = attention_numeric(q, k, v, bias, scale=0.3)
    s = q @ k.T * 0.3 + bias
    w = np.exp(s - s.max(axis=1, keepdims=True))
    np.testing.assert_allclose(out, (w / w.sum(axis=1, keepdims=True)) @ v, atol=1e-14)


def test_fully_masked_rows_are_refused_not_nan():
    """A row of -inf in an additive mask raises EmptyRowError naming it."""
    mask = np.zeros((3, 2))
    mask[2] = -np.inf
    with pytest.raises(EmptyRowError, match="row 3"):
        attention_numeric(np.ones((3, 1)), np.ones((2, 1)), np.ones((2, 1)), mask)


def test_shape_errors():
    """Mismatched widths and lengths raise ShapeError."""
    with pytest.raises(ShapeError):
        attention_numeric(np.ones((2, 3)), np.ones((2, 2)), np.ones((2, 1)))
    with pytest.raises(ShapeError):
        attention_numeric(np.ones((2, 3)), np.ones((2, 3)), np.ones((3, 1)))
    with pytest.raises(ShapeError):
        attention_numeric(np.ones((2, 3)), np.ones((2, 3)), np.ones((2, 1)), np.zeros((2, 3)))


def test_stage_by_stage_equals_the_composed_expression():
    """Evaluating the stages one by one equals evaluating the whole composed expression at once."""
    from symattn.core.definition import define

    d = define(Shape(2, 3, 2, 2), masked=True)
    q = sp.Matrix([[3, -3], [1, 1]])
    k = sp.Matrix([[-3, 3], [1, 1], [sp.Rational(1, 2), 2]])
    v = sp.Matrix([[0, -1], [1, 2], [5, sp.Rational(-1, 3)]])
    m = Mask.parse("causal:bottom-right").exact(2, 3)
    whole = d.composed().xreplace(dict(zip(d.inputs, (q, k, v, m), strict=True))).doit()
    staged = attention(q.tolist(), k.tolist(), v.tolist(), "causal:bottom-right").output
    for a, b in zip(whole, staged, strict=True):
        assert sp.cancel(sp.expand(a - b)) == 0
        assert abs(sp.N(a - b, 50)) < 1e-45


def test_lambdify_numpy_gives_lambdifys_own_code_without_numpys_star_import():
    """``lambdify_numpy`` makes the code ``modules="numpy"`` makes, with the same values; the
    generated function is not NumPy's (review finding: numpy's module dict made its __module__
    'numpy', so a warnings filter for NumPy's own warnings caught attention's); and a new
    process that lambdifies attention does not import numpy.f2py, numpy.testing or numpy.ma
    (``from numpy import *`` does, 0.15 s)."""
    import inspect
    import re
    import subprocess
    import sys
    import warnings

    from symattn.core.definition import Shape
    from symattn.core.numeric import compiled, lambdify_numpy

    z = sp.symbols("z1:4", real=True)
    p = sp.Matrix([sp.exp(t) / sum(sp.exp(u) for u in z) for t in z])
    expr = sp.diag(*p) - p * p.T + sp.I * sp.Heaviside(z[0]) * sp.eye(3) + sp.Max(z[1], 0) * sp.ones(3)

    def code(f):
        return re.sub(r"_Dummy_\d+", "_D", inspect.getsource(f))

    ours, theirs = lambdify_numpy([z], expr, cse=True), sp.lambdify([z], expr, "numpy", cse=True)
    assert code(ours) == code(theirs)
    point = [0.3, -1.2, 2.0]
    assert np.array_equal(ours(point), theirs(point))
    assert ours.__module__ == theirs.__module__ != "numpy"

    f = compiled(Shape(2, 2, 2, 2), False)
    assert f.__module__ != "numpy"
    huge = np.array([[1e308, 1e308], [1.0, 1.0]])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        warnings.filterwarnings("error", category=RuntimeWarning, module="numpy")
        f(huge, huge, huge)  # overflow in attention's own code: not raised as one of NumPy's

    probe = (
        "import sys, numpy as np; from symattn.core.numeric import attention_numeric; "
        "x = np.eye(2); attention_numeric(x, x, x); "
        "print(sorted(m for m in ('numpy.f2py', 'numpy.testing', 'numpy.ma') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


@pytest.mark.parametrize("bad", [np.inf, np.nan])
def test_an_additive_mask_with_plus_inf_or_nan_is_refused_not_nan_rows(bad):
    """A mask array is 0 or -inf where it blocks (or a finite bias): +inf or NaN in it would make
    NaN rows (inf - inf in the softmax), so it is refused, naming the rule, before any work."""
    from symattn.errors import ShapeError

    q = np.ones((2, 2))
    mask = np.array([[0.0, bad], [0.0, 0.0]])
    with pytest.raises(ShapeError, match="finite numbers or -inf"):
        attention_numeric(q, q, q, mask)
    blocked = attention_numeric(q, q, q, np.array([[0.0, -np.inf], [0.0, 0.0]]))
    assert np.isfinite(blocked).all()
