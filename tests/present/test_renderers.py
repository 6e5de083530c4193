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


def _unread_dollars(text: str) -> int:
    """The dollar signs of a page that no fragment took (outside code): 0 when every formula
    was found, whatever their number."""
    text = re.sub(r"```.*?```", "", text, flags=re.S)
    text = re.sub(r"\$\$.*?\$\$", "", text, flags=re.S)
    text = re.sub(r"`[^`]*`", "", text)
    text = re.sub(r"\$([^$\n]+?)\$", "", text)
    return len(re.findall(r"(?<!\\)\$", text))


def _align_blocks(name: str, tex: str) -> list[dict]:
    """The align* environments of a LaTeX document, each a display fragment."""
    return [
        {"id": f"{name} align {k}", "tex": m.group(0), "display": True}
        for k, m in enumerate(re.finditer(r"\\begin\{align\*\}.*?\\end\{align\*\}", tex, re.S))
    ]


def _attention_and_answers(masks: tuple[str, ...]) -> list[dict]:
    """The worked example's attention output under each mask, and every checkable exercise's
    expected answer."""
    q, k_, v = [[3, -3], [1, 1]], [[-3, 3], [1, 1]], [[0, -1], [1, 2]]
    items = [
        {"id": f"attention {mask}", "tex": attention_latex(attention(q, k_, v, mask)), "display": True}
        for mask in masks
    ]
    return items + [
        {"id": f"{e.id} expected", "tex": e.expected.latex(), "display": True}
        for e in EXERCISES.values()
        if e.checkable
    ]


def _fragments(generated) -> list[dict]:
    """The formulas of the pages the site shows: those the build generated, and the committed
    page it keeps in place of one it could not (docs/audit.md, where the course module is absent)."""
    items = []
    kept = {rel: (ROOT / "docs" / rel).read_bytes() for rel in generated.placeholders}
    for rel, data in sorted((generated.files | kept).items()):
        if rel.endswith(".md"):
            items += _math_in_markdown(rel, data.decode())
            assert _unread_dollars(data.decode()) == 0, f"{rel}: a formula the fragments missed"
    items += _align_blocks("derivations.tex", generated.files["latex/derivations.tex"].decode())
    return items + _attention_and_answers(("none", "causal", "causal:bottom-right", "padding:1"))


@pytest.mark.xdist_group("generated")  # one `symattn build` per run, not one per worker
def test_katex_renders_every_fragment(generated):
    """KaTeX (throwOnError, strict) renders every formula in the docs, the LaTeX document's
    align* blocks, attention output and the exercises' expected answers."""
    items = _fragments(generated)  # every formula of every page (none left unread: _fragments)
    import derivations

    pages = {i["id"].split(" ")[0] for i in items}
    assert {f"derivations/{name}.md" for name in derivations.NAMES} <= pages
    assert _katex_failures(items) == []


def _katex_failures(items: list[dict]) -> list:
    node = shutil.which("node")
    assert node, "node is needed (scripts/test.sh installs it)"
    assert (ROOT / "node_modules" / "katex").is_dir(), "run `npm ci` (scripts/test.sh does)"
    run = subprocess.run(
        [node, str(KATEX_SCRIPT)], input=json.dumps(items), capture_output=True, text=True, cwd=ROOT,
        check=True,
    )
    return json.loads(run.stdout)


def test_katex_renders_every_derivations_page_and_latex_block(verify):
    """Without the build (CI's second run leaves the build out: this is where its SymPy, newer
    than constraints.txt's, prints the math KaTeX must render): each derivation's page and LaTeX
    block, attention output and the exercises' expected answers."""
    import derivations
    from symattn.present.proof_render import to_latex, to_latex_block, to_markdown

    items = []
    for name in derivations.NAMES:
        d, report = verify(name)
        items += _math_in_markdown(f"derivations/{name}.md", to_markdown(d, report, stable=True))
        items += _math_in_markdown(f"{name} notebook block", to_latex_block(d, report))
        items += _align_blocks(name, to_latex(d, report))
    items += _attention_and_answers(("causal",))
    assert len([i for i in items if " align " in i["id"]]) >= len(derivations.NAMES)
    # A fragment lost fails: every page's dollar signs are taken by some fragment.
    for name in derivations.NAMES:
        assert _unread_dollars(to_markdown(verify(name)[0], verify(name)[1], stable=True)) == 0, name
    assert _katex_failures(items) == []


def test_katex_check_finds_a_fragment_it_cannot_render():
    """The KaTeX check can fail: an undefined command and an unbalanced brace are reported."""
    items = [
        {"id": "good", "tex": r"\frac{1}{\sqrt{d_k}}", "display": False},
        {"id": "undefined", "tex": r"\notacommand{x}", "display": False},
        {"id": "brace", "tex": r"\frac{1}{2", "display": True},
    ]
    assert sorted(f["id"] for f in _katex_failures(items)) == ["brace", "undefined"]


def _assert_compiles(source: bytes, folder: Path) -> None:
    """Compiles ``source`` with pdflatex in ``folder``; asserts it compiled cleanly."""
    pdflatex = shutil.which("pdflatex")
    assert pdflatex, "pdflatex is needed (scripts/test.sh installs Debian's texlive)"
    (folder / "derivations.tex").write_bytes(source)
    run = subprocess.run(
        [pdflatex, "-interaction=nonstopmode", "-halt-on-error", "derivations.tex"],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=300,
    )
    log = (folder / "derivations.log").read_text(errors="replace")
    assert run.returncode == 0, log[-3000:]
    assert "Undefined control sequence" not in log
    assert not re.search(r"^! ", log, re.M)
    assert (folder / "derivations.pdf").stat().st_size > 10_000


@pytest.mark.xdist_group("generated")  # one `symattn build` per run, not one per worker
def test_standalone_document_compiles(generated, tmp_path):
    """docs/latex/derivations.tex compiles with pdflatex: no errors, no undefined commands."""
    _assert_compiles(generated.files["latex/derivations.tex"], tmp_path)


def test_the_document_of_the_verified_derivations_compiles(verify, tmp_path):
    """The same document made from the derivations without the build (CI's second run, at
    newer versions, leaves the build out): it compiles with pdflatex."""
    import derivations
    from symattn.build.site import _latex_document

    document = _latex_document({name: verify(name) for name in derivations.NAMES})
    assert document.count(r"\begin{align*}") >= len(derivations.NAMES)
    _assert_compiles(document.encode(), tmp_path)


def test_the_pdflatex_check_can_fail(tmp_path):
    """An undefined command fails the compile check."""
    broken = b"\\documentclass{article}\\begin{document}\\notacommand\\end{document}\n"
    with pytest.raises(AssertionError, match="Undefined control sequence"):
        _assert_compiles(broken, tmp_path)


# The built site in Chromium, page by page: tests/present/test_site_pages.py.
