"""Layer normalisation centres and scales: a derivation registered from outside symattn.

Theorem. For x in R^n with mean mu = (1/n) sum_j x_j and standard deviation
sigma = sqrt((1/n) sum_j (x_j - mu)^2) > 0, the normalised entries y_i = (x_i - mu) / sigma
satisfy sum_i (x_i - mu) = 0 and (1/n) sum_i y_i^2 = 1, and adding a constant c to every
entry leaves x_i - mu unchanged. For x = (1, 2, 3, 4), y_1 = -3/sqrt(5) = -1.342 to 4 digits.
"""

from __future__ import annotations

import dataclasses
import random

import sympy as sp

from symattn.proof import Derivation

NAME = "layer_norm"
TITLE = "Layer normalisation centres and scales"

n = sp.Symbol("n", integer=True, positive=True)
i, j, k = sp.symbols("i j k", integer=True, positive=True)
c = sp.Symbol("c", real=True)
x = sp.IndexedBase("x", real=True)
# Short names shown in place of the long forms below: the derivation's abbreviations say what
# they stand for, and verify proves that a side shown with them is the side checked.
mu_, sigma_ = sp.symbols(r"\mu \sigma", real=True)

mean = sp.Sum(x[j], (j, 1, n)) / n
variance = sp.Sum((x[k] - mean) ** 2, (k, 1, n)) / n
sigma = sp.sqrt(variance)


def written_out(values: tuple[int, ...], m: sp.Rational) -> tuple[sp.Expr, sp.Expr]:
    """The mean of ``values``, and (x_1 - m) / sigma with the mean m, as written (not evaluated)."""
    with sp.evaluate(False):
        mean_of = sp.Add(*values) / len(values)
        sigma_of = sp.sqrt(sp.Add(*[(v - m) ** 2 for v in values]) / len(values))
        return mean_of, (values[0] - m) / sigma_of


def _at_least_two_entries(rng: random.Random, size: int | None) -> dict[sp.Symbol, int]:
    """Random points where sigma > 0 can hold: n >= 2 (a single entry has sigma = 0)."""
    return {n: rng.randint(2, 9)}


def derivation() -> Derivation:
    D = Derivation(
        NAME,
        TITLE,
        "Entries minus their mean sum to zero and do not change when the same constant is added to "
        "every entry; divided by the standard deviation, they have mean square 1.",
        assumptions=[
            r"the entries are real, $n$ of them, $n \ge 1$ an integer; integers $1 \le i \le n$",
            "they are not all equal, so the standard deviation is positive",
        ],
        sample=_at_least_two_entries,
    )
    D.abbreviations = {mu_: mean, sigma_: sigma}

    D.section("The centred entries sum to zero")
    total = sp.Sum(x[i], (i, 1, n))
    D.step(
        sp.Sum(x[i] - mean, (i, 1, n)),
        total - sp.Mul(n, mean, evaluate=False),
        r"the sum splits; $\mu$ is the same for every $i$",
    )
    D.then(total - sp.Sum(x[j], (j, 1, n)), r"$n \cdot \frac{1}{n} = 1$")
    D.then(sp.S.Zero, "the name of a summation index does not matter")
    D.claim(sp.Sum(x[i] - mean, (i, 1, n)), 0, words="sum to")  # the theorem's "sum to zero"

    D.section("A constant shift changes nothing")
    shifted = x[i] + c - sp.Sum(x[j] + c, (j, 1, n)) / n
    D.step(shifted, x[i] + c - (sp.Sum(x[j], (j, 1, n)) + n * c) / n, "the shift is added $n$ times")
    D.then(x[i] - mean, "$c$ cancels")
    D.claim(shifted, x[i] - mean)

    D.section("Unit mean square")
    D.step(
        sp.Sum(((x[i] - mean) / sigma) ** 2, (i, 1, n)) / n,
        sp.Sum((x[i] - mean) ** 2, (i, 1, n)) / (n * variance),
        r"$\sigma$ is the same for every $i$",
        shown_lhs=sp.Sum(((x[i] - mu_) / sigma_) ** 2, (i, 1, n)) / n,
        shown_rhs=sp.Sum((x[i] - mu_) ** 2, (i, 1, n)) / (n * sigma_**2),
    )
    D.then(sp.S.One, r"$\sigma^2$ is the mean of the squared deviations")

    D.section("A worked vector")
    mean_of, entry_of = written_out((1, 2, 3, 4), sp.Rational(5, 2))
    D.step(mean_of, sp.Rational(5, 2), r"the mean $\mu$ of $x = (1, 2, 3, 4)$")
    D.step(entry_of, -3 / sp.sqrt(5), r"$y_1 = (x_1 - \mu) / \sigma$")
    D.approx(-3 / sp.sqrt(5), "-1.342", "to four digits", digits=4)
    return D


def _mean_not_shifted(d: Derivation) -> int:
    """Forget that the shift moves the mean too: x_i + c - mu."""
    step = next(s for s, st in enumerate(d.steps) if "added $n$ times" in st.rule)
    d.steps[step] = dataclasses.replace(d.steps[step], rhs=x[i] + c - mean)
    return step + 1


def _sample_deviation(d: Derivation) -> int:
    """Divide by n - 1 in the variance and still claim a mean square of 1."""
    step = next(s for s, st in enumerate(d.steps) if st.rule.startswith(r"$\sigma$ is the same"))
    wrong = sp.Sum((x[k] - mean) ** 2, (k, 1, n)) / (n - 1)
    rhs = sp.Sum((x[i] - mean) ** 2, (i, 1, n)) / (n * wrong)
    d.steps[step] = dataclasses.replace(d.steps[step], rhs=rhs)
    return step + 1


def _misrounded(d: Derivation) -> int:
    """-3/sqrt(5) stated as -1.341 (truncated, not rounded)."""
    step = next(s for s, st in enumerate(d.steps) if st.relation == "≈")
    d.steps[step] = dataclasses.replace(d.steps[step], rhs="-1.341")
    return step + 1


#: Planted errors: each must make verify fail at the step it returns.
MUTATIONS = [
    ("the shift left out of the mean", _mean_not_shifted),
    ("the variance divided by n - 1", _sample_deviation),
    ("-3/sqrt(5) truncated to -1.341", _misrounded),
]
