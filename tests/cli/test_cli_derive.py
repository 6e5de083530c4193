"""symattn derive, verify and flops on the command line."""

from __future__ import annotations

import json

import pytest

import derivations
from symattn.proof import Derivation


def test_list_is_one_name_per_line_name_first(cli):
    """derive --list prints each derivation on its own line, its name first."""
    code, out, _ = cli("derive", "--list")
    assert code == 0
    assert [line.split("\t")[0] for line in out.splitlines()] == list(derivations.NAMES)


@pytest.mark.parametrize("fmt", ["text", "markdown", "latex"])
def test_derive_formats(cli, fmt):
    """derive NAME --format F prints that derivation."""
    code, out, _ = cli("derive", "multihead_flops", "--format", fmt)
    assert code == 0
    assert "4" in out and ("crossover" in out.lower())


def test_unknown_derivation_is_exit_2(cli):
    """A name that is not a derivation is one line on stderr and exit 2."""
    code, out, err = cli("derive", "nonsense")
    assert code == 2 and out == "" and err.count("\n") == 1 and "nonsense" in err


def test_verify_table(cli):
    """verify prints a row per derivation with steps, exact/numeric counts and time, exit 0."""
    code, out, _ = cli("verify", "attention_by_hand", "multihead_flops")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].split()[:3] == ["derivation", "steps", "symbolic"]
    assert "at sizes" in lines[0] and "definition" in lines[0] and "certified" in lines[0]
    assert lines[2].startswith("attention_by_hand") and lines[2].endswith("ok")
    assert lines[3].startswith("multihead_flops")


def test_verify_fails_loudly(cli, monkeypatch):
    """A derivation with a false step makes verify exit 1 and name the failure in its row."""
    import sympy as sp

    x = sp.Symbol("x")

    def broken(name: str) -> Derivation:
        d = Derivation(name, "broken", "false")
        d.step(x + x, 3 * x, "a slip")
        return d

    monkeypatch.setattr(derivations, "load", broken)
    code, out, _ = cli("verify", "attention_by_hand")
    assert code == 1
    assert "FAILED" in out and "a slip" in out


def test_flops_json(cli):
    """flops --json gives integer terms, the total and the crossover."""
    code, out, _ = cli("flops", "--d-model", "4096", "--n", "8192", "--heads", "32", "--json")
    doc = json.loads(out)
    assert code == 0
    assert doc == {
        "projections": 3 * 8192 * 4096**2,
        "scores": 8192**2 * 4096,
        "weighted_sum": 8192**2 * 4096,
        "output_projection": 8192 * 4096**2,
        "total": 4 * 8192 * 4096**2 + 2 * 8192**2 * 4096,
        "crossover_n": 8192,
    }


def test_flops_text_and_errors(cli):
    """flops prints the breakdown; a width not divisible by the heads is exit 2."""
    code, out, _ = cli("flops", "--d-model", "512", "--n", "1024", "--heads", "8")
    assert code == 0 and "equal to" in out and "1,024" in out
    code, _, err = cli("flops", "--d-model", "512", "--n", "10", "--heads", "3")
    assert code == 2 and "divisible" in err
    code, _, err = cli("flops", "--d-model", "0", "--n", "10")
    assert code == 2 and err.count("\n") == 1


def test_derive_verifies_in_worker_processes(cli, monkeypatch):
    """derive checks in forked workers (as verify does), so that a check that ends its process is
    reported as a failure rather than ending derive."""
    from symattn.proof.engine import default_jobs

    seen = []
    real = Derivation.verify

    def recorded(self, jobs=1, isolate=False):
        seen.append((jobs, isolate))
        return real(self, jobs=jobs, isolate=isolate)

    monkeypatch.setattr(Derivation, "verify", recorded)
    code, _, err = cli("derive", "multihead_flops")
    assert code == 0, err
    assert seen == [(default_jobs(), True)]


def test_derive_without_a_name_says_how_to_find_one(cli):
    assert cli("derive") == (2, "", "symattn: error: name a derivation (symattn derive --list shows them)\n")


def test_derive_shows_what_it_checks_on_a_terminal_only(cli, monkeypatch):
    import sys

    from terminal import Terminal

    terminal = Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    assert cli("derive", "multihead_flops")[0] == 0
    assert terminal.text == "checking multihead_flops ...\n"
    monkeypatch.undo()
    assert cli("derive", "multihead_flops")[2] == ""  # not a terminal: nothing
