"""`symattn build` as a command (symattn/cli/commands.py): what it prints, its exit codes and the
files it writes or compares, around a stand-in for the site's generator (the real one takes
minutes; tests/present/test_site.py runs it)."""

from __future__ import annotations

import sys

import pytest
from terminal import Terminal

from symattn.build import site

FILES = {"index.md": b"# home\n", "guide/a.md": b"a\n"}
PLACEHOLDER = {"audit.md": b"no module\n"}
MISSING = "the module ../m.md is absent"


@pytest.fixture
def generated(monkeypatch):
    """The generator replaced: it reports progress once and returns FILES (and, if asked, a
    placeholder page and a failed check)."""
    made = {"ok": True, "placeholders": {}}

    def generate(progress=lambda _: None):
        progress("checking everything ...")
        missing = MISSING if made["placeholders"] else None
        return site.BuildResult(
            dict(FILES), "summary line\n", made["ok"], dict(made["placeholders"]), missing
        )

    monkeypatch.setattr(site, "generate", generate)
    return made


def test_build_writes_every_file_and_says_how_many(cli, generated, tmp_path):
    out = tmp_path / "new" / "docs"
    code, stdout, err = cli("build", "--out", str(out))
    assert (code, err) == (0, "")
    assert stdout == f"summary line\nwrote 2 files to {out}/\n"
    assert {p.relative_to(out).as_posix(): p.read_bytes() for p in out.rglob("*") if p.is_file()} == FILES


def test_a_failed_check_still_writes_and_exits_1(cli, generated, tmp_path):
    generated["ok"] = False
    code, stdout, _ = cli("build", "--out", str(tmp_path))
    assert code == 1 and stdout.endswith(f"wrote 2 files to {tmp_path}/\n")
    assert (tmp_path / "index.md").read_bytes() == FILES["index.md"]


def test_a_placeholder_is_written_only_where_there_is_no_page(cli, generated, tmp_path):
    generated["placeholders"] = PLACEHOLDER
    code, _, err = cli("build", "--out", str(tmp_path))
    assert code == 0
    assert err == f"symattn: {tmp_path}/audit.md not generated (wrote a short page in its place): {MISSING}\n"
    (tmp_path / "audit.md").write_bytes(b"the real audit\n")
    code, _, err = cli("build", "--out", str(tmp_path))
    assert code == 0 and (tmp_path / "audit.md").read_bytes() == b"the real audit\n"
    assert err == f"symattn: {tmp_path}/audit.md not generated (left it as it is): {MISSING}\n"


def test_check_says_up_to_date_and_leaves_a_placeholder_uncompared(cli, generated, tmp_path):
    site.write(FILES, tmp_path)
    code, stdout, err = cli("build", "--check", "--out", str(tmp_path))
    assert (code, err) == (0, "")
    assert stdout == f"summary line\n{tmp_path}/ is up to date (2 files).\n"
    generated["placeholders"] = PLACEHOLDER
    (tmp_path / "audit.md").write_bytes(b"whatever it holds\n")
    code, stdout, err = cli("build", "--check", "--out", str(tmp_path))
    assert code == 0 and stdout.endswith("is up to date (2 files).\n")
    assert err == f"symattn: note: {tmp_path}/audit.md was not compared: {MISSING}\n"


def test_check_lists_what_is_out_of_date_and_exits_1(cli, generated, tmp_path):
    site.write(FILES, tmp_path)
    (tmp_path / "index.md").write_bytes(b"old\n")
    (tmp_path / "stray.md").write_bytes(b"x\n")
    generated["placeholders"] = PLACEHOLDER  # absent from the folder: listed, and no note
    code, stdout, err = cli("build", "--check", "--out", str(tmp_path))
    assert code == 1 and stdout == "summary line\n"
    assert err == (
        f"symattn: {tmp_path}/ is out of date; run `symattn build --out {tmp_path}`:\n"
        "  audit.md\n  index.md\n  stray.md (not generated)\n"
    )
    assert (tmp_path / "index.md").read_bytes() == b"old\n"  # --check writes nothing


def test_check_creates_no_folder(cli, generated, tmp_path):
    code, _, err = cli("build", "--check", "--out", str(tmp_path / "none"))
    assert code == 1 and "index.md" in err
    assert not (tmp_path / "none").exists()


def test_progress_only_on_a_terminal(cli, generated, tmp_path, monkeypatch):
    cli("build", "--out", str(tmp_path))
    terminal = Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    cli("build", "--out", str(tmp_path))
    assert terminal.text == "checking everything ...\n"
