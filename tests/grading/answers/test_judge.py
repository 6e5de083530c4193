"""Judging answers (symattn/grading/answers/judge.py): tolerance, closed forms, matrices, thresholds,
attacks."""

from __future__ import annotations

import pytest
import sympy as sp

from symattn.grading.answers.judge import Expected, judge, warm_up
from symattn.grading.exercises import get
from symattn.proof.magnitude import TOO_MANY_DIGITS, TOO_MANY_TERMS

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


@pytest.mark.parametrize(
    ("expected", "raw", "typed", "given"),
    [
        (EX2, "1.959", "1.959", "1959/1000"),
        (EX2, "1.9590", "1.9590", "1959/1000"),  # the digits typed, trailing zero kept
        (EX2, "−1.96", "-1.96", "-49/25"),  # a Unicode minus is a minus
        (EX2, "1.959e0", "1.959e0", "1959/1000"),
        (EX2, "1.959E+0", "1.959E+0", "1959/1000"),  # e-notation as typed, case and sign kept
        (EX2, r"195.9\%", "195.9%", "1959/1000"),
        (EX2, r"y \approx 1.96", "y ≈ 1.96", "y ≈ 49/25"),  # each side of a chain
        (EX2, r"\frac{49}{25}", "49/25", "49/25"),  # not a decimal: as read
        (EX2, r"\frac{1.96}{2}", "1.96/2", "(49/25)/2"),  # a decimal inside an expression
        (EX2, r"-0.5 + 2.46", "-0.5 + 2.46", "-1/2 + 123/50"),
        (EX2, r"0.5 e^{2}", "e^2/2", "e^2/2"),  # folded into a product by SymPy: as read
        (EX5, "N > 8192.0", "N > 8192.0", "N > 8192"),
        (EX4, "[[0, -\\infty], [0.50, 0.5]]", "[[0, -∞], [0.50, 0.5]]", "[[0, -∞], [1/2, 1/2]]"),
        (
            EX4,
            r"\begin{bmatrix} 0.5 & 1 \\ 0 & 0.0 \end{bmatrix}",
            "[[0.5, 1], [0, 0.0]]",
            "[[1/2, 1], [0, 0]]",
        ),
        # a transposed matrix is laid out as read, its decimals as typed; a scaled one as read
        (EX4, r"\begin{bmatrix} 0.5 & 1 \end{bmatrix}^T", "[[0.5], [1]]", "[[1/2], [1]]"),
        (EX4, r"2 \begin{bmatrix} 0.5 & 1 \end{bmatrix}", "[[1, 2]]", "[[1, 2]]"),
    ],
)
def test_typed_echoes_numbers_as_typed(expected, raw, typed, given):
    """'typed' is the reading with each number written alone (a side, a matrix entry written
    out) as the learner typed it; 'given' keeps the exact reading that grade groups by."""
    v = verdict(expected, raw)
    assert (v.typed, v.given) == (typed, given), v


def test_one_answer_does_not_affect_the_next():
    """`x = 3` then `x + 1`: the second is read as x + 1 (incorrect, symbolic), not 4."""
    verdict(EX2, "x = 3")
    v = verdict(EX2, "x + 1")
    assert v.given == "x + 1" and v.mistake == "symbolic"


HOSTILE = [
    (EX5, r"e^{N} > N^{1000}"),
    (EX5, r"(N-1)^{1000000} > 0"),
    (EX5, r"N^{N^{N}} > 10^{10^{10}}"),
    (EX5, r"N > 10^{10^{10}}"),
    (EX2, r"\sum_{i=1}^{100} 10^{10^{i}}"),
    (EX2, r"\exp(\exp(\exp(\exp(10))))"),
    (EX2, r"\sqrt[3]{-8}^{10^{10}}"),
]
HOSTILE += [
    (EX2, raw)
    for raw in [
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
]


@pytest.mark.parametrize(("exercise", "raw"), HOSTILE)
def test_hostile_answers_are_refused(exercise, raw, tmp_path):
    """Each hostile answer is invalid or incorrect (within the judge's limits: bench/limits.py
    times them) and runs no code."""
    v = verdict(exercise, raw)
    assert v.verdict in ("invalid", "incorrect")
    assert not (tmp_path.parent / "symattn-pwned").exists()
    import os

    assert not os.path.exists("/tmp/symattn-pwned")


def test_this_process_is_unharmed_after_hostile_answers():
    """After the hostile suite, a normal answer is judged normally."""
    assert verdict(EX2, "1.959").verdict == "correct"


@pytest.mark.parametrize(
    "raw",
    [
        r"\sqrt{\infty}",
        r"2^{\infty}",
        r"|-\infty|",
        r"\max(\infty, 1)",
        r"\infty^{\infty}",
        r"\frac{e^2+11}{e^2+2}+\sqrt{\infty}",
        r"\frac{e^2+11}{e^2+2}+\frac{1}{\infty}",
        r"\infty - \infty",
        r"\frac{1}{0}",
        r"\sqrt{-1}",
    ],
)
def test_unevaluated_infinities_are_not_finite(raw):
    """Forms SymPy leaves unevaluated are caught: incorrect, 'not a finite number' or not real."""
    v = verdict(EX2, raw)
    assert v.verdict == "incorrect"
    assert "not a finite number" in v.feedback or "not a real number" in v.feedback


@pytest.mark.parametrize(
    ("raw", "code", "says"),
    [
        (r"N \neq 8192", "not-equal", "≠"),
        (r"N \ne 8192", "not-equal", "≠"),
        (r"8192 \neq N", "not-equal", "≠"),
        ("N = 8192", "equality", "one length"),
        (r"N \approx 8192", "approximate", "≈"),
        (r"N \equiv 8192", "equivalent", "≡"),
        (r"N \leq 8192", "direction", "long sequences"),
        (r"N > \max(\infty, 1)", "not-finite", "not a finite number"),
        ("N > 8193", "", "N >= 8194"),
    ],
)
def test_threshold_relations_that_mean_another_set_say_why(raw, code, says):
    """Only relations describing N > 8192 over the positive integers pass; the rest say why."""
    v = verdict(EX5, raw)
    assert (v.verdict, v.mistake) == ("incorrect", code or None)
    assert says in v.feedback


@pytest.mark.parametrize(
    "raw",
    [
        "N - 8192 > 0",
        r"\frac{N}{2} > 4096",
        "-N < -8192",
        r"1 > \frac{8192}{N}",
        "N^2 > 8192^2",
        r"N \geq 8193",
        r"N \gt 8192",
        r"8192 < N < \infty",
        r"N \in (8192, \infty)",
        r"N > 2 d_{model} = 8192",
        r"8\,192",
        "8 192",
        r"N(N - 8192) > 0",
    ],
)
def test_threshold_forms_of_the_same_set_are_correct(raw):
    """Rearranged, scaled, chained, interval and integer-equivalent forms are all correct."""
    assert verdict(EX5, raw).verdict == "correct"


def test_importing_and_judging_leave_latex2sympy_and_sympy_untouched():
    """The parser is patched and its state cleared only in the worker, never in this process."""
    from symattn.grading.answers.readers import typing_io_shim

    typing_io_shim()  # Python 3.13+: antlr 4.7.2 imports typing.io
    import latex2sympy2
    from sympy.core.parameters import global_parameters

    math = latex2sympy2.PSParser.math
    patched = getattr(latex2sympy2.PSParser, "_symattn_eof_check", False)
    before = (dict(latex2sympy2.variances), dict(latex2sympy2.var), latex2sympy2.frac_type)
    flags = (global_parameters.evaluate, global_parameters.distribute)
    warm_up()  # the service warm-up parses in this process, and restores what it touched
    for raw in ("x = 3", r"\frac{e^2+11}{e^2+2}", "N > 8192", MASK):
        verdict(EX2, raw)
    assert latex2sympy2.PSParser.math is math
    assert getattr(latex2sympy2.PSParser, "_symattn_eof_check", False) == patched
    assert (dict(latex2sympy2.variances), dict(latex2sympy2.var), latex2sympy2.frac_type) == before
    assert (global_parameters.evaluate, global_parameters.distribute) == flags


def test_no_python_internals_reach_the_learner():
    """Forms that used to leak Python messages get a sentence; no exception names or calls."""
    import re

    leaky = re.compile(r"Error|Exception|Traceback|\w+\(\)|keyword argument|sympy|NotImplemented")
    for exercise, raw in [
        (EX4, r"\begin{bmatrix} 1 & 2 \end{bmatrix} \begin{bmatrix} 1 \\ 2 \end{bmatrix}"),
        (EX5, "x^x > 2"),
        (EX2, r"\frac{}{}"),
        (EX2, r"\hat{x}^{\vec{y}}"),
        (EX2, r"f(2)"),
        (EX2, r"\mathbf{1}"),
        (EX4, r"\begin{bmatrix} 1 & 2 \\ 3 \end{bmatrix}"),
        (EX2, r"\begin{bmatrix} 1 & 2 \end{bmatrix}^{-1}"),
    ]:
        v = verdict(exercise, raw)
        assert not leaky.search(v.feedback), (raw, v.feedback)


def test_every_correct_is_confirmed_by_certified_digits():
    """An answer 1e-40 outside the tolerance is incorrect: the decision is not made in floats."""
    e = Expected("number", sp.Rational(3, 2), sp.Rational(1, 100))
    assert judge("1.51" + "0" * 30 + "1", e).verdict == "incorrect"
    near = Expected("number", sp.exp(2), sp.Rational(1, 100))
    assert judge(r"e^{2} + 0.01", near).verdict == "correct"
    assert judge(r"e^{2} + 0.0100000000000000000000000000000000000001", near).verdict == "incorrect"


def test_nested_sums_are_written_out_and_their_terms_multiply():
    """Issue 49: nested sums with whole-number bounds are written out term by term (SymPy's own
    summation of 30 x 30 terms of 1/(i+j) took 12 s) and bounded by their terms in all."""
    from fractions import Fraction

    expected = sum(Fraction(1, i + j) for i in range(1, 3) for j in range(1, 51))
    v = verdict(EX2, r"\sum_{i=1}^{2}\sum_{j=1}^{50} \frac{1}{i+j}")
    assert v.given == f"{expected.numerator}/{expected.denominator}"
    assert verdict(EX2, r"\sum_{i=1}^{2}\sum_{j=1}^{3} i j").given == str(
        sum(i * j for i in (1, 2) for j in (1, 2, 3))
    )
    refused = verdict(EX2, r"\sum_{i=1}^{30}\sum_{j=1}^{30} \frac{1}{i+j}")
    assert (refused.verdict, refused.feedback) == (
        "invalid",
        "too costly to check: sums of more than 100 terms in all",
    )


def test_a_matrix_entry_that_cannot_be_decided_is_invalid_not_wrong():
    """(e+1)^400 (e-1)^400 - (e^2-1)^400 is exactly 0, but too wide to certify at 60 digits and
    too large to expand (160,801 terms multiplied out): no verdict of "wrong" (it once was), and
    none of "correct" after seconds of expanding; cos(π/7)cos(2π/7)cos(4π/7) + 1/8, also 0, is
    small but beyond SymPy's normal forms. An entry decided wrong still is wrong."""
    zero = r"(e+1)^{400}(e-1)^{400} - (e^2-1)^{400}"
    rest = r"& -\infty & -\infty \\ 0 & 0 & -\infty \\ 0 & 0 & 0 \end{bmatrix}"
    v = verdict(EX4, rf"\begin{{bmatrix}} {zero} {rest}")
    assert (v.verdict, v.feedback) == ("invalid", TOO_MANY_TERMS)
    unproved = r"\cos(\pi/7)\cos(2\pi/7)\cos(4\pi/7) + \frac{1}{8}"
    v = verdict(EX4, rf"\begin{{bmatrix}} {unproved} {rest}")
    assert v.verdict == "invalid" and "could not be compared with certainty" in v.feedback
    assert verdict(EX4, rf"\begin{{bmatrix}} 1 {rest}").verdict == "incorrect"
    # an entry holding a power of ten billion digits is too costly, not "not a finite number"
    huge = verdict(EX4, rf"\begin{{bmatrix}} 0 \cdot 10^{{10^{{10}}}} + 1.96^{{9000}} - 1.96^{{9000}} {rest}")
    assert (huge.verdict, huge.feedback) == ("invalid", TOO_MANY_DIGITS)


def test_notes_say_how_a_form_was_read():
    """e notation and thousands separators are read as numbers and the reading is said."""
    assert verdict(EX2, "1.9586e0").notes == ("1.9586e0 read as 1.9586 × 10^0",)
    assert verdict(EX5, r"8\,192").notes == (r"8\,192 read as 8192",)


def test_a_sum_of_huge_powers_is_written_out_not_computed():
    """Issue 49: a sum whose terms are powers of more than MAX_POWER_DIGITS digits keeps its terms as
    written (as one such power alone is), so the work is bounded by the answer's terms and
    digits, not stopped by a clock; a sum of ordinary terms is still evaluated."""
    v = verdict(EX2, r"\sum_{i=1}^{100} 10^{10^{i}}")
    assert v.verdict == "incorrect" and v.given.startswith("10^(10^1) + 10^(10^2) + 10^(10^3)")
    assert "^" not in verdict(EX2, r"\sum_{i=1}^{2} 10^{10^{i}}").given  # 101 digits: computed
    assert verdict(EX2, r"\sum_{i=1}^{3} i").given == "6"


def test_what_multiplies_out_to_too_many_terms_is_refused_by_its_count():
    """Issue 49: an exact zero that only expanding would prove, counted before any work:
    ((1+√2)(1-√2))^2000 - 1 written as two powers is 2,001 x 2,001 terms multiplied out (at a
    power of 26,000, 16 s of SymPy's expanding, once judged correct or out of time by the
    machine's load); the same at a power of 20 is proved. An inequality whose expansion passes
    the count says so too."""
    rest = r"& -\infty & -\infty \\ 0 & 0 & -\infty \\ 0 & 0 & 0 \end{bmatrix}"
    big = verdict(EX4, rf"\begin{{bmatrix}} (1+\sqrt{{2}})^{{2000}}(1-\sqrt{{2}})^{{2000}}-1 {rest}")
    assert (big.verdict, big.feedback) == ("invalid", TOO_MANY_TERMS)
    small = verdict(EX4, rf"\begin{{bmatrix}} (1+\sqrt{{2}})^{{20}}(1-\sqrt{{2}})^{{20}}-1 {rest}")
    assert small.verdict == "correct"
    octic = verdict(EX5, r"(N + N^2 + N^3 + N^4 + N^5 + N^6 + N^7 + 1)^{8} > 10^{30}")
    assert (octic.verdict, octic.feedback) == ("invalid", TOO_MANY_TERMS)


@pytest.mark.parametrize(
    ("exercise", "raw", "feedback"),
    [
        # nested sums in a matrix entry are bounded in all, as a value's are (SymPy summed them
        # symbolically until the time net fired)
        (
            EX2,
            r"\begin{bmatrix}\sum_{i=1}^{30}\sum_{j=1}^{30}\frac{1}{i+j}\end{bmatrix}",
            "sums of more than 100",
        ),
        # e-notation read exactly: a million digits, refused from the text
        (EX5, "N > 1e999999", TOO_MANY_DIGITS),
        (EX2, "1.96e-999999", TOO_MANY_DIGITS),
        # a bound SymPy has already worked out is measured as one it has not
        (EX5, r"N > 10^{999}", "a bound of more than 100 digits"),
        # a power to an exponent written as a power: binomially expanded all the same
        (
            EX4,
            r"\begin{bmatrix} (1+10^{-39}\sqrt{2})^{10^{30}}-(1+10^{-39}\sqrt{2})^{10^{29}\cdot 10} "
            r"& -\infty & -\infty \\ 0 & 0 & -\infty \\ 0 & 0 & 0 \end{bmatrix}",
            TOO_MANY_TERMS,
        ),
    ],
)
def test_measures_a_reviewer_got_past_now_refuse(exercise, raw, feedback):
    """Issue 49: inputs the measures once admitted and the time net then stopped (or that took
    5-20 s of CPU), refused now by a measure of the input."""
    v = verdict(exercise, raw)
    assert v.verdict == "invalid" and feedback in v.feedback, (v.verdict, v.feedback)


def test_a_root_of_a_written_out_product_keeps_the_product_as_written():
    """The 100 factors of a written-out product are not multiplied into 7,800 digits (a root of
    them did, then factored the result: 18 s); the value is still judged, and is far off."""
    v = verdict(EX2, r"\sqrt[4]{\prod_{k=1}^{100}(10^{39}+k)}")
    assert v.verdict == "incorrect" and v.given.startswith("((10^39 + 1)*(10^39 + 2)*")
