"""Deciding equality (symattn/proof/equivalence.py)."""

from __future__ import annotations

import random

import sympy as sp

from symattn.proof.equivalence import canonical, numeric_difference, prove_equal, prove_zero

i, j, k = sp.symbols("i j k", integer=True, positive=True)
n = sp.Symbol("n", integer=True, positive=True)
z = sp.IndexedBase("z")


def test_dummy_names_do_not_matter():
    """A sum over j equals the same sum over k."""
    assert prove_equal(sp.Sum(sp.exp(z[j]), (j, 1, n)), sp.Sum(sp.exp(z[k]), (k, 1, n))) == "identity"


def test_delta_sums_are_removed_without_piecewise():
    """sum_j a_j delta_ij = a_i (assuming 1 <= i <= n), with no Piecewise left."""
    e = canonical(sp.Sum(z[j] * sp.KroneckerDelta(i, j), (j, 1, n)))
    assert e == z[i]
    assert not e.has(sp.Piecewise)


def test_constant_sums_and_factoring():
    """sum_i c = n c, and constants come out of sums."""
    c = sp.Symbol("c")
    assert prove_equal(sp.Sum(c, (i, 1, n)), n * c) is not None
    assert prove_equal(sp.Sum(c * z[i], (i, 1, n)), c * sp.Sum(z[k], (k, 1, n))) is not None


def test_false_claims_are_not_proved():
    """Different expressions are not proved equal, and the numeric difference shows it."""
    x = sp.Symbol("x", real=True)
    assert prove_zero(sp.sin(x) - sp.cos(x)) is None
    err, point, _, _ = numeric_difference(sp.sin(x), sp.cos(x), random.Random(0))
    assert err > 1e-3 and x in point
