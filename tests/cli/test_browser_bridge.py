"""The checker's bridge for the course site (symattn/cli/browser.py), called in-process as the
page's Web Worker calls it: each function gives what the command line prints, as JSON text."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

from symattn.cli import browser

PROOFS = Path(__file__).parents[1] / "data" / "learner_proofs"


def test_check_gives_what_check_json_prints(cli):
    for seed in (None, 3):
        seeded = [] if seed is None else ["--seed", str(seed)]
        _, out, _ = cli("check", "ex6.2", "--json", *seeded, "--", "1.96")
        assert json.loads(browser.check("ex6.2", "1.96", seed)) == json.loads(out)
    assert json.loads(browser.check("ex6.2", "1.96"))["verdict"] == "correct"
    assert json.loads(browser.check("ex6.2", "1.96", 3))["verdict"] == "incorrect"


def test_an_answer_that_looks_like_an_option_is_judged_as_an_answer():
    doc = json.loads(browser.check("ex6.2", "--plugin=os"))
    assert doc["id"] == "ex6.2" and doc["verdict"] == "invalid"


def test_a_refusal_is_the_commands_message_without_the_program_name(cli):
    code, out, err = cli("check", "ex9.9", "--json", "--", "1")
    assert code == 2 and out == ""
    doc = json.loads(browser.check("ex9.9", "1"))
    assert doc == {"error": err.strip().removeprefix("symattn: error: "), "exit_code": 2}
    assert doc["error"].startswith("no exercise 'ex9.9'")
    # an argument error names the subcommand ("symattn check: error: ..."): both go
    doc = json.loads(browser.check("ex6.2", "1", seed=-1))
    assert doc == {"error": "argument --seed: must be between 0 and 2^63 - 1, got -1", "exit_code": 2}


def test_check_steps_gives_what_check_steps_json_prints(cli):
    proof = PROOFS / "ex6.3" / "c01_module_solution.tex"
    _, out, _ = cli("check", "ex6.3", "--steps", str(proof), "--json")
    saved = sys.stdin
    assert json.loads(browser.check_steps("ex6.3", proof.read_text(encoding="utf-8"))) == json.loads(out)
    assert sys.stdin is saved  # the page's next call reads its own input
    doc = json.loads(browser.check_steps("ex6.2", "x = 1"))
    assert doc["exit_code"] == 2 and doc["error"].startswith("ex6.2 is not checked step by step")


def test_a_variant_is_the_command_lines_text_with_its_prompt_and_answer(cli):
    code, out, _ = cli("exercises", "variant", "ex6.2", "--seed", "7")
    doc = json.loads(browser.variant("ex6.2", 7))
    assert code == 0 and doc["text"] == out
    assert doc["id"] == "ex6.2" and doc["seed"] == 7
    assert doc["prompt"] in out and "scores [-1, 1, 3]" in doc["prompt"]
    assert doc["expected"] and doc["note"] == ""
    code, out, _ = cli("check", "ex6.2", "--seed", "7", "--json", "--", "1")
    assert doc["expected"] == json.loads(out)["expected"]


def test_a_variant_refused_is_the_commands_message():
    doc = json.loads(browser.variant("ex6.1", 1))
    assert doc == {"error": "ex6.1 has no numeric variants", "exit_code": 2}
    doc = json.loads(browser.variant("ex6.2", -1))
    assert doc == {"error": "argument --seed: must be between 0 and 2^63 - 1, got -1", "exit_code": 2}


def test_the_snapshots_preparation_leaves_nothing_on_the_streams(capsys, monkeypatch):
    """What the site build runs before it saves Pyodide's memory: every check's output is caught."""
    monkeypatch.setattr(sys, "stdin", io.StringIO("not read"))
    assert json.loads(browser.prepare())
    assert capsys.readouterr() == ("", "")
    assert sys.stdin.read() == "not read"
