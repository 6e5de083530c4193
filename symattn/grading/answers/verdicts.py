"""What an answer is judged against, and what the judge says: expected values, slips, verdicts.

:class:`Expected` is what a correct answer must equal, :class:`Mistake` a plausible wrong
pipeline's result with its feedback, :class:`Verdict` the judge's answer. Inside the judge's
worker, a reader or a comparison that finds the answer wrong raises :class:`Refusal`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import sympy as sp

from ...core.digits import decimal_string
from ...proof.latex import latex
from ..worker import plain_result

INF = sp.S.Infinity
INFINITIES = (sp.S.Infinity, sp.S.NegativeInfinity, sp.S.ComplexInfinity, sp.S.NaN)


@dataclass(frozen=True)
class Expected:
    """The value a correct answer equals. ``kind`` is number, matrix or threshold.

    ``constants`` names symbols an answer may use for the exercise's given numbers
    (``d_{model}`` = 4096): they are replaced by their values in a chain that also states
    the number (``N > 2 d_{model} = 8192``).
    """

    kind: str
    value: Any
    tolerance: sp.Rational = sp.S.Zero
    variable: str = "N"
    constants: tuple[tuple[str, int], ...] = ()
    #: A second value an answer may give after its matrix, with what it is (ex6.4: the first
    #: row of weights, [1, 0, 0]): judged exactly when given, never required.
    companion: tuple[str, Any] | None = None

    def tolerance_text(self) -> str:
        """The tolerance as a short decimal ("0.01"); "0" for exact answers."""
        if self.tolerance == 0:
            return "0"
        return decimal_string(self.tolerance, 6).rstrip("0")

    def latex(self) -> str:
        if self.kind == "threshold":
            return f"{self.variable} > {latex(self.value)}"
        return latex(self.value)


@dataclass(frozen=True)
class Mistake:
    """A wrong pipeline's result, and what to tell a learner who arrives at it."""

    code: str
    feedback: str
    value: Any


@plain_result
@dataclass(frozen=True)
class Verdict:
    """``verdict`` is correct, incorrect or invalid; ``notes`` say how the text was read; ``given``
    is the exact reading (1.96 as 49/25), ``typed`` the same with numbers as typed (1.96).

    A correct answer's ``extra`` holds what was read, for an independent audit: ``value`` (a
    number or a matrix), or ``relations`` (``(lhs, rel, rhs)`` triples) and ``variable``. Only
    :func:`~symattn.grading.answers.judge.judge_text` fills it, in the judge's worker; what leaves a
    worker is plain data, so :func:`~symattn.grading.answers.judge.judge` returns it empty.
    """

    verdict: str
    given: str = ""
    feedback: str = ""
    mistake: str | None = None
    extra: dict = field(default_factory=dict)
    notes: tuple[str, ...] = ()
    given_latex: str = ""  #: what was read, as LaTeX (for a page to typeset)
    #: what was read, with each number the learner wrote alone (a side of the chain, an entry
    #: of a matrix) as typed: 1.96, not 49/25 (``given`` keeps the exact reading)
    typed: str = ""

    def _repr_markdown_(self) -> str:  # Jupyter
        code = f" (`{self.mistake}`)" if self.mistake else ""
        given = f", read as `{self.given}`" if self.given else ""
        return f"**{self.verdict}**{given}: {self.feedback}{code}"

    @property
    def exit_code(self) -> int:
        from ..outcomes import exit_code

        return exit_code(self.verdict)


class Refusal(Exception):
    """An answer that is read but cannot be right: ``code: reason`` for the learner."""

    def __init__(self, code: str, reason: str, verdict: str = "incorrect"):
        super().__init__(reason)
        self.code, self.reason, self.verdict = code, reason, verdict


def expected_decimal(expected: Expected, digits: int = 6) -> str:
    """A short decimal for display, where the expected value is a number."""
    if expected.kind == "matrix":
        return ""
    return decimal_string(sp.sympify(expected.value), digits)
