"""`symattn check ID ANSWER`: the refusals of a missing or doubled answer, the expected answer in
--json, and the page's variant note for a seed whose numbers are skipped."""

from __future__ import annotations

import io
import json
import sys

import pytest

from symattn.cli import browser


def test_an_answer_both_given_and_on_stdin_or_missing_is_refused(cli):
    assert cli("check", "ex6.2", "1", "--stdin") == (
        2,
        "",
        "symattn: error: give the answer as an argument or with --stdin, not both\n",
    )
    assert cli("check", "ex6.2") == (
        2,
        "",
        "symattn: error: give an ANSWER: symattn check ID ANSWER (or --stdin), "
        "or a derivation with --steps FILE\n",
    )


def test_json_gives_the_expected_answer(cli):
    code, out, _ = cli("check", "ex6.2", "--json", "--", "1.96")
    assert code == 0 and json.loads(out)["expected"] == r"\frac{e^{2} + 11}{2 + e^{2}}"


def test_a_variant_whose_seed_is_skipped_says_so(cli):
    """Seed 18 of ex6.2 draws a slip too near the answer: the variant uses a later seed, and says so."""
    doc = json.loads(browser.variant("ex6.2", 18))
    assert doc["note"].startswith("seed 18 would give a variant whose slip ")
    assert f"Note: {doc['note']}" in doc["text"]  # the page shows what the command line prints


def test_stdin_is_read_as_an_editor_saves_it_and_never_cut(cli, monkeypatch):
    """--stdin drops the white space around the answer and a UTF-8 byte-order mark; it reads up to
    2^20 characters, and refuses more rather than judge what is left of a cut answer (a cut
    "1.96" could be "1.9", a slip)."""
    for text in ("1.96\r\n", "\ufeff1.96\n", "\n\n  1.96" + "\n" * 1700):
        monkeypatch.setattr(sys, "stdin", io.StringIO(text))
        assert cli("check", "ex6.2", "--stdin")[0] == 0, repr(text[:12])
    answer = "1.96\n"
    monkeypatch.setattr(sys, "stdin", io.StringIO(" " * (2**20 - len(answer)) + answer))
    assert cli("check", "ex6.2", "--stdin")[0] == 0
    monkeypatch.setattr(sys, "stdin", io.StringIO(" " * (2**20 + 1 - len(answer)) + answer))
    assert cli("check", "ex6.2", "--stdin") == (
        2,
        "",
        "symattn: error: standard input holds more than 1,048,576 characters: an answer is at most 400\n",
    )


def test_stdin_that_is_not_utf8_is_refused(cli, monkeypatch):
    """Bytes that are not UTF-8 (a UTF-16 file from PowerShell, Latin-1), whether the decoder
    refuses them (a UTF-8 locale) or keeps them as surrogates (the C locale)."""
    utf16 = "1.96\n".encode("utf-16")
    for stream in (
        io.TextIOWrapper(io.BytesIO(utf16), encoding="utf-8", errors="strict"),
        io.TextIOWrapper(io.BytesIO(utf16), encoding="utf-8", errors="surrogateescape"),
    ):
        monkeypatch.setattr(sys, "stdin", stream)
        refused = (2, "", "symattn: error: standard input is not UTF-8 text\n")
        assert cli("check", "ex6.2", "--stdin") == refused


class _Endless(io.TextIOBase):
    """Standard input that never ends (``yes " "``): each read's size is recorded, and a read
    without a bound is a failure, not a hang."""

    def __init__(self) -> None:
        self.asked: list[int | None] = []

    def read(self, size: int | None = -1) -> str:
        self.asked.append(size)
        assert size is not None and size >= 0, "standard input read without a bound"
        return " " * size


def test_stdin_is_read_with_a_bound_even_when_it_never_ends(cli, monkeypatch):
    endless = _Endless()
    monkeypatch.setattr(sys, "stdin", endless)
    code, _, err = cli("check", "ex6.2", "--stdin")
    assert (code, endless.asked) == (2, [2**20 + 1]), err
    assert err.startswith("symattn: error: standard input holds more than 1,048,576 characters")


def test_stdin_with_any_byte_a_lenient_decoder_kept_is_refused(cli, monkeypatch):
    """The C locale's decoder keeps a byte that is not UTF-8 as a surrogate, U+DC80 to U+DCFF:
    the first and the last of them, each after a right answer, are refused."""
    refused = (2, "", "symattn: error: standard input is not UTF-8 text\n")
    for byte in (b"\x80", b"\xff"):
        raw = io.BytesIO(b"1.96" + byte + b"\n")
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(raw, encoding="utf-8", errors="surrogateescape"))
        assert cli("check", "ex6.2", "--stdin") == refused, byte


def test_stdin_gives_the_verdict_the_argument_gives(cli, monkeypatch):
    """The answer on standard input is the answer as an argument, whatever letter it begins with
    (only white space and a byte-order mark are dropped)."""
    for answer in ("X", "XX1.96", "1.96", r"\frac{e^2+11}{e^2+2}", "e^2"):
        monkeypatch.setattr(sys, "stdin", io.StringIO(answer + "\n"))
        given = cli("check", "ex6.2", "--json", "--", answer)
        assert cli("check", "ex6.2", "--json", "--stdin") == given, answer


def test_h_is_check_s_help_not_an_answer(cli):
    code, out, _ = cli("check", "ex6.2", "-h")
    assert code == 0 and out.startswith("usage: symattn check")


@pytest.mark.parametrize("word", ["--a1", "--z"])
def test_a_double_dash_word_that_starts_with_a_letter_is_an_option(cli, word):
    """An unknown --word is a mistyped option, refused by name, not an answer (--1 is one)."""
    assert cli("check", "ex6.2", word) == (2, "", f"symattn: error: unrecognized arguments: {word}\n")
