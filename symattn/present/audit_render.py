"""A module audit as text, JSON and Markdown (presentation only)."""

from __future__ import annotations

import json
import re
from fractions import Fraction

from ..grading.audit.keys import AuditRow, ModuleAudit
from ..unicode_text import words
from ._table import text_table

_WIDTH = 60


def _short(s: str | None, width: int = _WIDTH) -> str:
    s = " ".join((s or "").split())
    return s if len(s) <= width else s[: width - 1] + "…"


def short_claim(c, width: int) -> str:
    """A claim on one line in at most ``width`` characters: a longer one keeps its start and its
    end, where it states the value it claims (``1/1 + 1/2 + … + 1/15 ≈ 2.5``), with … between."""
    s = " ".join(claim_text(c).split())
    if len(s) <= width:
        return s
    head = (width - 1) // 2
    return s[:head].rstrip() + "…" + s[len(s) - (width - 1 - head) :].lstrip()


def summary(audit: ModuleAudit) -> str:
    c = audit.coverage
    wrong_keys = sum(r.wrong for r in audit.keys)
    lines = [
        f"{c.claims} claims: {c.certified} certified, {c.wrong} wrong, {c.unchecked} unchecked "
        f"({percent(c.decided)} decided); {len(audit.keys)} exercises, {wrong_keys} with a wrong key"
    ]
    lines += [f"  unchecked, {n}: {words(reason)}" for reason, n in c.reasons.items()]
    if c.not_claims:
        lines.append(f"{c.not_claims} read and not counted as claims:")
        lines += [f"  not a claim, {n}: {words(reason)}" for reason, n in c.not_claim_reasons.items()]
    return "\n".join(lines) + "\n"


def _as_list(summary_: str) -> list[str]:
    """The summary for a page: its first line, then each unchecked reason as an item."""
    first, *reasons = summary_.rstrip("\n").split("\n")
    return [first, *([""] if reasons else []), *(f"- {r.strip()}" for r in reasons)]


def percent(share) -> str:
    """A share as a percentage to one decimal, correctly rounded (half to even, in exact
    arithmetic); a share short of all, or more than none, that would round to 100.0 % or 0.0 %
    says so instead ("> 99.9 %", "< 0.1 %")."""
    share = Fraction(share)
    tenths, rest = divmod(share.numerator * 1000, share.denominator)
    if 2 * rest > share.denominator or (2 * rest == share.denominator and tenths % 2):
        tenths += 1
    if tenths == 1000 and share < 1:
        return "> 99.9 %"
    if tenths == 0 and share > 0:
        return "< 0.1 %"
    return f"{tenths // 10}.{tenths % 10} %"


def coverage_dict(audit: ModuleAudit) -> dict:
    c = audit.coverage
    return {
        "claims": c.claims,
        "certified": c.certified,
        "wrong": c.wrong,
        "unchecked": c.unchecked,
        "decided": float(c.decided),
        "unchecked_reasons": c.reasons,
        "not_claims": c.not_claims,
        "not_claim_reasons": c.not_claim_reasons,
    }


def claim_text(c) -> str:
    """The claim as the module wrote it, its formulas as Unicode math (``e^{-∞} = 0``); a
    formula nested too deeply to set in Unicode keeps its text."""
    plain = c.text.replace("⟨", "").replace("⟩", "")
    if not c.typeset:
        return plain
    try:
        return words(c.typeset)
    except RecursionError:
        return plain


def claims_table(audit: ModuleAudit) -> str:
    header = ("line", "verdict", "claim", "true value", "rule")
    body = [
        (audit.lines_of(c), c.verdict, short_claim(c, 48), _short(c.value, 40), _short(words(c.rule), 70))
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
    doc = {
        "kind": audit.source.kind,
        "claims": [{**c.as_dict(), "where": audit.where(c.line)} for c in audit.claims],
        "keys": [key_dict(r) for r in audit.keys],
        "coverage": coverage_dict(audit),
    }
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


#: A subscript that is a word (``d_{model}``): set upright, as the printer sets it.
_WORD_SUBSCRIPT = re.compile(r"_\{([A-Za-z]{3,})\}")
#: A vector of the true values: ``\left[a,\ b\right]`` alone between dollars.
_VECTOR = re.compile(r"\$\\left\[(.*?)\\right\]\$")
#: A dotted path into the library (``symattn.core.flops.cost_terms``).
_PATH = re.compile(r"\bsymattn(?:\.\w+)+")


def _upright_words(tex: str) -> str:
    return _WORD_SUBSCRIPT.sub(r"_{\\text{\1}}", tex)


def _entries_apart(cell: str) -> str:
    """``$\\left[a,\\ b\\right]$`` as ``[$a$, $b$]``: a line may break between entries."""

    def apart(m: re.Match) -> str:
        entries = _top_level_split(m.group(1), r",\ ")
        return "[" + ", ".join(f"${e.strip()}$" for e in entries) + "]"

    return _VECTOR.sub(apart, cell)


def _top_level_split(tex: str, sep: str) -> list[str]:
    """``tex`` split at ``sep`` where no brace or \\left is open."""
    parts, depth, start, k = [], 0, 0, 0
    while k < len(tex):
        if tex.startswith(r"\left", k):
            depth, k = depth + 1, k + 5
            continue
        if tex.startswith(r"\right", k):
            depth, k = depth - 1, k + 6
            continue
        ch = tex[k]
        depth += ch == "{"
        depth -= ch == "}"
        if depth == 0 and tex.startswith(sep, k):
            parts.append(tex[start:k])
            start = k = k + len(sep)
            continue
        k += 1
    return [*parts, tex[start:]]


def _paths_as_code(text: str) -> str:
    return _PATH.sub(lambda m: f"`{m.group(0)}`", text)


def audit_markdown(audit: ModuleAudit, name: str, origin: str = "") -> str:
    """The docs page: every claim of the module by line, then the answer keys; ``origin``, a
    paragraph after the introduction, says where the module came from."""

    def cell(s: str | None) -> str:
        return " ".join((s or "").split()).replace("|", "\\|").replace("⟨", "`").replace("⟩", "`") or "–"

    def math(s: str) -> str:  # LaTeX in a table cell: its bars escaped, on one line
        return " ".join(s.split()).replace("|", "\\vert ")

    # Four columns, so the table fits the text column at 1280 pixels: the verdict and how it was
    # reached share one, vectors break between their entries, module paths between their parts.
    rows = ["| line | claim | true value | verdict: how it was checked |", "|---|---|---|---|"]
    for c in audit.claims:
        claim = _upright_words(math(c.typeset)) if c.typeset else cell(c.text)
        value = _entries_apart(math(c.value_latex)) if c.value_latex else "–"
        rows.append(f"| {c.line} | {claim} | {value} | **{c.verdict}**: {_paths_as_code(cell(c.rule))} |")
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
            *([origin, ""] if origin else []),
            *_as_list(summary(audit)),
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


def corpus_markdown(measures: list) -> str:
    """The audit measured on public texts (symattn.grading.audit.corpus): a table, one row a
    text, then what each missed, every figure counted in this build."""
    rows = [
        "| text | decided, of the claims found | reader's claims decided | real errors flagged "
        "| planted errors flagged | false flags |",
        "|---|---|---|---|---|---|",
    ]
    totals = [0] * 9
    for m in measures:
        t = m.text
        link = f"[{t.name}](#{t.name})"  # its section below says where it comes from
        share = percent(Fraction(m.decided, m.found)) if m.found else "–"
        counts = (m.found, m.decided, m.reader_claims, m.reader_decided, m.errors, m.errors_flagged,
                  m.planted, sum(m.caught), len(m.false_flags))  # fmt: skip
        totals = [a + b for a, b in zip(totals, counts, strict=True)]
        rows.append(
            f"| {link} | {m.decided} of {m.found} ({share}) | {m.reader_decided} of "
            f"{m.reader_claims} | {m.errors_flagged} of {m.errors} | {sum(m.caught)} of {m.planted} "
            f"| {len(m.false_flags)} |"
        )
    found, decided, claims, rdecided, errors, flagged, planted, caught, false = totals
    rows.append(
        f"| **all** | {decided} of {found} ({percent(Fraction(decided, found)) if found else '–'}) | "
        f"{rdecided} of {claims} | {flagged} of {errors} | {caught} of {planted} | {false} |"
    )
    out = [
        "# The audit on texts no one here wrote",
        "",
        "`symattn audit` measured on public texts about attention, each kept in "
        "`tests/data/texts/<name>/` with its authors' licence and a reader's list of its claims "
        "(`reading.toml`: every claim a careful reader could check, whether it holds, and errors "
        "planted in true claims, one edit each). The reader never looked at the audit's code. "
        "*Claims found* and *decided* are the audit's own count (certified or wrong); what it read "
        "and set apart as *not a claim* (a definition, a range of an index, a label or ordinal, a "
        "choice the text makes, a figure reported from a run, advice about practice: each with its "
        "reason in the report) is not among the claims found, and is counted in each text's section; "
        "*reader's claims "
        "decided* counts the reader's claims on whose line the audit decided a claim; a *real error* "
        "is a claim the reader found false in the published text; a planted error is *flagged* when "
        "the audit calls a claim on its line wrong that it did not call wrong before; a *false flag* "
        "is a claim called wrong where the reader found nothing wrong. `symattn build` measures all "
        "of it again; `tests/grading/audit/test_corpus.py` holds the audit to no false flag.",
        "",
        *rows,
        "",
    ]
    for m in measures:
        t = m.text
        missed = [p for p, c in zip(t.planted, m.caught, strict=True) if not c]
        source = f"https://github.com/{t.repository}/blob/{t.commit}/{t.path}"
        out += [
            f"## {t.name}",
            "",
            f"{t.kind[0].upper()}{t.kind[1:]}, from [{t.repository}, `{t.path}`]({source}) at "
            f"`{t.commit[:12]}`; {t.licence}.",
            "",
        ]
        if t.macros:
            macros = f"Read with its author's macros, `{t.macros}` (`symattn audit --macros`)"
            out += [f"{macros}: {t.macros_source}.", ""]
        if t.note:
            out += [f"Kept with this change: {t.note}", ""]
        if m.not_claims:
            out += [f"Read and set apart as not a claim: {m.not_claims}.", ""]
        if m.false_flags:
            out += ["False flags:", "", *(f"- line {f}" for f in m.false_flags), ""]
        if missed:
            where = [f"{p.kind} at {'line ' if p.line[0].isdigit() else ''}{p.line}" for p in missed]
            out += ["Planted errors not flagged: " + "; ".join(where) + ".", ""]
    return "\n".join(out).rstrip("\n") + "\n"
