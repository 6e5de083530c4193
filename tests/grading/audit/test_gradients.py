"""The backward pass of a matrix product (symattn/grading/audit/gradients.py, issue 47): after
the JAX scaling book's "Forward and reverse FLOPs". Expected counts are made by hand: an [a, b]
by [b, c] product costs 2abc FLOPs, and ∂L/∂C has C's shape."""

from __future__ import annotations

import pytest

from symattn.grading.audit.gradients import RULE, SHAPE_RULE
from symattn.grading.audit.keys import audit_claims

SHAPES = r"""Take arrays of these shapes:

$$
\begin{array}{cc}
\textrm{array}  & \textrm{shape} \\ \hline
A               & \textrm{[N P]} \\
B               & \textrm{[P M]} \\
\end{array}
$$

If A are our input activations with **C = A B**, the derivative with respect to B is:

$$\frac{\partial L}{\partial B} = \frac{\partial L}{\partial C}\frac{\partial C}{\partial B}
= A^T \left(\frac{\partial L}{\partial C}\right)$$

which requires $2NPM$ FLOPs to compute. Likewise, with respect to A:

$$\frac{\partial L}{\partial A} = \frac{\partial L}{\partial C}\frac{\partial C}{\partial A}
= \left(\frac{\partial L}{\partial C}\right) B^T$$

is again $2NPM$ FLOPs since dL/dC is a (co-)vector of size $[N, M]$.
"""


def _verdicts(text: str) -> list[tuple[str, str]]:
    return [(c.verdict, c.value) for c in audit_claims(text) if c.rule in (RULE, SHAPE_RULE)]


def test_each_gradient_costs_its_product_and_has_its_arrays_shape():
    assert sorted(_verdicts(SHAPES)) == [
        ("certified", "[N, M] by [M, P]: 2*M*N*P"),
        ("certified", "[P, N] by [N, M]: 2*M*N*P"),
        ("certified", "∂L/∂C has the shape of C: [N, M]"),
    ]


@pytest.mark.parametrize(
    ("change", "wrong"),
    [
        (("of size $[N, M]$", "of size $[N, P]$"), "∂L/∂C has the shape of C: [N, M]"),  # the plant
        (("which requires $2NPM$", "which requires $2NP$"), "[P, N] by [N, M]: 2*M*N*P"),
        (("is again $2NPM$", "is again $4NPM$"), "[N, M] by [M, P]: 2*M*N*P"),
    ],
)
def test_a_wrong_cost_or_shape_is_flagged(change, wrong):
    got = _verdicts(SHAPES.replace(*change))
    assert ("wrong", wrong) in got and [v for v, _ in got].count("wrong") == 1


@pytest.mark.parametrize(
    "change",
    [
        ("**C = A B**", "**C = B A**"),  # B's columns are not A's rows: C's shape is not known
        ("A               & \\textrm{[N P]}", "A               & \\textrm{[N Q]}"),  # A by B does not fit
    ],
)
def test_products_of_unknown_shape_are_not_read(change):
    assert _verdicts(SHAPES.replace(*change)) == []
