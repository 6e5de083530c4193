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


# -- the interval cross-check ------------------------------------------------------------------
def _sum_pair():
    n = sp.Symbol("n", integer=True, positive=True)
    k = sp.Symbol("k", integer=True)
    z = sp.IndexedBase("z")
    total = sp.Sum(sp.exp(z[k]), (k, 1, n))
    return n, k, z, total


def test_interval_evaluation_agrees_with_sympys_adaptive_evaluation():
    """At the same point, the certified interval and SymPy's 60-digit evalf give the same value."""
    from symattn.proof.enclosed import _enclosed_error
    from symattn.proof.equivalence import evaluate, random_point

    n, k, z, total = _sum_pair()
    x = sp.Symbol("x", real=True)
    j = sp.Symbol("j", integer=True)
    expr = sp.Sum(sp.exp(z[k]) * sp.KroneckerDelta(k, 2), (k, 1, n)) / total + sp.sqrt(x**2 + 1) - sp.log(
        sp.Sum(sp.Sum(z[k] ** 2 * z[j] ** 2 + 1, (j, 1, n)), (k, 1, n))
    )
    for seed in range(4):
        rng = random.Random(seed)
        point = random_point([expr], rng)
        point[n] = sp.Integer(3 + seed)
        enclosed = _enclosed_error(expr, expr + 0, point, rng)
        assert enclosed is not None, "the interval evaluator should handle sums, deltas, exp, log, sqrt"
        err, value, _ = enclosed
        assert err < 1e-60
        reference = evaluate(expr, dict(point), rng)  # same Indexed values (kept in point)
        assert abs(value - reference) < sp.Float("1e-55")


def test_interval_cross_check_catches_a_difference_of_1e_minus_20_inside_a_sum():
    *_, total = _sum_pair()
    err, *_ = numeric_difference(total, total + sp.Rational(1, 10**20), random.Random(1))
    assert 1e-22 < err < 1e-18


def test_an_empty_sum_is_zero_in_the_cross_check_whatever_sympys_convention():
    """SymPy reads sum_{k=1}^{n-3} 1 at n = 1 as -(sum_{k=-1}^{0} 1) = -2, so it 'proves' the sum
    equals n - 3 for every n. Mathematically the sum is empty (0) at n = 1, 2: the cross-check,
    which tries n = 1, 2, 3 first, does not share SymPy's convention and catches it."""
    n = sp.Symbol("n", integer=True, positive=True)
    k = sp.Symbol("k", integer=True)
    wrong = sp.Sum(1, (k, 1, n - 3))
    assert sp.simplify(wrong.doit() - (n - 3)) == 0  # SymPy's convention agrees with the slip
    err, point, *_ = numeric_difference(wrong, n - 3, random.Random(0))
    assert err > 1e-3 and point[n] in (1, 2)
    err_ok, *_ = numeric_difference(sp.Sum(1, (k, 1, n + 2)), n + 2, random.Random(0))
    assert err_ok == 0.0


def test_expressions_the_intervals_do_not_handle_fall_back_to_evalf():
    from symattn.proof.enclosed import _enclosed_error

    x = sp.Symbol("x", real=True)
    f = sp.Function("f")
    assert _enclosed_error(f(x), f(x), {x: sp.Rational(1, 3)}, random.Random(0)) is None
    assert _enclosed_error(sp.gamma(x), sp.gamma(x), {x: sp.Rational(1, 3)}, random.Random(0)) is None
    # ... and the fallback still compares them: gamma(x) vs gamma(x) + 1e-30 is caught.
    err, *_ = numeric_difference(sp.gamma(x), sp.gamma(x) + sp.Rational(1, 10**30), random.Random(0))
    assert err > 1e-32


def test_erf_and_long_sums_go_to_sympy_without_crashing():
    from symattn.proof.enclosed import MAX_TERMS, _enclosed_error

    x = sp.Symbol("x", real=True)
    k = sp.Symbol("k", integer=True)
    assert _enclosed_error(sp.erf(x), sp.erf(x), {x: sp.Rational(1, 3)}, random.Random(0)) is None
    err, *_ = numeric_difference(sp.erf(x) * (x + 1), sp.erf(x) * x + sp.erf(x), random.Random(0))
    assert err < 1e-45
    long_sum = sp.Sum(x**k, (k, 1, MAX_TERMS + 1))
    assert _enclosed_error(long_sum, long_sum, {x: sp.Rational(1, 2)}, random.Random(0)) is None


# -- a delta's range: proved from the ranges a derivation declares, not assumed ------------------
def _delta_sum(high):
    """sum_{j=1}^{high} z_j delta_ij, which is z_i only where 1 <= i <= high."""
    return sp.Sum(z[j] * sp.KroneckerDelta(i, j), (j, 1, high))


def test_a_delta_is_summed_out_where_the_declared_range_proves_its_index_in_the_sum():
    from symattn.proof.equivalence import INDEX_RANGES

    token = INDEX_RANGES.set({i: (1, n)})
    try:
        assert prove_equal(_delta_sum(n), z[i]) is not None
        assert prove_equal(_delta_sum(n + 1), z[i]) is not None  # i <= n <= n + 1
        assert prove_equal(_delta_sum(n - 1), z[i]) is None  # i = n lies outside
    finally:
        INDEX_RANGES.reset(token)


def test_a_delta_whose_index_has_no_declared_range_is_not_summed_out():
    """Issue 46: a range assumption was guarded by six random points. With ranges in force but
    none for i, sum_j z_j delta_ij = z_i is not proved: i might exceed n. Without ranges in force
    (a learner's proof), the index is assumed in range, as before."""
    from symattn.proof.equivalence import INDEX_RANGES

    token = INDEX_RANGES.set({})
    try:
        assert prove_equal(_delta_sum(n), z[i]) is None
        # an index bound by an outer sum has that sum's range: sum_a sum_j z_j delta_aj = sum_a z_a
        a = sp.Symbol("a", integer=True, positive=True)
        nested = sp.Sum(sp.Sum(z[j] * sp.KroneckerDelta(a, j), (j, 1, n)), (a, 1, n))
        assert prove_equal(nested, sp.Sum(z[a], (a, 1, n))) is not None
        wider = sp.Sum(sp.Sum(z[j] * sp.KroneckerDelta(a, j), (j, 1, n)), (a, 1, n + 1))
        assert prove_equal(wider, sp.Sum(z[a], (a, 1, n + 1))) is None  # a = n + 1 gives 0, not z_{n+1}
    finally:
        INDEX_RANGES.reset(token)
    assert prove_equal(_delta_sum(n), z[i]) is not None


def test_a_procedure_adds_the_ranges_it_knows():
    from symattn.proof.equivalence import INDEX_RANGES, within

    a = sp.Symbol("a", integer=True, nonnegative=True)
    entry = sp.Sum(z[k] * sp.KroneckerDelta(a, k), (k, 0, n - 1))
    token = INDEX_RANGES.set({})
    try:
        assert prove_equal(entry, z[a]) is None
        with within({a: (0, n - 1)}):
            assert prove_equal(entry, z[a]) is not None
    finally:
        INDEX_RANGES.reset(token)


def test_a_declared_range_does_not_hold_where_a_sum_binds_the_name():
    """Review findings: the declared range of i (1..n) decided a delta summed inside a sum over i
    from 1 to m, so sum_i sum_j delta_ij = m passed (it is min(m, n)); and a reversed limit was
    taken as a range."""
    from symattn.proof.equivalence import INDEX_RANGES

    m = sp.Symbol("m", integer=True, positive=True)
    delta = sp.KroneckerDelta(i, j)
    token = INDEX_RANGES.set({i: (1, n), j: (1, n)})
    try:
        assert prove_equal(sp.Sum(delta, (j, 1, n), (i, 1, m)), m) is None
        assert prove_equal(sp.Sum(sp.Sum(delta, (j, 1, n)), (i, 1, m)), m) is None
        assert prove_equal(sp.Sum(sp.Sum(delta, (j, n + 3, n + 9)), (i, n + 3, n)), -2) is None
        # the same within the ranges, and i free in its declared range
        assert prove_equal(sp.Sum(sp.Sum(z[i] * delta, (j, 1, n)), (i, 1, n)), sp.Sum(z[i], (i, 1, n)))
        assert prove_equal(_delta_sum(n), z[i]) is not None
    finally:
        INDEX_RANGES.reset(token)
