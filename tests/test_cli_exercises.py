"""symattn exercises and check on the command line."""

from __future__ import annotations

import json

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


def test_show_unsolvable(cli):
    """An exercise with no checkable answer says so and shows the model solution."""
    code, out, _ = cli("exercises", "show", "ex6.1", "--solution")
    assert code == 0 and "no machine-checkable answer" in out and "Model solution" in out


@pytest.mark.parametrize(
    ("answer", "code", "verdict"),
    [("1.959", 0, "correct"), ("4", 1, "incorrect"), ("8192 )", 2, "invalid"), ("", 2, "invalid")],
)
def test_check_json_and_exit_codes(cli, answer, code, verdict):
    """check --json prints id, verdict, expected, given, feedback, mistake; exit 0/1/2."""
    got, out, _ = cli("check", "ex6.2", answer, "--json")
    doc = json.loads(out)
    assert got == code
    assert set(doc) == {"id", "verdict", "expected", "given", "feedback", "mistake"}
    assert doc["id"] == "ex6.2" and doc["verdict"] == verdict


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
