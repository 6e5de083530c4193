"""How the benchmarks and the tests start the system's Chromium: headless-ready flags for a
machine as root with no network but loopback (without the background-networking flags Chromium
keeps trying hosts it cannot reach). Never a downloaded browser."""

from __future__ import annotations

import shutil

FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def executable() -> str | None:
    """The system's Chromium (Debian's package), or None."""
    return shutil.which("chromium") or shutil.which("chromium-browser")
