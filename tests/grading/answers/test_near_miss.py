"""A number that misses the tolerance by little is told how far it is and what the tolerance is
(issue 50), the distance correctly rounded: the reference is mpmath at 50 digits."""

from __future__ import annotations

import mpmath
import pytest
import sympy as sp

from symattn.grading.answers.judge import judge
from symattn.grading.answers.values import NEAR, near_miss
from symattn.grading.answers.verdicts import Expected
from symattn.grading.exercises import get

mpmath.mp.dps = 50
EX62 = (mpmath.e**2 + 11) / (mpmath.e**2 + 2)  # ex6.2's expected output, independently


def _rounded(x: mpmath.mpf, digits: int) -> str:
    return mpmath.nstr(x, digits, strip_zeros=False, min_fixed=-30, max_fixed=30)


@pytest.mark.parametrize(("typed", "digits"), [("1.97", 2), ("2.05", 2), ("1.9686", 4), ("1.948", 2)])
def test_a_near_miss_says_how_far_and_the_tolerance(typed, digits):
    e = get("ex6.2")
    v = judge(typed, e.expected, e.mistakes)
    assert v.verdict == "incorrect"
    distance = abs(mpmath.mpf(typed) - EX62)
    assert f"it is about {_rounded(distance, digits)} from the expected answer" in v.feedback
    assert "answers within 0.01 of it are accepted" in v.feedback


@pytest.mark.parametrize("typed", ["2.1", "1.8", "3", "-1.96"])
def test_a_number_further_off_is_not_called_close(typed):
    e = get("ex6.2")
    distance = abs(mpmath.mpf(typed) - EX62)
    assert distance > NEAR * mpmath.mpf("0.01")
    assert judge(typed, e.expected, e.mistakes).feedback == "not the expected answer"


def test_an_exact_answer_has_no_tolerance_to_tell():
    third = Expected(kind="number", value=sp.Rational(1, 3))
    assert near_miss(third.value + sp.Rational(1, 10**9), third) is None
