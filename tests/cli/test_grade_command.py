"""`symattn grade` as a command (symattn/cli/commands.py): the summary JSON names the file and its
rows, exercises that do not exist are one group, and an interruption or an output that cannot be
written is said in one line."""

from __future__ import annotations

import io
import json
import re
import sys

from terminal import ASCII_LOCALE

from symattn.grading.batch import grade as batch


def class_file(tmp_path):
    path = tmp_path / "c.csv"
    path.write_text("learner,exercise,answer\na,ex6.2,1.96\nb,ex9.9,1\nc,ex9.8,2\n", encoding="utf-8")
    return path


def test_summary_json_names_the_file_and_rows_and_groups_unknown_exercises(cli, tmp_path):
    path, summary = class_file(tmp_path), tmp_path / "s.json"
    code, _, err = cli(
        "grade", str(path), "--jobs", "1", "--out", str(tmp_path / "o.csv"), "--summary-json", str(summary)
    )
    assert code == 0, err
    text = summary.read_text(encoding="utf-8")
    doc = json.loads(text)
    assert (doc["file"], doc["rows"]) == (str(path), 3)
    assert text.startswith('{\n  "')  # indented for people
    assert [e["exercise"] for e in doc["exercises"]] == ["ex6.2", "(unknown exercise)"]


def test_an_interrupted_grade_says_how_to_resume(cli, tmp_path, monkeypatch):
    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(batch, "grade_file", interrupted)
    out = tmp_path / "o.csv"
    code, stdout, err = cli("grade", str(class_file(tmp_path)), "--out", str(out))
    assert (code, stdout) == (130, "")
    assert err == f"symattn: interrupted; run the same command to resume from {out}\nsymattn: interrupted\n"


def test_an_output_that_cannot_be_written_is_named(cli, tmp_path, monkeypatch):
    errors = iter(
        [OSError(28, "No space left on device"), OSError(28, "No space left on device"), OSError("boom")]
    )

    def fails(*args, **kwargs):
        raise next(errors)

    monkeypatch.setattr(batch, "grade_file", fails)
    path, out = str(class_file(tmp_path)), str(tmp_path / "o.csv")
    assert cli("grade", path, "--out", out)[1:] == (
        "",
        f"symattn: error: cannot write {out}: No space left on device\n",
    )
    assert cli("grade", path)[1:] == (
        "",
        "symattn: error: cannot write standard output: No space left on device\n",
    )
    assert cli("grade", path, "--out", out)[2] == f"symattn: error: cannot write {out}: boom\n"


def test_summary_json_keeps_names_as_written(cli, tmp_path):
    path, summary = tmp_path / "c.csv", tmp_path / "s.json"
    path.write_text("learner,exercise,answer\nZoë,ex6.2,1.96\n", encoding="utf-8")
    code, _, _ = cli(
        "grade", str(path), "--jobs", "1", "--out", str(tmp_path / "o.csv"), "--summary-json", str(summary)
    )
    assert code == 0 and '"Zoë"' in summary.read_text(encoding="utf-8")


def test_the_gradebook_has_the_class_exercises_in_the_exercise_lists_order(cli, tmp_path):
    path, book = tmp_path / "c.csv", tmp_path / "g.csv"
    path.write_text("learner,exercise,answer\na,ex6.4,1\na,ex6.2,1.96\nb,ex9.9,1\n", encoding="utf-8")
    code, _, err = cli(
        "grade", str(path), "--jobs", "1", "--out", str(tmp_path / "o.csv"), "--gradebook", str(book)
    )
    assert code == 0, err
    assert book.read_text(encoding="utf-8").splitlines()[0] == "learner,ex6.2,ex6.4,total"


def test_the_summary_is_on_stdout_with_out_and_on_stderr_without(cli, tmp_path):
    path = class_file(tmp_path)
    code, out, err = cli("grade", str(path), "--jobs", "1", "--out", str(tmp_path / "o.csv"))
    assert code == 0 and out.startswith(f"3 rows from {path}: 3 judged in ") and err == ""
    code, out, err = cli("grade", str(path), "--jobs", "1")
    assert (
        code == 0 and out.startswith("line,learner,") and err.startswith(f"3 rows from {path}: 3 judged in ")
    )


def test_the_report_links_its_chart_or_says_why_there_is_none(cli, tmp_path, monkeypatch):
    from symattn.present import grade_report

    path, report = class_file(tmp_path), tmp_path / "r.md"
    argv = ["grade", str(path), "--jobs", "1", "--out", str(tmp_path / "o.csv"), "--report", str(report)]

    def drawn(summary, chart):
        chart.write_text("<svg/>")

    monkeypatch.setattr(grade_report, "bar_chart", drawn)
    assert cli(*argv)[0] == 0
    with_chart = report.read_text(encoding="utf-8")
    assert "r.svg" in with_chart and (tmp_path / "r.svg").read_text() == "<svg/>"

    def unavailable(summary, chart):
        raise grade_report.ChartUnavailable("the chart needs matplotlib")

    monkeypatch.setattr(grade_report, "bar_chart", unavailable)
    code, _, err = cli(*argv)
    assert code == 0 and err == "symattn: warning: the chart needs matplotlib\n"
    without = report.read_text(encoding="utf-8")
    assert without.startswith("# Class report: /")
    assert "r.svg" not in without and "| a | ✓ (1) |" in without  # the whole report, less its chart

    def unwritable(summary, chart):
        raise OSError("boom")

    monkeypatch.setattr(grade_report, "bar_chart", unwritable)
    assert cli(*argv)[1:] == ("", f"symattn: error: cannot write {tmp_path / 'r.svg'}: boom\n")


def test_the_files_grade_writes_are_utf_8_whatever_the_locale(tmp_path):
    """Under an ASCII locale (LC_ALL=C with Python's UTF-8 mode off) the gradebook, summary and
    report are still UTF-8, and a learner called Zoë keeps her name (a real process: the locale's
    encoding is read when Python starts)."""
    import os
    import subprocess
    import sys

    klass = tmp_path / "c.csv"
    klass.write_text("learner,exercise,answer\nZoë,ex6.2,1.96\nAda,ex6.2,2\n", encoding="utf-8")
    outputs = {"--gradebook": "b.csv", "--summary-json": "s.json", "--report": "r.md"}
    argv = [sys.executable, "-m", "symattn", "grade", str(klass), "--jobs", "1", "--out", "o.csv"]
    for option, name in outputs.items():
        argv += [option, name]
    env = os.environ | ASCII_LOCALE
    done = subprocess.run(argv, cwd=tmp_path, env=env, capture_output=True, timeout=300)
    assert done.returncode == 0, done.stderr
    for name in ("o.csv", *outputs.values()):
        assert "Zoë" in (tmp_path / name).read_bytes().decode("utf-8"), name


def test_the_summary_head_is_one_line_then_a_blank_line(cli, tmp_path):
    """A resumed run's head says how many rows its --out already held; a blank line follows it.
    (The two rows of exercises that do not exist are provisional, judged again on each run.)"""
    path, out = class_file(tmp_path), tmp_path / "o.csv"
    assert cli("grade", str(path), "--jobs", "1", "--out", str(out))[0] == 0
    code, text, err = cli("grade", str(path), "--jobs", "1", "--out", str(out))
    head, blank, table = text.split("\n", 2)
    assert (code, err) == (0, "")
    judged, resumed = head.split(", ")
    assert re.fullmatch(rf"3 rows from {re.escape(str(path))}: 2 judged in \d+\.\d s", judged), head
    assert resumed == f"1 already graded in {out}"
    assert blank == "" and table.strip()


class _FullAtSummary(io.StringIO):
    """A stream that takes every line but the summary's, which finds the disk full."""

    def write(self, text: str) -> int:
        if " rows from " in text:
            raise OSError(28, "No space left on device")
        return super().write(text)


def test_a_summary_that_cannot_be_written_names_its_stream(cli, tmp_path, monkeypatch):
    """The summary goes to stdout with --out and to stderr without; either failing is one line
    naming that stream (exit 2), after the rows and files were written."""
    path, out = class_file(tmp_path), tmp_path / "o.csv"
    stdout = _FullAtSummary()
    monkeypatch.setattr(sys, "stdout", stdout)
    code, _, err = cli("grade", str(path), "--jobs", "1", "--out", str(out))
    assert (code, err) == (2, "symattn: error: cannot write standard output: No space left on device\n")
    assert len(out.read_text(encoding="utf-8").splitlines()) == 4  # the rows were written
    monkeypatch.undo()
    stderr = _FullAtSummary()
    monkeypatch.setattr(sys, "stderr", stderr)
    code, rows, _ = cli("grade", str(path), "--jobs", "1")
    assert code == 2 and rows.startswith("line,learner,")
    assert stderr.getvalue() == "symattn: error: cannot write standard error: No space left on device\n"


def test_the_summaries_grade_writes_are_opened_as_utf_8_by_name(cli, monkeypatch, tmp_path):
    """--gradebook, --summary-json and --report are written as UTF-8 by name, not by the locale
    (the ASCII-locale test above shows the same in a process of its own)."""
    from opens import record_opens

    from symattn.cli import commands

    klass = tmp_path / "class.csv"
    klass.write_text("learner,exercise,answer\nÉmile,ex6.2,1.96\n", encoding="utf-8")
    outputs = {
        "--gradebook": tmp_path / "b.csv",
        "--summary-json": tmp_path / "s.json",
        "--report": tmp_path / "r.md",
    }
    asked = record_opens(monkeypatch, commands, *outputs.values())
    code, _, err = cli("grade", str(klass), *(str(x) for pair in outputs.items() for x in pair))
    assert code == 0, err
    assert sorted(asked) == [("b.csv", "w", "utf-8"), ("r.md", "w", "utf-8"), ("s.json", "w", "utf-8")]
