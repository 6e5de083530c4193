"""`symattn verify` as a command (symattn/cli/commands.py): which derivations it verifies, with how
many workers, its exit code, and `--mutations`' count, around stand-ins for the verifier and the
planted errors (the real ones take seconds each; tests/cli/test_cli_derive.py runs them)."""

from __future__ import annotations

import sys
from types import SimpleNamespace

import pytest
from terminal import Terminal

import derivations
import derivations.mutations as planted
from symattn.build import verify as verifying
from symattn.proof import engine


@pytest.fixture
def verifier(monkeypatch):
    """verify_all replaced: it records its call, reports progress once, writes one row per name."""
    seen = {"ok": True, "caught": {}}

    def verify_all(names, progress=lambda _: None, reports=None, write=None, jobs=1):
        seen.update(names=list(names), jobs=jobs)
        progress("verifying ...")
        for name in names:
            write(f"{name} ok\n")
        return "", seen["ok"]

    def catalogue(names=None):
        return [SimpleNamespace(derivation=n, description=f"error in {n}") for n in names]

    def outcomes(ms, jobs=1):
        seen["planting jobs"] = jobs
        for m in ms:
            caught = seen["caught"].get(m.derivation, True)
            yield caught, f"{m.derivation}: {'caught' if caught else 'NOT caught'}"

    monkeypatch.setattr(verifying, "verify_all", verify_all)
    monkeypatch.setattr(planted, "catalogue", catalogue)
    monkeypatch.setattr(planted, "outcomes", outcomes)
    return seen


def test_no_names_verifies_every_derivation_and_worked_solution_on_the_default_workers(cli, verifier):
    from symattn.grading.exercises import solutions

    code, out, err = cli("verify")
    assert (code, err) == (0, "")
    every = [*derivations.names(), *(i for i in solutions() if i not in derivations.names())]
    assert verifier["names"] == every and set(solutions()) <= set(every)
    assert verifier["jobs"] == engine.default_jobs()
    assert out == "".join(f"{n} ok\n" for n in every)


def test_names_and_jobs_are_passed_on(cli, verifier):
    first, second = derivations.names()[:2]
    code, out, _ = cli("verify", second, first, "--jobs", "3")
    assert code == 0 and verifier["names"] == [second, first] and verifier["jobs"] == 3
    assert out == f"{second} ok\n{first} ok\n"  # and no planted errors without --mutations


def test_an_unknown_name_is_one_line_before_any_work(cli, verifier):
    code, out, err = cli("verify", derivations.names()[0], "no_such_derivation")
    assert (code, out) == (2, "")
    assert err.startswith("symattn: error: ") and "no_such_derivation" in err and err.count("\n") == 1
    assert "names" not in verifier


def test_a_failed_derivation_exits_1(cli, verifier):
    verifier["ok"] = False
    assert cli("verify", derivations.names()[0])[0] == 1


def test_mutations_counts_the_planted_errors_caught(cli, verifier):
    first, second = derivations.names()[:2]
    code, out, _ = cli("verify", first, second, "--mutations")
    assert code == 0
    assert out == (
        f"{first} ok\n{second} ok\n\nplanted errors: 2\n"
        f"  {first}: caught\n  {second}: caught\ncaught where planted: 2 of 2\n"
    )
    assert verifier["planting jobs"] == verifier["jobs"] == engine.default_jobs()
    assert cli("verify", first, "--mutations", "--jobs", "3")[0] == 0 and verifier["planting jobs"] == 3
    verifier["caught"] = {second: False}
    code, out, _ = cli("verify", first, second, "--mutations")
    assert code == 1 and out.endswith(f"  {second}: NOT caught\ncaught where planted: 1 of 2\n")
    verifier["caught"], verifier["ok"] = {}, False  # every error caught, but a derivation failed
    assert cli("verify", first, "--mutations")[0] == 1


def test_progress_only_on_a_terminal(cli, verifier, monkeypatch):
    name = derivations.names()[0]
    terminal = Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    cli("verify", name, "--mutations")
    assert terminal.text == f"verifying ...\nplanting {name}: error in {name} ...\n"
