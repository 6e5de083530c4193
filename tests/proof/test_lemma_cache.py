"""The lemma cache's key covers every module of symattn's subpackages and of derivations."""

from __future__ import annotations

import shutil
from pathlib import Path

from symattn.proof.engine import source_digest

ROOT = Path(__file__).resolve().parents[2]


def test_the_key_changes_with_any_module_at_any_depth(tmp_path):
    """Editing, adding or moving a module anywhere under symattn/ or derivations/ changes it."""
    for top in ("symattn", "derivations"):
        shutil.copytree(ROOT / top, tmp_path / top, ignore=shutil.ignore_patterns("__pycache__"))
    package = tmp_path / "symattn"
    seen = {source_digest(package)}
    assert source_digest(package) in seen  # the same tree gives the same key

    nested = package / "grading" / "audit" / "words.py"
    nested.write_text(nested.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    seen.add(source_digest(package))
    (package / "core" / "new_mask_kind.py").write_text("X = 1\n", encoding="utf-8")
    seen.add(source_digest(package))
    (package / "core" / "new_mask_kind.py").rename(package / "labs" / "new_mask_kind.py")  # same bytes
    seen.add(source_digest(package))
    (tmp_path / "derivations" / "new_derivation.py").write_text("Y = 2\n", encoding="utf-8")
    seen.add(source_digest(package))
    assert len(seen) == 5


def test_the_installed_tree_is_what_is_hashed():
    """The engine hashes the package it lives in, from its root (not only the proof folder)."""
    import symattn

    assert source_digest(Path(symattn.__file__).parent) == source_digest(ROOT / "symattn")
