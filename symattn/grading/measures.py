"""What makes an answer or a derivation too costly to check, and the time safety nets above it:
one registry, from which the guide's tables (``<!-- measures:... -->`` in its pages) and
bench/limits.py are derived (issue 49).

Every measure is read off the input (its text, or the tree it is read into) before any costly
work, so whether an input can be checked is the same on every machine. The safety nets on time
are set far above what the measures admit; when one fires, the verdict is ``unchecked``.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..limits import MAX_EXPANDED_TERMS, MAX_POWER_DIGITS
from .answers import judge, notation, threshold
from .proofs import proof_judge, step_reader


@dataclass(frozen=True)
class Measure:
    what: str  #: what is counted, in a learner's words (Markdown)
    limit: int
    unit: str = ""  #: after the number: "deep", "characters"


@dataclass(frozen=True)
class Net:
    where: str  #: what one net bounds
    seconds: str  #: its limits, in words


def of_answers() -> tuple[Measure, ...]:
    """An answer's (``symattn check ID ANSWER``, the page's answer box, a class file's answer)."""
    return (
        Measure("characters", notation.MAX_LENGTH),
        Measure("brackets and braces nested", notation.MAX_DEPTH, "deep"),
        Measure("digits in one number", notation.MAX_DIGITS),
        Measure(
            r"terms of a `\sum` or `\prod` (whole-number bounds; nested sums multiply)", notation.MAX_TERMS
        ),
        Measure(
            "digits of a number it computes: a power or a written-out product of numbers, or one "
            "in e-notation (estimated, never computed: `10^{10^{10}}` has ten billion)",
            MAX_POWER_DIGITS,
        ),
        Measure(
            "terms it multiplies out to before like terms are collected (counted, never expanded: "
            r"`(1+\sqrt{2})^{2000}` has 2,001)",
            MAX_EXPANDED_TERMS,
        ),
        Measure("terms ex6.6's formula multiplies out to", step_reader.MAX_STEP_TERMS),
        Measure("degree of an inequality", threshold.MAX_DEGREE),
        Measure("digits of an inequality's bound", threshold.MAX_BOUND_DIGITS),
    )


def of_derivations() -> tuple[Measure, ...]:
    """A derivation's (``check --steps``, the page's proof box, a class file's steps file)."""
    return (
        Measure("lines (steps)", step_reader.MAX_LINES),
        Measure("characters a line", step_reader.MAX_LINE),
        Measure(
            "terms one step's two sides multiply out to ((a_1 + ... + a_t)^n has C(t + n - 1, n), "
            "Var(X) those of X squared, a sum with whole-number bounds its body's times its count)",
            step_reader.MAX_STEP_TERMS,
        ),
        Measure("terms the steps multiply out to in all", step_reader.MAX_DERIVATION_TERMS),
        Measure(
            f"operators ({proof_judge.OPERATORS}) nested in one side, Attention counted as two",
            step_reader.MAX_NESTED_OPERATORS,
            "deep",
        ),
        Measure(
            "softmax applied in one side, nested or in a product, Attention counted as two",
            step_reader.MAX_SOFTMAX,
        ),
        Measure(
            f"costly steps: operators nested {step_reader.MAX_NESTED_OPERATORS} deep, or softmax applied "
            f"{step_reader.COSTLY_SOFTMAX} or more times in one side",
            step_reader.MAX_COSTLY_STEPS,
        ),
    )


#: The page's limits on time (``symattn.timeoutSeconds`` and ``symattn.derivationTimeoutSeconds``
#: in symattn/present/web/checker.js, whose defaults a test compares with these). Pyodide runs
#: the checker two to three times slower than the command line, and a phone several times more.
BROWSER_SECONDS = 30
BROWSER_DERIVATION_SECONDS = 300


def nets() -> tuple[Net, ...]:
    """The safety nets on time, in the order a check meets them."""
    from .batch import grade  # its process pool is not imported for the tables above

    return (
        Net("an answer", f"{judge.CPU_SECONDS} s of CPU, {judge.TIMEOUT:g} s in all"),
        Net(
            "a derivation",
            f"{proof_judge.CPU_SECONDS} s of CPU a step, {proof_judge.TOTAL_SECONDS:g} s of CPU for all "
            f"its steps, {proof_judge.WALL_SECONDS:g} s in all",
        ),
        Net(
            "a check in the browser",
            f"{BROWSER_SECONDS} s (a derivation: that for each line, at most {BROWSER_DERIVATION_SECONDS} s)",
        ),
        Net("a row of `grade` (its pool's backstop)", f"{grade.ROW_TIMEOUT:g} s in all"),
    )


def table(kind: str) -> str:
    """The Markdown table the guide shows for ``kind``: "answer", "derivation" or "nets"."""
    if kind == "nets":
        rows = ["| what | stopped after |", "| --- | --- |"]
        return "\n".join(rows + [f"| {n.where} | {n.seconds} |" for n in nets()])
    if kind not in ("answer", "derivation"):
        raise ValueError(f"no table of measures named {kind!r} (answer, derivation, nets)")
    measures = of_answers() if kind == "answer" else of_derivations()
    rows = ["| measure | at most |", "| --- | --- |"]
    return "\n".join(rows + [f"| {m.what} | {m.limit:,}{' ' + m.unit if m.unit else ''} |" for m in measures])
