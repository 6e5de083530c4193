"""derivations/attention_by_hand.py: section 6.2 as a checked proof."""

from __future__ import annotations

import dataclasses

import pytest

from derivations import attention_by_hand as ah
from symattn.proof import StepFailed

NAME = "attention_by_hand"


def test_all_steps_verified(verify):
    """Every step passes exactly or as a certified figure."""
    _, report = verify(NAME)
    assert report.ok and report.numeric_steps == 0
    figures = [r.step.rhs for r in report.steps if r.step.relation == "≈"]
    assert {"0.196", "0.804", "1.413", "4.113", "5.113", "-12.73", "1.414"} <= set(figures)


def test_wrong_module_figure_is_caught():
    """Stating 0.805 for the weight 0.80443 fails: it is not the correctly rounded value."""
    d = ah.derivation()
    index = next(k for k, s in enumerate(d.steps) if s.rhs == "0.804")
    d.steps[index] = dataclasses.replace(d.steps[index], rhs="0.805")
    with pytest.raises(StepFailed, match=r"correctly rounded, 0\.804"):
        d.verify()
