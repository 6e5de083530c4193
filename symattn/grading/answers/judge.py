"""Judging an answer against an expected value, recognising known mistakes.

An :class:`Expected` is what a correct answer must equal: a number (with the module's
tolerance: "within T" is |answer - expected| <= T, "within 0" exact equality), a matrix
(``-oo`` entries allowed), or a threshold ``N > c`` over the positive integers, which may also
be answered by the number c. A :class:`Mistake` is the result of a plausible wrong pipeline,
computed from the same definitions; an answer matching one is incorrect with feedback that
names the slip.

:func:`judge` runs :func:`symattn.grading.answers.notation.precheck` on the raw text, then parses and compares
in a forked worker with time and memory limits (:func:`symattn.grading.answers.parsing.isolated`). The answer
is read as a chain of sides (``\\frac{e^2+11}{e^2+2} \\approx 1.96``): every side that is a
value must agree with the expected answer. An inequality is judged by the set of positive
integers N it describes, solved exactly (polynomial and rational inequalities) and confirmed
at witness points. No answer is "correct" unless a certified 60-digit interval evaluation
(:mod:`symattn.proof.certify`) agrees.

The parts: :mod:`.verdicts` (expected values, mistakes, verdicts), :mod:`.sides` (reading
a chain's sides), :mod:`.values` (numbers and matrices), :mod:`.threshold`
(thresholds).
"""

from __future__ import annotations

import dataclasses
import time

from ...proof.certify import NotFinite, Uncertain
from ...proof.magnitude import TOO_MANY_DIGITS, digits_beyond
from ..worker import OutOfTime, WorkerError, isolated
from .notation import InvalidAnswer, precheck, split_chain
from .parsing import LatexError
from .sides import given_latex, given_text, read_side, typed_text
from .threshold import MAX_DEGREE, judge_threshold
from .values import judge_companion, judge_matrix, judge_number, split_companion
from .verdicts import Expected, Mistake, Refusal, Verdict, expected_decimal

__all__ = [
    "CPU_SECONDS",
    "DEADLINE",
    "MAX_DEGREE",
    "MEMORY_MB",
    "TIMEOUT",
    "Expected",
    "Mistake",
    "Verdict",
    "expected_decimal",
    "judge",
    "judge_text",
    "warm_up",
]

#: The time safety net of one check: CPU seconds, the worker's wall-clock seconds, and DEADLINE
#: for the whole judge() call, first-use imports included; and memory. What an answer may ask
#: for is bounded by its text (length, digits, terms, degree: :mod:`.notation`), so every answer
#: those measures admit takes well under a second here (bench/limits.py); the net is set far
#: above, and when it fires the verdict is ``unchecked`` ("try again"), never ``invalid``.
CPU_SECONDS = 20
TIMEOUT = 30.0
DEADLINE = 30.0
MEMORY_MB = 400


def judge(raw: str, expected: Expected, mistakes: tuple[Mistake, ...] = ()) -> Verdict:
    """Judge one answer. Never raises for a bad answer: that is an ``invalid`` verdict.

    The whole call, first-use imports included, is answered within DEADLINE seconds.
    """
    start = time.monotonic()
    notes: list[str] = []
    typed: dict[str, str] = {}
    try:
        text = precheck(raw, notes, typed)
    except InvalidAnswer as exc:
        return Verdict("invalid", feedback=str(exc))
    warm_up(parses=False)
    try:
        verdict = isolated(
            _judge_plain,
            text,
            expected,
            mistakes,
            typed,
            timeout=max(1.0, min(TIMEOUT, DEADLINE - (time.monotonic() - start))),
            memory_mb=MEMORY_MB,
            cpu_seconds=CPU_SECONDS,
        )
    except LatexError as exc:
        return Verdict("invalid", feedback=str(exc), notes=tuple(notes))
    except OutOfTime as exc:
        return Verdict("unchecked", feedback=str(exc), notes=tuple(notes))
    except WorkerError as exc:
        message = str(exc)
        if not message.startswith(("too costly", "this answer")):
            message = "this answer could not be read or compared: write it more simply"
        return Verdict("invalid", feedback=message, notes=tuple(notes))
    return Verdict(
        verdict.verdict,
        verdict.given,
        verdict.feedback,
        verdict.mistake,
        verdict.extra,
        tuple(notes) + verdict.notes,
        verdict.given_latex,
        verdict.typed,
    )


_WARM: set[bool] = set()


def warm_up(parses: bool = True) -> None:
    """Import the parser and mpmath here, once, so that every forked worker starts with them.

    With ``parses`` (for a process that judges many answers, such as a grading service), a few
    parses also fill antlr's prediction cache, which every worker then inherits; latex2sympy2's
    module state is restored afterwards, and its parser is never patched in this process.
    A single ``symattn check`` skips them: its one worker would repeat the work.
    """
    if parses in _WARM:
        return
    from ...proof import certify
    from .parsing import _library, warm_parses

    _library()
    certify.context()
    if parses:
        warm_parses(
            (
                r"\frac{e^{2}+11}{e^{2}+2}",
                "N > 8192",
                r"\begin{bmatrix} 0 & -\infty \end{bmatrix}",
                "1.96",
            )
        )
        _WARM.add(False)
    _WARM.add(parses)


# -- inside the worker ------------------------------------------------------------------------
def _judge_plain(
    text: str, expected: Expected, mistakes: tuple[Mistake, ...], typed: dict[str, str]
) -> Verdict:
    """:func:`judge_text` without ``extra``, whose SymPy values must not leave the worker."""
    return dataclasses.replace(judge_text(text, expected, mistakes, typed), extra={})


def judge_text(
    text: str, expected: Expected, mistakes: tuple[Mistake, ...] = (), typed: dict[str, str] | None = None
) -> Verdict:
    """Judge prechecked text, in this process (:func:`judge` calls it in a worker). ``typed``:
    the numbers :func:`~.notation.precheck` rewrote, as the learner typed them."""
    if expected.companion is not None:
        text, rest = split_companion(text)
        if rest:
            main = judge_text(text, dataclasses.replace(expected, companion=None), mistakes, typed)
            return judge_companion(main, rest, expected.companion)
    chain = split_chain(text)
    notes: list[str] = []
    try:
        sides = [read_side(s, notes) for s in chain.sides]
    except NotFinite as exc:
        return Verdict("incorrect", text[:200], str(exc), "not-finite", typed=text[:200])
    given = given_text(chain, sides)
    shown = given_latex(chain, sides)
    echo = typed_text(chain, sides, typed or {})
    try:
        if expected.kind == "threshold":
            verdict = judge_threshold(chain, sides, expected, mistakes)
        elif expected.kind == "matrix":
            verdict = judge_matrix(chain, sides, expected, mistakes)
        else:
            verdict = judge_number(chain, sides, expected, mistakes)
    except Refusal as r:
        code = (r.code or None) if r.verdict == "incorrect" else None
        return Verdict(r.verdict, given, r.reason, code, {}, tuple(notes), shown, echo)
    except NotFinite as exc:
        if any(digits_beyond(s) for s in sides):  # an overflow of the enclosure, not infinity
            return Verdict("invalid", given, TOO_MANY_DIGITS, None, {}, tuple(notes), shown, echo)
        return Verdict("incorrect", given, str(exc), "not-finite", {}, tuple(notes), shown, echo)
    except Uncertain:
        why = "this is not a value that can be checked"
        return Verdict("invalid", given, why, None, {}, tuple(notes), shown, echo)
    return Verdict(
        verdict.verdict, given, verdict.feedback, verdict.mistake, verdict.extra, tuple(notes), shown, echo
    )
