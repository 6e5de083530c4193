"""The test peers (PyTorch, Math-Verify): a test that needs one skips, saying why, where the peer
is absent, except for the peers SYMATTN_REQUIRED_PEERS names, comma-separated; there it fails.
scripts/test.sh (the README's test command) requires torch and Math-Verify, and `.ci/run` names
every peer each of its environments has, so there a missing peer fails the run rather than
passing it quietly. (Chromium is always required: tests/present/conftest.py.)"""

from __future__ import annotations

import os
from typing import NoReturn

import pytest

#: The names SYMATTN_REQUIRED_PEERS may hold (COURSE_MODULE below is the last).
KNOWN = ("torch", "math-verify", "course-module")


def required() -> set[str]:
    return {p.strip() for p in os.environ.get("SYMATTN_REQUIRED_PEERS", "").split(",") if p.strip()}


def unknown() -> list[str]:
    """The names in SYMATTN_REQUIRED_PEERS that are no peer's (a misspelt one would require
    nothing); tests/conftest.py refuses to run with any."""
    return sorted(required() - set(KNOWN))


#: Not a peer but an input from outside the repository, named like one: the course module that
#: pyproject.toml's ``[tool.symattn] module`` names, from which `symattn build` makes docs/audit.md.
#: Without it the build keeps the committed page, and the tests check that (tests/build/
#: test_site.py); .ci/run, whose machine has it, requires it, so there audit.md is compared too.
COURSE_MODULE = KNOWN[2]


def missing(peer: str, why: str) -> NoReturn:
    """Skip (or, for a required peer, fail) a test whose peer is absent; at a module's top level
    too."""
    unless_required(peer, why)
    pytest.skip(f"{peer}: {why}", allow_module_level=True)


def unless_required(peer: str, why: str) -> None:
    """Fails the test where ``peer`` is absent and required; elsewhere returns, for a test that goes
    on to check what it can without it."""
    if peer in required():
        pytest.fail(f"{peer} is required here (SYMATTN_REQUIRED_PEERS) but {why}", pytrace=False)
