"""Softmax in chunks (symattn/grading/audit/online.py, issue 47): each update of a flash-attention
algorithm checked by the invariants it must keep. The algorithms are Goon's notes' (LaTeX
algorithmic style); the error of line 526 there (the old numerator never rescaled) is the one
planted below, and the backward pass's e^{s + ℓ} its other real error."""

from __future__ import annotations

import pytest

from symattn.grading.audit.keys import audit_claims
from symattn.grading.audit.online import RULE

FORWARD = r"""Flash attention, forward pass.

Move $q_{irh}$ on-chip, instantiate $Z_{irh}$, $L_{ir}$ to zeros and $M^{old}_{ir}$ to $-\infty$.
$S_{irjc} \gets q_{irh'} k_{jch'} + C_{ijrc}$
$M^{new}_{ir} \gets \max\left(M^{old}_{ir}, \max_c S_{irjc}\right)$
$Z_{irh} \gets e^{M^{old}_{ir} - M^{new}_{ir}} Z_{irh} + \exp\left(S_{ijrc} - M^{new}_{ir}\right) v_{jch}$
$L_{ir} \gets e^{M^{old}_{ir} - M^{new}_{ir}} L_{ir} + \sum_c \exp\left(S_{ijrc} - M^{new}_{ir}\right)$
$M^{old}_{ir} \gets M^{new}_{ir}$

$z_{irh} \gets \frac{Z_{irh}}{L_{ir}}$, $\ell_{ir} \gets M^{old}_{ir} + \ln L_{ir}$

Backward pass.

$P_{irjc} \gets \exp\left(q_{irh'} k_{jch'} + C_{ijrc} - \ell_{ir}\right)$
"""

NAIVE = r"""Flash attention without the maximum.

$Z_{irh} \gets Z_{irh} + \exp\left(q_{irh'} k_{jch'}\right) v_{jch}$
$L_{ir} \gets L_{ir} + \sum_c \exp\left(q_{irh'} k_{jch'}\right)$

$z_{irh} \gets \frac{Z_{irh}}{L_{ir}}$
"""


def _verdicts(text: str) -> list[str]:
    return [c.verdict for c in audit_claims(text) if c.rule == RULE]


def test_a_correct_algorithm_keeps_every_invariant():
    # the maximum, numerator, denominator, output, log-sum-exp, probability
    assert _verdicts(FORWARD) == ["certified"] * 6
    assert _verdicts(NAIVE) == ["certified"] * 3


@pytest.mark.parametrize(
    ("change", "wrong_at"),
    [
        # the old numerator never rescaled (Goon's notes, line 526)
        (("e^{M^{old}_{ir} - M^{new}_{ir}} Z_{irh} +", "Z_{irh} +"), 1),
        (("e^{M^{old}_{ir} - M^{new}_{ir}} L_{ir} +", "L_{ir} +"), 2),
        (("M^{old}_{ir} + \\ln L_{ir}", "M^{old}_{ir} - \\ln L_{ir}"), 4),  # the planted error of line 530
        (("C_{ijrc} - \\ell_{ir}", "C_{ijrc} + \\ell_{ir}"), 5),  # the notes' backward pass
        (("\\frac{Z_{irh}}{L_{ir}}", "\\frac{L_{ir}}{Z_{irh}}"), 3),  # the quotient upside down
        (("M^{old}_{ir} + \\ln L_{ir}", "M^{old}_{ir} + L_{ir}"), 4),  # the logarithm dropped
    ],
)
def test_an_update_that_breaks_its_invariant_is_wrong_at_its_line(change, wrong_at):
    verdicts = _verdicts(FORWARD.replace(*change))
    assert verdicts[wrong_at] == "wrong" and verdicts.count("wrong") == 1


@pytest.mark.parametrize(
    "text",
    [
        r"Adam keeps $m \gets \beta_1 m + (1 - \beta_1) g$ and $v \gets \beta_2 v + (1 - \beta_2) g^2$.",
        r"The running maximum is $M \gets \max(M, x)$ and the count $n \gets n + 1$.",
        # a hostile review's true algorithms the invariants do not follow line by line: the step
        # before named by its index, an update split over two lines, a log-space merge, a
        # normalised output kept in place, a stale maximum taken under a condition
        "$m_i \\gets \\max(m_{i-1}, x_i)$, $d_i \\gets d_{i-1} e^{m_{i-1} - m_i} + e^{x_i - m_i}$ and "
        "$o_i \\gets o_{i-1} e^{m_{i-1} - m_i} + e^{x_i - m_i} v_i$.",
        FORWARD.replace(
            "$Z_{irh} \\gets e^{M^{old}_{ir} - M^{new}_{ir}} Z_{irh} +",
            "$Z_{irh} \\gets e^{M^{old}_{ir} - M^{new}_{ir}} Z_{irh}$\n$Z_{irh} \\gets Z_{irh} +",
        ).split("Backward")[0],
        "$\\ell_i \\gets \\ln(\\exp(\\ell_i) + \\exp(S_{ij}))$ and "
        "$o_{ih} \\gets \\exp(\\ell^{old}_i - \\ell_i) o_{ih} + \\exp(S_{ij} - \\ell_i) v_{jh}$.",
        "$M^{new}_i \\gets \\max(M^{old}_i, S_{ij})$. If the maximum barely moved we simply accumulate "
        "$L_i \\gets L_i + \\exp(S_{ij} - M^{old}_i)$ and "
        "$Z_{ih} \\gets Z_{ih} + \\exp(S_{ij} - M^{old}_i) v_{jh}$.",
    ],
)
def test_other_updates_are_not_read(text):
    assert _verdicts(text + "\n") == []
