"""Hypothesis strategies shared by the tests."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import strategies as st

rationals = st.fractions(min_value=-4, max_value=4, max_denominator=8)


@st.composite
def matrices(draw, rows: int, cols: int, elements=rationals):
    return [[draw(elements) for _ in range(cols)] for _ in range(rows)]


@st.composite
def problems(draw, max_size: int = 4):
    """(Q, K, V) of rational entries as strings "p/q", with N != M allowed, d_v != d_k allowed."""
    n = draw(st.integers(1, max_size))
    m = draw(st.integers(1, max_size))
    d_k = draw(st.integers(1, 3))
    d_v = draw(st.integers(1, 3))
    q, k, v = draw(matrices(n, d_k)), draw(matrices(m, d_k)), draw(matrices(m, d_v))
    return q, k, v


mask_specs = st.sampled_from(
    [
        "none",
        "causal",
        "causal:bottom-right",
        "padding:1",
        "window:2",
        "causal+window:2",
        "causal+padding:1",
        "window:1:bottom-right",
    ]
)


def as_text(matrix: list[list[Fraction]]) -> list[list[str]]:
    return [[f"{x.numerator}/{x.denominator}" for x in row] for row in matrix]


def as_float(matrix: list[list[Fraction]]) -> list[list[float]]:
    return [[float(x) for x in row] for row in matrix]
