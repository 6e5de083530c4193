"""What a test run wrote outside a temporary folder: the checkout's files, listed before the run
and after it (tests/conftest.py fails the run on any difference; the run's caches are its own,
in the temporary folder, so the user's are neither read nor watched).

The checkout's own build folders are left out: they belong to the checkout as its virtual
environments do (``build/site-checker``, the wheels and snapshots of the site's checker, is a
cache the site build keeps there on purpose; ``node_modules`` is npm's).
"""

from __future__ import annotations

import os
from pathlib import Path

#: Folders of the checkout a run may write: environments, npm's, build caches, tool caches.
OWN = frozenset(
    {".git", ".venv", ".venv-mathverify", ".venv-newest", ".venv-oldest", ".venv-readers",
     "node_modules", "build", "symattn.egg-info", ".ruff_cache", "__pycache__", ".pytest_cache"}
)

Snapshot = dict[str, tuple[int, int]]


def snapshot(root: Path, extra: tuple[Path, ...] = ()) -> Snapshot:
    """Every file under ``root`` (but the folders in :data:`OWN`) and under ``extra``, with its
    size and modification time in nanoseconds."""
    seen: Snapshot = {}
    for top in (root, *extra):
        for folder, dirs, files in os.walk(top):
            dirs[:] = [d for d in dirs if d not in OWN]
            for name in files:
                path = os.path.join(folder, name)
                try:
                    info = os.lstat(path)
                except OSError:  # removed while walked
                    continue
                seen[path] = (info.st_size, info.st_mtime_ns)
    return seen


def changes(before: Snapshot, after: Snapshot) -> list[str]:
    """Files added, removed or rewritten between the two snapshots, one line each."""
    lines = [f"written: {p}" for p in sorted(after) if p not in before]
    lines += [f"removed: {p}" for p in sorted(before) if p not in after]
    lines += [f"rewritten: {p}" for p in sorted(before) if p in after and before[p] != after[p]]
    return lines
