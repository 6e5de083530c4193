"""A judged derivation as text and JSON (presentation only)."""

from __future__ import annotations

import json

from .learner_proof import ProofVerdict

MARKS = {"ok": "✓", "wrong": "✗", "unjustified": "?", "invalid": "!"}


def proof_text(v: ProofVerdict) -> str:
    """Each step with its mark and rule; the first step that is not ok with its feedback."""
    out = [f"{v.id}, checked step by step:"]
    told = False
    for s in v.steps:
        out.append(f"{MARKS[s.status]} line {s.line}: {s.latex}")
        if s.status == "ok":
            out.append(f"    {s.rule}")
        elif not told:
            out.append(f"    {s.status}" + (f" ({s.rule})" if s.rule else "") + f": {s.feedback}")
            told = True
        else:
            out.append(f"    {s.status}" + (f" ({s.rule})" if s.rule else ""))
    head = {"correct": "Correct", "incorrect": "Incorrect", "invalid": "Invalid"}[v.verdict]
    feedback = v.feedback.removeprefix("correct: ").removeprefix("incorrect: ")
    out.append(f"{head}: {feedback}")
    return "\n".join(out) + "\n"


def proof_json(v: ProofVerdict) -> str:
    return json.dumps(v.as_dict(), indent=2, ensure_ascii=False) + "\n"


def proof_markdown(v: ProofVerdict) -> str:
    """A table for the docs: line, mark, step, rule or feedback."""
    rows = ["| line | | step | rule or feedback |", "|---|---|---|---|"]
    for s in v.steps:
        note = s.rule if s.status == "ok" else f"**{s.status}**" + (f" ({s.rule})" if s.rule else "")
        if s.status != "ok" and s.feedback:
            note += f": {s.feedback}"
        rows.append(f"| {s.line} | {MARKS[s.status]} | ${s.latex}$ | {_cell(note)} |")
    return "\n".join(rows) + f"\n\n**{v.verdict}**: {_cell(v.feedback)}\n"


def _cell(text: str) -> str:
    return text.replace("|", "\\|")
