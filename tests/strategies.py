"""Hypothesis strategies shared by the tests."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

import sympy as sp
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


def _mask_specs() -> list[str]:
    """``none``, every example of every registered mask kind, and each example of one kind
    joined with the first example of each later kind (two kinds at most, so that a small
    draw keeps an allowed key in most rows)."""
    from symattn.core.masks import kinds

    examples = [kind.examples for kind in kinds()]
    pairs = [f"{a}+{later[0]}" for n, own in enumerate(examples) for a in own for later in examples[n + 1 :]]
    return ["none", *(e for own in examples for e in own), *pairs]


mask_specs = st.sampled_from(_mask_specs())


def as_text(matrix: list[list[Fraction]]) -> list[list[str]]:
    return [[f"{x.numerator}/{x.denominator}" for x in row] for row in matrix]


def as_float(matrix: list[list[Fraction]]) -> list[list[float]]:
    return [[float(x) for x in row] for row in matrix]


@st.composite
def expressions(
    draw, atoms, depth: int = 3, roots=(sp.S.Half,), more: dict[str, Callable] | None = None
) -> sp.Expr:
    """SymPy expressions built from ``atoms`` by sums, differences, products, quotients, powers,
    roots (of ``roots``' orders) and exp; ``more`` adds kinds, each ``(draw, a) -> expression``.
    A root is taken of a positive number: SymPy prints the imaginary unit as i, like an index."""
    if depth == 0 or draw(st.booleans()):
        return draw(atoms)
    a, b = (draw(expressions(atoms, depth - 1, roots, more)) for _ in range(2))
    kind = draw(st.sampled_from(["add", "sub", "mul", "div", "pow", "root", "exp", *(more or {})]))
    if kind == "add":
        return a + b
    if kind == "sub":
        return a - b
    if kind == "mul":
        return a * b
    if kind == "div":
        return a / b if b != 0 else a
    if kind == "pow":
        return a ** draw(st.sampled_from([2, 3, -1]))
    if kind == "root":
        return (a**2 + 1) ** draw(st.sampled_from(roots))
    if kind == "exp":
        return sp.exp(a)
    return (more or {})[kind](draw, a)
