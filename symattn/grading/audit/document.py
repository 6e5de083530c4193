"""Reading a module file: its lines, its formulas and every number it writes.

A module in the seed's Markdown format is read line by line. Fenced code (diagrams) and
headings are not read for claims; display math (``$$ ... $$``) becomes one formula line; in
prose every inline ``$...$`` is rewritten by :func:`symattn.grading.audit.calc.latex_to_plain` and kept
between ``⟨`` and ``⟩`` so rules can tell a formula from words. Links keep their text only.

Context is found by content, never by position: a line's *block* is its paragraph (or list,
or table), its *unit* is the exercise it belongs to (from an ``**Exercise (kind).**`` line to
the next one or the next heading), else its block.

:func:`number_spans` lists every number in a line's text; the audit accounts for each one:
part of a claim, a reference or a given (see :mod:`symattn.grading.audit.rules`), or reported as an
unchecked claim.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .calc import latex_to_plain
from .stated import Unreadable

#: An exercise's first line: ``**Exercise (apply).**``, or numbered ``**Exercise 6.3 (apply).**``.
EXERCISE = re.compile(r"\*\*Exercise(?: [\w.]+)? \((?P<kind>[a-z]+)\)\.\*\*")
NUMBER = re.compile(
    r"(?<![A-Za-z_\d.,])[-−]?\d{1,3}(?:,\d{3})+(?:\.\d+)?(?!\d)|(?<![A-Za-z_\d.,])[-−]?\d*\.?\d+(?!\d)"
)


@dataclass
class Line:
    number: int  # 1-based line of the file
    raw: str
    text: str  # prose, formulas as ⟨plain⟩
    kind: str  # prose, math, table, heading, code, blank
    block: int = -1
    unit: int = -1
    section: int = 0  # the heading it falls under (0 before the first)
    formulas: list[tuple[str, str, int, int]] = field(default_factory=list)  # latex, plain, start, end

    def sentences(self) -> list[tuple[int, int]]:
        """Spans of the sentences of the text (a formula is never split)."""
        spans, start, depth = [], 0, 0
        t = self.text
        for i, c in enumerate(t):
            depth += c == "⟨"
            depth -= c == "⟩"
            if (
                depth == 0
                and c in ".;:!?"
                and (i + 1 == len(t) or t[i + 1] == " ")
                and not _decimal_dot(t, i)
            ):
                spans.append((start, i + 1))
                start = i + 1
        if start < len(t):
            spans.append((start, len(t)))
        return spans

    def sentence_at(self, pos: int) -> tuple[int, int]:
        for a, b in self.sentences():
            if a <= pos < b:
                return a, b
        return 0, len(self.text)


def _decimal_dot(t: str, i: int) -> bool:
    return t[i] == "." and i > 0 and t[i - 1].isdigit() and i + 1 < len(t) and t[i + 1].isdigit()


@dataclass
class Document:
    lines: list[Line]
    #: (line, why, the line's text) for each stretch the reader could not read (:func:`read`).
    unread: list[tuple[int, str, str]] = field(default_factory=list)
    _blocks: dict[int, list[Line]] = field(default_factory=dict, repr=False)
    _units: dict[int, list[Line]] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        for x in self.lines:
            self._blocks.setdefault(x.block, []).append(x)
            self._units.setdefault(x.unit, []).append(x)

    def block(self, line: Line) -> list[Line]:
        return self._blocks.get(line.block, [])

    def block_number(self, n: int) -> list[Line]:
        return self._blocks.get(n, [])

    def unit(self, line: Line) -> list[Line]:
        return self._units.get(line.unit, [])

    def unit_text(self, line: Line) -> str:
        return "\n".join(x.text for x in self.unit(line))

    def block_text(self, line: Line) -> str:
        return "\n".join(x.text for x in self.block(line))

    def text(self) -> str:
        return "\n".join(x.text for x in self.lines)


#: Math delimiters as authors write them, display first (``$$`` before ``$``, ``\\[`` before
#: ``\[``): an opening, its closing, and whether the math is set apart (display) or inline.
DELIMITERS = (
    ("$$", "$$", True),
    ("\\\\[", "\\\\]", True),  # \\[ ... \\], as MathJax in Markdown is escaped
    ("\\[", "\\]", True),
    ("\\\\(", "\\\\)", False),
    ("\\(", "\\)", False),
    ("$", "$", False),
)
_DOLLAR = "\ufe69"  # a dollar sign written \$, kept out of the math (small dollar sign)
_OPENING = re.compile("|".join(re.escape(o) for o, _, _ in DELIMITERS) + r"|`+")


def read(text: str) -> Document:
    """The module as lines with their formulas, blocks and units.

    Math is found wherever its delimiters stand (:data:`DELIMITERS`): a display may open or
    close in the middle of a line (``\\end{aligned}$$`` and text after it), an inline formula
    may be wrapped over lines of one paragraph (it is read on the line where it starts). What
    cannot be read (a display never closed, an inline formula not closed in its paragraph) is
    listed in :attr:`Document.unread` with its line, never dropped in silence."""
    lines: list[Line] = []
    unread: list[tuple[int, str]] = []
    in_code = False
    display: tuple[int, str, list[str]] | None = None  # (first line, closing, parts)
    held: tuple[int, str, str] | None = None  # a line whose inline formula is still open: (n, raw, body)
    raws = text.splitlines()
    for n, raw in enumerate(raws, start=1):
        body = re.sub(r"^\s*>\s?", "", raw)  # blockquotes read as prose
        stripped = body.strip()
        if display is None and held is None:
            if stripped.startswith("```"):
                in_code = not in_code
                lines.append(Line(n, raw, "", "code"))
                continue
            if in_code:
                lines.append(Line(n, raw, "", "code"))
                continue
            if not stripped:
                lines.append(Line(n, raw, "", "blank"))
                continue
            if stripped.startswith("#"):
                lines.append(Line(n, raw, "", "heading"))
                continue
        if held is not None:
            if not stripped:  # the paragraph ends with the formula still open
                unread.append((held[0], "an inline formula opened here is not closed in its paragraph"))
                lines.append(_prose(held[0], held[1], held[2], "prose"))
                lines.append(Line(n, raw, "", "blank"))
                held = None
                continue
            n_first, raw_first, before = held
            display, held = _scan(n_first, raw_first, before + " " + stripped, display, lines)
            lines.append(Line(n, raw, "", "prose"))  # read on the line where the formula opened
            continue
        display, held = _scan(n, raw, stripped, display, lines)
    if display is not None:
        unread.append((display[0], "display math opened here is never closed"))
    if held is not None:
        unread.append((held[0], "an inline formula opened here is never closed"))
        lines.append(_prose(held[0], held[1], held[2], "prose"))
    _group(lines)
    said = [(k, why, raws[k - 1].strip() if k <= len(raws) else "") for k, why in unread]
    return Document(lines, unread=said)


def _scan(
    n: int, raw: str, text: str, display: tuple[int, str, list[str]] | None, lines: list[Line]
) -> tuple[tuple[int, str, list[str]] | None, tuple[int, str, str] | None]:
    """Read one line's ``text`` (continuing an open display, if any): prose with its inline
    formulas as ``$...$`` goes to a prose line, each display to a math line of its own (set
    apart by blank lines, as a paragraph). Returns the display still open at the line's end,
    and the line held back when an inline formula is still open there."""
    prose: list[str] = []
    i = 0
    while i <= len(text):
        if display is not None:
            start, closing, parts = display
            k = text.find(closing, i)
            if k < 0:
                parts.append(text[i:])
                break
            parts.append(text[i:k])
            _flush(n, raw, prose, lines)
            lines.append(Line(start, raw, "", "blank"))
            lines.extend(_display(start, row) for row in rows(" ".join(p for p in parts if p.strip())))
            lines.append(Line(n, raw, "", "blank"))
            display, i = None, k + len(closing)
            continue
        m = _OPENING.search(text, i)
        if m is None:
            prose.append(text[i:])
            break
        if m.start() > 0 and text[m.start() - 1] == "\\" and m.group().startswith("$"):  # \$ is a dollar
            prose.append(text[i : m.start() - 1] + _DOLLAR)
            i = m.start() + 1
            continue
        prose.append(text[i : m.start()])
        opening = m.group()
        if opening.startswith("`"):  # a code span, kept as it is
            k = text.find(opening, m.end())
            k = len(text) if k < 0 else k + len(opening)
            prose.append(text[m.start() : k])
            i = k
            continue
        closing, apart = next((c, a) for o, c, a in DELIMITERS if o == opening)
        if apart:  # its line is the first with math on it
            display, i = (n if text[m.end() :].strip() else n + 1, closing, []), m.end()
            continue
        k = text.find(closing, m.end())
        while closing == "$" and k >= 0 and text.startswith("$$", k):
            k = text.find(closing, k + 2)
        if k < 0:  # open at the line's end: the next lines of the paragraph continue it
            return display, (n, raw, "".join(prose) + text[m.start() :])
        prose.append("$" + text[m.end() : k].replace("$", "") + "$")
        i = k + len(closing)
    _flush(n, raw, prose, lines)
    return display, None


def _flush(n: int, raw: str, prose: list[str], lines: list[Line]) -> None:
    """The prose gathered so far, as one line (if it holds more than spaces)."""
    body = "".join(prose).strip()
    prose.clear()
    if body:
        lines.append(_prose(n, raw, body, "table" if body.startswith("|") else "prose"))


#: Environments that lay out rows of math (``&`` aligns them, ``\\`` ends a row).
_ROWS = re.compile(
    r"\\begin\{(aligned|align\*?|gathered|gather\*?|split|eqnarray\*?|equation\*?)\}(.*?)\\end\{\1\}", re.S
)
_RELATION = re.compile(r"\s*(?:=|<|>|\\le|\\ge|\\leq|\\geq|\\approx|\\neq|\\sim)")


def rows(tex: str) -> list[str]:
    r"""A display's formulas: an ``aligned`` (``align``, ``gathered``, ...) environment row by
    row, its ``&`` dropped, a row that starts with a relation (``&= b``) continuing the row
    before it (``a &= b \\ &= c`` is the chain ``a = b = c``); any other display as it is."""
    m = _ROWS.search(tex)
    if m is None:
        return [tex]
    out: list[str] = []
    for row in re.split(r"\\\\(?:\[[^\]]*\])?", m.group(2)):
        row = re.sub(r"\\(?:tag|label)\{[^}]*\}|\\(?:nonumber|notag)\b", "", row)
        row = row.replace("&", " ").strip()
        if not row:
            continue
        if out and _RELATION.match(row):
            out[-1] += " " + row
        else:
            out.append(row)
    before, after = tex[: m.start()].strip(), tex[m.end() :].strip()
    return [x for x in (before, *out, after) if x.strip(" ,.")]


def _display(n: int, tex: str) -> Line:
    plain = _plain(tex)
    line = Line(n, tex, f"⟨{plain}⟩", "math")
    line.formulas.append((tex, plain, 0, len(line.text)))
    return line


def _plain(tex: str) -> str:
    """A formula in the plain syntax; one the converter cannot read keeps its text (its
    numbers are then reported as unchecked)."""
    try:
        return latex_to_plain(tex)
    except Unreadable:
        return " ".join(tex.split())


def _prose(n: int, raw: str, body: str, kind: str) -> Line:
    body = re.sub(r"^(?:[-*]|\d+\.)\s+", "", body)  # list markers and numbering
    body = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", body)  # links keep their text
    body = re.sub(r"https?://\S+", "", body)
    line = Line(n, raw, "", kind)
    out: list[str] = []
    pos = 0
    for m in re.finditer(r"\$([^$]+)\$|`([^`]*)`", body):
        out.append(_words(body[pos : m.start()]))
        if m.group(1) is not None:
            plain = _plain(m.group(1))
            start = sum(len(x) for x in out)
            out.append(f"⟨{plain}⟩")
            line.formulas.append((m.group(1), plain, start, start + len(plain) + 2))
        else:
            out.append(m.group(2))
        pos = m.end()
    out.append(_words(body[pos:]))
    line.text = "".join(out)
    return line


def _words(s: str) -> str:
    return s.replace("**", "").replace("*", "").replace("\\%", "%").replace(_DOLLAR, "$")


def _group(lines: list[Line]) -> None:
    block = unit = section = 0
    in_exercise = False
    previous_blank = True
    for line in lines:
        if line.kind == "heading":
            section += 1
        line.section = section
        if line.kind in ("blank", "code"):
            previous_blank = True
            continue
        if line.kind == "heading":
            in_exercise = False
            previous_blank = True
            block += 1
            continue
        if previous_blank:
            block += 1
        previous_blank = False
        line.block = block
        if EXERCISE.search(line.raw):
            in_exercise = True
            unit += 1
        line.unit = unit if in_exercise else -block - 1


def number_spans(text: str) -> list[tuple[int, int]]:
    """Spans of every number written in ``text``."""
    return [m.span() for m in NUMBER.finditer(text)]
