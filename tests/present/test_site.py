"""`symattn build` (symattn/present/site.py): docs/ is generated, deterministic and in sync."""

from __future__ import annotations

from pathlib import Path

import pytest

from symattn.cli import main
from symattn.present.site import compare, write

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.xdist_group("generated")  # one `symattn build` per run, not one per worker
@pytest.mark.pinned  # docs/ byte for byte: the versions of constraints.txt made it
def test_docs_are_in_sync(generated):
    """Regenerating docs/ gives exactly the committed files (run `symattn build` if this fails)."""
    stale = compare(generated.files, ROOT / "docs")
    assert stale == [], "docs/ is stale; run `symattn build`: " + ", ".join(stale)
    assert generated.ok


@pytest.mark.xdist_group("generated")  # one `symattn build` per run, not one per worker
def test_expected_pages(generated):
    """An index, the worked example, one page per derivation, exercises, labs, figures, LaTeX."""
    import derivations

    names = set(generated.files)
    assert {
        "index.md",
        "worked-example.md",
        "exercises.md",
        "labs.md",
        "latex/derivations.tex",
        "figures/score-histograms.svg",
        "figures/saturation.svg",
    } <= names
    assert {f"derivations/{n}.md" for n in derivations.NAMES} <= names
    labs = generated.files["labs.md"].decode()
    assert "consistent" in labs and "![" in labs
    assert "| query 2 |" in generated.files["worked-example.md"].decode()


@pytest.mark.xdist_group("generated")  # one `symattn build` per run, not one per worker
def test_no_timestamps_or_timings(generated):
    """Nothing that changes between runs (dates, seconds) is written."""
    for rel, data in generated.files.items():
        if rel.endswith((".md", ".tex")):
            text = data.decode()
            assert " s |" not in text and "2026" not in text, rel


def test_compare_lists_differences(tmp_path):
    """compare names files that differ, are missing, or were not generated."""
    files = {"a.md": b"one", "sub/b.md": b"two"}
    write(files, tmp_path)
    assert compare(files, tmp_path) == []
    (tmp_path / "a.md").write_bytes(b"changed")
    (tmp_path / "stray.md").write_bytes(b"x")
    (tmp_path / "benchmarks.md").write_bytes(b"written by bench/report.py")
    (tmp_path / "sub" / "b.md").unlink()
    assert compare(files, tmp_path) == ["a.md", "sub/b.md", "stray.md (not generated)"]


def test_check_mode_fails_on_a_stale_folder(tmp_path, capsys, monkeypatch):
    """build --check exits 1 and lists the stale files (generation stubbed to stay fast)."""
    import symattn.present.site as site

    monkeypatch.setattr(
        site, "generate", lambda progress=None: site.BuildResult({"index.md": b"new"}, "table\n", True)
    )
    (tmp_path / "index.md").write_bytes(b"old")
    assert main(["build", "--check", "--out", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert "index.md" in err and "symattn build" in err
    assert main(["build", "--out", str(tmp_path)]) == 0
    assert (tmp_path / "index.md").read_bytes() == b"new"
    assert main(["build", "--check", "--out", str(tmp_path)]) == 0
