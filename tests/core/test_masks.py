"""Masks (symattn/core/masks.py): each kind against a loop written from its definition."""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp
from reference import allowed_reference

from symattn.core.masks import Mask
from symattn.errors import EmptyRowError, MaskError

SHAPES = [(1, 1), (3, 3), (4, 4), (2, 5), (5, 2), (3, 7)]


@pytest.mark.parametrize(("n", "m"), SHAPES)
@pytest.mark.parametrize(
    ("spec", "kind", "arg", "align"),
    [
        ("none", "none", None, "top-left"),
        ("causal", "causal", None, "top-left"),
        ("causal:bottom-right", "causal", None, "bottom-right"),
        ("padding:1", "padding", 1, "top-left"),
        ("window:2", "window", 2, "top-left"),
        ("window:3:bottom-right", "window", 3, "bottom-right"),
    ],
)
def test_each_kind_matches_its_definition(n, m, spec, kind, arg, align):
    """Allowed pairs equal the definition written out as loops, for square and N != M shapes."""
    assert np.array_equal(Mask.parse(spec).allowed(n, m), allowed_reference(kind, n, m, arg, align))


def test_causal_four_tokens_is_the_module_matrix():
    """The four-token causal mask has -oo strictly above the diagonal, 0 elsewhere."""
    oo = sp.oo
    assert Mask.parse("causal").exact(4, 4) == sp.Matrix(
        [[0, -oo, -oo, -oo], [0, 0, -oo, -oo], [0, 0, 0, -oo], [0, 0, 0, 0]]
    )


def test_causal_top_left_for_more_keys_than_queries():
    """With N=2, M=4 top-left causal lets query 1 see key 1 only; bottom-right lets it see 3."""
    assert Mask.parse("causal").allowed(2, 4).sum(axis=1).tolist() == [1, 2]
    assert Mask.parse("causal:bottom-right").allowed(2, 4).sum(axis=1).tolist() == [3, 4]


def test_sliding_window_with_causal():
    """causal+window:W lets query i see exactly the keys i-W < j <= i."""
    ok = Mask.parse("causal+window:3").allowed(6, 6)
    for i in range(6):
        assert [j for j in range(6) if ok[i, j]] == [j for j in range(6) if i - 3 < j <= i]


def test_parts_combine_by_adding():
    """The exact mask of a sum is the sum of the parts' exact masks (0 + -oo = -oo)."""
    a, b, both = Mask.parse("causal"), Mask.parse("padding:2"), Mask.parse("causal+padding:2")
    assert both.exact(3, 3) == a.exact(3, 3) + b.exact(3, 3)
    assert both.spec() == "causal+padding:2"
    np.testing.assert_array_equal(both.numeric(3, 3), a.numeric(3, 3) + b.numeric(3, 3))


def test_empty_rows_are_named():
    """A mask leaving rows with no key raises EmptyRowError listing those rows (1-based)."""
    with pytest.raises(EmptyRowError) as info:
        Mask.parse("causal:bottom-right").check(4, 2)
    assert info.value.rows == [0, 1]
    assert "rows 1, 2" in str(info.value)
    assert Mask.parse("causal:bottom-right").empty_rows(4, 2) == [0, 1]


@pytest.mark.parametrize(
    "spec",
    [
        "diagonal",
        "causal:sideways",
        "padding",
        "padding:0",
        "padding:x",
        "window:-1",
        "causal+",
        "padding:2:3",
        "causal:bottom-right:1",
    ],
)
def test_bad_specs_raise_mask_error(spec):
    """Unknown words, missing or bad numbers raise MaskError with a one-line message."""
    with pytest.raises(MaskError) as info:
        Mask.parse(spec).allowed(3, 3)
    assert "\n" not in str(info.value)


def test_padding_longer_than_keys_is_an_error():
    """padding:L with L larger than the number of keys is refused."""
    with pytest.raises(MaskError, match="more real keys"):
        Mask.parse("padding:5").allowed(2, 3)


@pytest.mark.parametrize(
    "spec", ["causal+causal", "padding:2+padding:3", "window:2+causal+window:3", "causal+causal:bottom-right"]
)
def test_a_part_given_twice_is_refused(spec):
    """causal+causal (or any kind named twice) is an error, not silently accepted."""
    with pytest.raises(MaskError, match="twice"):
        Mask.parse(spec)
