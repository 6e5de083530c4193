"""What a teacher reads after ``symattn grade``: the class summary as text, JSON and Markdown.

The summary itself (counts, best attempts, slips, reasons, wrong answers, the gradebook) is
computed by :mod:`symattn.grading.batch.summary`; this module only prints it: a text table for
the terminal, a JSON document, a Markdown report with a bar chart (matplotlib), and the
gradebook as CSV text.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from ..errors import SymattnError
from ..grading.batch.files import VERDICTS
from ..grading.batch.summary import (
    TOP_WRONG,
    ClassSummary,
    ExerciseSummary,
    Group,
    gradebook,
    percent,
    summarise,
)
from ..grading.outcomes import BY_NAME
from ..unicode_text import words
from ._table import text_table

__all__ = [
    "TOP_WRONG",
    "ChartUnavailable",
    "bar_chart",
    "gradebook_csv",
    "percent",
    "report_markdown",
    "summarise",
    "summary_json",
    "summary_text",
]


class ChartUnavailable(SymattnError):
    """Raised when a report's chart is asked for but matplotlib is not installed."""


# -- printers ---------------------------------------------------------------------------------
_HEADER = ("exercise", "attempts", "learners", "learners correct", *VERDICTS)


def _overview(s: ExerciseSummary, cell: Callable[[str], str]) -> tuple[str, ...]:
    return (
        cell(s.exercise),
        str(s.rows),
        str(s.learners),
        f"{s.learners_correct} ({s.learners_share})",
        *(f"{s.counts[v]} ({s.share(v)})" for v in VERDICTS),
    )


def summary_text(summary: ClassSummary) -> str:
    """The tables printed after a grading run: per exercise, then slips, reasons, wrong answers."""
    parts = [text_table(_HEADER, [_overview(s, _plain) for s in summary])]
    slips = [
        (_plain(s.exercise), _plain(words(g.name)), str(g.learners), str(g.rows))
        for s in summary
        for g in s.slips
    ]
    if slips:
        parts.append("Slips, by learners\n" + text_table(("exercise", "slip", "learners", "rows"), slips))
    reasons = [
        (_plain(s.exercise), _plain(g.name, 60), str(g.learners), str(g.rows))
        for s in summary
        for g in s.invalid
    ]
    if reasons:
        parts.append(
            "Invalid answers, by reason\n" + text_table(("exercise", "reason", "learners", "rows"), reasons)
        )
    wrong = [
        (_plain(s.exercise), _plain(g.name), str(g.learners), str(g.rows), _plain(g.example))
        for s in summary
        for g in s.wrong
    ]
    if wrong:
        parts.append(
            "Most frequent unrecognised wrong answers, by value\n"
            + text_table(("exercise", "read as", "learners", "rows", "example"), wrong)
        )
    return "\n".join(parts) + "\n"


def summary_json(summary: ClassSummary) -> dict[str, Any]:
    """The summary as a JSON document: exercises (with slips, invalid reasons and wrong answers)
    and learners (attempts and best verdict per exercise)."""

    def groups(gs: list[Group], key: str) -> list[dict[str, Any]]:
        return [
            {key: g.name, "learners": g.learners, "rows": g.rows, "example": g.example}
            | ({"latex": g.latex} if g.latex else {})
            for g in gs
        ]

    return {
        "exercises": [
            {
                "exercise": s.exercise,
                "rows": s.rows,
                "learners": s.learners,
                "learners_correct": s.learners_correct,
                "learners_correct_share": s.learners_correct / s.learners if s.learners else None,
                "counts": s.counts,
                "shares": {v: (s.counts[v] / s.rows if s.rows else None) for v in VERDICTS},
                "slips": groups(s.slips, "mistake"),
                "invalid_reasons": groups(s.invalid, "reason"),
                "unrecognised_wrong": groups(s.wrong, "read_as"),
            }
            for s in summary
        ],
        "learners": [
            {
                "learner": learner.learner,
                "exercises": {
                    e: {"attempts": n, "best": learner.best[e]} for e, n in learner.attempts.items()
                },
                "correct": learner.correct,
            }
            for learner in summary.learners
            if learner.named
        ],
    }


def gradebook_csv(summary: ClassSummary, exercises: Sequence[str] | None = None) -> str:
    """The gradebook (:func:`~symattn.grading.batch.summary.gradebook`) as CSV text."""
    header, rows = gradebook(summary, exercises)
    out = io.StringIO(newline="")
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    return out.getvalue()


def report_markdown(summary: ClassSummary, title: str, chart: str | None) -> str:
    """A Markdown report; ``chart`` is the chart's path relative to the report, if drawn."""
    lines = [f"# {_md(title)}", ""]
    lines += _md_table(_HEADER, [_overview(s, _md) for s in summary])
    lines += [
        "",
        "A learner is correct on an exercise when their best attempt is (correct, then incorrect, "
        "then invalid); attempts count every row.",
    ]
    if chart:
        lines += ["", f"![Share of correct, incorrect and invalid answers per exercise]({chart})"]
    for s in summary:
        lines += ["", f"## {_md(s.exercise)}", ""]
        lines.append(
            f"{_count(s.rows, 'attempt')} from {_count(s.learners, 'learner')}, "
            f"{s.learners_correct} of them correct at "
            f"their best attempt ({s.learners_share}); by attempt: "
            + ", ".join(f"{s.counts[v]} {v} ({s.share(v)})" for v in VERDICTS)
            + "."
        )
        if s.slips:
            lines += ["", "Slips, by the number of learners who made them:", ""]
            lines += _md_table(
                ("slip", "learners", "attempts", "example answer"),
                [(_md(words(g.name)), str(g.learners), str(g.rows), _code(g.example)) for g in s.slips],
            )
        if s.invalid:
            lines += ["", "Invalid answers, by reason:", ""]
            lines += _md_table(
                ("reason", "learners", "attempts", "example answer"),
                [(_md(g.name), str(g.learners), str(g.rows), _code(g.example)) for g in s.invalid],
            )
        if s.wrong:
            lines += ["", "Most frequent wrong answers the checker does not recognise, by value:", ""]
            lines += _md_table(
                ("read as", "learners", "attempts", "example answer"),
                [(_math(g), str(g.learners), str(g.rows), _code(g.example)) for g in s.wrong],
            )
    named = [learner for learner in summary.learners if learner.named]
    if named:
        columns = [s.exercise for s in summary]
        marks = {v: BY_NAME[v].mark for v in VERDICTS}
        lines += [
            "",
            "## Learners",
            "",
            "Best verdict on each exercise ("
            + ", ".join(f"{marks[v]} {v}" for v in VERDICTS)
            + ", - none), with the attempts:",
            "",
        ]
        lines += _md_table(
            ("learner", *map(_md, columns), "correct"),
            [
                (
                    _md(learner.learner),
                    *(
                        f"{marks[learner.best[e]]} ({learner.attempts[e]})" if e in learner.best else "-"
                        for e in columns
                    ),
                    str(learner.correct),
                )
                for learner in named
            ],
        )
    return "\n".join(lines) + "\n"


def bar_chart(summaries: ClassSummary | Sequence[ExerciseSummary], path: str | Path) -> Path:
    """A stacked bar per exercise: the shares of correct, incorrect and invalid answers (SVG)."""
    try:
        import matplotlib
    except ImportError:
        raise ChartUnavailable("the report's chart needs matplotlib: pip install 'symattn[plot]'") from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcParams["svg.hashsalt"] = "symattn"
    # Names as plain text: matplotlib would read $...$ in one as mathematics (and fail on it).
    names = [_plain(s.exercise, 30).replace("$", r"\$") for s in summaries]
    fig, ax = plt.subplots(figsize=(7, 0.6 * len(names) + 1.6))
    left = [0.0] * len(names)
    for verdict in VERDICTS:
        widths = [100 * s.counts[verdict] / s.rows if s.rows else 0.0 for s in summaries]
        bars = ax.barh(names, widths, left=left, color=BY_NAME[verdict].colour, label=verdict)
        labels = [str(s.counts[verdict]) if s.counts[verdict] else "" for s in summaries]
        ax.bar_label(bars, labels=labels, label_type="center", color="white", fontsize=9)
        left = [a + b for a, b in zip(left, widths, strict=True)]
    ax.set_xlim(0, 100)
    ax.set_xlabel("share of answers (%)")
    ax.set_title("Verdicts per exercise (bar labels: numbers of answers)")
    ax.invert_yaxis()
    ax.legend(
        ncols=3, loc="upper center", bbox_to_anchor=(0.5, -0.25 if len(names) < 3 else -0.12), frameon=False
    )
    path = Path(path)
    try:
        fig.savefig(path, format="svg", metadata={"Date": None}, bbox_inches="tight")
    except ValueError as exc:  # a label matplotlib cannot draw: the report goes without its chart
        raise ChartUnavailable(f"the chart could not be drawn: {_plain(str(exc), 80)}") from None
    finally:
        plt.close(fig)
    return path


def _count(n: int, noun: str) -> str:
    """``1 attempt``, ``2 attempts``."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _plain(text: str, width: int = 40) -> str:
    """Untrusted text for a terminal's table: one line, printable characters only, shortened."""
    text = "".join(c if c.isprintable() else " " for c in text)
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 3] + "..."


def _math(g: Group) -> str:
    """A wrong answer typeset: the judge's LaTeX reading in $...$ (made by SymPy from the parsed
    value, never the learner's text), else its text reading as code."""
    latex = " ".join(g.latex.split())
    if latex and len(latex) <= 200 and not any(c in latex for c in "$`<>&"):
        seed = g.name[g.name.rfind(" (seed ") :] if g.name.endswith(")") and " (seed " in g.name else ""
        return "$" + latex.replace("|", r"\vert ") + "$" + _md(seed)
    return _code(g.name)


#: Characters that are Markdown (or HTML) syntax inline, written as character references: a
#: reference is text to a Markdown reader, and never splits a table cell as a pipe would.
_REFERENCES = {c: f"&#{ord(c)};" for c in "&<>|\\`*_[]$~#!"}


def _md(text: str, width: int = 80) -> str:
    """Untrusted text as Markdown prose, one table cell: no Markdown, HTML or autolink in it is live."""
    text = "".join(_REFERENCES.get(c, c) for c in _plain(text, width))
    return text.replace("://", "&#58;//").replace("www.", "www&#46;")


def _code(text: str) -> str:
    """Untrusted text as code, one table cell: an HTML code element with every special
    character written as a character reference (a backtick fence could be closed by the text)."""
    return "<code>" + "".join(_REFERENCES.get(c, c) for c in _plain(text, 60)) + "</code>"


def _md_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    return [
        "| " + " | ".join(header) + " |",
        "|" + "|".join("---" for _ in header) + "|",
        *("| " + " | ".join(r) + " |" for r in rows),
    ]
