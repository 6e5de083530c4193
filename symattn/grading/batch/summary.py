"""What a teacher learns from a graded class: per exercise, per learner, and the gradebook.

:func:`summarise` turns graded rows (``symattn grade``'s output) into a :class:`ClassSummary`:

- per exercise (:class:`ExerciseSummary`): attempts (rows), the learners who tried it, how many
  of them are correct at their best attempt, the counts of correct, incorrect and invalid rows;
  the slips ranked by how many learners made them (a named slip of an answer, or for a
  derivation the first faulty line's named slip or rule); the invalid rows broken down by reason;
  and the most frequent wrong answers the judge did not recognise, grouped by the value they
  were read as (``1.97`` and ``1.970`` are one group);
- per learner (:class:`LearnerSummary`): attempts and best verdict on each exercise tried.

A learner's *best* verdict on an exercise is the best of their rows: correct, then incorrect,
then invalid. :func:`gradebook` is the wide table course gradebooks import: one row per learner,
one column per exercise (1 when the best attempt is correct, else 0) and a total.
Nothing here reads or writes a file; :mod:`symattn.present.grade_report` prints the summary.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field

from .files import VERDICTS

__all__ = [
    "ClassSummary",
    "ExerciseSummary",
    "Group",
    "LearnerSummary",
    "best",
    "gradebook",
    "invalid_reason",
    "percent",
    "summarise",
]

#: Unrecognised wrong answers listed per exercise.
TOP_WRONG = 5
#: Verdicts from best to worst.
RANK = {"correct": 0, "incorrect": 1, "invalid": 2}


@dataclass(frozen=True)
class Group:
    """Rows that share a slip, a wrong value or a reason: how many learners, how many rows, and
    the most frequent answer among them (``example``) with its LaTeX reading where there is one."""

    name: str
    learners: int
    rows: int
    example: str = ""
    latex: str = ""


@dataclass
class ExerciseSummary:
    exercise: str
    counts: dict[str, int]  # rows by verdict
    learners: int  # learners with at least one row
    learners_correct: int  # learners whose best attempt is correct
    slips: list[Group] = field(default_factory=list)
    invalid: list[Group] = field(default_factory=list)
    wrong: list[Group] = field(default_factory=list)

    @property
    def rows(self) -> int:
        return sum(self.counts.values())

    def share(self, verdict: str) -> str:
        """The share of rows with ``verdict``, a percentage to one decimal, correctly rounded."""
        return percent(self.counts[verdict], self.rows)

    @property
    def learners_share(self) -> str:
        """The share of the learners who tried it who are correct at their best attempt."""
        return percent(self.learners_correct, self.learners)


@dataclass
class LearnerSummary:
    learner: str
    attempts: dict[str, int]  # rows by exercise
    best: dict[str, str]  # best verdict by exercise
    named: bool = True  # False for a row with no learner, summarised as "line N"

    @property
    def correct(self) -> int:
        return sum(v == "correct" for v in self.best.values())


@dataclass
class ClassSummary:
    exercises: list[ExerciseSummary]
    learners: list[LearnerSummary]

    def __iter__(self):  # a summary reads as its exercises
        return iter(self.exercises)

    def __len__(self) -> int:
        return len(self.exercises)

    def __getitem__(self, i: int) -> ExerciseSummary:
        return self.exercises[i]


def percent(part: int, whole: int) -> str:
    """100 part / whole to one decimal, rounded half to even in exact integer arithmetic."""
    if whole == 0:
        return "-"
    tenths, rest = divmod(part * 1000, whole)
    if 2 * rest > whole or (2 * rest == whole and tenths % 2):
        tenths += 1
    return f"{tenths // 10}.{tenths % 10}%"


def best(verdicts: Sequence[str]) -> str:
    """The best of ``verdicts``: correct, then incorrect, then invalid."""
    return min(verdicts, key=lambda v: RANK.get(v, len(RANK)))


#: The group of rows whose exercise field is empty, and of rows naming no known exercise.
UNREADABLE, UNKNOWN = "(no exercise)", "(unknown exercise)"


def _who(r: dict[str, str]) -> tuple[bool, str]:
    """A learner: (True, their id), or for a row without one (False, "line N"), never the same."""
    learner = r.get("learner", "")
    return (True, learner) if learner else (False, f"line {r.get('line', '?')}")


def summarise(records: Sequence[dict[str, str]], known: Collection[str] | None = None) -> ClassSummary:
    """The summary of graded rows: exercises and learners in order of first appearance.

    With ``known`` (the exercise ids), rows naming any other exercise are summarised together as
    one "(unknown exercise)", so that a class file full of junk names stays one line.
    """

    def exercise(r: dict[str, str]) -> str:
        name = r.get("exercise", "").strip().lower()
        if not name:
            return UNREADABLE
        return name if known is None or name in known else UNKNOWN

    by_exercise: dict[str, list[dict[str, str]]] = defaultdict(list)
    verdicts: dict[tuple[bool, str], dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    for r in records:
        name = exercise(r)
        by_exercise[name].append(r)
        verdicts[_who(r)][name].append(r["verdict"])
    learners = [
        LearnerSummary(
            who, {e: len(v) for e, v in mine.items()}, {e: best(v) for e, v in mine.items()}, named
        )
        for (named, who), mine in verdicts.items()
    ]
    exercises = [_exercise_summary(name, rows, learners) for name, rows in by_exercise.items()]
    return ClassSummary(exercises, learners)


def _exercise_summary(
    name: str, rows: list[dict[str, str]], learners: list[LearnerSummary]
) -> ExerciseSummary:
    counts = Counter({v: 0 for v in VERDICTS})
    counts.update(r["verdict"] for r in rows)
    tried = [learner.best[name] for learner in learners if name in learner.best]
    s = ExerciseSummary(name, dict(counts), len(tried), tried.count("correct"))
    slips: dict[str, list[dict[str, str]]] = defaultdict(list)
    invalid: dict[str, list[dict[str, str]]] = defaultdict(list)
    wrong: dict[str, list[dict[str, str]]] = defaultdict(list)
    for r in rows:
        if r["verdict"] == "invalid":
            invalid[invalid_reason(r.get("feedback", ""))].append(r)
        elif r["verdict"] != "incorrect":
            continue
        elif r.get("mistake"):
            slips[r["mistake"]].append(r)
        else:
            value = r.get("read_as") or r.get("answer", "").strip()
            seed = r.get("seed", "").strip()
            wrong[f"{value} (seed {seed})" if seed else value].append(r)  # variants differ
    s.slips = _ranked(slips)
    s.invalid = _ranked(invalid)
    wrong.pop("", None)  # nothing to show for it
    s.wrong = _ranked(wrong)[:TOP_WRONG]
    return s


def _ranked(groups: dict[str, list[dict[str, str]]]) -> list[Group]:
    out = []
    for name, rows in groups.items():
        example, _ = Counter(r.get("answer") or r.get("steps_file", "") for r in rows).most_common(1)[0]
        latex = next((r.get("read_as_latex", "") for r in rows if r.get("read_as_latex")), "")
        out.append(Group(name, len({_who(r) for r in rows}), len(rows), example, latex))
    return sorted(out, key=lambda g: (-g.learners, -g.rows, g.name))


_LINE = re.compile(r"^line \d+(?::| cannot be (?:read|checked):| is \w+:)\s*")


def invalid_reason(feedback: str) -> str:
    """The reason of an invalid row, without what is particular to the row: its line number,
    the text it quotes, positions and numbers; the part before the first colon or semicolon
    (before the second where the first part is one word, as in ``seed: not a whole number``).

    >>> invalid_reason("line 7: seed: not a whole number: 'seven'")
    'seed: not a whole number'
    >>> invalid_reason("'banana' is not a number or a symbol of this exercise")
    "'…' is not a number or a symbol of this exercise"
    """
    text = _LINE.sub("", feedback.strip())
    text = _LINE.sub("", text)  # a derivation's line inside a row's line
    parts = re.split(r": |; ", text)
    text = parts[0] if len(parts[0].split()) > 1 or len(parts) == 1 else f"{parts[0]}: {parts[1]}"
    text = re.sub(r"'[^']*'", "'…'", text)
    text = re.sub(r" (?:at|near) position \d+", "", text)
    text = re.sub(r"\d[\d,.]*", "N", text)
    return text.strip() or "no reason given"


def gradebook(
    summary: ClassSummary, exercises: Sequence[str] | None = None
) -> tuple[list[str], list[list[str]]]:
    """The wide gradebook: a header (learner, one column per exercise, total) and one row per
    learner; a cell is 1 when the learner's best attempt at the exercise is correct, else 0.

    ``exercises`` fixes the columns and their order (default: every exercise of the summary
    except unreadable ones, in order of first appearance). Rows with no learner are left out.
    """
    columns = (
        list(exercises)
        if exercises is not None
        else [s.exercise for s in summary.exercises if s.exercise not in (UNREADABLE, UNKNOWN)]
    )
    rows = []
    for learner in summary.learners:
        if not learner.named:
            continue
        cells = [int(learner.best.get(e) == "correct") for e in columns]
        rows.append([learner.learner, *map(str, cells), str(sum(cells))])
    return ["learner", *columns, "total"], rows
