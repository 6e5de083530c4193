"""The page of the forms learners' answers come in (issue 48): one row per form the checker
reads, from the registry :data:`symattn.grading.answers.dialects.DIALECTS`, with the tool it comes
from, an example as the tool writes it and what the checker reads it as."""

from __future__ import annotations

from ..grading.answers.dialects import DIALECTS


def _cell(text: str) -> str:
    """A table cell holding ``text`` as code (a backquote in it doubled around, a bar escaped)."""
    text = text.replace("|", "\\|").replace("\n", " ")
    fence = "``" if "`" in text else "`"
    return f"{fence} {text} {fence}" if fence == "``" else f"`{text}`"


def input_forms_page() -> str:
    lines = [
        "# The forms answers come in",
        "",
        "Learners rarely type LaTeX by hand. They copy it out of a math input tool, type Unicode "
        "on a keyboard or a phone, paste what a calculator or a program printed, or wrap it the "
        "way a language model does. The checker reads each form below into the LaTeX it judges, "
        'in the order of the table, and says in its verdict\'s note what it read ("read as"). '
        "Characters are read with Python's `unicodedata`: a decimal digit of any script is its "
        "value, full-width forms are their plain characters, and superscripts and subscripts are "
        "exponents and indices. A form that is truly ambiguous is asked about, never guessed: "
        "`1,959` may be 1.959 or 1959; `1,95856` and `8192,0` can only be decimal commas, and "
        "`12,345,678` only thousands separators.",
        "",
        "| form | comes from | typed | read as |",
        "|---|---|---|---|",
    ]
    for d in DIALECTS:
        lines.append(f"| {d.name} | {d.tool} | {_cell(d.example)} | {_cell(d.reads_as)} |")
    lines += [
        "",
        "The rows are `symattn/grading/answers/dialects.py`'s registry; the tests run each row's "
        "example through the checker, and `tests/data/input_bank.csv` holds answers made by the "
        "tools themselves (MathLive's Compute Engine, NumPy's reprs) and by each form's rules, "
        "right and wrong, with verdicts decided by value.",
        "",
    ]
    return "\n".join(lines)
