"""The suite leaks nothing: each test starts at the command line's precision, and the lemma
cache is written to a temporary folder, never to the user's ~/.cache/symattn, and the checkout
is left as it was."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import mpmath

from symattn.proof import engine, lemma_cache


def test_every_test_starts_at_the_command_lines_precision():
    """15 digits, as `symattn` runs, even after the audit tests' collection worked at 30."""
    assert mpmath.mp.dps == 15 and mpmath.mp.prec == 53


def test_a_test_that_changes_the_precision_leaves_no_trace_part_1():
    mpmath.mp.dps = 50


def test_a_test_that_changes_the_precision_leaves_no_trace_part_2():
    """Runs after part 1 in the same process (pytest keeps a file's order on one worker)."""
    assert mpmath.mp.dps == 15


def test_the_lemma_cache_is_in_a_temporary_folder(monkeypatch):
    """The suite's caches are its own (tests/conftest.py): the lemma cache, and its default
    home too (XDG_CACHE_HOME) where SYMATTN_CACHE_DIR is unset, are under the temporary folder,
    so a `symattn verify` run beside the suite shares nothing with it."""
    temporary = Path(tempfile.gettempdir()).resolve()
    user = Path(os.path.expanduser("~/.cache")).resolve()
    for unset in ((), ("SYMATTN_CACHE_DIR",)):
        for name in unset:
            monkeypatch.delenv(name, raising=False)
        cache = lemma_cache._LemmaCache()._path().resolve()
        assert cache.is_relative_to(temporary) and not cache.is_relative_to(user), unset


def test_the_cache_key_changes_with_the_versions_of_python_sympy_and_mpmath(monkeypatch):
    import platform

    import sympy

    root = Path(engine.__file__).resolve().parents[1]
    before = engine.source_digest(root)
    for module, attribute, value in (
        (sympy, "__version__", "0.0.1"),
        (mpmath, "__version__", "0.0.1"),
        (platform, "python_version", lambda: "2.7.18"),
    ):
        with monkeypatch.context() as m:
            m.setattr(module, attribute, value)
            assert engine.source_digest(root) != before, module.__name__
    assert engine.source_digest(root) == before


def test_the_write_guard_sees_a_file_written_removed_or_rewritten(tmp_path):
    """tests/writes.py, which fails the run on a write to the checkout (or a folder it is given),
    sees each kind of write, and not the checkout's own build folders."""
    from writes import changes, snapshot

    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "index.md").write_text("home")
    (tmp_path / "docs" / "old.md").write_text("old")
    (tmp_path / "build").mkdir()
    cache = tmp_path / "cache"
    cache.mkdir()
    before = snapshot(tmp_path / "docs", (tmp_path / "build", cache))
    assert changes(before, snapshot(tmp_path / "docs", (tmp_path / "build", cache))) == []
    (tmp_path / "docs" / "new.md").write_text("new")
    (tmp_path / "docs" / "old.md").unlink()
    (tmp_path / "docs" / "index.md").write_text("home, longer")
    (cache / "lemmas.txt").write_text("x")
    after = snapshot(tmp_path / "docs", (tmp_path / "build", cache))
    assert changes(before, after) == [
        f"written: {cache / 'lemmas.txt'}",
        f"written: {tmp_path / 'docs' / 'new.md'}",
        f"removed: {tmp_path / 'docs' / 'old.md'}",
        f"rewritten: {tmp_path / 'docs' / 'index.md'}",
    ]
    root = tmp_path / "checkout"
    (root / "build" / "site-wheels").mkdir(parents=True)
    first = snapshot(root, ())
    (root / "build" / "site-wheels" / "sympy.whl").write_text("wheel")
    (root / ".venv").mkdir()
    (root / ".venv" / "x").write_text("x")
    assert changes(first, snapshot(root, ())) == []
    (root / ".hypothesis").mkdir()
    (root / ".hypothesis" / "db").write_text("x")
    assert changes(first, snapshot(root, ())) == [f"written: {root / '.hypothesis' / 'db'}"]
