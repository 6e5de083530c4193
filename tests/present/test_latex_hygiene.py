"""LaTeX lives in raw strings: no escape sequence eats a backslash command, nothing ships a control character.

In a non-raw string, "\\text" is a TAB and "ext", "\\frac" a form feed and "rac": the docs would
show d_{<TAB>ext{model}}. Two checks: a scan of the source for such literals, and a scan of
everything generated (docs/ and every derivation rendered three ways) for control characters.
"""

from __future__ import annotations

import io
import re
import tokenize
from pathlib import Path

import pytest

import derivations
from symattn.present.proof_render import to_latex, to_markdown, to_text

ROOT = Path(__file__).resolve().parents[2]
SOURCES = sorted([*ROOT.glob("symattn/**/*.py"), *ROOT.glob("derivations/*.py")])

# An escape a Python string would turn into a control character, followed by the rest of a
# LaTeX command it swallowed: \t+ext, \f+rac, \b+egin, \r+ight, \a+lpha, \v+ec, \n+abla ...
SWALLOWED = re.compile(
    r"(?<!\\)(?:\\\\)*\\(t(?:ext|imes|ilde|heta|frac|au|op|riangle|extbf|fcase)"
    r"|f(?:rac|orall)|b(?:egin|ar|oxed|eta|inom|f\b|m)|r(?:ight|ho|m\b|angle)"
    r"|a(?:lpha|pprox|lign)|v(?:ec|ert|arepsilon)|n(?:abla|eq|u\b|ot|ewline|i\b|orm))"
)


def _non_raw_strings(path: Path) -> list[tuple[int, str]]:
    out = []
    for tok in tokenize.generate_tokens(io.StringIO(path.read_text()).readline):
        if tok.type != tokenize.STRING and tok.type != getattr(tokenize, "FSTRING_START", -1):
            continue
        prefix = re.match(r"[A-Za-z]*", tok.string).group(0).lower()
        if "r" not in prefix:
            out.append((tok.start[0], tok.string))
    return out


def test_the_scan_finds_a_swallowed_command(tmp_path):
    """The checker itself: a planted non-raw "\\text" is found, a raw one is not."""
    bad = tmp_path / "bad.py"
    bad.write_text('A = "$d_{\\text{model}}$"\nB = r"$d_{\\text{model}}$"\nC = "\\\\frac{1}{2}"\n')
    hits = [line for line, s in _non_raw_strings(bad) if SWALLOWED.search(s)]
    assert hits == [1]


@pytest.mark.parametrize("path", SOURCES, ids=[str(p.relative_to(ROOT)) for p in SOURCES])
def test_no_latex_command_in_a_non_raw_string(path):
    hits = [(line, s) for line, s in _non_raw_strings(path) if SWALLOWED.search(s)]
    assert not hits, f"{path.name}: LaTeX in non-raw strings (use r'...'): {hits}"


CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")


def test_generated_docs_have_no_control_characters():
    files = [p for p in (ROOT / "docs").rglob("*") if p.suffix in (".md", ".tex")]
    # every page and the LaTeX document (the pages themselves are listed by tests/present/test_site.py)
    assert {"index.md", "audit.md", "audit-texts.md", "derivations.tex"} <= {p.name for p in files}
    for p in files:
        text = p.read_text()
        assert not CONTROL.search(text), f"{p.relative_to(ROOT)} has a control character"


@pytest.mark.parametrize("name", derivations.NAMES)
def test_rendered_derivations_have_no_control_characters(verify, name):
    d, report = verify(name)
    for render in (to_latex, to_markdown, to_text):
        text = render(d, report)
        bad = CONTROL.search(text)
        near = text[max(0, bad.start() - 30) : bad.end() + 30] if bad else ""
        assert not bad, f"{render.__name__}({name}) has {bad.group(0)!r} near {near!r}"
