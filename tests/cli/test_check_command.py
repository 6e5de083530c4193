"""`symattn check ID ANSWER`: the refusals of a missing or doubled answer, the expected answer in
--json, and the page's variant note for a seed whose numbers are skipped."""

from __future__ import annotations

import io
import json
import sys

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


def test_stdin_is_read_up_to_four_answers_long_and_more_is_refused(cli, monkeypatch):
    """--stdin reads at most 4 x 400 characters (an answer and white space around it); an input
    longer than that is refused, never judged cut short (a cut "1.96" would be "1.9", a slip)."""
    answer = "1.96\n"
    monkeypatch.setattr(sys, "stdin", io.StringIO(" " * (1600 - len(answer)) + answer))
    assert cli("check", "ex6.2", "--stdin")[0] == 0
    monkeypatch.setattr(sys, "stdin", io.StringIO(" " * (1601 - len(answer)) + answer))
    assert cli("check", "ex6.2", "--stdin") == (
        2,
        "",
        "symattn: error: standard input holds more than 1,600 characters: an answer has at most 400\n",
    )
