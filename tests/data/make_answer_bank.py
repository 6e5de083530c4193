"""Write tests/data/answer_bank.csv: answers a class might type, with a careful grader's verdict.

Run: python tests/data/make_answer_bank.py   (the CSV is committed; this documents its making)

Verdicts are decided here by rule, never by running the judge: a form of a value within the
tolerance is correct, a value outside it incorrect, an unreadable or ambiguous form invalid.
Seeded variants take only their inputs (scores, values, width, n) from symattn; their answers
and slips are computed here by hand with mpmath at 50 digits.
"""

from __future__ import annotations

import csv
import random
from pathlib import Path

import mpmath

OUT = Path(__file__).with_name("answer_bank.csv")
mpmath.mp.dps = 50
E62 = r"\frac{e^2+11}{e^2+2}"
MASK3 = r"0 & -\infty & -\infty \\ 0 & 0 & -\infty \\ 0 & 0 & 0"
rows: list[tuple[str, str, str, str, str]] = []


def add(ex: str, answer: str, verdict: str, reason: str, seed: str = "") -> None:
    rows.append((ex, seed, answer, verdict, reason))


# -- ex6.2: (e^2 + 11)/(e^2 + 2) = 1.958559..., within 0.01 ------------------------------------
value = (mpmath.e**2 + 11) / (mpmath.e**2 + 2)
assert abs(value - mpmath.mpf("1.95856")) < 1e-5
within = [
    "1.96",
    "1.959",
    "1.9586",
    "1.95856",
    "1.958",
    "1.95",
    "1.9585",
    "1.9500",
    "1.966",
    "1.9499",
    "1.968",
]
for v in sorted(set(within)):
    assert abs(mpmath.mpf(v) - value) <= mpmath.mpf("0.01"), v
    add("ex6.2", v, "correct", f"{v} is within 0.01 of 1.95856")
for v in ["1.97", "1.94", "1.9", "2.0", "1.8", "0", "-1.96", "19.6", "0.196", "1.9485", "1.9686001"]:
    assert abs(mpmath.mpf(v) - value) > mpmath.mpf("0.01"), v
    add("ex6.2", v, "incorrect", f"{v} is more than 0.01 from 1.95856")
wrappers = [
    ("$1.96$", "dollar delimiters"),
    ("$$1.96$$", "display delimiters"),
    (r"\(1.96\)", "inline delimiters"),
    (r"\[1.96\]", "display delimiters"),
    (r"\boxed{1.96}", "a boxed answer"),
    (r"$\boxed{1.96}$", "a boxed answer in delimiters"),
    ("1.96.", "a trailing period"),
    ("$1.96$.", "a trailing period after delimiters"),
    (r"1.96\;", "a spacing command"),
    (r"1.96\!", "a negative space"),
    (r"\,1.96", "a thin space"),
    ("1.96~", "a tie"),
    (r"1.96\quad", r"\quad"),
    (r"\qquad 1.96", r"\qquad"),
    (r"1.96\ldots", r"a trailing \ldots"),
    ("1.958...", "a trailing ..."),
    (r"1.9585\dots", r"a trailing \dots"),
    ("1.9586e0", "e notation with digits on both sides"),
    ("19.586e-1", "e notation, negative exponent"),
    ("1.9586E0", "capital E notation"),
    (r"\approx 1.96", r"a leading \approx"),
    ("= 1.96", "a leading ="),
    (r"1.96 \approx", r"a trailing \approx"),
    (E62 + r" \approx 1.96", "the closed form approximately the decimal"),
    (E62 + " = 1.96", "the closed form set equal to its rounding"),
    (E62 + r" \approx 1.9586", "the closed form and four decimals"),
    (r"y \approx 1.96", "a name for the answer"),
    ("o = 1.959", "a name for the answer"),
    (r"1.96\text{ tokens}", r"a unit in \text"),
    (r"1.96 \text{units}", r"a unit in \text"),
    (r"1.96\mathrm{\ units}", r"a unit in \mathrm"),
    (r"\begin{bmatrix} 1.96 \end{bmatrix}", "a 1x1 matrix"),
    (r"\begin{pmatrix} 1.959 \end{pmatrix}", "a 1x1 matrix"),
    (r"[1.96]", "a one-entry list"),
    ("1.96\u2009", "a trailing thin space character"),
    ("\u2248 1.96", "a Unicode approximately-equal sign"),
    (r"\displaystyle 1.96", r"\displaystyle"),
    ("196/100", "a fraction with a slash"),
    (r"\frac{196}{100}", "a fraction"),
    (r"\dfrac{49}{25}", r"\dfrac"),
    (r"\tfrac{49}{25}", r"\tfrac"),
    ("49/25", "a reduced fraction"),
    (r"196 \times 10^{-2}", "scientific notation"),
    (r"1.96 \cdot 10^{0}", "scientific notation"),
    (r"196\%", r"196\% read as 1.96"),
    ("the answer is 1.96", "a lead-in sentence (issue 48)"),
    ("1,96", "a decimal comma: no thousands grouping leaves two digits (issue 48)"),
    (r"\frac{1,96}{1}", "a decimal comma inside a fraction (issue 48)"),
]
for answer, how in wrappers:
    add("ex6.2", answer, "correct", f"1.96 within 0.01, written with {how}")
closed = [
    (E62, "the exact output"),
    (r"\frac{11 + e^{2}}{2 + e^{2}}", "terms reordered"),
    (r"\frac{\mathrm{e}^2+11}{\mathrm{e}^2+2}", r"\mathrm{e}"),
    (r"\frac{\exp(2)+11}{\exp(2)+2}", r"\exp"),
    (r"\frac{e^{2}+11}{e^{2}+2}", "braced exponents"),
    (r"1 + \frac{9}{e^2+2}", "one plus the remainder"),
    (r"\frac{e^2 \cdot 1 + 1 \cdot 4 + 1 \cdot 7}{e^2 + 1 + 1}", "weighted values unsimplified"),
    (r"\frac{e^2}{e^2+2} \cdot 1 + \frac{1}{e^2+2} \cdot 4 + \frac{1}{e^2+2} \cdot 7", "the weighted sum"),
    (r"\frac{1 + 11 e^{-2}}{1 + 2 e^{-2}}", "divided through by e^2"),
    (r"\frac{e^2+11}{e^2+2} + 0", "plus zero"),
    (r"\left(\frac{e^2+11}{e^2+2}\right)", r"\left( \right)"),
    (r"\frac{e^2+11}{e^2+2}.", "a trailing period"),
    (r"\boxed{\frac{e^2+11}{e^2+2}}", "boxed"),
    (r"$\frac{e^2+11}{e^2+2}$", "in delimiters"),
    (r"\frac{e^2+11}{e^2+2} \approx 1.959", "the exact form and its decimal"),
    (r"\sum_{j=1}^{1} \frac{e^2+11}{e^2+2}", "a one-term sum"),
    (r"\frac{e^2+11}{\sqrt{(e^2+2)^2}}", "a square root of a square"),
    (r"\frac{e^{2}+11}{e^{2}+2}\cdot\frac{e^{-2}}{e^{-2}}", "times one"),
    (r"\frac{e^{2}+11}{e^{2}+2} + \ln 1", "plus ln 1"),
    ("\u22121.96 + 3.92", "a typographic minus"),
]
for answer, how in closed:
    add("ex6.2", answer, "correct", f"equals (e^2+11)/(e^2+2): {how}")
wrong_closed = [
    (r"\frac{e^2+11}{e^2+3}", "a different denominator"),
    (r"\frac{e^2+11}{e^2}", "the denominator misses the 2"),
    (r"\frac{e^3+11}{e^3+2}", "e^3 instead of e^2"),
    (r"\frac{e^2+11}{e^2+2} + 0.02", "off by 0.02"),
    (r"\frac{e^2+11}{e^2+2} = 1.97", "the decimal side is outside the tolerance"),
    (r"1.97 \approx \frac{e^2+11}{e^2+2}", "the decimal side is outside the tolerance"),
    (r"\frac{e^2+11}{e^2+2} = 2", "the second side is 2"),
    (r"\frac{e+11}{e+2}", "e instead of e^2"),
    (r"\frac{2+11}{2+2}", "scores used as e^score"),
    (r"-\frac{1}{2}", "a negative half"),
    (r"\pi", "pi"),
    (r"\sqrt{2}", "sqrt 2"),
    (r"e^2", "e^2 alone"),
    (r"\frac{e^2}{e^2+2}", "the first weight"),
]
for answer, how in wrong_closed:
    add("ex6.2", answer, "incorrect", f"not (e^2+11)/(e^2+2): {how}")
slips = [
    ("4", "uniform weights: the mean of 1, 4, 7"),
    ("4.0", "uniform weights"),
    (r"\frac{1+4+7}{3}", "uniform weights"),
    ("1", "the value of the largest score only"),
    ("18.39", "unnormalised exponentials"),
    (r"e^2 + 11", "unnormalised exponentials"),
    ("0.787", "the largest weight, not the output"),
    (r"\frac{e^2}{e^2+2}", "the largest weight, not the output"),
    ("2", "scores used as weights"),
]
for answer, how in slips:
    add("ex6.2", answer, "incorrect", f"a named slip: {how}")
infinite = [
    r"\infty",
    r"-\infty",
    r"\sqrt{\infty}",
    r"2^{\infty}",
    r"|-\infty|",
    r"\max(\infty, 1)",
    r"\infty^{\infty}",
    r"\frac{e^2+11}{e^2+2}+\sqrt{\infty}",
    r"\infty - \infty",
    r"0 \cdot \infty",
    r"\frac{1}{0}",
    r"\frac{0}{0}",
    r"\frac{e^2+11}{e^2+2} + \frac{1}{\infty}",
    r"e^{-\infty} + 1.96",
    r"\frac{1.96 \infty}{\infty}",
    r"\log(0)",
    r"\ln(-1)",
    r"\sqrt{-1}",
    r"1.96 + \sqrt{-4}",
    r"\begin{bmatrix} \infty \end{bmatrix}",
]
for answer in infinite:
    add("ex6.2", answer, "incorrect", "not a finite real number")
symbolic = [
    ("x", "a symbol"),
    ("x + 1", "a symbol"),
    (r"\frac{e^{s_1} v_1}{e^{s_1}}", "symbols"),
    ("N", "a symbol"),
    (r"\lambda", "the Greek letter lambda, a symbol, not a number"),
    (r"\alpha + 1.96", "a symbol plus the number"),
    (r"1.96 x", "the number times a symbol"),
]
for answer, how in symbolic:
    add("ex6.2", answer, "incorrect", f"not a number: {how}")
# functions written as on a calculator (issue 48): read, and judged by value
add("ex6.2", "exp(2)", "incorrect", "e^2, about 7.39, written as on a calculator")
add("ex6.2", "sqrt(4)", "incorrect", "2, written as on a calculator")
add("ex6.2", "sqrt(3.836)", "correct", "about 1.9586, written as on a calculator")
invalid = [
    ("banana", "a word"),
    ("apple pie", "words"),
    ("1,959", "ambiguous: 1.959 or 1959"),
    ("2 4096", "ambiguous: 24096 or 2 times 4096"),
    ("1.9 6", "ambiguous digit groups"),
    (r"\binom{4}{2}", "a binomial"),
    (r"\dbinom{4}{2}", "a binomial"),
    (r"\tbinom{4}{2}", "a binomial"),
    (r"{4 \choose 2}", "a binomial"),
    ("(4)_{1}", "a Pochhammer symbol"),
    (r"\left(4\right)_{1}", "a Pochhammer symbol"),
    ("{(4)}_{1}", "a Pochhammer symbol"),
    ("4!", "a factorial"),
    (r"\Gamma(3)", "the Gamma function"),
    ("__import__('os')", "program code"),
    ("import os", "program code"),
    ("lambda: 1", "program code"),
    ("exec('1')", "program code"),
    (r"\def\x{1}\x", "a definition"),
    (r"\newcommand{\x}{1}", "a definition"),
    (r"\frac{1}{2", "an unmatched brace"),
    ("(1.96", "an unmatched parenthesis"),
    ("1.96 )", "an unmatched parenthesis"),
    ("", "empty"),
    ("   ", "empty"),
    ("1.96; 2", "two answers"),
    ("1.96 %", "a bare %"),
    (r"\text{about } 1.96", "a sentence in text"),
    ("1" * 41, "a 41-digit number"),
    ("x" * 401, "too long"),
    (r"\int_0^1 x dx", "an integral"),
    (r"\lim_{x \to 0} x", "a limit"),
    (r"\sum_{i=1}^{1000} i", "a sum of too many terms"),
    (r"\sum_{i=1}^{n} i", "a sum with a symbolic bound"),
    (r"\operatorname{softmax}(2)", r"\operatorname"),
    ("1.96 @", "a stray character"),
    (r"\frac{}{}", "an empty fraction"),
    ("+", "an operator alone"),
]
for answer, how in invalid:
    add("ex6.2", answer, "invalid", f"cannot be judged: {how}")
hostile = [
    r"10^{10^{10}}",
    r"2^{2^{2^{2^{2^{2}}}}}",
    r"e^{e^{e^{e^{10}}}}",
    r"\exp(10^{10^{10}})",
    "9^{9^{9}}",
    r"10^{-10^{10}}",
]
for answer in hostile:
    add("ex6.2", answer, "incorrect", "an astronomically large or small value, not 1.96")

# -- ex6.5: N > 8192 over the positive integers --------------------------------------------------
correct65 = [
    ("N > 8192", "the threshold"),
    ("8192 < N", "reversed"),
    ("n > 8192", "lower-case n"),
    (r"N \gt 8192", r"\gt"),
    (r"8192 \lt N", r"\lt"),
    ("8192", "the crossover value"),
    (r"2 \cdot 4096", "the crossover value as a product"),
    (r"2 \times 4096", "the crossover value as a product"),
    ("2^{13}", "the crossover value as a power"),
    (r"8\,192", "a thin-space thousands separator"),
    ("8 192", "a space thousands separator"),
    (r"8\ 192", "a control-space thousands separator"),
    ("8.192e3", "e notation"),
    (r"\boxed{8192}", "boxed"),
    ("$N > 8192$", "in delimiters"),
    ("N > 8192.", "a trailing period"),
    (r"N > 8\,192", "a thin-space separator in the inequality"),
    ("N - 8192 > 0", "rearranged"),
    (r"\frac{N}{2} > 4096", "halved"),
    ("-N < -8192", "negated"),
    (r"1 > \frac{8192}{N}", "divided by N"),
    ("N^2 > 8192^2", "squared, over positive N"),
    (r"N^2 > 67108864", "squared, evaluated"),
    (r"N \geq 8193", "the integer-equivalent non-strict form"),
    (r"N \ge 8193", r"\ge"),
    (r"N \geqslant 8193", r"\geqslant"),
    ("N >= 8193", ">="),
    (r"8193 \leq N", "reversed non-strict"),
    (r"8192 < N < \infty", "a chain with infinity"),
    (r"N \in (8192, \infty)", "an open interval"),
    (r"N \in [8193, \infty)", "a half-open interval from 8193"),
    (r"N \in \left(8192, \infty\right)", r"an interval with \left \right"),
    (r"N \in ]8192, \infty[", "French interval brackets"),
    (r"N > 2 d_{model} = 8192", "a chain with the value"),
    (r"N > 2 d_{\text{model}} = 8192", r"a chain with \text"),
    (r"N > 2 \cdot 4096 = 8192", "a chain with the product"),
    (r"N > 2d = 8192", "a chain with d"),
    (r"N > 8192 = 2 \cdot 4096", "a chain with the product after"),
    (r"2 N > 16384", "doubled"),
    (r"N + 1 > 8193", "shifted"),
    (r"4096 < \frac{N}{2}", "halved, reversed"),
    (r"N > 8192.5", "the same positive integers as N > 8192"),
    (r"N > 8192.9", "the same positive integers as N > 8192"),
    (r"N \geq 8192.5", "the same positive integers as N > 8192"),
    (r"N^2 - 8192 N > 0", "factored form N(N - 8192) > 0, positive N"),
    (r"N(N - 8192) > 0", "factored, positive N"),
    (r"\frac{2 N^2 \cdot 4096}{4 N \cdot 4096^2} > 1", "the cost ratio above 1"),
    (r"2 N^2 \cdot 4096 > 4 N \cdot 4096^2", "the cost comparison at d = 4096"),
    (r"N > 8192 \text{ tokens}", "a unit"),
]
for answer, how in correct65:
    add("ex6.5", answer, "correct", f"describes N > 8192 over the positive integers: {how}")
incorrect65 = [
    (r"N \neq 8192", "every N but one"),
    (r"N \ne 8192", "every N but one"),
    (r"8192 \neq N", "every N but one"),
    ("N != 8192", "every N but one"),
    ("N = 8192", "one value, not a threshold"),
    (r"N \approx 8192", "approximate, not a threshold"),
    (r"N \equiv 8192", "not an inequality"),
    (r"N \sim 8192", "not an inequality"),
    ("N < 8192", "the wrong direction"),
    (r"N \leq 8192", "the wrong direction"),
    ("8192 > N", "the wrong direction"),
    (r"N \geq 8192", "includes the crossover itself"),
    (r"N \in [8192, \infty)", "includes the crossover itself"),
    ("N > 8191", "includes the crossover itself"),
    ("N > 4096", "the crossover-at-d-model slip"),
    ("4096", "the crossover-at-d-model slip"),
    ("N > 2", "a wrong bound"),
    ("N > 8193", "excludes 8193"),
    ("N > 16384", "twice the threshold"),
    ("N > 0", "every N"),
    ("8193", "not the crossover value"),
    ("8192.001", "not exactly 8192"),
    (r"N > \max(\infty, 1)", "an infinite bound"),
    (r"N > \infty", "no N"),
    (r"N > \sqrt{\infty}", "an infinite bound"),
    (r"N > 2d", "symbolic: no number given"),
    (r"N > 2 d_{model}", "symbolic: no number given"),
    (r"N > 2 d_{model} = 8000", "a false step in the chain"),
    (r"N > 8192 = 8000", "a false step in the chain"),
    ("x > 8192", "another variable"),
    ("N > x", "a symbolic bound"),
    (r"N^2 > 8192", "a different set"),
    (r"8192 < N < 10000", "bounded above"),
    (r"N \in (8192, 10000)", "bounded above"),
    (r"N \in (0, 8192)", "the wrong direction"),
    (r"\infty", "not a number"),
    (r"\begin{bmatrix} 8192 \end{bmatrix} < N", "a matrix"),
    (r"N > \frac{1}{0}", "an infinite bound"),
    ("N", "a variable, not a relation"),
    (r"N > 10^{-3}", "every N"),
    (r"N > 8192 \approx 8000", "a false step in the chain"),
]
for answer, how in incorrect65:
    add("ex6.5", answer, "incorrect", f"not N > 8192: {how}")
invalid65 = [
    ("8,192", "ambiguous: 8.192 or 8192"),
    ("N > 8,192", "ambiguous: 8.192 or 8192"),
    ("8{,}192", "ambiguous"),
    (r"e^{N} > N^{1000}", "not a polynomial inequality, refused quickly"),
    (r"(N-1)^{1000000} > 0", "a degree far too high, refused quickly"),
    (r"N^{N} > 2", "N in an exponent"),
    (r"\log N > 9", "not polynomial"),
    ("banana > 8192", "a word"),
    (r"N \in (8192, \infty", "an unclosed interval"),
    (r"N \in \mathbb{N}", "not an interval"),
    ("N >> 8192", "not a relation"),
]
for answer, how in invalid65:
    add("ex6.5", answer, "invalid", f"cannot be judged: {how}")

# -- ex6.4: the 3x3 causal mask -------------------------------------------------------------------
correct64 = [
    (r"\begin{bmatrix} " + MASK3 + r" \end{bmatrix}", "bmatrix"),
    (r"\begin{pmatrix} " + MASK3 + r" \end{pmatrix}", "pmatrix"),
    (r"\left[\begin{array}{ccc} " + MASK3 + r" \end{array}\right]", "array in brackets"),
    (r"\begin{array}{ccc} " + MASK3 + r" \end{array}", "a bare array"),
    (r"\left(\begin{matrix} " + MASK3 + r" \end{matrix}\right)", "matrix in parentheses"),
    (r"$\begin{bmatrix} " + MASK3 + r" \end{bmatrix}$", "in delimiters"),
    (r"M = \begin{bmatrix} " + MASK3 + r" \end{bmatrix}", "named M"),
    (r"\begin{bmatrix} 0 & 0 & 0 \\ -\infty & 0 & 0 \\ -\infty & -\infty & 0 \end{bmatrix}^T", "a transpose"),
    (r"\begin{bmatrix} 0 & 0 & 0 \\ -\infty & 0 & 0 \\ -\infty & -\infty & 0 \end{bmatrix}^{\top}", r"\top"),
    (
        r"\begin{bmatrix} 0 & 0 & 0 \\ -\infty & 0 & 0 \\ -\infty & -\infty & 0 \end{bmatrix}^{\mathsf{T}}",
        r"\mathsf{T}",
    ),
    (r"\begin{bmatrix} " + MASK3 + r" \end{bmatrix}^{T^T}", "a double transpose"),
    (r"-\begin{bmatrix} 0 & \infty & \infty \\ 0 & 0 & \infty \\ 0 & 0 & 0 \end{bmatrix}", "minus a matrix"),
    (
        r"-1 \cdot \begin{bmatrix} 0 & \infty & \infty \\ 0 & 0 & \infty \\ 0 & 0 & 0 \end{bmatrix}",
        "-1 times",
    ),
    (r"\begin{bmatrix} 0 & -\infty + 5 & -\infty \\ 0 & 0 & -\infty \\ 0 & 0 & 0 \end{bmatrix}", "-inf + 5"),
    (r"\begin{bmatrix} 0 & 5 - \infty & -\infty \\ 0 & 0 & -\infty \\ 0 & 0 & 0 \end{bmatrix}", "5 - inf"),
    (r"\begin{bmatrix} 0 & -2\infty & -\infty \\ 0 & 0 & -\infty \\ 0 & 0 & 0 \end{bmatrix}", "-2 inf"),
    (
        r"\begin{bmatrix} 0 & -\infty & -\infty \\ 0 & 0 & -\infty \\ 0 & 0 & 0 \\ \end{bmatrix}",
        "a trailing row break",
    ),
    (
        r"\begin{bmatrix} 0 & -\infty & -\infty \\ 0 & 0 & -\infty \\ 0 & 0 & 0 \end{bmatrix}.",
        "a trailing period",
    ),
    (
        r"\begin{bmatrix} 0 & -\infty & -\infty \\ 0 & 0 & -\infty \\ 0 & 0 & 0 \end{bmatrix}" "\u2009",
        "a thin space",
    ),
    (r"\begin{bmatrix} 0 & -\infty & -\infty \\ 0 & 1-1 & -\infty \\ 0 & 0 & 0 \end{bmatrix}", "1 - 1 for 0"),
    (
        r"\begin{bmatrix} 0 & -\infty & -\infty \\ 0 & 0 & -\infty \\ 0 & 0 & 0\cdot 5 \end{bmatrix}",
        "0 times 5",
    ),
    (
        "\\begin{bmatrix} 0 & \u2212\u221e & \u2212\u221e \\\\ 0 & 0 & \u2212\u221e \\\\ 0 & 0 & 0 \\end{bmatrix}",  # noqa: E501
        "Unicode signs",
    ),
]
for answer, how in correct64:
    add("ex6.4", answer, "correct", f"the 3x3 causal mask: {how}")
incorrect64 = [
    (r"\begin{bmatrix} 0 & 0 & 0 \\ -\infty & 0 & 0 \\ -\infty & -\infty & 0 \end{bmatrix}", "transposed"),
    (
        r"\begin{bmatrix} 0 & 0 & 0 \\ -\infty & 0 & 0 \\ -\infty & -\infty & 0 \end{bmatrix}^{T^T}",
        "transposed twice: still transposed",
    ),
    (
        r"\begin{bmatrix} -\infty & -\infty & -\infty \\ 0 & -\infty & -\infty \\ 0 & 0 & -\infty \end{bmatrix}",  # noqa: E501
        "diagonal blocked",
    ),
    (r"\begin{bmatrix} 0 & 1 & 1 \\ 0 & 0 & 1 \\ 0 & 0 & 0 \end{bmatrix}", "boolean mask"),
    (r"\begin{bmatrix} 1 & 0 & 0 \\ 1 & 1 & 0 \\ 1 & 1 & 1 \end{bmatrix}", "boolean allowed"),
    ("[1, 0, 0]", "the first row of weights"),
    (
        r"\begin{bmatrix} -\infty & 0 & 0 \\ -\infty & -\infty & 0 \\ -\infty & -\infty & -\infty \end{bmatrix}",  # noqa: E501
        "swapped values",
    ),
    (r"\begin{bmatrix} 0 & -\infty \\ 0 & 0 \end{bmatrix}", "the wrong size"),
    ("5", "a number"),
    (r"\begin{bmatrix} 0 & \infty & \infty \\ 0 & 0 & \infty \\ 0 & 0 & 0 \end{bmatrix}", "+infinity"),
    (
        r"\begin{bmatrix} 0 & -\infty & -\infty \\ 0 & 0 & -\infty \\ 0 & 0 & 1 \end{bmatrix}",
        "one wrong entry",
    ),
    (
        r"\begin{bmatrix} 0 & \infty - \infty & -\infty \\ 0 & 0 & -\infty \\ 0 & 0 & 0 \end{bmatrix}",
        "an undefined entry",
    ),
    (
        r"\begin{bmatrix} 0 & 0 \cdot \infty & -\infty \\ 0 & 0 & -\infty \\ 0 & 0 & 0 \end{bmatrix}",
        "an undefined entry",
    ),
    (
        r"\begin{bmatrix} 0 & -1000 & -1000 \\ 0 & 0 & -1000 \\ 0 & 0 & 0 \end{bmatrix}",
        "a large finite number",
    ),
    (r"\begin{bmatrix} 0 & -\infty & -\infty \\ 0 & 0 & -\infty \\ 0 & 0 & x \end{bmatrix}", "a symbol"),
    (
        r"\begin{bmatrix} 0 & -\infty z & -\infty \\ 0 & 0 & -\infty \\ 0 & 0 & 0 \end{bmatrix}",
        "infinity times a symbol",
    ),
    (r"2\begin{bmatrix} " + MASK3 + r" \end{bmatrix}", "twice the mask: still the mask? no"),
]
for answer, how in incorrect64:
    if how.endswith("? no"):
        add("ex6.4", answer, "correct", "twice the mask is the mask: 2 times -infinity is -infinity")
        continue
    add("ex6.4", answer, "incorrect", f"not the causal mask: {how}")
invalid64 = [
    (r"\begin{bmatrix} 0 & -\infty \\ 0 \end{bmatrix}", "ragged rows"),
    (r"\begin{vmatrix} " + MASK3 + r" \end{vmatrix}", "a determinant"),
    (r"\begin{bmatrix} 0 & , & 1 \end{bmatrix}", "an unreadable entry"),
    (r"\begin{bmatrix} 0 & & 1 \end{bmatrix}", "an empty entry"),
    ("causal", "a word"),
]
for answer, how in invalid64:
    add("ex6.4", answer, "invalid", f"cannot be judged: {how}")


# -- seeded variants: inputs from symattn, answers by hand ----------------------------------------
def variant_inputs() -> dict[str, dict[int, dict]]:
    from symattn.grading.exercises import variant

    return {ex: {s: variant(ex, s).params for s in SEEDS} for ex in ("ex6.2", "ex6.4", "ex6.5")}


SEEDS = [1, 2, 3, 5, 7, 11, 13, 18, 28, 33, 42, 99, 1234]


def softmax_output(scores: list[int], values: list[int]) -> mpmath.mpf:
    w = [mpmath.exp(s) for s in scores]
    return mpmath.fsum(a * v for a, v in zip(w, values, strict=True)) / mpmath.fsum(w)


def main() -> None:
    inputs = variant_inputs()
    for seed in SEEDS:
        p = inputs["ex6.2"][seed]
        s, v = p["scores"], p["values"]
        out = softmax_output(s, v)
        num = " + ".join(f"{val} e^{{{sc}}}" for sc, val in zip(s, v, strict=True))
        den = " + ".join(f"e^{{{sc}}}" for sc in s)
        add("ex6.2", mpmath.nstr(out, 6, strip_zeros=False), "correct", "the output to 6 digits", str(seed))
        add("ex6.2", rf"\frac{{{num}}}{{{den}}}", "correct", "the exact weighted sum", str(seed))
        plus = mpmath.nstr(out + mpmath.mpf("0.02"), 6)
        add("ex6.2", plus, "incorrect", "0.02 away from the output", str(seed))
        mean = mpmath.mpf(sum(v)) / len(v)
        if abs(mean - out) > mpmath.mpf("0.02"):
            add("ex6.2", mpmath.nstr(mean, 6), "incorrect", "the uniform-weights slip", str(seed))
        top = v[max(range(len(s)), key=lambda i: s[i])]
        if s.count(max(s)) == 1 and abs(top - out) > mpmath.mpf("0.02"):
            add("ex6.2", str(top), "incorrect", "the largest-score-only slip", str(seed))
        n = inputs["ex6.4"][seed]["n"]
        mask = [" & ".join("0" if j <= i else r"-\infty" for j in range(n)) for i in range(n)]
        add(
            "ex6.4",
            r"\begin{bmatrix} " + r" \\ ".join(mask) + r" \end{bmatrix}",
            "correct",
            f"the {n}x{n} causal mask",
            str(seed),
        )
        rows_t = [" & ".join("0" if i <= j else r"-\infty" for j in range(n)) for i in range(n)]
        add(
            "ex6.4",
            r"\begin{bmatrix} " + r" \\ ".join(rows_t) + r" \end{bmatrix}",
            "incorrect",
            "the transposed mask",
            str(seed),
        )
        w = inputs["ex6.5"][seed]["width"]
        add("ex6.5", f"N > {2 * w}", "correct", f"N > 2 d_model with d_model = {w}", str(seed))
        add("ex6.5", rf"N \geq {2 * w + 1}", "correct", "the integer-equivalent form", str(seed))
        add("ex6.5", f"N > {w}", "incorrect", "the crossover-at-d-model slip", str(seed))
        add("ex6.5", rf"N \neq {2 * w}", "incorrect", "every N but one", str(seed))
    with OUT.open("w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh, lineterminator="\n")
        writer.writerow(["exercise", "seed", "answer", "verdict", "reason"])
        writer.writerows(rows)
    counts = {k: sum(1 for r in rows if r[3] == k) for k in ("correct", "incorrect", "invalid")}
    print(f"wrote {len(rows)} answers to {OUT.name}: {counts}")


if __name__ == "__main__":
    random.seed(0)
    main()
