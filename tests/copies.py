"""A copy of the repository to extend in a test: the registries' promise that a new mask kind
or derivation is one new file (and its tests), checked by adding one where nothing else changes."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

DILATED = '''
"""The dilated mask: a query sees every K-th key counted back from its own position."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .kind import MaskPart, positive


@dataclass(frozen=True)
class Dilated(MaskPart):
    """Query i sees keys j with j - i a multiple of ``step``."""

    kind = "dilated"
    usage = "dilated:K"
    forms = (("dilated:K", "query i sees keys j with j - i a multiple of K"),)
    examples = ("dilated:2", "dilated:3")

    step: int

    @classmethod
    def read(cls, args: list[str], word: str) -> Dilated:
        return cls(positive(args[0] if args else None, word))

    def sees(self, i: Any, j: Any, n: int, m: int) -> Any:
        return (j - i) % self.step == 0

    def spec(self) -> str:
        return f"dilated:{self.step}"
'''

DILATED_TEST = '''
"""The dilated mask kind, added as one file."""

import numpy as np

from symattn.core.masks import Mask


def test_dilated_two_sees_every_other_key():
    assert Mask.parse("causal+dilated:2").allowed(4, 4).astype(int).tolist() == [
        [1, 0, 0, 0], [0, 1, 0, 0], [1, 0, 1, 0], [0, 1, 0, 1]]
'''

DILATED_REFERENCE = """            elif kind == "dilated":
                grid[i, j] = (j - i) % arg == 0
"""


def copy_of_the_repository(tmp_path: Path) -> Path:
    """The repository's tracked files as they are in the working tree, in a folder of its own."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        check=True,
    ).stdout
    copy = tmp_path / "repo"
    for rel in filter(None, listed.decode().split("\0")):
        source = ROOT / rel
        if source.is_file():
            (copy / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, copy / rel)
    return copy


def add_dilated(copy: Path, with_tests: bool = True) -> None:
    """A mask kind ``dilated:K`` as one new module of symattn/core/masks/; with its tests (its
    loop in tests/reference.py, a test file) unless ``with_tests`` is false."""
    (copy / "symattn/core/masks/dilated.py").write_text(DILATED.lstrip())
    if not with_tests:
        return
    (copy / "tests/core/test_mask_dilated.py").write_text(DILATED_TEST.lstrip())
    reference = copy / "tests/reference.py"
    text = reference.read_text()
    anchor = '            elif kind == "none":\n'
    reference.write_text(text.replace(anchor, DILATED_REFERENCE + anchor, 1))


def run_in(copy: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(copy)}  # the copy's symattn before the installed one
    return subprocess.run([sys.executable, *args], cwd=copy, env=env, capture_output=True, text=True)


def add_derivation(copy: Path, name: str = "attention_by_hand_again", order: int = 15) -> None:
    """A derivation as one new module of derivations/: attention_by_hand's, under another name
    and place (its planted errors come with it, named for it)."""
    text = (copy / "derivations/attention_by_hand.py").read_text()
    text = text.replace('NAME = "attention_by_hand"', f'NAME = "{name}"', 1)
    text = text.replace("ORDER = 10 ", f"ORDER = {order} ", 1)
    old, new = 'TITLE = "Attention on two tokens, by hand"', 'TITLE = "Attention on two tokens, again"'
    text = text.replace(old, new, 1)
    (copy / f"derivations/{name}.py").write_text(text)
