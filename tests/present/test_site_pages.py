"""Every page of the built site, looked at in headless Chromium at a 1280-pixel window.

The pages come from docs/ itself (every Markdown file mkdocs turns into a page), so a page
added later is covered without editing this file. Each page is loaded with every ``<details>``
opened, after KaTeX has typeset it, and measured as a reader would meet it:

- nothing needs a horizontal scroll bar outside code blocks (no table or formula wider than
  the text column, and the page no wider than the window);
- KaTeX reports no error, and no math is left untypeset (``$$``, ``\\(``, ``$x$``);
- no word-shaped run of three or more italic math letters side by side (a capital at most
  first): English set as math (``d_{model}`` shows "model" as a product of five variables),
  where ``e^{atK}`` is a product of three;
- on the pages symattn generates, no ASCII math in the prose (``sqrt(``, ``d_k``, ``N^2``,
  ``**``): math there is typeset.
"""

from __future__ import annotations

import contextlib
import re
from pathlib import Path

import pytest

pytestmark = [pytest.mark.xdist_group("browser"), pytest.mark.browser]

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"


def _pages() -> list[str]:
    """The site path of every page: docs/a/b.md is a/b/, docs/index.md is the home page."""
    pages = []
    for md in sorted(DOCS.rglob("*.md")):
        rel = md.relative_to(DOCS).with_suffix("").as_posix()
        if rel.startswith("latex/"):  # excluded from the site (mkdocs.yml exclude_docs)
            continue
        pages.append("" if rel == "index" else rel + "/")
    return pages


PAGES = _pages()

#: The pages `symattn build` writes from the code (the guide's prose and the benchmark pages are
#: written by hand or by bench/, where a command or a measured setting is quoted as typed).
GENERATED = re.compile(r"^(|worked-example/|derivations/.*|exercises/.*|audit/|labs/)$")

_WAIT_FOR_KATEX = """() => [...document.querySelectorAll('.arithmatex')]
    .every((el) => el.querySelector('.katex, .katex-error'))"""

_LOOK = r"""() => {
  const details = [...document.querySelectorAll("details")];
  details.forEach((d) => { d.open = true; });
  const content = document.querySelector(".md-content");
  const inCode = (el) => !!el.closest("pre, code");
  const wide = [];
  for (const el of content.querySelectorAll("*")) {
    if (inCode(el)) continue;
    const overflow = getComputedStyle(el).overflowX;
    if ((overflow === "auto" || overflow === "scroll") && el.scrollWidth > el.clientWidth + 1) {
      wide.push(`${el.tagName.toLowerCase()}.${el.className} ${el.scrollWidth}px in ${el.clientWidth}px: `
        + (el.textContent || "").replace(/\s+/g, " ").slice(0, 80));
    }
  }
  const errors = [...content.querySelectorAll(".katex-error")]
    .map((e) => (e.getAttribute("title") || "") + ": " + e.textContent);
  for (const el of content.querySelectorAll(".katex-html")) {  // an unknown command shows as its name
    if (el.textContent.includes("\\")) errors.push("unsupported command: " + el.textContent.slice(0, 80));
  }
  for (const el of content.querySelectorAll(".arithmatex")) {
    if (!el.querySelector(".katex, .katex-error")) errors.push("not typeset: " + el.textContent.slice(0, 80));
  }
  const italic = [];
  for (const root of content.querySelectorAll(".katex-html")) {
    let run = [];
    const flush = () => {
      const word = run.map((s) => s.textContent).join("");
      if (/^[A-Za-z][a-z]{2,}$/.test(word)) {  // word-shaped: e^{atK} is a product, "model" a word
        const tex = root.closest(".katex").querySelector("annotation");
        italic.push(word + " in " + (tex ? tex.textContent : "")
          .replace(/\s+/g, " ").slice(0, 100));
      }
      run = [];
    };
    let last = null;
    for (const s of root.querySelectorAll(".mathnormal")) {
      const letter = /^[A-Za-z]$/.test(s.textContent);
      if (!(letter && last && s.previousElementSibling === last)) flush();
      if (letter) run.push(s);
      last = s;
    }
    flush();
  }
  const prose = [];
  const walker = document.createTreeWalker(content, NodeFilter.SHOW_TEXT, {
    acceptNode: (n) => n.parentElement.closest("pre, code, .katex, .arithmatex, script, style")
      ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT,
  });
  for (let n = walker.nextNode(); n; n = walker.nextNode()) prose.push(n.textContent);
  return {
    window: innerWidth, page: document.documentElement.scrollWidth, details: details.length,
    opened: details.filter((d) => d.open).length, katex: content.querySelectorAll(".katex").length,
    wide, errors, italic, prose,
  };
}"""

#: Math left as source in the prose: display or inline delimiters arithmatex did not take.
RAW_MATH = re.compile(r"\$\$|\\\(|\\\[|\$[^$\s][^$]*\$")
#: ASCII math in prose: a subscript, a power, sqrt( or exp(, Python's **, a LaTeX command.
ASCII_MATH = re.compile(
    r"\b[A-Za-z]_[A-Za-z0-9{(]|\bsqrt\(|\bexp\(|[A-Za-z0-9)\]]\^[-A-Za-z0-9{(]|\*\*|\\[A-Za-z]+"
)


@pytest.fixture(scope="module")
def reader(browser):
    """One tab at 1280 x 900 pixels that visits every page in turn."""
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    yield page
    page.close()


def look(reader, url: str) -> dict:
    """What the page shows once KaTeX has typeset it (math KaTeX never took is reported, so
    the wait ends either way)."""
    reader.goto(url)
    with contextlib.suppress(Exception):  # playwright's TimeoutError: the look says what is left
        reader.wait_for_function(_WAIT_FOR_KATEX, timeout=20_000)
    return reader.evaluate(_LOOK)


def test_the_pages_are_the_sites_pages(site):
    """The list walked below is every page the site has (no page escapes the test)."""
    built = {
        p.parent.relative_to(site).as_posix()
        for p in site.rglob("index.html")
        if p.relative_to(site).parts[0] not in {"pyodide", "checker", "search", "assets"}
    }
    assert {p.rstrip("/") or "." for p in PAGES} == built


@pytest.mark.parametrize("path", PAGES, ids=lambda p: p.rstrip("/") or "home")
def test_every_page_reads_well_at_1280_pixels(reader, base, path):
    seen = look(reader, base + path)
    assert seen["window"] == 1280 and seen["opened"] == seen["details"]
    problems = []
    if seen["page"] > seen["window"]:
        problems.append(f"the page is {seen['page']}px wide in a {seen['window']}px window")
    problems += [f"scrolls sideways: {w}" for w in seen["wide"]]
    problems += [f"KaTeX error: {e}" for e in seen["errors"]]
    problems += [f"English in math italics: {i}" for i in seen["italic"]]
    prose = " ".join(seen["prose"])
    problems += [f"math left untypeset: {m.group(0)!r}" for m in RAW_MATH.finditer(prose)]
    if GENERATED.match(path):
        for text in seen["prose"]:
            found = ASCII_MATH.search(text)
            if found:
                problems.append(f"ASCII math in prose: {found.group(0)!r} in {' '.join(text.split())[:90]!r}")
    assert not problems, "\n".join(problems)


def test_the_probe_sees_each_fault_it_looks_for(reader, base, site):
    """The checks above, planted on a page of the site: each fault is reported."""
    planted = site / "planted.html"  # beside the home page, so its relative links hold
    home = (site / "index.html").read_text(encoding="utf-8")
    faults = (
        '<table><tr><td style="white-space:nowrap">' + "wide " * 400 + "</td></tr></table>"
        '<p><span class="arithmatex">\\(\\frac{1}{2}\\notacommand\\)</span></p>'
        '<p><span class="arithmatex">\\(x^1^2\\)</span></p>'
        '<p><span class="arithmatex">\\(\\frac{1}{\\)</span></p>'
        '<p><span class="arithmatex">\\(d_{model} + e^{atK}\\)</span></p>'
        "<p>the score is sqrt(d_k) and $x$ stays raw</p>"
    )
    planted.write_text(home.replace('<article class="md-content__inner md-typeset">',
                                    '<article class="md-content__inner md-typeset">' + faults, 1))
    seen = look(reader, base + "planted.html")
    assert any("wide wide" in w for w in seen["wide"])
    assert any(e.startswith("unsupported") and "\\notacommand" in e for e in seen["errors"])
    assert any("Double superscript" in e for e in seen["errors"]), seen["errors"]
    assert any(e.startswith("not typeset") for e in seen["errors"])
    assert [i.split()[0] for i in seen["italic"]] == ["model"]  # not the product atK
    prose = " ".join(seen["prose"])
    assert RAW_MATH.search(prose).group(0) == "$x$"
    assert ASCII_MATH.search(prose).group(0) == "sqrt("


def test_a_page_is_seen_as_a_reader_sees_it(reader, base, tmp_path):
    """A screenshot of the home page at 1280 pixels is drawn (not blank), its math typeset."""
    look(reader, base)
    shot = tmp_path / "home.png"
    reader.screenshot(path=str(shot))
    import matplotlib.image

    pixels = matplotlib.image.imread(shot)
    assert pixels.shape[1] == 1280 and pixels.std() > 0.05
    assert reader.locator(".md-content .katex").count() > 0
