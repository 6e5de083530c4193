"""An exercise registered from outside symattn: one entry of a layer-normalised vector.

The expected answer and every named slip are computed exactly from the numbers of the exercise,
so a variant (new numbers from a seed) gets its answer and its slips the same way.
"""

from __future__ import annotations

import random

import sympy as sp

from symattn.core.digits import decimal_string
from symattn.grading.answers.judge import Expected, Mistake
from symattn.grading.exercises import Exercise
from symattn.proof import Derivation

ID = "ln.1"
TOLERANCE = sp.Rational(1, 100)


def normalised(values: tuple[int, ...], entry: int, divisor: int | None = None) -> sp.Expr:
    """(x_entry - mu) / sigma exactly, with sigma^2 = sum (x_j - mu)^2 / divisor (default n)."""
    n = len(values)
    mu = sp.Rational(sum(values), n)
    sigma = sp.sqrt(sum((v - mu) ** 2 for v in values) / sp.Integer(divisor or n))
    return (values[entry - 1] - mu) / sigma


def exercise(values: tuple[int, ...] = (1, 2, 3, 4), entry: int = 1) -> Exercise:
    n = len(values)
    mu = sp.Rational(sum(values), n)
    variance = sum((v - mu) ** 2 for v in values) / sp.Integer(n)
    answer = normalised(values, entry)
    x = values[entry - 1]
    mistakes = (
        Mistake(
            "sample-deviation",
            "Layer normalisation divides the sum of squared deviations by n, not n - 1.",
            normalised(values, entry, divisor=n - 1),
        ),
        Mistake(
            "divided-by-variance",
            "Divide by the standard deviation sigma, the square root of the variance.",
            (x - mu) / variance,
        ),
        Mistake("not-centred", "Subtract the mean before dividing.", x / sp.sqrt(variance)),
        Mistake("not-scaled", "After subtracting the mean, divide by sigma.", x - mu),
    )

    def solution() -> Derivation:
        d = Derivation(ID, "One normalised entry", f"y_{entry} = {sp.sstr(answer)}")
        with sp.evaluate(False):  # the sums as written, so that each step does something
            mean_written = sp.Add(*values) / n
            entry_written = (x - mu) / sp.sqrt(variance)
        d.step(mean_written, mu, "the mean of the entries")
        d.step(entry_written, answer, rf"centre, then divide by $\sigma = \sqrt{{{sp.latex(variance)}}}$")
        d.approx(answer, decimal_string(answer, 4), "to four digits", digits=4)
        d.claim(entry_written, answer)
        return d

    return Exercise(
        ID,
        "apply",
        "One entry of layer normalisation",
        f"Layer-normalise x = {list(values)} without gain or bias (sigma^2 is the mean of the "
        f"squared deviations). What is y_{entry}?",
        "Subtract the mean, then divide by the standard deviation.",
        Expected("number", answer, TOLERANCE),
        mistakes,
        solution,
        keywords=("layer-normalise", str(list(values)).replace(" ", "")),
        params={"values": values, "entry": entry},
    )


def variant(rng: random.Random) -> Exercise:
    """New numbers: 3 to 6 entries from -5 to 9, not all equal (so that sigma > 0)."""
    while True:
        values = tuple(rng.randint(-5, 9) for _ in range(rng.randint(3, 6)))
        if len(set(values)) > 1:
            return exercise(values, rng.randint(1, len(values)))
