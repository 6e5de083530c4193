"""The FLOPs of a sharded matmul (symattn/grading/audit/sharding.py, issue 47): the JAX scaling
book's Question 2. Expected counts by hand: 2BDF unsharded; B over X and D over Y leave each
device 2(B/X)(D/Y)F; the 4·8·4 devices do that each, 2BDF·Z in all."""

from __future__ import annotations

import pytest

from symattn.grading.audit.keys import audit_claims
from symattn.grading.audit.sharding import RULE

TEXT = (
    "**Question 2:** How many total FLOPs are required to perform A[B<sub>X</sub>, D<sub>Y</sub>] "
    "\\*<sub>D</sub> W[D<sub>Y</sub>, F] on `{'X': 4, 'Y': 8, 'Z': 4}`. How many FLOPs are performed "
    "by each TPU?\n\n"
    'The total "theoretical" FLOPs of the operation is $$2 \\cdot B \\cdot D \\cdot F$$. However, because '
    "the computation isn't sharded across the Z dimension, we're actually doing Z extra FLOPs, meaning "
    "$$2 \\cdot B \\cdot D \\cdot F \\cdot Z$$ total FLOPs. Since the computation is sharded across the "
    "other dimensions, the total per-device is roughly $$2 \\cdot B \\cdot D \\cdot F / (X \\cdot  Y)$$.\n"
)


def _verdicts(text: str) -> list[tuple[str, str]]:
    return [(c.verdict, c.value) for c in audit_claims(text) if c.rule == RULE]


def test_theoretical_total_and_per_device_flops():
    assert _verdicts(TEXT) == [
        ("certified", "unsharded: 2*B*D*F"),
        ("certified", "over all devices: 2*B*D*F*Z"),
        ("certified", "per device: 2*B*D*F/(X*Y)"),
    ]


@pytest.mark.parametrize(
    ("change", "wrong"),
    [
        ("F / (X \\cdot  Y)", "F / (X \\cdot  Y \\cdot Z)"),  # Z shards nothing: not a divisor
        ("F \\cdot Z$$ total", "F \\cdot X \\cdot Y \\cdot Z$$ total"),
        ("is $$2 \\cdot B", "is $$4 \\cdot B"),
    ],
)
def test_a_wrong_count_is_flagged(change, wrong):
    assert [v for v, _ in _verdicts(TEXT.replace(change, wrong))].count("wrong") == 1


def test_without_a_mesh_nothing_is_read():
    assert _verdicts(TEXT.replace("on `{'X': 4, 'Y': 8, 'Z': 4}`", "on a mesh")) == []


@pytest.mark.parametrize(
    "sentence",
    [
        # a hostile review's true sentences: a factor, a reference after "than", a negation
        "Per device, the work is a factor of $X \\cdot Y$ smaller than the $2 \\cdot B \\cdot D \\cdot F$ "
        "FLOPs of the unsharded matmul.",
        "The total is not $2 \\cdot B \\cdot D \\cdot F$ but $2 \\cdot B \\cdot D \\cdot F \\cdot Z$.",
        "Each device does $1/(X \\cdot Y)$ of the $2 \\cdot B \\cdot D \\cdot F$ theoretical FLOPs.",
    ],
)
def test_references_factors_and_negations_are_not_called_wrong(sentence):
    question = TEXT.split("\n\n")[0] + "\n\n"
    assert "wrong" not in _verdicts(question + sentence + "\n")


def test_the_word_nearest_the_formula_names_it():
    """ "the total over all devices is 2BDF/(X·Y) too" is the total, whatever came before it."""
    question = TEXT.split("\n\n")[0] + "\n\n"
    text = question + (
        "Each device performs $2BDF/(X \\cdot Y)$ FLOPs, and the total over all devices is "
        "$2BDF/(X \\cdot Y)$ too.\n"
    )
    assert _verdicts(text) == [
        ("certified", "per device: 2*B*D*F/(X*Y)"),
        ("wrong", "over all devices: 2*B*D*F*Z"),
    ]


def test_the_mesh_is_given_not_claimed():
    claims = [c for c in audit_claims(TEXT.replace("**Question 2:** ", "")) if c.line == 1]
    assert not [c for c in claims if c.verdict == "unchecked"]
