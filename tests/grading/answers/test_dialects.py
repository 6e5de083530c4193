"""The forms learners' answers come in (symattn/grading/answers/dialects.py, issue 48). Each row
of the registry gives an example as its tool writes it and, written by hand, what it reads as:
the checker must read the two alike, and without the row it must not."""

from __future__ import annotations

import dataclasses

import pytest

from symattn.grading.answers import dialects
from symattn.grading.answers.notation import InvalidAnswer, precheck

ROWS = {d.name: d for d in dialects.DIALECTS}


def _plain(text: str) -> str:
    try:
        return " ".join(precheck(text).split())
    except InvalidAnswer as exc:
        return f"invalid: {exc}"


def _read(text: str) -> str:
    """The numeric reader's plain form, or, for a formula with symbolic bounds that only ex6.6's
    formula judge reads, that judge's verdict and reading."""
    plain = _plain(text)
    if plain.startswith("invalid: sums are read only with whole-number bounds"):
        from symattn.grading.answers.formula import judge_formula

        verdict = judge_formula(text)
        return f"{verdict.verdict}: {verdict.given}" if verdict.verdict != "invalid" else plain
    return plain


@pytest.mark.parametrize("name", ROWS)
def test_each_form_reads_as_its_row_says(name):
    row = ROWS[name]
    assert not _read(row.example).startswith("invalid"), _read(row.example)
    assert _read(row.example) == _read(row.reads_as)


@pytest.mark.parametrize("name", ROWS)
def test_without_its_row_a_form_is_read_otherwise(name, monkeypatch):
    row = ROWS[name]
    kept = tuple(d for d in dialects.DIALECTS if d.name != name)
    monkeypatch.setattr(dialects, "DIALECTS", kept)
    assert _plain(row.example) != _plain(row.reads_as) or _plain(row.example).startswith("invalid")


def test_a_row_that_changes_an_answer_says_so():
    notes: list[str] = []
    precheck(r"\num{8192}", notes)
    assert "siunitx's number read as its value" in notes


@pytest.mark.parametrize(
    ("typed", "plain"),
    [
        ("٨١٩٢", "8192"),  # Arabic-Indic
        ("۸۱۹۲", "8192"),  # Persian
        ("８１９２", "8192"),  # full-width
        ("८१९२", "8192"),  # Devanagari: unicodedata knows every script's decimal digits
        ("x²", "x^{2}"),  # not NFKC's x2
        ("q₁", "q_{1}"),
        ("Pᵀ", "P^{T}"),
        ("e⁻¹", "e^{-1}"),
        ("𝑒²", "e^{2}"),  # Word's math italic (a font form, NFKC), not refused
    ],
)
def test_characters_are_read_by_unicodedata_and_scripts_kept_as_exponents(typed, plain):
    assert dialects.normalise(typed, []) == plain


@pytest.mark.parametrize("answer", ["8192 thousand", "N > 8192 apples", "1.96 not"])
def test_words_that_are_no_unit_are_not_dropped(answer):
    """A word that may change the value ("thousand") or take it back ("not") is refused."""
    with pytest.raises(InvalidAnswer, match="only a unit"):
        precheck(answer)


def test_the_registry_names_each_form_once_with_an_example_and_a_reading():
    assert len(ROWS) == len(dialects.DIALECTS)
    for d in dialects.DIALECTS:
        assert all(dataclasses.asdict(d)[k] for k in ("name", "tool", "example", "reads_as"))


MASK = r"\begin{bmatrix}0 & -\infty & -\infty\\ 0 & 0 & -\infty \\ 0&0&0\end{bmatrix}"


def _judged(exercise: str, answer: str) -> str:
    from symattn.grading.answers.formula import judge_formula
    from symattn.grading.answers.judge import judge
    from symattn.grading.exercises import get

    if exercise == "ex6.6":
        return judge_formula(answer).verdict
    ex = get(exercise)
    return judge(answer, ex.expected, ex.mistakes).verdict


@pytest.mark.parametrize(
    ("exercise", "answer"),
    [
        # a hostile review's false accepts (issue 48): each now refused or judged wrong
        ("ex6.4", MASK + ", [0,1,0] = [1, 0, 0]"),  # the learner's own weights are [0, 1, 0]
        ("ex6.4", MASK + ", w_3 = [1, 0, 0]"),  # another row named
        ("ex6.4", MASK + r" \cdot 0 = [1, 0, 0]"),
        ("ex6.5", r"\neg(8192 \geq N \geq 4096)"),  # not (a and b) is no one relation's opposite
        ("ex6.5", r"\neg(N \leq 8192 \leq 2N)"),
        ("ex6.5", r"N > \SI{8192}{\kilo}"),  # a unit that changes the value
        ("ex6.5", r"N \in \mathbb{Z} \setminus \{1, \ldots, 8192\}"),  # the integers hold 0 and below
        ("ex6.2", r"\SI{1.96}{\percent}"),  # 0.0196
        ("ex6.2", "log(90.9)"),  # a program's log is the natural one: about 4.51
        ("ex6.2", r"{1 + 1.92 \over 2}"),  # plain TeX: 2.92/2
        ("ex6.2", r"2 \text{ and } -0.04"),  # two parts, not their sum
        ("ex6.2", "=-0.2^2+EXP(0)+1"),  # a spreadsheet's minus binds first: 2.04
        ("ex6.2", "1、96"),  # an enumeration comma is a list's
        ("ex6.2", r"\lnot 1.96"),
        ("ex6.2", "The answer isn't 1.96"),
    ],
)
def test_what_a_form_would_misread_is_never_accepted(exercise, answer):
    assert _judged(exercise, answer) != "correct"


@pytest.mark.parametrize(
    ("exercise", "answer"),
    [
        ("ex6.4", MASK + r", \alpha_1 = (1, 0, 0)"),
        ("ex6.4", MASK + ", A_{1,:} = (1, 0, 0)"),
        ("ex6.5", r"\lnot (N \lt 8193)"),
        ("ex6.5", "N > 8'192"),  # Swiss thousands
        ("ex6.5", r"N > \SI{8192}{tokens}"),
        ("ex6.2", r"\SI{196}{\percent}"),
        ("ex6.2", r"{e^2+11 \over e^2+2}"),
        ("ex6.2", "log(7.0893)"),
        ("ex6.2", "1{,}96"),  # LaTeX's decimal comma
        ("ex6.2", r"\num{1.958 56}"),  # siunitx's digit groups
        ("ex6.2", "(𝑒^2+11)/(𝑒^2+2)"),  # Word's plain-text copy, math italic
        ("ex6.6", r"\boxed{\frac{1}{N}\sum_{j=1}^{N} v_j}"),
        ("ex6.6", r"$\frac{1}{N}\sum_{j=1}^{N} v_j$."),
    ],
)
def test_right_answers_in_those_forms_are_accepted(exercise, answer):
    assert _judged(exercise, answer) == "correct"


def test_a_long_formula_answer_is_refused_before_any_pattern_reads_it():
    """A hostile review's: ex6.6 ran the forms' patterns before its length check (cubic time)."""
    from symattn.grading.answers.formula import judge_formula

    verdict = judge_formula("$x$a" + " " * 3000 + "!")
    assert verdict.verdict == "invalid" and "too long" in verdict.feedback


def test_a_worked_text_with_two_different_boxes_is_asked_about():
    """Math-Verify takes the last box; a teacher does not guess between two answers."""
    with pytest.raises(InvalidAnswer, match="several values"):
        precheck(r"At first $\boxed{2.1}$, but then $\boxed{1.96}$.")
    assert " ".join(precheck(r"So $\boxed{1.96}$. **Final Answer** $\boxed{1.96}$").split()) == "1.96"


@pytest.mark.parametrize(
    "answer",
    ["The answer is not 1.96", "Final Answer: The final answer is 1.96 thousand. I hope it is correct."],
)
def test_words_after_a_stated_answer_are_still_read(answer):
    """The last line's value is read like any answer: a word that changes it is refused."""
    with pytest.raises(InvalidAnswer):
        precheck(answer)
