"""derivations/softmax_jacobian.py: dp_i/dz_j = p_i (delta_ij - p_j) and the matrix facts."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
import sympy as sp

from derivations import softmax_jacobian as sj
from symattn.proof import StepFailed

NAME = "softmax_jacobian"


def test_all_steps_verified(verify):
    """Every step passes, the entry formula exactly for a symbolic n; the numeric checks pass."""
    _, report = verify(NAME)
    assert report.ok and report.numeric_steps == 0
    entries = [r for r in report.steps if r.step.section == "The entries"]
    assert [r.method for r in entries] == ["symbolic", "symbolic", "symbolic"]
    rank = next(r for r in report.steps if r.method == "at sizes")
    # rank(J) shown as checked, no label; the engine adds size 1
    assert rank.detail == "2, 3, 4, 5 and 1, chosen by the engine (rank one less than the size)"


def _weights(z: np.ndarray) -> np.ndarray:
    """symattn's softmax of the scores z: the attention weights of one query (1) over keys z."""
    from symattn.core.numeric import attention_weights_numeric

    return attention_weights_numeric(np.array([[1.0]]), z[:, None], scale=False)[0]


@pytest.mark.parametrize("n", [2, 3, 5])
def test_jacobian_matches_diag_minus_outer_independently(n):
    """SymPy's own jacobian of symattn's exact softmax (softmax_row) equals diag(p) - p p^T
    (built here), and p is exp(z_i) / sum_j exp(z_j) written out by hand."""
    from symattn.core.softmax import softmax_row

    z = sp.symbols(f"w1:{n + 1}", real=True)
    p = sp.Matrix(softmax_row(list(z)))
    s = sum(sp.exp(t) for t in z)
    assert (p - sp.Matrix([sp.exp(t) / s for t in z])).applyfunc(sp.cancel) == sp.zeros(n, 1)
    diff = p.jacobian(z) - (sp.diag(*p) - p * p.T)
    assert diff.applyfunc(sp.cancel) == sp.zeros(n)


def test_numeric_spectrum():
    """At random z, J = diag(p) - p p^T of symattn's weights p: symmetric, J 1 = 0, the other
    eigenvalues positive, entries at most 1/4."""
    rng = np.random.default_rng(0)
    for n in (2, 4, 7):
        z = rng.normal(size=n) * 3
        p = _weights(z)
        np.testing.assert_allclose(p, np.exp(z - z.max()) / np.exp(z - z.max()).sum(), rtol=1e-14)
        J = np.diag(p) - np.outer(p, p)
        np.testing.assert_allclose(J, J.T)
        w = np.linalg.eigvalsh(J)
        assert abs(w[0]) < 1e-15 and (w[1:] > 0).all()
        np.testing.assert_allclose(J @ np.ones(n), 0, atol=1e-16)
        assert np.abs(J).max() <= 0.25


def test_saturated_softmax_has_a_tiny_jacobian():
    """With one score 20 above the rest, every entry is below 1e-7: learning stalls."""
    p = _weights(np.array([20.0, 0.0, 0.0, 0.0]))
    J = np.diag(p) - np.outer(p, p)
    assert np.abs(J).max() < 1e-7


def test_a_wrong_factorisation_is_caught():
    """Writing p_i (delta_ij + p_j) instead of p_i (delta_ij - p_j) fails."""
    d = sj.derivation()
    index = next(k for k, s in enumerate(d.steps) if s.rule.startswith("factor out"))
    wrong = sj.p(sj.i) * (sp.KroneckerDelta(sj.i, sj.j) + sj.p(sj.j))
    d.steps[index] = dataclasses.replace(d.steps[index], rhs=wrong)
    with pytest.raises(StepFailed, match=f"step {index + 1}"):
        d.verify()


def test_the_rank_model_computes_the_rank_of_the_matrix_it_is_given():
    """rank(diag(p) + p p^T) is n, not the stored n - 1; a matrix whose rank drops somewhere in
    the simplex ((diag p - p p^T)(diag p - |p|^2 I) is 0 at uniform p) is given no rank."""
    from sympy.matrices.expressions.diagonal import DiagMatrix

    from derivations import softmax_jacobian as sj

    plus = DiagMatrix(sj.pvec) + sj.pvec * sj.pvec.T
    assert [sj.concrete(sj.rank(plus), size) for size in (2, 3, 4)] == [2, 3, 4]
    assert [sj.concrete(sj.rank(sj.Jsym), size) for size in (2, 3, 4)] == [1, 2, 3]
    norm2 = (sj.pvec.T * sj.pvec)[0, 0]
    drops = sj.Jsym * (DiagMatrix(sj.pvec) - norm2 * sp.Identity(sj.n))
    with pytest.raises(ValueError, match="not one rank over the simplex"):
        sj.concrete(sj.rank(drops), 3)
