"""Judging an answer against an expected value, recognising known mistakes.

An :class:`Expected` is what a correct answer must equal: a number (with the module's
tolerance: "within T" is |answer - expected| <= T, "within 0" exact equality), a matrix
(``-oo`` entries allowed), or a threshold ``N > c`` that may also be answered by the number c.
A :class:`Mistake` is the result of a plausible wrong pipeline, computed from the same
definitions; an answer matching one is incorrect with feedback that names the slip.

:func:`judge` parses and compares in a forked worker with time and memory limits (see
:func:`symattn.parsing.isolated`), after :func:`symattn.answers.precheck` on the raw text.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

import sympy as sp

from .answers import InvalidAnswer, precheck
from .digits import decimal_string, round_decimal
from .equivalence import prove_zero
from .errors import SymattnError
from .latex import latex
from .parsing import LatexError, WorkerError, isolated, read_latex

#: Limits for one check: CPU seconds, wall-clock seconds (slack for a busy machine), memory.
CPU_SECONDS = 3
TIMEOUT = 8.0
MEMORY_MB = 768


@dataclass(frozen=True)
class Expected:
    """The value a correct answer equals. ``kind`` is number, matrix or threshold."""

    kind: str
    value: Any
    tolerance: sp.Rational = sp.S.Zero
    variable: str = "N"

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


@dataclass(frozen=True)
class Verdict:
    verdict: str  # correct, incorrect, invalid
    given: str = ""
    feedback: str = ""
    mistake: str | None = None
    extra: dict = field(default_factory=dict)

    def _repr_markdown_(self) -> str:  # Jupyter
        code = f" (`{self.mistake}`)" if self.mistake else ""
        given = f", read as `{self.given}`" if self.given else ""
        return f"**{self.verdict}**{given}: {self.feedback}{code}"

    @property
    def exit_code(self) -> int:
        return {"correct": 0, "incorrect": 1, "invalid": 2}[self.verdict]


def judge(raw: str, expected: Expected, mistakes: tuple[Mistake, ...] = ()) -> Verdict:
    """Judge one answer. Never raises for a bad answer: that is an ``invalid`` verdict."""
    try:
        text = precheck(raw)
    except InvalidAnswer as exc:
        return Verdict("invalid", feedback=str(exc))
    warm_up()
    try:
        return isolated(
            _judge_text,
            text,
            expected,
            mistakes,
            timeout=TIMEOUT,
            memory_mb=MEMORY_MB,
            cpu_seconds=CPU_SECONDS,
        )
    except LatexError as exc:
        return Verdict("invalid", feedback=str(exc))
    except WorkerError as exc:
        return Verdict(
            "invalid", feedback=str(exc) if "costly" in str(exc) else f"too costly to check: {exc}"
        )


def warm_up() -> None:
    """Import the LaTeX parser here, once, so that every forked worker starts with it."""
    from .parsing import _install_eof_check

    _install_eof_check()


# -- inside the worker ------------------------------------------------------------------------
def _judge_text(text: str, expected: Expected, mistakes: tuple[Mistake, ...]) -> Verdict:
    answer = read_latex(text)
    if isinstance(answer, list):
        answer = sp.Matrix([answer])
    given = _given(answer)
    verdict = _compare(answer, expected)
    if verdict is True:
        return Verdict("correct", given, "correct")
    if isinstance(verdict, str):  # a reason the answer cannot be right, already phrased
        code, _, feedback = verdict.partition(":")
        mistake = _recognise(answer, expected, mistakes)
        if mistake:
            return Verdict("incorrect", given, mistake.feedback, mistake.code)
        return Verdict("incorrect", given, feedback.strip(), code or None)
    mistake = _recognise(answer, expected, mistakes)
    if mistake:
        return Verdict("incorrect", given, mistake.feedback, mistake.code)
    return Verdict("incorrect", given, "not the expected answer")


def _given(answer: Any) -> str:
    text = sp.sstr(answer.tolist() if isinstance(answer, sp.MatrixBase) else answer)
    return text if len(text) <= 200 else text[:197] + "..."


def _recognise(answer: Any, expected: Expected, mistakes: tuple[Mistake, ...]) -> Mistake | None:
    for m in mistakes:
        probe = Expected(expected.kind, m.value, expected.tolerance, expected.variable)
        if _compare(answer, probe) is True:
            return m
    return None


def _compare(answer: Any, expected: Expected) -> bool | str:
    """True if correct; else False or "code: reason" explaining why it cannot be right."""
    if expected.kind == "matrix":
        return _compare_matrix(answer, expected)
    if isinstance(answer, sp.MatrixBase):
        what = "inequality or number" if expected.kind == "threshold" else "number"
        return f"shape: expected a single {what}, not a matrix"
    if not isinstance(answer, (sp.Expr, sp.Rel)):
        return "form: not a number"
    if isinstance(answer, sp.Rel):
        if expected.kind != "threshold":
            return "form: expected a number, not a relation"
        return _compare_threshold(answer, expected)
    return _compare_number(sp.sympify(answer), expected.value, expected.tolerance)


def _compare_number(a: sp.Expr, e: sp.Expr, tol: sp.Rational) -> bool | str:
    a = sp.sympify(a)
    if isinstance(a, sp.Rel) or not isinstance(a, sp.Expr):
        return "form: expected a number"
    if a.free_symbols:
        names = ", ".join(sorted(str(s) for s in a.free_symbols))
        return f"symbolic: the answer should be a number, but it contains {names}"
    if a.has(sp.zoo, sp.nan) or a.is_finite is False:
        return "form: the answer is not a finite number"
    diff = a - e
    if tol == 0:
        if prove_zero(a - e) is not None:
            return True
        try:
            return False if round_decimal(diff, 5) != 0 else "form: could not decide equality"
        except SymattnError:
            return "form: could not decide equality"
    try:
        gap = abs(round_decimal(diff, 30))
    except SymattnError:
        return prove_zero(a - e) is not None
    return gap <= Decimal(tol.p) / Decimal(tol.q)


def _compare_matrix(answer: Any, expected: Expected) -> bool | str:
    e = sp.Matrix(expected.value)
    if not isinstance(answer, sp.MatrixBase):
        return f"shape: expected a {e.rows}x{e.cols} matrix"
    a = sp.Matrix(answer)
    if a.shape != e.shape:
        return f"shape: expected a {e.rows}x{e.cols} matrix, got {a.rows}x{a.cols}"
    for x, y in zip(a, e, strict=True):
        if y in (sp.oo, -sp.oo) or x in (sp.oo, -sp.oo):
            if x != y:
                return False
            continue
        if _compare_number(x, y, expected.tolerance) is not True:
            return False
    return True


def _compare_threshold(answer: sp.Rel, expected: Expected) -> bool | str:
    free = answer.free_symbols
    if len(free) != 1:
        names = ", ".join(sorted(str(s) for s in free)) or "no variable"
        return f"symbolic: expected an inequality in {expected.variable} alone, got {names}"
    var = next(iter(free))
    if str(var).lower() != expected.variable.lower():
        return f"variable: the threshold is on {expected.variable}, not {var}"
    # Write it as var REL bound.
    if answer.lhs == var and not answer.rhs.free_symbols:
        rel, bound = type(answer), answer.rhs
    elif answer.rhs == var and not answer.lhs.free_symbols:
        rel, bound = type(answer.reversed), answer.lhs
    else:
        solved = sp.solve_univariate_inequality(answer, var, relational=True)
        return (
            _compare_threshold(solved, expected)
            if isinstance(solved, sp.Rel)
            else ("form: write the threshold as N > number")
        )
    if rel in (sp.StrictLessThan, sp.LessThan):
        return f"direction: the quadratic term wins for long sequences: {expected.variable} > ..."
    if _compare_number(bound, expected.value, expected.tolerance) is not True:
        return False
    if rel is sp.GreaterThan:
        return (
            "non-strict: at the threshold the two terms are equal; the quadratic term "
            "overtakes only beyond it (use >)"
        )
    return True


def expected_decimal(expected: Expected, digits: int = 6) -> str:
    """A short decimal for display, where the expected value is a number."""
    if expected.kind == "matrix":
        return ""
    return decimal_string(sp.sympify(expected.value), digits)
