"""Auditing a module file's answer keys (symattn/audit.py) on fixtures in the seed's format."""

from __future__ import annotations

from pathlib import Path

from symattn.audit import audit_text, find_exercises
from symattn.cli import main

FIXTURES = Path(__file__).parent / "fixtures"


def test_finds_every_exercise_in_order():
    """Seven blocks with kinds, keys and tolerances; the decoy answer outside them is ignored."""
    found = find_exercises((FIXTURES / "module_ok.md").read_text())
    assert [f.kind for f in found] == [
        "check",
        "apply",
        "apply",
        "apply",
        "apply",
        "extend",
        "extend",
    ]
    assert [(f.key, f.tolerance) for f in found if f.key] == [
        ("1.96", "0.01"),
        (
            r"$\begin{bmatrix} 0 & -\infty & -\infty \\ 0 & 0 & -\infty \\ 0 & 0 & 0"
            r" \end{bmatrix}$",
            None,
        ),
        ("8192", "0"),
    ]
    assert all(f.has_solution for f in found)


def test_correct_keys_pass():
    """All stated keys of the good fixture match the computed answers."""
    rows = audit_text((FIXTURES / "module_ok.md").read_text())
    assert [r.exercise.id for r in rows] == [f"ex6.{k}" for k in range(1, 8)]
    assert [r.status for r in rows if r.exercise.checkable] == ["ok", "ok", "ok"]
    assert not any(r.wrong for r in rows)


def test_wrong_keys_are_named(capsys):
    """The bad fixture states 1.9 and 4096: audit exits 1 and names ex6.2 and ex6.5."""
    code = main(["audit", str(FIXTURES / "module_wrong.md")])
    out, err = capsys.readouterr()
    assert code == 1
    assert "wrong key" in out
    assert "ex6.2" in err and "ex6.5" in err and "ex6.4" not in err
    assert "N^2 d with N d^2" in err  # 4096 is recognised as the N > d_model slip


def test_good_file_exits_zero(capsys):
    """A file whose keys are right exits 0 with a table row per exercise."""
    assert main(["audit", str(FIXTURES / "module_ok.md")]) == 0
    out = capsys.readouterr().out
    assert len(out.strip().splitlines()) == 2 + 7


def test_unreadable_file_is_exit_2(capsys, tmp_path):
    """A missing file, or one with no exercises, is a one-line error with exit 2."""
    assert main(["audit", str(tmp_path / "nope.md")]) == 2
    empty = tmp_path / "empty.md"
    empty.write_text("# nothing here\n")
    assert main(["audit", str(empty)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 2
