"""Every LaTeX fragment symattn emits, rendered by real renderers: KaTeX (node) and pdflatex."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from symattn.core.exact import attention
from symattn.grading.exercises import EXERCISES
from symattn.present.render import to_latex as attention_latex

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))

from _chromium import FLAGS  # noqa: E402

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
    assert len(items) > 200
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


@pytest.mark.parametrize("page", ["worked-example", "derivations/variance_scaling"])
def test_site_renders_math_in_chromium(page, tmp_path):
    """The mkdocs site builds with --strict; in headless Chromium its math is typeset by KaTeX
    (katex elements present, no raw $$ left), and a screenshot is taken."""
    import sys

    mkdocs = Path(sys.executable).with_name("mkdocs")
    site = tmp_path / "site"
    subprocess.run(
        [str(mkdocs), "build", "--strict", "--site-dir", str(site)], cwd=ROOT, check=True, capture_output=True
    )
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    assert chromium, "chromium is needed (scripts/test.sh installs Debian's chromium)"
    url = (site / page / "index.html").as_uri()
    flags = [
        chromium,
        "--headless",
        *FLAGS,
        f"--user-data-dir={tmp_path / 'profile'}",
        "--virtual-time-budget=8000",
        "--window-size=1200,1400",
    ]
    dom = subprocess.run([*flags, "--dump-dom", url], capture_output=True, text=True, timeout=120)
    html = dom.stdout
    assert html.count('class="katex"') > 20
    visible = re.sub(r"<annotation.*?</annotation>", "", html, flags=re.S)
    visible = re.sub(r"<script.*?</script>", "", visible, flags=re.S)
    assert "$$" not in re.sub(r"<[^>]+>", "", visible)
    shot = tmp_path / "shot.png"
    subprocess.run([*flags, f"--screenshot={shot}", url], capture_output=True, timeout=120)
    import matplotlib.image

    pixels = matplotlib.image.imread(shot)
    assert pixels.shape[0] >= 1000 and pixels.std() > 0.05


_WIDTH_PROBE = """
<script>
window.addEventListener("load", () => setTimeout(() => {
  const wide = [];
  document.querySelectorAll(".arithmatex, .katex-display, .md-typeset__scrollwrap").forEach((el) => {
    if (el.scrollWidth > el.clientWidth + 1) {
      wide.push(`${el.scrollWidth} > ${el.clientWidth}: ${(el.textContent || "").slice(0, 60)}`);
    }
  });
  const report = document.createElement("pre");
  report.id = "width-report";
  report.textContent = JSON.stringify({
    page: document.documentElement.scrollWidth, window: window.innerWidth,
    katex: document.querySelectorAll(".katex").length, wide,
  });
  document.body.appendChild(report);
}, 1500));
</script>
"""

WIDE_PAGES = [
    "worked-example",
    "derivations/attention_by_hand",
    "derivations/variance_scaling",
    "derivations/score_reduction",
    "derivations/softmax_jacobian",
    "derivations/permutation_equivariance",
    "derivations/multihead_flops",
    "write-a-derivation",
]


def test_no_math_hides_behind_a_scroll_bar_at_1280_pixels(tmp_path):
    """In headless Chromium at a 1280-pixel window, after KaTeX has typeset every page with
    derivations, no display of math is wider than its box (nothing needs a horizontal scroll bar)
    and the page itself is no wider than the window; a screenshot is taken as well."""
    import sys

    mkdocs = Path(sys.executable).with_name("mkdocs")
    site = tmp_path / "site"
    subprocess.run(
        [str(mkdocs), "build", "--strict", "--site-dir", str(site)], cwd=ROOT, check=True, capture_output=True
    )
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    assert chromium, "chromium is needed (scripts/test.sh installs Debian's chromium)"
    flags = [
        chromium, "--headless", *FLAGS,
        f"--user-data-dir={tmp_path / 'profile'}", "--virtual-time-budget=10000", "--window-size=1280,900",
    ]
    problems = []
    for page in WIDE_PAGES:
        html = site / page / "index.html"
        probe = html.with_name("probe.html")
        probe.write_text(html.read_text().replace("</body>", _WIDTH_PROBE + "</body>"))
        dom = subprocess.run(
            [*flags, "--dump-dom", probe.as_uri()], capture_output=True, text=True, timeout=180
        )
        found = re.search(r'<pre id="width-report">(.*?)</pre>', dom.stdout, re.S)
        assert found, f"{page}: the width probe did not run"
        report = json.loads(found.group(1).replace("&gt;", ">").replace("&lt;", "<").replace("&amp;", "&"))
        assert report["window"] == 1280 and report["katex"] > 0, report
        if report["page"] > report["window"] or report["wide"]:
            problems.append(f"{page}: {report}")
    shot = tmp_path / "shot.png"
    subprocess.run(
        [*flags, f"--screenshot={shot}", (site / WIDE_PAGES[-1] / "index.html").as_uri()],
        capture_output=True,
        timeout=120,
    )
    assert shot.stat().st_size > 10_000
    assert not problems, "\n".join(problems)
