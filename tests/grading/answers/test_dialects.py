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


@pytest.mark.parametrize("name", ROWS)
def test_each_form_reads_as_its_row_says(name):
    row = ROWS[name]
    assert not _plain(row.example).startswith("invalid"), _plain(row.example)
    assert _plain(row.example) == _plain(row.reads_as)


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
