"""symattn exercises and check on the command line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest


def test_list(cli):
    """`symattn exercises` lists the seven ids, kind and title."""
    code, out, _ = cli("exercises")
    assert code == 0
    assert [line.split("\t")[0] for line in out.splitlines()] == [f"ex6.{k}" for k in range(1, 8)]


def test_show_with_solution(cli):
    """`show ex6.2 --solution` has the prompt, the exact answer and the verified derivation."""
    code, out, _ = cli("exercises", "show", "ex6.2", "--solution")
    assert code == 0
    assert "[2, 0, 0]" in out and r"\frac{e^{2} + 11}{2 + e^{2}}" in out
    assert "certified digits" in out


def test_the_actions_accept_every_order_the_one_parser_of_before_did(cli):
    """The actions are sub-parsers now (each with its own help); a command line that worked
    before means the same: options before the action, no action, and an ID given to list."""
    listed = cli("exercises", "list")
    assert listed[0] == 0 and cli("exercises") == listed and cli("exercises", "list", "ex6.2") == listed
    shown = cli("exercises", "show", "ex6.5", "--seed", "4")
    assert shown[0] == 0 and cli("exercises", "--seed", "4", "show", "ex6.5") == shown
    assert cli("exercises", "variant", "--seed", "4", "ex6.5") == shown
    # --plugin before the action and after it add up (ln.1 is the first file's exercise)
    folder = Path(__file__).parents[1] / "example_plugin"
    plugins = str(folder / "layer_norm_exercise.py"), str(folder / "layer_norm.py")
    code, out, err = cli("exercises", "--plugin", plugins[0], "show", "ln.1", "--plugin", plugins[1])
    assert (code, err) == (0, "") and out.startswith("ln.1 (apply)")


def test_an_actions_errors_name_the_command(cli):
    """An action's bad input is one line naming `symattn exercises`, as before (the site's
    checker strips exactly that prefix), and an action without its ID says how to give it."""
    code, out, err = cli("exercises", "variant", "ex6.2", "--seed", "x")
    assert (code, out) == (2, "")
    assert err == "symattn exercises: error: argument --seed: not a whole number: 'x'\n"
    code, _, err = cli("exercises", "show")
    assert code == 2 and err == "symattn: error: name an exercise: symattn exercises show ID\n"
    code, _, err = cli("exercises", "variant", "ex6.2")
    assert code == 2 and err == "symattn: error: a variant needs --seed S\n"


def test_show_unsolvable(cli):
    """An exercise with no checkable answer says so and shows the model solution."""
    code, out, _ = cli("exercises", "show", "ex6.1", "--solution")
    assert code == 0 and "no machine-checkable answer" in out and "Model solution" in out


@pytest.mark.parametrize(
    ("answer", "code", "verdict"),
    [("1.959", 0, "correct"), ("4", 1, "incorrect"), ("8192 )", 2, "invalid"), ("", 2, "invalid")],
)
def test_check_json_and_exit_codes(cli, answer, code, verdict):
    """check --json prints id, verdict, expected, given (also as LaTeX), feedback, mistake,
    notes; exit 0/1/2."""
    got, out, _ = cli("check", "ex6.2", answer, "--json")
    doc = json.loads(out)
    assert got == code
    keys = {"id", "verdict", "expected", "given", "given_latex", "typed", "feedback", "mistake", "notes"}
    assert set(doc) == keys
    assert doc["id"] == "ex6.2" and doc["verdict"] == verdict


@pytest.mark.parametrize(
    ("answer", "latex"),
    [
        (r"\frac{e^2+11}{e^2+2}", r"\frac{e^{2} + 11}{e^{2} + 2}"),
        ("1.959", r"\frac{1959}{1000}"),
        ("8192 )", ""),
    ],
)
def test_check_json_gives_the_reading_as_latex(cli, answer, latex):
    """`given_latex` is what was read, in LaTeX a page can typeset (empty when nothing was read)."""
    _, out, _ = cli("check", "ex6.2", answer, "--json")
    assert json.loads(out)["given_latex"] == latex


def test_check_variant_with_seed(cli):
    """`check ID ANSWER --seed S` judges the variant that `exercises variant ID --seed S` shows."""
    code, out, _ = cli("exercises", "variant", "ex6.5", "--seed", "4")
    assert code == 0
    width = int(out.split("d_model = ")[1].split(",")[0])
    assert cli("check", "ex6.5", f"N > {2 * width}", "--seed", "4")[0] == 0
    assert cli("check", "ex6.5", "N > 8192", "--seed", "4")[0] == (0 if width == 4096 else 1)


def test_check_errors(cli):
    """An unknown exercise, or one without a checkable answer, is exit 2 with one line."""
    code, _, err = cli("check", "ex6.9", "1")
    assert code == 2 and err.count("\n") == 1
    code, _, err = cli("check", "ex6.1", "anything")
    assert code == 2 and "no machine-checkable answer" in err


def test_an_answer_starting_with_minus_needs_no_double_dash(cli):
    """`symattn check ex6.2 -\\frac{1}{2}` is judged (incorrect), not an unknown option."""
    code, out, err = cli("check", "ex6.2", r"-\frac{1}{2}")
    assert code == 1 and out.startswith("Incorrect.") and err == ""
    assert cli("check", "ex6.2", "--json", r"-\frac{1}{2}")[0] == 1
    assert cli("check", "ex6.2", r"-\frac{1}{2}", "--seed", "3")[0] in (0, 1)
    assert cli("check", "ex6.2", "--jsn", "1.96")[0] == 2  # a mistyped option is still an error


def test_check_reads_the_answer_from_stdin(cli, monkeypatch):
    """--stdin reads answers awkward in a shell; giving both, or neither, is exit 2."""
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO("N > 8192 \\quad\n"))
    assert cli("check", "ex6.5", "--stdin")[0] == 0
    monkeypatch.setattr("sys.stdin", io.StringIO("8192"))
    code, _, err = cli("check", "ex6.5", "8192", "--stdin")
    assert code == 2 and "not both" in err
    code, _, err = cli("check", "ex6.5")
    assert code == 2 and "give an ANSWER" in err


def test_variant_prints_the_full_command_with_its_seed(cli):
    """The printed command judges the same variant: it carries --seed."""
    code, out, _ = cli("exercises", "variant", "ex6.2", "--seed", "7")
    assert code == 0 and "symattn check ex6.2 ANSWER --seed 7" in out and "seed 7" in out


def test_show_with_a_seed_shows_that_variant(cli):
    """`exercises show ID --seed S` is the variant, the same text as `exercises variant`."""
    shown = cli("exercises", "show", "ex6.5", "--seed", "4")[1]
    assert shown == cli("exercises", "variant", "ex6.5", "--seed", "4")[1]
    assert shown != cli("exercises", "show", "ex6.5")[1]


def test_a_skipped_seed_is_said(cli):
    """A seed moved on to the next one says so in the exercise text."""
    out = cli("exercises", "variant", "ex6.2", "--seed", "33")[1]
    assert "seed 33 would give a variant" in out and "seed 34" in out


def test_read_as_notes_are_printed(cli):
    """The text verdict says how a non-literal form was read."""
    code, out, _ = cli("check", "ex6.5", r"8\,192")
    assert code == 0 and r"8\,192 read as 8192" in out
    doc = json.loads(cli("check", "ex6.2", "1.9586e0", "--json")[1])
    assert doc["notes"] == ["1.9586e0 read as 1.9586 × 10^0"]


@pytest.mark.parametrize(
    ("answer", "text", "typed", "given"),
    [
        ("1.96", "Correct. (ex6.2: read as 1.96)\n", "1.96", "49/25"),
        ("2.970", "Incorrect. Read as 2.970. not the expected answer\n", "2.970", "297/100"),
        ("-0.5", "Incorrect. Read as -0.5. not the expected answer\n", "-0.5", "-1/2"),
    ],
)
def test_a_decimal_is_echoed_as_typed(cli, answer, text, typed, given):
    """A learner who typed 1.96 is told 1.96, not the exact 49/25 the checker compared (issue 28):
    alone, since 1.96 is exactly the number its digits say. JSON keeps the exact reading too."""
    code, out, err = cli("check", "ex6.2", answer)
    assert (code, out, err) == (0 if typed == "1.96" else 1, text, "")
    doc = json.loads(cli("check", "ex6.2", answer, "--json")[1])
    assert (doc["typed"], doc["given"], doc["notes"]) == (typed, given, [])


@pytest.mark.parametrize(
    ("answer", "shown"),
    [
        ("1.9586e0", "read as 1.9586e0 (1.9586e0 read as 1.9586 × 10^0)"),
        ("0.019586E2", "read as 0.019586E2 (0.019586E2 read as 0.019586 × 10^2)"),
        (r"195.86\%", "read as 195.86% (195.86\\% read as 195.86/100)"),
        (r"1.9586\ldots", "read as 1.9586 (the trailing … is ignored: the digits are judged as written)"),
    ],
)
def test_the_exact_reading_is_beside_a_number_not_read_at_face_value(cli, answer, shown):
    """Scientific notation, a percentage and digits trailing off into … are echoed as typed with
    how they were read beside them; a plain decimal (above) has nothing beside it."""
    code, out, _ = cli("check", "ex6.2", answer)
    assert code == 0 and out == f"Correct. (ex6.2: {shown})\n"


def test_matrix_entries_and_thresholds_are_echoed_as_typed(cli):
    """Entries of a matrix written out, and the number of a threshold, keep their digits."""
    mask = r"\begin{bmatrix} 0 & -\infty & -\infty \\ 0.0 & 0 & -\infty \\ 0 & 0 & 0 \end{bmatrix}"
    code, out, _ = cli("check", "ex6.4", mask)
    assert code == 0 and out == "Correct. (ex6.4: read as [[0, -∞, -∞], [0.0, 0, -∞], [0, 0, 0]])\n"
    code, out, _ = cli("check", "ex6.5", "N > 8192.0")
    assert code == 0 and out == "Correct. (ex6.5: read as N > 8192.0)\n"


def test_a_reading_the_printer_cannot_show_changes_no_verdict(cli):
    """SymPy's LaTeX printer recurses without end on this reading: the verdict is the judge's, and
    there is simply no typeset reading (the fuzz test found it)."""
    code, out, _ = cli("check", "ex6.2", "1^{3}^{-3}", "--json")
    doc = json.loads(out)
    got = (code, doc["verdict"], doc["mistake"], doc["given_latex"])
    assert got == (1, "incorrect", "largest-score-only", "")
