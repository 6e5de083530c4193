"""One submission judged: the single place that decides how an exercise's answer is checked.

``symattn check``, ``symattn grade`` and the course site's checker all come here, so they cannot
disagree. An exercise is judged by its kind:

- a value, a matrix or a threshold (``Exercise.expected``): :func:`~.answers.judge.judge`;
- ex6.6's formula (``checker == "formula"``): :func:`~.answers.formula.judge_formula`;
- a derivation (``checker == "steps"``): :func:`~.proofs.proof_judge.check_derivation`, line by line.

:func:`judge_submission` returns the verdict object the command line prints;
:func:`fields` reduces either kind of verdict to the fields a graded row keeps.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from ..errors import InputError
from .exercises import Exercise

__all__ = ["Fields", "expected_latex", "fields", "judge_submission", "kind", "require_steps"]


class Fields(NamedTuple):
    """What a graded row keeps of a verdict: as ``symattn check --json`` prints it."""

    verdict: str
    feedback: str
    mistake: str
    read_as: str
    read_as_latex: str
    notes: tuple[str, ...]
    read_as_typed: str  #: the reading with numbers as typed (check's ``typed``)


def kind(exercise: Exercise) -> str:
    """How ``exercise`` is checked: value, matrix, threshold, formula, proof, or none."""
    if exercise.checker == "steps":
        return "proof"
    if exercise.checker == "formula":
        return "formula"
    if exercise.expected is None:
        return "none"
    return {"number": "value"}.get(exercise.expected.kind, exercise.expected.kind)


def judge_submission(exercise: Exercise, answer: str | None = None, steps: str | None = None) -> Any:
    """Judge an ``answer``, or a derivation's text ``steps``, to ``exercise``.

    Returns a :class:`~.answers.verdicts.Verdict` or, for ``steps``, a
    :class:`~.proofs.proof_judge.ProofVerdict`. Raises :class:`InputError` (check's exit 2) when
    the submission does not fit the exercise: an answer to a derivation, steps for an answer, or
    an exercise with no machine-checkable answer.
    """
    if steps is not None:
        from .proofs.proof_judge import check_derivation

        if answer is not None:
            raise InputError("give an answer or a derivation's steps, not both")
        require_steps(exercise)
        return check_derivation(exercise.id, steps)
    if exercise.checker == "steps":
        raise InputError(
            f"{exercise.id} is checked as a derivation: symattn check {exercise.id} --steps FILE"
        )
    text = answer or ""
    if exercise.checker == "formula":
        from .answers.formula import judge_formula

        return judge_formula(text)
    if exercise.expected is None:
        raise InputError(
            f"{exercise.id} has no machine-checkable answer: "
            f"see symattn exercises show {exercise.id} --solution"
        )
    from .answers.judge import judge

    return judge(text, exercise.expected, exercise.mistakes)


def require_steps(exercise: Exercise) -> None:
    """Raise :class:`InputError` unless ``exercise`` is judged as a derivation, step by step."""
    from .proofs.proof_judge import STEP_EXERCISES

    if exercise.id not in STEP_EXERCISES:
        raise InputError(
            f"{exercise.id} is not checked step by step; derivations are checked for "
            f"{', '.join(STEP_EXERCISES)}"
        )


def expected_latex(exercise: Exercise) -> str:
    """The expected answer as LaTeX, as ``check --json`` prints it."""
    if exercise.checker == "formula":
        from .answers.formula import EXPECTED_LATEX

        return EXPECTED_LATEX
    return exercise.expected.latex() if exercise.expected is not None else ""


def fields(verdict: Any) -> Fields:
    """The row fields of a verdict of either kind (see ``ProofVerdict.mistake`` for a derivation)."""
    return Fields(
        verdict.verdict,
        verdict.feedback,
        verdict.mistake or "",
        verdict.given,
        verdict.given_latex,
        tuple(verdict.notes),
        verdict.typed,
    )
