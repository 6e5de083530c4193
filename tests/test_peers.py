"""tests/peers.py: a missing peer skips a test, except where the run requires it; CI requires
every peer its environments have."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from peers import missing

ROOT = Path(__file__).resolve().parent.parent


def test_a_missing_peer_skips_where_it_is_not_required(monkeypatch):
    monkeypatch.setenv("SYMATTN_REQUIRED_PEERS", "math-verify")
    with pytest.raises(pytest.skip.Exception, match="torch: it is not installed"):
        missing("torch", "it is not installed")


def test_a_missing_peer_fails_where_it_is_required(monkeypatch):
    monkeypatch.setenv("SYMATTN_REQUIRED_PEERS", "torch, math-verify")
    with pytest.raises(pytest.fail.Exception, match="torch is required here"):
        missing("torch", "it is not installed")


def test_ci_requires_every_peer_each_run_installs():
    """The first run (scripts/test.sh installs torch and Math-Verify) requires both; the second,
    on a Python torch has no wheel for here, requires Math-Verify."""
    ci = (ROOT / ".ci" / "run").read_text()
    first = re.search(r"^SYMATTN_REQUIRED_PEERS=(\S+) bash scripts/test\.sh", ci, re.M)
    second = re.search(r"^SYMATTN_REQUIRED_PEERS=(\S+) \\\n\s+\.venv-newest/bin/python -m pytest", ci, re.M)
    assert first and set(first.group(1).split(",")) == {"torch", "math-verify"}
    assert second and second.group(1) == "math-verify"


def test_collecting_the_torch_peer_imports_no_torch():
    """Every pytest worker collects tests/core/test_peers_torch.py; a worker that imported torch
    there would fork the checker's workers more than twice as slowly all run long."""
    code = "import sys, test_peers_torch; print(sorted(m for m in sys.modules if m.split('.')[0] == 'torch'))"
    paths = os.pathsep.join(str(ROOT / "tests" / part) for part in ("", "core"))
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          env=os.environ | {"PYTHONPATH": paths}, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "[]"


def test_every_test_of_the_torch_peer_takes_the_torch_fixture():
    """tests/groups.py runs last the users of the ``torch`` fixture: a test of that file that
    imported torch itself would run anywhere in a worker's order, and import it early."""
    import ast

    tree = ast.parse((ROOT / "tests" / "core" / "test_peers_torch.py").read_text(encoding="utf-8"))
    tests = [f for f in tree.body if isinstance(f, ast.FunctionDef) and f.name.startswith("test_")]
    assert len(tests) >= 10
    assert [f.name for f in tests if "torch" not in [a.arg for a in f.args.args]] == []
