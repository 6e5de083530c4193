"""`symattn check ID --steps FILE`: what it refuses, in one line, and its text output."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

PROOF = str(Path(__file__).parents[1] / "data" / "learner_proofs" / "ex6.3" / "c01_module_solution.tex")


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["x"], "give an ANSWER or --steps FILE, not both (--steps - reads standard input)"),
        (["--stdin"], "give an ANSWER or --steps FILE, not both (--steps - reads standard input)"),
        (["--seed", "1"], "--seed does not apply to --steps"),
    ],
)
def test_steps_with_an_answer_or_a_seed_is_refused(cli, extra, message):
    assert cli("check", "ex6.3", *extra, "--steps", PROOF) == (2, "", f"symattn: error: {message}\n")


def test_steps_print_text_by_default_and_json_when_asked(cli):
    code, out, err = cli("check", "ex6.3", "--steps", PROOF)
    assert (code, err) == (0, "")
    assert out.startswith("ex6.3, checked step by step:\n✓ line 3: ")
    code, out, _ = cli("check", "ex6.3", "--steps", PROOF, "--json")
    assert code == 0 and json.loads(out)["verdict"] == "correct"


def test_a_learners_terminal_escapes_are_printed_visible(cli, tmp_path):
    """ESC, a bell and a right-to-left override in a learner's line reach the terminal as
    ⟨U+…⟩, never raw (issue 48)."""
    proof = tmp_path / "p.tex"
    proof.write_text("A = B\x1b[2J\x07\u202e\n", encoding="utf-8")
    code, out, _ = cli("check", "ex6.3", "--steps", str(proof))
    assert code == 2 and "⟨U+001B⟩[2J⟨U+0007⟩⟨U+202E⟩" in out
    assert not any(c in out for c in "\x1b\x07\u202e")


def test_a_file_too_long_is_reported_by_its_own_size(cli, tmp_path):
    """Issue 48: a 420 KB file was "too long (200000 characters)", the part read; now its size."""
    proof = tmp_path / "big.tex"
    proof.write_text("A = B\n" * 70_000, encoding="utf-8")
    code, _, err = cli("check", "ex6.3", "--steps", str(proof))
    assert code == 2 and f"holds {proof.stat().st_size:,} bytes" in err and "200,000 characters" in err
