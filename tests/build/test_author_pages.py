"""Where the authors' pages find their example plugin (symattn/build/author_pages.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from symattn.build import author_pages
from symattn.errors import SymattnError

ROOT = Path(__file__).resolve().parents[2]


def test_an_installed_symattn_finds_the_example_in_the_checkout_it_runs_in(monkeypatch, tmp_path):
    """`pip install .` (not editable) puts the module outside the checkout: `symattn build` run in
    the checkout still finds tests/example_plugin there; run anywhere else it says why, in one line."""
    monkeypatch.setattr(author_pages, "__file__", str(tmp_path / "site-packages" / "symattn" / "x.py"))
    monkeypatch.chdir(ROOT / "docs")
    assert author_pages.example_folder() == ROOT / "tests" / "example_plugin"
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SymattnError, match="source checkout"):
        author_pages.example_folder()
