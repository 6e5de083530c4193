"""What a teacher reads after ``symattn grade``: per exercise counts, slips and common wrong answers.

:func:`summarise` turns graded rows into one :class:`ExerciseSummary` per exercise: the counts
of correct, incorrect and invalid rows with their shares, the named slips ranked by how many
learners made them, and the most frequent wrong answers the judge did not recognise, grouped by
the value they were read as (``1.97`` and ``1.970`` are one group). The printers turn that into
a text table, a JSON document or a Markdown report with a bar chart (matplotlib).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import SymattnError
from ..grading.batch.files import VERDICTS
from ._table import text_table

#: Unrecognised wrong answers listed per exercise.
TOP_WRONG = 5


class ChartUnavailable(SymattnError):
    """Raised when a report's chart is asked for but matplotlib is not installed."""


@dataclass(frozen=True)
class Group:
    """Rows that share a slip or a wrong value: how many learners, how many rows, one example."""

    name: str
    learners: int
    rows: int
    example: str = ""


@dataclass
class ExerciseSummary:
    exercise: str
    counts: dict[str, int]
    learners: int
    slips: list[Group] = field(default_factory=list)
    wrong: list[Group] = field(default_factory=list)

    @property
    def rows(self) -> int:
        return sum(self.counts.values())

    def share(self, verdict: str) -> str:
        """The share of rows with ``verdict``, a percentage to one decimal, correctly rounded."""
        return percent(self.counts[verdict], self.rows)


def percent(part: int, whole: int) -> str:
    """100 part / whole to one decimal, rounded half to even in exact integer arithmetic."""
    if whole == 0:
        return "-"
    tenths, rest = divmod(part * 1000, whole)
    if 2 * rest > whole or (2 * rest == whole and tenths % 2):
        tenths += 1
    return f"{tenths // 10}.{tenths % 10}%"


def summarise(records: Sequence[dict[str, str]]) -> list[ExerciseSummary]:
    """One summary per exercise, in order of first appearance."""
    by_exercise: dict[str, list[dict[str, str]]] = defaultdict(list)
    for r in records:
        by_exercise[r.get("exercise", "").strip().lower() or "(unreadable)"].append(r)
    return [_summary(name, rows) for name, rows in by_exercise.items()]


def _who(r: dict[str, str]) -> str:
    return r.get("learner") or f"line {r.get('line', '?')}"


def _summary(name: str, rows: list[dict[str, str]]) -> ExerciseSummary:
    counts = Counter({v: 0 for v in VERDICTS})
    counts.update(r["verdict"] for r in rows)
    s = ExerciseSummary(name, dict(counts), len({_who(r) for r in rows}))
    slips: dict[str, list[dict[str, str]]] = defaultdict(list)
    wrong: dict[str, list[dict[str, str]]] = defaultdict(list)
    for r in rows:
        if r["verdict"] != "incorrect":
            continue
        if r.get("mistake"):
            slips[r["mistake"]].append(r)
        else:
            value = r.get("read_as") or r.get("answer", "").strip()
            seed = r.get("seed", "").strip()
            wrong[f"{value} (seed {seed})" if seed else value].append(r)  # variants differ
    s.slips = _ranked(slips)
    wrong.pop("", None)  # nothing to show for it
    s.wrong = _ranked(wrong)[:TOP_WRONG]
    return s


def _ranked(groups: dict[str, list[dict[str, str]]]) -> list[Group]:
    out = [
        Group(
            name,
            len({_who(r) for r in rows}),
            len(rows),
            Counter(r.get("answer") or r.get("steps_file", "") for r in rows).most_common(1)[0][0],
        )
        for name, rows in groups.items()
    ]
    return sorted(out, key=lambda g: (-g.learners, -g.rows, g.name))


# -- printers ---------------------------------------------------------------------------------
def summary_text(summaries: Sequence[ExerciseSummary]) -> str:
    """The tables printed after a grading run."""
    header = ("exercise", "rows", "learners", "correct", "incorrect", "invalid")
    body = [
        (
            s.exercise,
            str(s.rows),
            str(s.learners),
            *(f"{s.counts[v]} ({s.share(v)})" for v in VERDICTS),
        )
        for s in summaries
    ]
    parts = [text_table(header, body)]
    slips = [(s.exercise, g.name, str(g.learners), str(g.rows)) for s in summaries for g in s.slips]
    if slips:
        parts.append(
            "Named slips, by learners\n" + text_table(("exercise", "slip", "learners", "rows"), slips)
        )
    wrong = [
        (s.exercise, _short(g.name), str(g.learners), str(g.rows), _short(g.example))
        for s in summaries
        for g in s.wrong
    ]
    if wrong:
        parts.append(
            "Most frequent unrecognised wrong answers, by value\n"
            + text_table(("exercise", "read as", "learners", "rows", "example"), wrong)
        )
    return "\n".join(parts)


def summary_json(summaries: Sequence[ExerciseSummary]) -> dict[str, Any]:
    def groups(gs: list[Group], key: str) -> list[dict[str, Any]]:
        return [{key: g.name, "learners": g.learners, "rows": g.rows, "example": g.example} for g in gs]

    return {
        "exercises": [
            {
                "exercise": s.exercise,
                "rows": s.rows,
                "learners": s.learners,
                "counts": s.counts,
                "shares": {v: (s.counts[v] / s.rows if s.rows else None) for v in VERDICTS},
                "slips": groups(s.slips, "mistake"),
                "unrecognised_wrong": groups(s.wrong, "read_as"),
            }
            for s in summaries
        ]
    }


def report_markdown(summaries: Sequence[ExerciseSummary], title: str, chart: str | None) -> str:
    """A Markdown report; ``chart`` is the chart's path relative to the report, if drawn."""
    lines = [f"# {_md(title)}", ""]
    lines += _md_table(
        ("exercise", "rows", "learners", "correct", "incorrect", "invalid"),
        [
            (s.exercise, str(s.rows), str(s.learners), *(f"{s.counts[v]} ({s.share(v)})" for v in VERDICTS))
            for s in summaries
        ],
    )
    if chart:
        lines += ["", f"![Share of correct, incorrect and invalid answers per exercise]({chart})"]
    for s in summaries:
        lines += ["", f"## {_md(s.exercise)}", ""]
        lines.append(
            f"{s.rows} answers from {s.learners} learners: "
            + ", ".join(f"{s.counts[v]} {v} ({s.share(v)})" for v in VERDICTS)
            + "."
        )
        if s.slips:
            lines += ["", "Named slips, by the number of learners who made them:", ""]
            lines += _md_table(
                ("slip", "learners", "rows", "example answer"),
                [(f"`{g.name}`", str(g.learners), str(g.rows), _code(g.example)) for g in s.slips],
            )
        if s.wrong:
            lines += ["", "Most frequent wrong answers the checker does not recognise, by value:", ""]
            lines += _md_table(
                ("read as", "learners", "rows", "example answer"),
                [(_code(g.name), str(g.learners), str(g.rows), _code(g.example)) for g in s.wrong],
            )
    return "\n".join(lines) + "\n"


def bar_chart(summaries: Sequence[ExerciseSummary], path: str | Path) -> Path:
    """A stacked bar per exercise: the shares of correct, incorrect and invalid answers (SVG)."""
    try:
        import matplotlib
    except ImportError:
        raise ChartUnavailable("the report's chart needs matplotlib: pip install 'symattn[plot]'") from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcParams["svg.hashsalt"] = "symattn"
    names = [s.exercise for s in summaries]
    fig, ax = plt.subplots(figsize=(7, 0.6 * len(names) + 1.6))
    left = [0.0] * len(names)
    colours = {"correct": "#4c9a2a", "incorrect": "#d1495b", "invalid": "#9e9e9e"}
    for verdict in VERDICTS:
        widths = [100 * s.counts[verdict] / s.rows if s.rows else 0.0 for s in summaries]
        bars = ax.barh(names, widths, left=left, color=colours[verdict], label=verdict)
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
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, format="svg", metadata={"Date": None}, bbox_inches="tight")
    plt.close(fig)
    return path


def _short(text: str, width: int = 40) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 3] + "..."


def _md(text: str) -> str:
    """Text a learner controlled, safe in Markdown prose."""
    return " ".join(text.split()).replace("\\", "\\\\").replace("|", "\\|").replace("<", "&lt;")


def _code(text: str) -> str:
    """A code span for untrusted text; pipes escaped so a table cell stays one cell."""
    text = " ".join(_short(text, 60).split()).replace("|", "\\|")
    fence = "``" if "`" in text else "`"
    return f"{fence} {text} {fence}" if fence == "``" else f"`{text}`"


def _md_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    return [
        "| " + " | ".join(header) + " |",
        "|" + "|".join("---" for _ in header) + "|",
        *("| " + " | ".join(r) + " |" for r in rows),
    ]
