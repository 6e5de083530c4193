"""A module audit as text, JSON and Markdown (presentation only)."""

from __future__ import annotations

import json
from collections import Counter

from ..grading.audit.keys import AuditRow, ModuleAudit
from ._table import text_table
from .text_math import words

_WIDTH = 60


def _short(s: str | None, width: int = _WIDTH) -> str:
    s = " ".join((s or "").split())
    return s if len(s) <= width else s[: width - 1] + "…"


def summary(audit: ModuleAudit) -> str:
    n = Counter(c.verdict for c in audit.claims)
    wrong_keys = sum(r.wrong for r in audit.keys)
    return (
        f"{len(audit.claims)} claims: {n['certified']} certified, {n['wrong']} wrong, "
        f"{n['unchecked']} unchecked; {len(audit.keys)} exercises, {wrong_keys} with a wrong key\n"
    )


def claim_text(c) -> str:
    """The claim as the module wrote it, its formulas as Unicode math (``e^{-∞} = 0``)."""
    return words(c.typeset) if c.typeset else c.text.replace("⟨", "").replace("⟩", "")


def claims_table(audit: ModuleAudit) -> str:
    header = ("line", "verdict", "claim", "true value", "rule")
    body = [
        (str(c.line), c.verdict, _short(claim_text(c), 48), _short(c.value, 40), _short(c.rule, 70))
        for c in audit.claims
    ]
    return text_table(header, body)


def audit_text_report(audit: ModuleAudit) -> str:
    from .exercise_render import audit_table

    parts = [
        "Claims",
        "",
        claims_table(audit),
        "Answer keys",
        "",
        audit_table(audit.keys) if audit.keys else "(none)\n",
    ]
    return "\n".join(p.rstrip("\n") for p in parts) + "\n\n" + summary(audit)


def key_dict(r: AuditRow) -> dict:
    return {
        "line": r.found.line,
        "key_line": r.found.key_line or None,
        "position": r.found.position,
        "kind": r.found.kind,
        "exercise": r.exercise.id if r.exercise else None,
        "key": r.found.key,
        "tolerance": r.found.tolerance,
        "computed": r.computed,
        "status": r.status,
        "detail": r.detail,
        "wrong": r.wrong,
    }


def audit_json(audit: ModuleAudit) -> str:
    doc = {"claims": [c.as_dict() for c in audit.claims], "keys": [key_dict(r) for r in audit.keys]}
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


def audit_markdown(audit: ModuleAudit, name: str) -> str:
    """The docs page: every claim of the module by line, then the answer keys."""

    def cell(s: str | None) -> str:
        return " ".join((s or "").split()).replace("|", "\\|").replace("⟨", "`").replace("⟩", "`") or "–"

    def math(s: str) -> str:  # LaTeX in a table cell: its bars escaped, on one line
        return " ".join(s.split()).replace("|", "\\vert ")

    rows = ["| line | verdict | claim | true value | rule |", "|---|---|---|---|---|"]
    for c in audit.claims:
        claim = math(c.typeset) if c.typeset else cell(c.text)
        value = math(c.value_latex) if c.value_latex else "–"
        rows.append(f"| {c.line} | {c.verdict} | {claim} | {value} | {cell(c.rule)} |")
    keys = ["| line | exercise | stated key | computed answer | status |", "|---|---|---|---|---|"]
    for r in audit.keys:
        key = (r.found.key or "") + (f" (within {r.found.tolerance})" if r.found.tolerance else "")
        status = r.status + (f": {r.detail}" if r.detail else "")
        keys.append(
            f"| {r.found.where} | {r.exercise.id if r.exercise else '?'} | {cell(key)} | "
            f"{cell('$' + r.computed + '$' if r.computed else '')} | {cell(status)} |"
        )
    return "\n".join(
        [
            "# The module audit",
            "",
            f"`symattn audit {name}` reads every numeric claim of the module's prose and math and "
            "binds it to a computation of the library: arithmetic with certified digits, the exact "
            "worked example, the cost terms, the causal mask, the statistics of q·k, and the labs "
            "(a measured figure is right when it lies in the 99 % interval of a run of its stated "
            "size). Each claim is shown with its formulas as the module writes them, beside "
            "its true value: exact where it is short, with correctly rounded digits where not.",
            "",
            summary(audit).strip(),
            "",
            "## Claims",
            "",
            *rows,
            "",
            "## Answer keys",
            "",
            *keys,
            "",
        ]
    )
