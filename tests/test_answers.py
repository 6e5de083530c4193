"""Checks on the raw text of an answer (symattn/answers.py)."""

from __future__ import annotations

import pytest

from symattn.answers import InvalidAnswer, precheck


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ("", "empty"),
        ("   ", "empty"),
        (r"\frac{1}{2", "unmatched brace at position 9"),
        (r"\frac{e^2+11}}{e^2+2}", "unmatched brace at position 14"),
        ("(1 + 2", "unmatched parenthesis at position 1"),
        ("8192 )", "unmatched parenthesis at position 6"),
        (r"\binom{1000000}{500000}", r"\binom is not accepted here"),
        (r"\def\x{1} \x", r"\def"),
        ("1000000!", "factorials"),
        ("(10!)!", "factorials"),
        ("1,959", "write 1.959, not 1,959"),
        ("__import__('os').system('ls')", "program code"),
        ("import os", "program code"),
        ("1; 2", "';' at position 2"),
        ("1\x00", "U+0000"),
        ("x" * 401, "too long"),
        ("(" * 41 + "1" + ")" * 41, "nested more than"),
        ("1" * 41, "digits"),
        (r"\operatorname{Var}(z)", r"\operatorname is not accepted"),
    ],
)
def test_refusals_name_the_problem(raw, message):
    """Each refused answer gets one line a learner can act on."""
    with pytest.raises(InvalidAnswer) as info:
        precheck(raw)
    assert message in str(info.value)
    assert "\n" not in str(info.value)


@pytest.mark.parametrize(
    ("raw", "clean"),
    [
        ("1.959", "1.959"),
        ("$N > 8192$", "N > 8192"),
        (r" \frac{1}{2} ", r"\frac{1}{2}"),
        ("\u22121", "-1"),
        (r"\left( 1 + 2 \right)", r"\left( 1 + 2 \right)"),
    ],
)
def test_accepted_forms_are_cleaned(raw, clean):
    """Outer $ signs and spaces go; a typographic minus becomes '-'."""
    assert precheck(raw) == clean
