"""Judging answers (symattn/judge.py): tolerance, closed forms, matrices, thresholds, attacks."""

from __future__ import annotations

import time

import pytest
import sympy as sp

from symattn.exercises import get
from symattn.judge import Expected, judge

EX2, EX4, EX5 = get("ex6.2"), get("ex6.4"), get("ex6.5")


def verdict(exercise, raw):
    return judge(raw, exercise.expected, exercise.mistakes)


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("1.959", "correct"),
        ("1.96", "correct"),
        ("1.95", "correct"),  # |1.95 - 1.95856| < 0.01
        ("1.97", "incorrect"),  # 0.0114 away
        (r"\frac{e^2+11}{e^2+2}", "correct"),
        (r"\frac{11 + e^{2}}{2 + e^{2}}", "correct"),
        (r"\frac{e^2+11}{e^2+3}", "incorrect"),
    ],
)
def test_within_tolerance_is_absolute_difference(raw, expected):
    """ex6.2 is correct within 0.01 of (e^2 + 11)/(e^2 + 2) = 1.95856..."""
    assert verdict(EX2, raw).verdict == expected


def test_within_zero_is_exact():
    """With tolerance 0, 8192 is correct and 8192.001 is not."""
    assert verdict(EX5, "8192").verdict == "correct"
    assert verdict(EX5, "8192.001").verdict == "incorrect"
    assert verdict(EX5, r"2 \cdot 4096").verdict == "correct"


def test_tolerance_boundary_is_inclusive():
    """|answer - expected| <= T: an answer exactly T away is correct, T + 1e-9 is not."""
    e = Expected("number", sp.Rational(3, 2), sp.Rational(1, 100))
    assert judge("1.51", e).verdict == "correct"
    assert judge("1.510000001", e).verdict == "incorrect"


@pytest.mark.parametrize(
    ("raw", "code"),
    [
        ("4", "uniform-weights"),
        ("1", "largest-score-only"),
        ("18.39", "unnormalised"),
        ("0.787", "weight-not-output"),
        ("2", "scores-as-weights"),
    ],
)
def test_ex62_mistakes_are_named(raw, code):
    """Plausible wrong pipelines for ex6.2 are recognised and named."""
    v = verdict(EX2, raw)
    assert (v.verdict, v.mistake) == ("incorrect", code)
    assert v.feedback


@pytest.mark.parametrize(
    ("raw", "verdict_", "code"),
    [
        ("N > 8192", "correct", None),
        ("8192 < N", "correct", None),
        ("n > 8192", "correct", None),
        (r"N \geq 8192", "incorrect", "non-strict"),
        ("N < 8192", "incorrect", "direction"),
        ("N > 4096", "incorrect", "crossover-at-d-model"),
        ("4096", "incorrect", "crossover-at-d-model"),
        ("N > 2", "incorrect", None),
        ("N > 2d", "incorrect", "symbolic"),
        ("x > 8192", "incorrect", "variable"),
    ],
)
def test_thresholds(raw, verdict_, code):
    """ex6.5 accepts N > 8192 (or 8192); a non-strict, reversed or symbolic bound is named."""
    v = verdict(EX5, raw)
    assert (v.verdict, v.mistake) == (verdict_, code)


MASK = r"\begin{bmatrix} 0 & -\infty & -\infty \\ 0 & 0 & -\infty \\ 0 & 0 & 0 \end{bmatrix}"


@pytest.mark.parametrize(
    ("raw", "verdict_", "code"),
    [
        (MASK, "correct", None),
        (
            r"\begin{bmatrix} 0 & 0 & 0 \\ -\infty & 0 & 0 \\ -\infty & -\infty & 0 \end{bmatrix}",
            "incorrect",
            "transposed-mask",
        ),
        (
            r"\begin{bmatrix} -\infty & -\infty & -\infty \\ 0 & -\infty & -\infty \\"
            r" 0 & 0 & -\infty"
            r" \end{bmatrix}",
            "incorrect",
            "diagonal-blocked",
        ),
        (
            r"\begin{bmatrix} 0 & 1 & 1 \\ 0 & 0 & 1 \\ 0 & 0 & 0 \end{bmatrix}",
            "incorrect",
            "boolean-mask",
        ),
        (r"\begin{bmatrix} 0 & -\infty \\ 0 & 0 \end{bmatrix}", "incorrect", "shape"),
        ("[1, 0, 0]", "incorrect", "weights-not-mask"),
        ("5", "incorrect", "shape"),
    ],
)
def test_masks(raw, verdict_, code):
    """ex6.4 compares shape first, then entries (-infinity with ==); slips are named."""
    v = verdict(EX4, raw)
    assert (v.verdict, v.mistake) == (verdict_, code)


def test_given_echoes_the_reading():
    """'given' shows how the answer was read: 1.959 as the exact rational 1959/1000."""
    assert verdict(EX2, "1.959").given == "1959/1000"


def test_one_answer_does_not_affect_the_next():
    """`x = 3` then `x + 1`: the second is read as x + 1 (incorrect, symbolic), not 4."""
    verdict(EX2, "x = 3")
    v = verdict(EX2, "x + 1")
    assert v.given == "x + 1" and v.mistake == "symbolic"


HOSTILE = [
    r"2^{2^{2^{2^{2^{2}}}}}",
    r"10^{10^{10}}",
    "1000000!",
    r"\binom{1000000}{500000}",
    "(" * 3000 + "1" + ")" * 3000,
    "(" * 39 + "1" + ")" * 39,
    r"\def\x{1}\x",
    "__import__('os').system('touch /tmp/symattn-pwned')",
    "exec('print(1)')",
    r"\exp(10^{10^{10}})",
    r"\begin{bmatrix}" + " & ".join(["1"] * 60) + r"\end{bmatrix}",
    "1" * 40,
    r"e^{e^{e^{e^{e^{e^{10}}}}}}",
    r"\frac{1}{0}",
    "9^{9^{9}}",
]


@pytest.mark.parametrize("raw", HOSTILE)
def test_hostile_answers_are_refused_quickly(raw, tmp_path):
    """Each hostile answer is invalid or incorrect within a few seconds and runs no code."""
    start = time.monotonic()
    v = verdict(EX2, raw)
    assert v.verdict in ("invalid", "incorrect")
    assert time.monotonic() - start < 6
    assert not (tmp_path.parent / "symattn-pwned").exists()
    import os

    assert not os.path.exists("/tmp/symattn-pwned")


def test_this_process_is_unharmed_after_hostile_answers():
    """After the hostile suite, a normal answer is judged normally and quickly."""
    start = time.monotonic()
    assert verdict(EX2, "1.959").verdict == "correct"
    assert time.monotonic() - start < 2
