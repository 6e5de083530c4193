"""The references the tests compare symattn with (tests/reference.py), checked themselves: a
reference must be right on its own, independently of symattn, before it can witness anything."""

from __future__ import annotations

import numpy as np
from reference import allowed_for_spec, allowed_reference, attention_reference, padding_fits


def test_the_attention_reference_is_permutation_equivariant():
    """The hand-written NumPy reference is equivariant, as attention is (moved here from
    tests/derivations/test_permutation_equivariance.py: it calls no symattn code)."""
    rng = np.random.default_rng(3)
    x = rng.normal(size=(6, 3))
    order = rng.permutation(6)
    base = attention_reference(x, x, x)
    np.testing.assert_allclose(attention_reference(x[order], x[order], x[order]), base[order], atol=1e-14)


def test_the_attention_reference_on_the_modules_example():
    """Section 6.2's causal example by the reference: [0, -1] and [0.80443, 1.41329]."""
    q, k, v = [[3, -3], [1, 1]], [[-3, 3], [1, 1]], [[0, -1], [1, 2]]
    out = attention_reference(q, k, v, allowed_reference("causal", 2, 2))
    np.testing.assert_allclose(out, [[0, -1], [0.8044296825069569, 1.4132890475208707]], atol=1e-15)


def test_a_spec_is_the_conjunction_of_its_parts():
    """allowed_for_spec: causal+window:2 at 4 x 4 is the band i - 2 < j <= i, written out."""
    band = np.array([[i - 2 < j <= i for j in range(4)] for i in range(4)])
    assert np.array_equal(allowed_for_spec("causal+window:2", 4, 4), band)
    assert np.array_equal(allowed_for_spec("none", 2, 3), np.ones((2, 3), bool))
    bottom = allowed_for_spec("window:1:bottom-right", 2, 4)
    assert bottom.tolist() == [[False, False, True, False], [False, False, False, True]]
    assert padding_fits("causal+padding:2", 2) and not padding_fits("padding:3", 2)


def test_the_mask_reference_refuses_a_kind_it_does_not_define():
    """A mask kind the reference has no loop for is an error, not "everything allowed": a new
    kind's tests fail until its definition is written here too."""
    import pytest

    with pytest.raises(ValueError, match="no-such-kind"):
        allowed_reference("no-such-kind", 2, 2, 2)
    with pytest.raises(ValueError, match="no-such-kind"):
        allowed_for_spec("causal+no-such-kind:2", 3, 3)
