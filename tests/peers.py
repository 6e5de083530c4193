"""The test peers (PyTorch, Math-Verify): a test that needs one skips, saying why, where the peer
is absent, except for the peers SYMATTN_REQUIRED_PEERS names, comma-separated; there it fails.
scripts/test.sh (the README's test command) requires torch and Math-Verify, and `.ci/run` names
every peer each of its environments has, so there a missing peer fails the run rather than
passing it quietly. (Chromium is always required: tests/present/conftest.py.)"""

from __future__ import annotations

import os
from typing import NoReturn

import pytest


def required() -> set[str]:
    return {p.strip() for p in os.environ.get("SYMATTN_REQUIRED_PEERS", "").split(",") if p.strip()}


def missing(peer: str, why: str) -> NoReturn:
    """Skip (or, for a required peer, fail) a test whose peer is absent; at a module's top level
    too."""
    if peer in required():
        pytest.fail(f"{peer} is required here (SYMATTN_REQUIRED_PEERS) but {why}", pytrace=False)
    pytest.skip(f"{peer}: {why}", allow_module_level=True)
