"""A judged derivation as text and JSON (presentation only)."""

from __future__ import annotations

import json

from ..grading.outcomes import BY_NAME
from ..grading.proofs.proof_judge import ProofVerdict
from ..unicode_text import visible, words

MARKS = {"ok": "✓", "wrong": "✗", "unjustified": "?", "invalid": "!", "unchecked": BY_NAME["unchecked"].mark}


def proof_text(v: ProofVerdict) -> str:
    """Each step with its mark: the rule of a step that is ok, the reason of every other one
    (their math, written between dollars, as Unicode)."""
    out = [f"{v.id}, checked step by step:"]
    for s in v.steps:
        out.append(f"{MARKS[s.status]} line {s.line}: {visible(s.latex)}")
        if s.status == "ok":
            out.append(f"    {words(s.rule)}")
        else:
            reason = f": {words(s.feedback)}" if s.feedback else ""
            out.append(f"    {s.status}" + (f" ({words(s.rule)})" if s.rule else "") + reason)
    head = BY_NAME[v.verdict].heading
    feedback = v.feedback.removeprefix("correct: ").removeprefix("incorrect: ")
    out.append(f"{head}: {words(feedback)}")
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
    feedback = v.feedback.removeprefix("correct: ").removeprefix("incorrect: ")
    return "\n".join(rows) + f"\n\n**{v.verdict}**: {_cell(feedback)}\n"


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def worked_markdown(exercise_id: str, checked: list[tuple[str, str, ProofVerdict]]) -> str:
    """The exercises page's worked checks: each (title, derivation, its verdict) as judged (by
    :func:`symattn.build.site.worked_checks`)."""
    out = [
        f"**Checked step by step.** Write a derivation in LaTeX, one step per line ('A = B' starts "
        f"a chain, '= C' continues it, '%' starts a comment), and run "
        f"`symattn check {exercise_id} --steps proof.tex`.",
        "",
    ]
    for title, text, verdict in checked:
        out += [
            f'<details markdown="1"><summary>{title}: {verdict.verdict}</summary>',
            "",
            "```tex",
            text.rstrip(),
            "```",
            "",
            proof_markdown(verdict),
            "",
            "</details>",
            "",
        ]
    return "\n".join(out)
