"""`symattn audit FILE` as a command (symattn/cli/commands.py, audit): what it reads, and the one
line, exit 2, for each file it refuses. The report itself: test_audit_report.py and
tests/grading/audit/test_audit.py."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest
from terminal import ASCII_LOCALE

from symattn.grading import worker


def test_a_missing_file_is_named_with_the_systems_reason(cli, tmp_path):
    missing = tmp_path / "nope.md"
    said = f"symattn: error: cannot read {missing}: No such file or directory\n"
    assert cli("audit", str(missing)) == (2, "", said)


@pytest.mark.parametrize(
    "content, says",
    [
        (b"\xff\xfe# a module\n", "cannot read {}: not UTF-8 text (a binary file?)"),
        (b"# a module\n\x00 1 + 1 = 2\n", "cannot read {}: not a text file (it holds NUL bytes)"),
        (b"# a module\n\nNo figures here.\n", "{}: no exercises and no numeric claims found"),
    ],
    ids=["not UTF-8", "NUL bytes", "nothing to audit"],
)
def test_a_file_it_cannot_audit_is_one_line_exit_2(cli, tmp_path, content: bytes, says: str):
    path = tmp_path / "m.md"
    path.write_bytes(content)
    assert cli("audit", str(path)) == (2, "", f"symattn: error: {says.format(path)}\n")


def test_a_text_past_the_bound_is_audited_to_it_and_says_where_it_stopped(cli, tmp_path, monkeypatch):
    """Issue 47, must-have 7: a text of any length is audited up to the bound of characters read
    (2,000,000; shown here at 1,000), cut at the last paragraph that ends within it; the report
    has an unchecked claim for the rest, and standard error names the line where it stopped."""
    from symattn.cli import commands

    assert commands.AUDIT_CHARACTERS == 2_000_000
    monkeypatch.setattr(commands, "AUDIT_CHARACTERS", 1_000)
    path = tmp_path / "long.md"
    paragraph = "We have $2 + 2 = 4$.\n\n"  # 22 characters, 45 of them within the bound
    path.write_text(paragraph * 60 + "But $2 + 2 = 5$.\n", encoding="utf-8")
    code, out, err = cli("audit", str(path), "--json")
    claims = json.loads(out)["claims"]
    assert code == 0  # the wrong claim past the bound was not read ...
    assert [c["verdict"] for c in claims] == ["certified"] * 45 + ["unchecked"]
    assert claims[-1]["line"] == 91 and claims[-1]["rule"].startswith("not read: ")  # ... and it says so
    assert err == (
        "symattn: read to line 91 only, the bound of what one audit reads (1,000 characters, "
        "2,500 lines, 1,500 formulas): the rest is not checked\n"
    )
    code, _, err = cli("audit", str(path), "--strict")
    assert code == 1  # what was not read is not decided: strict mode sees it


def test_a_text_past_the_bound_of_formulas_is_audited_to_it(cli, tmp_path, monkeypatch):
    """The work is bounded by the formulas the text holds, never by the clock."""
    from symattn.cli import commands

    monkeypatch.setattr(commands, "AUDIT_FORMULAS", 10)
    path = tmp_path / "dense.md"
    path.write_text("$1 + 1 = 2$ and $2 + 2 = 4$.\n" * 5 + "But $2 + 2 = 5$.\n" * 3, encoding="utf-8")
    code, out, err = cli("audit", str(path), "--json")
    claims = json.loads(out)["claims"]
    assert code == 0 and [c["verdict"] for c in claims] == ["certified"] * 10 + ["unchecked"]
    assert "read to line 6 only" in err and "10 formulas" in err


def test_a_module_is_read_only_to_one_character_past_the_limit(cli, tmp_path, monkeypatch):
    """A text of any length costs at most the bound and one character of memory to read."""
    from reads import record_reads

    from symattn.cli import commands

    monkeypatch.setattr(commands, "AUDIT_CHARACTERS", 1_000)
    path = tmp_path / "long.md"
    path.write_text("x" * 5_000, encoding="utf-8")
    sizes = record_reads(monkeypatch, commands)
    code, _, err = cli("audit", str(path))
    assert code == 0 and "read to line 1 only" in err  # one line longer than the bound: none read
    assert sizes == [1_001]


def test_a_module_the_worker_gives_up_on_is_named_with_the_workers_reason(cli, tmp_path, monkeypatch):
    def gives_up(fn, *args, **limits):
        raise worker.WorkerError("too costly to check: CPU time limit reached")  # the worker's words

    monkeypatch.setattr(worker, "isolated", gives_up)
    path = tmp_path / "m.md"
    path.write_text("$e^{12.7} \\approx 330{,}000$\n", encoding="utf-8")
    said = f"symattn: error: {path}: too costly to check: CPU time limit reached\n"
    assert cli("audit", str(path)) == (2, "", said)


def test_the_file_is_read_as_utf_8_whatever_the_locale(tmp_path):
    """A module holds math in Unicode (≈, √): it is read as UTF-8 even where the locale's encoding
    is ASCII (the C locale, without Python's UTF-8 mode or its coercion of that locale). In a
    process of its own, since the encoding is the interpreter's from its start (so a mutation pass,
    in this process, cannot see it: bench/mutation.py names that mutant)."""
    path = tmp_path / "m.md"
    path.write_text("The score is $e^{12.7} ≈ 330{,}000$.\n", encoding="utf-8")
    env = os.environ | ASCII_LOCALE
    env["PYTHONIOENCODING"] = "utf-8"  # the report's ≈ printed (else a one-line refusal of its own)
    done = subprocess.run(
        [sys.executable, "-c", "import locale, sys; print(locale.getpreferredencoding(False)); "
         "from symattn.cli import main; sys.exit(main(sys.argv[1:]))", "audit", str(path)],
        capture_output=True, env=env, timeout=120,
    )
    encoding, _, report = done.stdout.partition(b"\n")
    assert encoding.decode().lower() in ("ansi_x3.4-1968", "ascii"), encoding  # the locale is ASCII
    assert (done.returncode, done.stderr) == (0, b""), done.stderr
    assert "330,000" in report.decode("utf-8")


def test_a_module_that_is_not_a_regular_file_is_refused_unread(cli, tmp_path):
    """A FIFO would wait for a writer for ever."""
    fifo = tmp_path / "m.md"
    os.mkfifo(fifo)
    assert cli("audit", str(fifo)) == (2, "", f"symattn: error: cannot read {fifo}: not a regular file\n")


def test_the_module_is_opened_as_utf_8_by_name(cli, monkeypatch, tmp_path):
    """Read as UTF-8 by name, not by the locale (the ASCII-locale test above shows the same in a
    process of its own)."""
    from opens import record_opens

    from symattn.cli import commands

    module = tmp_path / "m.md"
    module.write_text("Two halves: $1/2 + 1/2 = 1$ ≈ one.\n", encoding="utf-8")
    asked = record_opens(monkeypatch, commands, module)
    assert cli("audit", str(module))[0] == 0
    assert asked == [("m.md", "r", "utf-8")]


# -- coverage: how much was decided, and --min-decided / --strict --------------------------------
_THREE_OF_FOUR = (
    "We have $1 + 1 = 2$, $2 + 2 = 4$ and $3 + 3 = 6$ here.\n\nIn practice a width of 512 is common.\n"
)


@pytest.mark.parametrize(
    ("option", "code"), [([], 0), (["--min-decided", "75"], 0), (["--min-decided", "76"], 1)]
)
def test_too_little_decided_fails_only_when_asked_and_exactly_at_the_share(cli, tmp_path, option, code):
    """3 of 4 claims decided is 75 %: --min-decided 75 passes, 76 fails, with one line naming
    the share; without the option the unchecked claim never fails the audit."""
    path = tmp_path / "m.md"
    path.write_text(_THREE_OF_FOUR)
    got, out, err = cli("audit", str(path), *option)
    assert got == code, (out, err)
    assert "4 claims: 3 certified, 0 wrong, 1 unchecked (75.0 % decided)" in out
    assert "  unchecked, 1: " in out  # each reason, with its count
    if code:
        said = "symattn: too little decided: 75.0 % of 4 claims, below --min-decided 76 (1 unchecked)\n"
        assert err == said


def test_strict_asks_80_percent_and_the_course_module_meets_it(cli, tmp_path):
    path = tmp_path / "m.md"
    path.write_text(_THREE_OF_FOUR)
    assert cli("audit", str(path), "--strict")[0] == 1  # 75 % < 80 %
    from pathlib import Path

    module = Path(__file__).parents[1] / "data" / "module" / "attention.md"
    code, out, _ = cli("audit", str(module), "--strict")
    decided = re.search(r"\(([\d.]+) % decided\)", out)
    assert code == 0 and decided and float(decided.group(1)) >= 80


def test_the_json_report_states_its_coverage(cli, tmp_path):
    import json

    path = tmp_path / "m.md"
    path.write_text(_THREE_OF_FOUR)
    code, out, _ = cli("audit", str(path), "--json")
    coverage = json.loads(out)["coverage"]
    assert code == 0 and coverage["claims"] == 4 and coverage["decided"] == 0.75
    assert (coverage["certified"], coverage["wrong"], coverage["unchecked"]) == (3, 0, 1)
    assert sum(coverage["unchecked_reasons"].values()) == 1


@pytest.mark.parametrize(
    "option", [["--min-decided", "101"], ["--min-decided", "x"], ["--strict", "--min-decided", "5"]]
)
def test_a_bad_share_is_refused_in_one_line(cli, tmp_path, option):
    path = tmp_path / "m.md"
    path.write_text(_THREE_OF_FOUR)
    code, out, err = cli("audit", str(path), *option)
    assert code == 2 and out == "" and err.count("\n") == 1, err


def test_a_line_too_long_is_said_and_the_rest_is_read(cli, tmp_path):
    """A line longer than 20,000 characters (a paragraph pasted as one line) is reported "not
    read" at its line, never read for minutes; the lines after it are audited."""
    path = tmp_path / "long_line.md"
    path.write_text("x " * 10_001 + "$2 + 2 = 4$\n\nBut $2 + 2 = 5$.\n", encoding="utf-8")
    code, out, _ = cli("audit", str(path), "--json")
    claims = json.loads(out)["claims"]
    assert code == 1 and [(c["line"], c["verdict"]) for c in claims] == [(1, "unchecked"), (3, "wrong")]
    assert claims[0]["rule"] == "not read: a line longer than 20,000 characters"


def test_a_text_past_the_bound_of_lines_is_audited_to_it(cli, tmp_path, monkeypatch):
    from symattn.grading.audit import rules

    monkeypatch.setattr(rules, "AUDIT_LINES", 3)
    path = tmp_path / "lines.md"
    path.write_text("We have $1 + 1 = 2$.\n" * 3 + "But $2 + 2 = 5$.\n", encoding="utf-8")
    code, out, err = cli("audit", str(path), "--json")
    assert code == 0 and "read to line 4 only" in err
    assert [c["verdict"] for c in json.loads(out)["claims"]] == ["certified"] * 3 + ["unchecked"]
