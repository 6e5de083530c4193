"""ex6.7 in index notation (symattn/grading/proofs/index_notation.py): a side written with π(i) is read
as a row or an entry of one matrix, and that reading is checked here against NumPy's indexing."""

from __future__ import annotations

import numpy as np
import pytest

from symattn.grading.proofs import index_notation as indices
from symattn.grading.proofs import permutation_world as lm
from symattn.grading.proofs.step_reader import parse_expression

ORDER = lm.instances()[0].order  # the 3-cycle the checker's first instance uses
P = np.zeros((3, 3))
P[np.arange(3), ORDER] = 1.0
RNG = np.random.default_rng(7)
A = RNG.integers(-5, 5, size=(3, 3)).astype(float)


def _numpy(node, env) -> np.ndarray:
    kind = node[0]
    if kind == "id":
        return env[node[1]]
    if kind == "T":
        return _numpy(node[1], env).T
    if kind == "group":
        return _numpy(node[1], env)
    if kind == "mul":
        out = _numpy(node[1], env)
        for f in node[2:]:
            out = out @ _numpy(f, env)
        return out
    raise AssertionError(node)


def _inverse(order) -> list[int]:
    inv = [0] * len(order)
    for r, c in enumerate(order):
        inv[c] = r
    return inv


@pytest.mark.parametrize(
    ("side", "entry"),
    [
        (r"S_{\pi(i)\pi(j)}", lambda i, j, pi, inv: A[pi[i], pi[j]]),
        (r"S_{\pi(i) j}", lambda i, j, pi, inv: A[pi[i], j]),
        (r"S_{i \pi(j)}", lambda i, j, pi, inv: A[i, pi[j]]),
        (r"S_{\pi^{-1}(i), j}", lambda i, j, pi, inv: A[inv[i], j]),
        (r"S_{i, \pi^{-1}(j)}", lambda i, j, pi, inv: A[i, inv[j]]),
        (r"S_{ij}", lambda i, j, pi, inv: A[i, j]),
    ],
)
def test_an_entry_with_pi_is_the_entry_of_the_product_it_is_read_as(side, entry):
    """π(i) is the row P's row i picks (row r of PX is row π(r) of X): the reading's matrix,
    computed with @, has at (i, j) the entry the subscript names."""
    text, free = indices.index_side(side)
    assert free == ("i", "j")
    value = _numpy(parse_expression(text), {"P": P, "S": A})
    inv = _inverse(ORDER)
    for i in range(3):
        for j in range(3):
            assert value[i, j] == entry(i, j, ORDER, inv), (side, text)


def test_a_row_with_pi_and_a_dot_product_of_rows():
    assert indices.index_side(r"X_{\pi(i)}") == ("P X", ("i",))
    assert indices.index_side(r"\operatorname{Attention}(X)_{\pi(i)}")[0] == r"P \operatorname{Attention}(X)"
    assert indices.index_side(r"q_{\pi(i)} \cdot k_{\pi(j)}") == (r"P Q K^\top P^\top", ("i", "j"))
    assert (
        indices.index_side(r"\frac{q'_i \cdot k'_j}{\sqrt{d_k}}")[0] == r"\frac{(P Q) (P K)^\top}{\sqrt{d_k}}"
    )


@pytest.mark.parametrize(
    ("lhs", "rhs"),
    [
        (r"S'_{ij}", r"S_{\pi(i)}"),  # an entry and a row
        (r"S'_{ij}", r"S_{\pi(j)\pi(i)}"),  # the indices in another order
        (r"\operatorname{Attention}(PX)_i", r"\sum_j w_{ij} v_{\pi(j)}"),  # a sum: not read so
    ],
)
def test_sides_that_do_not_match_are_left_as_written(lhs, rhs):
    assert indices.translate(lhs, rhs) is None


def test_the_other_numbering_is_read_from_the_text():
    """(PX)_{π(i)} = X_i numbers the other way: its π is the first numbering's π^{-1}."""
    assert indices.convention(r"Let $(PX)_{\pi(i)} = X_i$.")
    assert not indices.convention(r"Let $(PX)_i = X_{\pi(i)}$.")
    assert indices.index_side(r"X_{\pi(i)}", inverse=True) == (r"P^\top X", ("i",))


@pytest.mark.parametrize(
    ("text", "perm"),
    [
        (r"$(PX)_i = X_{\pi(i)}$", "P"),
        (r"Let $\pi$ be the permutation that $P_1$ applies to the rows.", "P_1"),
        (r"$(P_{2} K)_j = K_{\pi(j)}$", "P_2"),
    ],
)
def test_pi_is_the_permutation_of_the_matrix_the_text_names(text, perm):
    """Cross-attention (issue 48): π defined by P_1 reads rows and entries through P_1."""
    from symattn.grading.proofs.index_notation import permutation, translate

    assert permutation(text) == perm
    assert translate(r"X_{\pi(i)}", r"Y_{\pi(i)}", False, permutation(text)) == (f"{perm} X", f"{perm} Y")
