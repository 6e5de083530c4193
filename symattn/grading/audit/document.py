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


def read(text: str) -> Document:
    """The module as lines with their formulas, blocks and units."""
    raw_lines = text.splitlines()
    lines: list[Line] = []
    in_code = False
    display: list[str] | None = None
    display_start = 0
    for n, raw in enumerate(raw_lines, start=1):
        body = re.sub(r"^\s*>\s?", "", raw)  # blockquotes read as prose
        stripped = body.strip()
        if stripped.startswith("```"):
            in_code = not in_code
            lines.append(Line(n, raw, "", "code"))
            continue
        if in_code:
            lines.append(Line(n, raw, "", "code"))
            continue
        if display is not None:
            if stripped.startswith("$$"):
                tex = " ".join(display)
                plain = _plain(tex)
                line = Line(display_start, "\n".join(display), f"⟨{plain}⟩", "math")
                line.formulas.append((tex, plain, 0, len(line.text)))
                lines.append(line)
                lines.append(Line(n, raw, "", "blank"))
                display = None
            else:
                display.append(stripped)
            continue
        if stripped.startswith("$$"):
            rest = stripped[2:]
            if rest.endswith("$$") and rest.strip("$ "):
                plain = _plain(rest[:-2])
                line = Line(n, raw, f"⟨{plain}⟩", "math")
                line.formulas.append((rest[:-2], plain, 0, len(line.text)))
                lines.append(line)
            else:
                display, display_start = ([rest] if rest.strip() else []), n + (0 if rest.strip() else 1)
                lines.append(Line(n, raw, "", "blank"))
            continue
        if not stripped:
            lines.append(Line(n, raw, "", "blank"))
            continue
        if stripped.startswith("#"):
            lines.append(Line(n, raw, "", "heading"))
            continue
        kind = "table" if stripped.startswith("|") else "prose"
        lines.append(_prose(n, raw, stripped, kind))
    _group(lines)
    return Document(lines)


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
    return s.replace("**", "").replace("*", "").replace("\\%", "%")


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
