"""Exercises, verdicts and audits as text and JSON (presentation only)."""

from __future__ import annotations

import json

from ..grading.answers.judge import Verdict, expected_decimal
from ..grading.audit.keys import AuditRow
from ..grading.exercises import Exercise
from ..grading.outcomes import BY_NAME
from ..unicode_text import to_unicode, words
from ._table import text_table
from .proof_render import to_text


def exercise_list(exercises: list[Exercise]) -> str:
    lines = []
    for e in exercises:
        answer = "checked" if e.checkable else CHECKER_LABELS.get(e.checker, "model solution only")
        lines.append(f"{e.id}\t{e.kind}\t{e.title}\t({answer})")
    return "\n".join(lines) + "\n"


#: How exercises judged by proofs.proof_judge / answers.formula are listed and checked.
CHECKER_LABELS = {
    "steps": "derivation checked step by step",
    "formula": "formula checked; the rest model solution",
}
CHECKER_HINTS = {
    "steps": "Answer: a derivation, one step per line, checked step by step with: "
    "symattn check {id} --steps FILE",
    "formula": "Answer: the formula is checked with: symattn check {id} ANSWER; "
    "the 'why' part has a model solution.",
}


def exercise_text(e: Exercise, solution: bool = False) -> str:
    seed = e.params.get("seed")
    title = f"{e.id} ({e.kind}): {e.title}" + ("" if seed is None else f" [variant, seed {seed}]")
    out = [title, "", words(e.prompt), ""]
    if e.params.get("seed_note"):
        out += [f"Note: {e.params['seed_note']}.", ""]
    if e.checkable:
        shown = e.expected.tolerance_text()
        within = "exactly" if shown == "0" else f"within {shown} (|answer - expected| <= {shown})"
        command = f"symattn check {e.id} ANSWER" + ("" if seed is None else f" --seed {seed}")
        out.append(f"Answer: checked {within}. Check yours with: {command}")
    elif e.checker:
        out.append(CHECKER_HINTS[e.checker].format(id=e.id))
    else:
        out.append("Answer: no machine-checkable answer; compare with the model solution.")
    if solution:
        out += ["", "Model solution: " + words(e.solution_text)]
        if e.checkable:
            dec = expected_decimal(e.expected)
            out.append(f"Expected answer: {e.expected.latex()}" + (f" ≈ {dec}" if dec else ""))
        d = e.derivation()
        if d is not None:
            out += ["", to_text(d, d.verify()).rstrip()]
    return "\n".join(out) + "\n"


def verdict_json(exercise_id: str, expected: str, v: Verdict) -> str:
    return (
        json.dumps(
            {
                "id": exercise_id,
                "verdict": v.verdict,
                "expected": expected,
                "given": v.given,
                "given_latex": v.given_latex,
                "typed": v.typed,
                "feedback": v.feedback,
                "mistake": v.mistake,
                "notes": list(v.notes),
            },
            indent=2,
        )
        + "\n"
    )


def verdict_text(exercise_id: str, v: Verdict) -> str:
    """The verdict in a line. The reading echoes numbers as typed (``v.typed``: 1.96, not the
    exact 49/25 of ``v.given``); where a number was read other than at face value (scientific
    notation, a percentage, a trailing …), the note beside it says how."""
    head = {"correct": "Correct.", "incorrect": "Incorrect.", "invalid": "Invalid answer:"}.get(
        v.verdict, BY_NAME[v.verdict].heading + ":"
    )
    notes = f" ({'; '.join(v.notes)})" if v.notes else ""
    if v.verdict == "correct":
        return f"{head} ({exercise_id}: read as {v.typed}{notes})\n"
    if v.verdict in ("invalid", "unchecked"):
        return f"{head} {words(v.feedback)}{notes}\n"
    code = f" [{words(v.mistake)}]" if v.mistake else ""
    return f"{head} Read as {v.typed}{notes}. {words(v.feedback)}{code}\n"


def audit_table(rows: list[AuditRow]) -> str:
    header = ("#", "kind", "exercise", "stated key", "computed answer", "status")
    body = []
    for r in rows:
        key = (
            ""
            if r.found.key is None
            else r.found.key + (f" (within {r.found.tolerance})" if r.found.tolerance else "")
        )
        body.append(
            (
                str(r.found.position),
                r.found.kind,
                r.exercise.id if r.exercise else "?",
                key,
                to_unicode(r.computed)[:40],
                r.status + (f": {words(r.detail)}" if r.detail else ""),
            )
        )
    return text_table(header, body)
