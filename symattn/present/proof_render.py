"""Derivations as LaTeX, Markdown and plain text.

Presentation only: these functions read a :class:`~symattn.proof.Derivation` and its
:class:`~symattn.proof.DerivationReport` and never check anything themselves. Each step is
shown with its number (the same in every format, and in the table of how each step was
checked), its justification and how it was checked. The theorem, the assumptions, the titles
and the rules are prose with their math in ``$...$``: typeset in LaTeX and Markdown, in Unicode
in text (a statement written in plain ASCII, by a course author, is read as math where it
looks like math: :mod:`.prose_math`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import sympy as sp

from ..proof.engine import Derivation, DerivationReport, Step, StepReport
from ..proof.latex import RELATIONS_LATEX, side_latex, step_text, term_pieces
from ..proof.latex import page_latex as latex
from ..unicode_text import to_unicode, words
from . import prose_math


def prose(s: str) -> str:
    """A statement with its math marked by ``$...$`` (plain ASCII math is found and marked)."""
    return prose_math.markdown(s)


_TEXT_ESCAPES = {
    "\\": r"\textbackslash{}",
    "_": r"\_",
    "^": r"\^{}",
    "{": r"\{",
    "}": r"\}",
    "#": r"\#",
    "%": r"\%",
    "&": r"\&",
    "$": r"\$",
    "~": r"\~{}",
}


def escape_text(s: str) -> str:
    """Make words safe inside ``\\text{...}``; ``$...$`` stretches stay inline math."""
    parts = s.split("$")
    return "$".join(
        part if k % 2 else "".join(_TEXT_ESCAPES.get(c, c) for c in part) for k, part in enumerate(parts)
    )


def plain(s: str) -> str:
    """A rule for plain text: its inline math in Unicode, no LaTeX left."""
    return words(s)


def check_label(r: StepReport) -> str:
    """How a step was checked, in a few words: the method, the sizes where it is at sizes, and
    which side, if any, is shown by a name in place of its value."""
    detail, note = r.detail, ""
    if detail.endswith("shown by name"):  # the engine's last words on the step
        detail, _, by_name = detail.rpartition("; the ")
        note = f"; the {by_name}"
    return _method_label(r, detail) + note


def _method_label(r: StepReport, detail: str) -> str:
    if r.method == "symbolic":
        return "symbolic"
    if r.method == "at sizes":
        return "at sizes " + detail
    if r.method == "certified":
        return "certified digits" if r.step.relation == "≈" else "certified counterexample"
    if r.method == "definition":
        return "definition"
    return "numeric only (" + detail + ")"


def notation(d: Derivation) -> list[tuple[Any, Any]]:
    """The derivation's abbreviations as (short form, what it stands for), an indexed one
    written at the index i."""
    i = sp.Symbol("i", integer=True, positive=True)
    return [
        (short[i], meaning(i)) if isinstance(short, sp.IndexedBase) else (short, meaning)
        for short, meaning in d.abbreviations.items()
    ]


def step_latex(
    step: Step, lhs_shown: bool, lhs: Any, printer: Callable[[Any], str] = side_latex
) -> tuple[str, str]:
    """(left, right) LaTeX of a step, each side by ``printer`` (the derivation's, whose output
    ``verify`` reads back); the left is empty for a continued chain."""
    left = ""
    if lhs_shown:
        left = printer(step.shown_lhs if step.shown_lhs is not None else lhs)
    right_value = step.shown_rhs if step.shown_rhs is not None else step.rhs
    right = RELATIONS_LATEX[step.relation] + " " + printer(right_value)
    return left, right


def _printer(report: DerivationReport) -> Callable[[Any], str]:
    d = report.derivation
    return (d.printer if d is not None else None) or side_latex


def _sections(d: Derivation, report: DerivationReport) -> list[tuple[str, list[StepReport]]]:
    out: list[tuple[str, list[StepReport]]] = []
    for r in report.steps:
        if not out or out[-1][0] != r.step.section:
            out.append((r.step.section, []))
        out[-1][1].append(r)
    return out


def tag(r: StepReport) -> str:
    """The step's number beside it (an equation number in LaTeX), as in the table of checks."""
    return f"\\tag{{{r.index + 1}}}"


def number(r: StepReport) -> str:
    """The step's number for a web page: a column of its own at the right of the step's row
    (KaTeX sets a \\tag flush with the column's edge, a scroll bar's width too far)."""
    return f" &\\qquad& \\text{{({r.index + 1})}}"


def _aligned_rows(
    rows: list[StepReport], labels: bool = True, tags: bool = True, printer: Callable[[Any], str] = side_latex
) -> list[str]:
    """One ``lhs &= rhs && \\text{rule} \\tag{n}`` line per step; ``labels`` adds how it was checked;
    without ``tags`` (inside ``aligned``, which takes none) the number is a last column."""
    lines = []
    for r in rows:
        left, right = step_latex(r.step, r.step.lhs is not None, r.lhs, printer)
        why = escape_text(f"{r.step.rule} [{check_label(r)}]" if labels else r.step.rule)
        numbered = tag(r) if tags else f"&& \\text{{({r.index + 1})}}"
        lines.append(f"{left} &{right} && \\text{{{why}}} {numbered}")
    return lines


def to_latex(d: Derivation, report: DerivationReport) -> str:
    """LaTeX for a document: a title, the theorem, then one ``align*`` per part of the proof."""
    out = [
        f"% symattn derivation {d.name}: generated, do not edit",
        f"\\subsection*{{{escape_text(prose(d.title))}}}",
        f"\\noindent\\textbf{{Theorem.}} {escape_text(prose(d.theorem))}",
        "",
    ]
    if d.assumptions:
        where = "; ".join(escape_text(prose(a)) for a in d.assumptions)
        out += [f"\\noindent Assumptions: {where}.", ""]
    if d.abbreviations:
        where = ", ".join(f"${latex(a)} = {latex(b)}$" for a, b in notation(d))
        out += [f"\\noindent Notation: {where}.", ""]
    for title, rows in _sections(d, report):
        if title:
            out.append(f"\\paragraph{{{escape_text(prose(title))}}}")
        out.append("\\begin{align*}")
        out.append(" \\\\\n".join(_aligned_rows(rows, printer=_printer(report))))
        out.append("\\end{align*}")
        out.append("")
    return "\n".join(out)


def to_latex_block(d: Derivation, report: DerivationReport) -> str:
    """The whole proof as one display-math block (for notebooks)."""
    rows = [r for _, rs in _sections(d, report) for r in rs]
    lines = _aligned_rows(rows, tags=False, printer=_printer(report))
    return "$$\\begin{aligned}\n" + " \\\\\n".join(lines) + "\n\\end{aligned}$$"


#: Visible characters one displayed row may hold: the site's text column is about 690 px wide
#: at a 1280-pixel window, some 50 characters of KaTeX at its display size, less the column of
#: step numbers.
ROW_BUDGET = 40
#: The same for a rule, set smaller under its step.
RULE_BUDGET = 52


def visible_width(tex: str) -> int:
    """A rough count of the characters KaTeX shows for ``tex`` (a command is about one glyph;
    a fraction counts both its parts, so the estimate errs on the wide side)."""
    words = "operatorname|mathrm|text|mathbb|mathbf|left|right|frac|tfrac|sqrt|quad|qquad"
    s = re.sub(rf"\\({words})\b", "", tex)
    s = re.sub(r"\\[A-Za-z]+", "x", s)
    return len(re.sub(r"[{}&^_\s]", "", s))


def _narrow_rows(rows: list[StepReport], printer: Callable[[Any], str] = side_latex) -> list[str]:
    """Rows for a web page: each step's rule on its own row under the step, and a step too
    wide for the text column split: the left side alone, then the right side, and a long sum
    continued over several rows, so nothing is hidden behind a scroll bar."""
    lines = []
    sides = [step_latex(r.step, r.step.lhs is not None, r.lhs, printer) for r in rows]
    # Rules sit in the right-hand column, after the widest left side kept in the left one.
    kept = [visible_width(a) for a, b in sides if visible_width(a) + visible_width(b) <= ROW_BUDGET]
    rule_budget = max(20, RULE_BUDGET - (4 * max(kept, default=0)) // 3)
    for r, (left, right) in zip(rows, sides, strict=True):
        if visible_width(left) + visible_width(right) <= ROW_BUDGET:
            lines.append(f"{left} &{right}{number(r)}")
        else:
            # The left side goes in the right-hand column too: kept in the left one, it would
            # push every continuation row out by its own width.
            if left:
                value = r.lhs if r.step.shown_lhs is None else r.step.shown_lhs
                lines += [f"&{part}" for part in _split_terms(value, left, "")]
            parts = [f"&\\quad {part}" for part in _split_sum(r.step, right)]
            lines += [parts[0] + number(r), *parts[1:]]
        for piece in _wrap_words(r.step.rule, rule_budget):
            lines.append(f"&\\qquad{{\\small\\text{{{escape_text(piece)}}}}}")
    return lines


def _wrap_words(text: str, budget: int) -> list[str]:
    """``text`` in lines of at most ``budget`` visible characters, broken only at spaces
    outside ``$...$`` math."""
    words, current, inside = [], "", False
    for ch in text:
        if ch == "$":
            inside = not inside
        if ch == " " and not inside:
            words.append(current)
            current = ""
        else:
            current += ch
    words.append(current)
    lines, line = [], ""
    for w in words:
        candidate = f"{line} {w}" if line else w
        if line and visible_width(candidate.replace("$", "")) + candidate.count(" ") > budget:
            lines.append(line)
            line = w
        else:
            line = candidate
    return [*lines, line]


def _split_terms(value: Any, tex: str, relation: str) -> list[str]:
    """``tex`` (the LaTeX of ``value``) over several rows when ``value`` is a long sum."""
    pieces = term_pieces(value)
    if visible_width(tex) <= ROW_BUDGET or pieces is None:
        return [tex]
    parts, current = [], f"{relation} " if relation else ""
    for k, piece in enumerate(pieces):
        if k and visible_width(current + piece) > ROW_BUDGET:
            parts.append(current)
            current = r"\quad " + piece
        else:
            current += (" " if k else "") + piece
    return [*parts, current]


def _split_sum(step: Step, right: str) -> list[str]:
    """``right`` over several rows when it is a long sum (terms kept whole), else one row."""
    value = step.shown_rhs if step.shown_rhs is not None else step.rhs
    return _split_terms(value, right, RELATIONS_LATEX[step.relation])


def to_markdown(d: Derivation, report: DerivationReport, stable: bool = False) -> str:
    """Markdown with ``$$`` blocks: the theorem, each part of the proof, then the checks.

    ``stable`` leaves out timings and raw error values, so generated docs are the same on
    every run.
    """
    out = [f"# {prose(d.title)}", "", f"> **Theorem.** {prose(d.theorem)}", ""]
    if d.assumptions:
        out += ["Assumptions:", ""] + [f"- {prose(a)}" for a in d.assumptions] + [""]
    if d.abbreviations:
        out += ["Notation:", ""] + [f"- ${latex(a)} = {latex(b)}$" for a, b in notation(d)] + [""]
    for title, rows in _sections(d, report):
        if title:
            out += [f"## {prose(title)}", ""]
        # alignedat: a third column holds each step's number, as in the table below.
        out += [
            "$$",
            "\\begin{alignedat}{2}",
            " \\\\\n".join(_narrow_rows(rows, _printer(report))),
            "\\end{alignedat}",
            "$$",
            "",
        ]
    if stable:
        out += [
            "## How each step was checked",
            "",
            "| step | justification | check |",
            "|---|---|---|",
        ]
        for r in report.steps:
            out.append(f"| {r.index + 1} | {_cell(r.step.rule)} | {_cell(check_label(r))} |")
    else:
        out += [
            "## How each step was checked",
            "",
            "| step | justification | check | time |",
            "|---|---|---|---|",
        ]
        for r in report.steps:
            out.append(
                f"| {r.index + 1} | {_cell(r.step.rule)} | {_cell(check_label(r))} | {r.seconds:.2f} s |"
            )
    if report.shown:
        out += ["", "What the page shows was checked too: " + "; ".join(report.shown) + "."]
    if report.checks:
        out += ["", "| numeric check | result | tolerance |", "|---|---|---|"]
        for c in report.checks:
            result = ("passed" if c.ok else "FAILED") if stable else f"{c.error:.2e}"
            out.append(f"| {_cell(c.name)} | {result} | {c.tolerance:.0e} |")
    return "\n".join(out) + "\n"


def _cell(s: str) -> str:
    """A table cell: a bar would end the cell."""
    return s.replace("|", "\\|")


def _rows(prefix: str, text: str) -> list[str]:
    """``prefix`` and a side's text, a matrix of several rows drawn a row to a line, each row
    under the first (the text is :func:`side_text`'s, line breaks aside)."""
    lines, start, depth, opened = [], 0, 0, 0
    for k, c in enumerate(text):
        if c == "[":
            depth += 1
            if depth == 1:
                opened = k
        elif c == "]":
            depth -= 1
        elif depth == 1 and text.startswith(", [", k):
            lines.append(text[start : k + 1])
            start = k + 2
            indent = len(prefix) + opened + 1
    lines.append(text[start:])
    return [prefix + lines[0]] + [" " * indent + line for line in lines[1:]]


def to_text(d: Derivation, report: DerivationReport) -> str:
    """Plain text for a terminal: each step's sides in Unicode on a line (a matrix a row to a
    line), as ``verify`` reads them back, then its rule in words and how it was checked."""
    printer = _printer(report)
    out = [f"{d.name}: {words(prose(d.title))}", f"Theorem. {words(prose(d.theorem))}"]
    if d.assumptions:
        out += ["", "Assumptions"] + [f"  - {words(prose(a))}" for a in d.assumptions]
    if d.abbreviations:
        out += ["", "Notation"]
        for short, meaning in notation(d):
            out += _rows(f"  {to_unicode(latex(short))} = ", to_unicode(latex(meaning)))
    for title, rows in _sections(d, report):
        out += ["", words(prose(title)) or "Proof"]
        for r in rows:
            # Every step numbered, a continued one too, as in the table of checks.
            lhs, rhs = step_text(r.step, printer)
            number = f"  {r.index + 1:>2}. "
            if lhs is not None:
                out += _rows(number, lhs)
                number = " " * len(number)
            relation, _, side = rhs.partition(" ")
            out += _rows(f"{number}{relation} ", side)
            out.append(f"        [{words(r.step.rule)}; {words(check_label(r))}]")
    if report.shown:
        out += ["", "Shown as checked"] + [f"  {line}" for line in report.shown]
    if report.checks:
        out += ["", "Numeric checks"]
        for c in report.checks:
            out.append(f"  {words(c.name)}: largest error {c.error:.2e} (tolerance {c.tolerance:.0e})")
    return "\n".join(out) + "\n"


FORMATS = {"text": to_text, "markdown": to_markdown, "latex": to_latex}
