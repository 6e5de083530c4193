"""The built site, served from 127.0.0.1, and one headless Chromium for every browser test of
tests/present (they share the xdist group "browser", so one worker builds and launches once)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))

from _chromium import FLAGS, executable  # noqa: E402
from _site_server import serve  # noqa: E402


@pytest.fixture(scope="session")
def site(tmp_path_factory) -> Path:
    """`mkdocs build --strict` of docs/ (its hook puts Pyodide and its memory snapshot into the site)."""
    out = tmp_path_factory.mktemp("site") / "site"
    built = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert built.returncode == 0, f"mkdocs build --strict failed:\n{built.stderr[-4000:]}"
    return out


@pytest.fixture(scope="session")
def base(site):
    server = serve(site)
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()


@pytest.fixture(scope="session")
def browser():
    import playwright.sync_api as playwright  # the test extra installs it (never its browsers)

    chromium = executable()
    assert chromium, "chromium is needed (scripts/test.sh installs Debian's chromium)"
    with playwright.sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium, args=FLAGS)
        yield b
        b.close()
