"""The one definition (symattn/core/definition.py): the stage chain and its composition."""

from __future__ import annotations

import sympy as sp

from symattn.core.definition import Shape, define
from symattn.core.softmax import RowSoftmax


def test_composed_expression_is_the_formula():
    """Composing the stages gives RowSoftmax(Q K^T / sqrt(d_k) + M) V, literally."""
    d = define(Shape(3, 4, 2, 5), masked=True)
    Q, K, V, M = d.inputs
    expected = RowSoftmax(Q * K.T / sp.sqrt(2) + M) * V
    assert d.composed() == expected
    assert d.composed().shape == (3, 5)


def test_unmasked_and_unscaled_variants():
    """Without a mask there is no masked stage; without scaling the scores pass unchanged."""
    d = define(Shape(2, 2, 4, 1), masked=False, scale=False)
    Q, K, V = d.inputs
    assert "masked" not in d.stages
    assert d.composed() == RowSoftmax(Q * K.T) * V


def test_stage_order_is_the_modules():
    """The stages run scores, scaled, masked, weights, output, as section 6.2 reads."""
    assert list(define(Shape(2, 2, 2, 2), masked=True).stages) == [
        "scores",
        "scaled",
        "masked",
        "weights",
        "output",
    ]
