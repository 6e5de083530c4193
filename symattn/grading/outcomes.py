"""The verdicts a check can end in: one registry that exit codes, marks, headings, the grade
report's columns and the pages derive from.

``unchecked`` is no verdict on the answer: the checker's safety net on time fired (the machine
was too busy or too slow), so the same answer may be checked again. What makes an answer "too
costly" is decided by measures of its text (sizes, digits, terms), never by a clock, and is
``invalid``: the same on every machine (issue 49).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import EXIT_BAD_INPUT, EXIT_CHECK_FAILED, EXIT_OK, EXIT_RETRY


@dataclass(frozen=True)
class Outcome:
    name: str
    exit_code: int
    mark: str  #: in text reports, before a line or a row
    heading: str  #: how a report opens with it
    colour: str  #: in the grade report's chart
    meaning: str


OUTCOMES = (
    Outcome("correct", EXIT_OK, "✓", "Correct", "#4c9a2a", "the answer or every step is right"),
    Outcome("incorrect", EXIT_CHECK_FAILED, "✗", "Incorrect", "#d1495b", "a value or a step is wrong"),
    Outcome(
        "invalid",
        EXIT_BAD_INPUT,
        "!",
        "Invalid",
        "#9e9e9e",
        "the answer cannot be read, is ambiguous, or asks for more work than any answer needs",
    ),
    Outcome(
        "unchecked",
        EXIT_RETRY,
        "…",
        "Not checked",
        "#b58900",
        "the checker ran out of time on this machine (busy or slow): check it again",
    ),
)
BY_NAME = {o.name: o for o in OUTCOMES}
#: What a check says when its time safety net fires.
OUT_OF_TIME = "the checker ran out of time on this machine: try again"


def exit_code(verdict: str) -> int:
    return BY_NAME[verdict].exit_code
