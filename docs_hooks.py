"""MkDocs hooks: serve KaTeX from the npm package when it is installed, from a CDN otherwise.

The tests and CI install KaTeX with npm (see package.json), so the built site renders math with
no network access; the files are copied into the built site, not into docs/.
"""

from __future__ import annotations

import shutil
from pathlib import Path

KATEX = Path(__file__).parent / "node_modules" / "katex" / "dist"
CDN = "https://cdn.jsdelivr.net/npm/katex@0.16.22/dist"
ASSETS = ("katex.min.js", "contrib/auto-render.min.js")


def on_config(config, **kwargs):
    base = "assets/katex" if KATEX.is_dir() else CDN
    scripts = [f"{base}/{name}" for name in ASSETS]
    config["extra_javascript"] = scripts + list(config["extra_javascript"])
    config["extra_css"] = [f"{base}/katex.min.css", *config["extra_css"]]
    return config


def on_post_build(config, **kwargs):
    if KATEX.is_dir():
        target = Path(config["site_dir"]) / "assets" / "katex"
        shutil.copytree(KATEX, target, dirs_exist_ok=True)
