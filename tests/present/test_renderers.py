"""Every LaTeX fragment symattn emits, rendered by real renderers: KaTeX (node) and pdflatex."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from symattn.core.exact import attention
from symattn.grading.exercises import EXERCISES
from symattn.present.render import to_latex as attention_latex

ROOT = Path(__file__).resolve().parents[2]

KATEX_SCRIPT = Path(__file__).parents[1] / "katex_check.js"


def _math_in_markdown(name: str, text: str) -> list[dict]:
    items = []
    for k, m in enumerate(re.finditer(r"\$\$\n?(.*?)\n?\$\$", text, re.S)):
        items.append({"id": f"{name} display {k}", "tex": m.group(1), "display": True})
    inline_text = re.sub(r"\$\$.*?\$\$", "", text, flags=re.S)
    inline_text = re.sub(r"`[^`]*`", "", inline_text)
    for k, m in enumerate(re.finditer(r"\$([^$\n]+?)\$", inline_text)):
        items.append({"id": f"{name} inline {k}", "tex": m.group(1), "display": False})
    return items


def _fragments(generated) -> list[dict]:
    items = []
    for rel, data in generated.files.items():
        if rel.endswith(".md"):
            items += _math_in_markdown(rel, data.decode())
    tex = generated.files["latex/derivations.tex"].decode()
    for k, m in enumerate(re.finditer(r"\\begin\{align\*\}.*?\\end\{align\*\}", tex, re.S)):
        items.append({"id": f"derivations.tex align {k}", "tex": m.group(0), "display": True})
    q, k_, v = [[3, -3], [1, 1]], [[-3, 3], [1, 1]], [[0, -1], [1, 2]]
    for mask in ("none", "causal", "causal:bottom-right", "padding:1"):
        items.append(
            {"id": f"attention {mask}", "tex": attention_latex(attention(q, k_, v, mask)), "display": True}
        )
    for e in EXERCISES.values():
        if e.checkable:
            items.append({"id": f"{e.id} expected", "tex": e.expected.latex(), "display": True})
    return items


@pytest.mark.xdist_group("generated")  # one `symattn build` per run, not one per worker
def test_katex_renders_every_fragment(generated):
    """KaTeX (throwOnError, strict) renders every formula in the docs, the LaTeX document's
    align* blocks, attention output and the exercises' expected answers."""
    node = shutil.which("node")
    assert node, "node is needed (scripts/test.sh installs it)"
    assert (ROOT / "node_modules" / "katex").is_dir(), "run `npm ci` (scripts/test.sh does)"
    items = _fragments(generated)
    assert len(items) == 975
    run = subprocess.run(
        [node, str(KATEX_SCRIPT)],
        input=json.dumps(items),
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
    )
    failures = json.loads(run.stdout)
    assert failures == []


@pytest.mark.xdist_group("generated")  # one `symattn build` per run, not one per worker
def test_standalone_document_compiles(generated, tmp_path):
    """docs/latex/derivations.tex compiles with pdflatex: no errors, no undefined commands."""
    pdflatex = shutil.which("pdflatex")
    assert pdflatex, "pdflatex is needed (scripts/test.sh installs Debian's texlive)"
    source = tmp_path / "derivations.tex"
    source.write_bytes(generated.files["latex/derivations.tex"])
    run = subprocess.run(
        [pdflatex, "-interaction=nonstopmode", "-halt-on-error", source.name],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    log = (tmp_path / "derivations.log").read_text(errors="replace")
    assert run.returncode == 0, log[-3000:]
    assert "Undefined control sequence" not in log
    assert not re.search(r"^! ", log, re.M)
    assert (tmp_path / "derivations.pdf").stat().st_size > 10_000


# The built site in Chromium, page by page: tests/present/test_site_pages.py.
