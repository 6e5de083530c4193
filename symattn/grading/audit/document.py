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
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

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
    #: For a display's chain set over rows (``a &= b \\\\ &= c``): the line each ``=`` of the
    #: chain stands on, in order (a claim between two members is said where the second begins).
    equals_at: list[int] = field(default_factory=list)
    #: Inline formulas wrapped onto the lines after this one: (start, end, the line it closes on).
    wraps: list[tuple[int, int, int]] = field(default_factory=list)

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
                and not (_ABBREVIATION.search(t, 0, i + 1) and not _NEW_SENTENCE.match(t, i + 1))
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

    def cells(self) -> list[tuple[int, int]]:
        """Spans of the cells of a table row: between its bars, and after the last one if text
        stands there (a bar inside a formula is the formula's own)."""
        spans, depth, start = [], 0, None
        for i, c in enumerate(self.text):
            depth += c == "⟨"
            depth -= c == "⟩"
            if c == "|" and depth == 0:
                if start is not None:
                    spans.append((start, i))
                start = i + 1
        if start is not None and self.text[start:].strip():
            spans.append((start, len(self.text)))
        return spans


#: After "etc." or "et al.", a capital starts a new sentence ("..., etc. The output ...").
_NEW_SENTENCE = re.compile(r"(?<=(?:etc|.al)\.) +[A-Z]")
#: Abbreviations that end in a dot inside a sentence: "e.g. X_1 and X_2", "i.e. the keys".
_ABBREVIATION = re.compile(r"(?<![A-Za-z])(?:e\.g|i\.e|cf|vs|etc|resp|approx|eq|Eq|Fig|fig|Sec|sec|al)\.$")


def _decimal_dot(t: str, i: int) -> bool:
    return t[i] == "." and i > 0 and t[i - 1].isdigit() and i + 1 < len(t) and t[i + 1].isdigit()


@dataclass
class Document:
    lines: list[Line]
    #: (line, why, the line's text) for each stretch the reader could not read (:func:`read`).
    unread: list[tuple[int, str, str]] = field(default_factory=list)
    _blocks: dict[int, list[Line]] = field(default_factory=dict, repr=False)
    _units: dict[int, list[Line]] = field(default_factory=dict, repr=False)
    _texts: dict[tuple[str, int, int], str] = field(default_factory=dict, repr=False)
    #: What a rule found once for the whole document, by the rule's name for it (:meth:`once`).
    found_once: dict[str, object] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        for x in self.lines:
            self._blocks.setdefault(x.block, []).append(x)
            self._units.setdefault(x.unit, []).append(x)
        #: where each line stands in its paragraph and in its exercise (or paragraph)
        self._at = {("block", id(x)): i for b in self._blocks.values() for i, x in enumerate(b)}
        self._at.update({("unit", id(x)): i for u in self._units.values() for i, x in enumerate(u)})

    def once(self, name: str, find: Callable[[Document], Any]) -> Any:
        """What ``find`` finds in the whole document, found on the first call and kept under
        ``name`` (a rule asks for it at every line)."""
        if name not in self.found_once:
            self.found_once[name] = find(self)
        return self.found_once[name]

    def next_in_block(self, line: Line) -> Line | None:
        """The line after ``line`` in its paragraph, if any."""
        lines, at = self.block(line), self._at.get(("block", id(line)))
        return lines[at + 1] if at is not None and at + 1 < len(lines) else None

    def block(self, line: Line) -> list[Line]:
        return self._blocks.get(line.block, [])

    def block_number(self, n: int) -> list[Line]:
        return self._blocks.get(n, [])

    def unit(self, line: Line) -> list[Line]:
        return self._units.get(line.unit, [])

    def unit_text(self, line: Line) -> str:
        return self._near(line, self.unit(line), "unit")

    def block_text(self, line: Line) -> str:
        return self._near(line, self.block(line), "block")

    def _near(self, line: Line, lines: list[Line], kind: str) -> str:
        """The text of ``lines`` (a paragraph, an exercise), joined once; in a paragraph longer
        than :data:`CONTEXT` lines, only those within :data:`CONTEXT` lines of ``line``: the
        context a rule reads is bounded by the text, never the whole of a huge paragraph."""
        if len(lines) <= 2 * CONTEXT:
            key = (kind, line.block if kind == "block" else line.unit, 0)
            if key not in self._texts:
                self._texts[key] = "\n".join(x.text for x in lines)
            return self._texts[key]
        at = self._at.get((kind, id(line)), 0)
        return "\n".join(x.text for x in lines[max(0, at - CONTEXT) : at + CONTEXT + 1])

    def text(self) -> str:
        """The whole text, joined once."""
        if ("all", 0, 0) not in self._texts:
            self._texts[("all", 0, 0)] = "\n".join(x.text for x in self.lines)
        return self._texts[("all", 0, 0)]

    def sentence(self, line: Line, pos: int) -> tuple[str, int]:
        """The sentence of ``line``'s paragraph that holds ``pos`` (a sentence may be wrapped
        over the paragraph's lines; at most :data:`SENTENCE_LINES` lines either side are read),
        with ``pos`` as an offset into it. Lines are joined by a space."""
        lines = self.block(line) if line.kind == "prose" else [line]
        at = self._at.get(("block", id(line)), 0) if line.kind == "prose" else 0
        near = lines[max(0, at - SENTENCE_LINES) : at + SENTENCE_LINES + 1]
        offset, joined = 0, []
        for x in near:
            if x is line:
                offset = sum(len(t) + 1 for t in joined) + pos
            joined.append(x.text)
        whole = Line(0, "", " ".join(joined), "prose")
        a, b = whole.sentence_at(offset)
        return whole.text[a:b], offset - a


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
#: Lines of a paragraph a rule reads around a line (a paragraph is rarely half as long).
CONTEXT = 40
#: Lines either side of a line a sentence is looked for in (a sentence is rarely this long).
SENTENCE_LINES = 6
#: The longest line read (a paragraph written on one line is rarely a tenth of this).
MAX_LINE = 20_000
_DOLLAR = "\ufe69"  # a dollar sign written \$, kept out of the math (small dollar sign)
_OPENING = re.compile("|".join(re.escape(o) for o, _, _ in DELIMITERS) + r"|`+")


def read(text: str) -> Document:
    """The module as lines with their formulas, blocks and units.

    Math is found wherever its delimiters stand (:data:`DELIMITERS`): a display may open or
    close in the middle of a line (``\\end{aligned}$$`` and text after it), an inline formula
    may be wrapped over the lines of its paragraph (it is read on the line where it starts). A
    formula ends within its paragraph: one still open at a blank line, a heading, a code fence
    or the end is listed in :attr:`Document.unread` with the line it opened on, and its lines
    are read again as prose, so nothing after it is lost."""
    lines: list[Line] = []
    unread: list[tuple[int, str]] = []
    fence = ""
    state = _Open()
    # an HTML comment is hidden from the reader: blanked, its line breaks kept
    text = re.sub(r"<!--.*?(?:-->|\Z)", lambda m: re.sub(r"[^\n]", " ", m.group()), text, flags=re.S)
    raws = text.splitlines()
    for n, raw in enumerate(raws, start=1):
        if len(raw) > MAX_LINE:  # bounded by the text: a line this long is said, not read
            if state.open:
                unread.append(state.abandon(lines))
            unread.append((n, f"a line longer than {MAX_LINE:,} characters"))
            lines.append(Line(n, raw, "", "code"))
            continue
        body = re.sub(r"^\s*>\s?", "", raw)  # blockquotes read as prose
        stripped = body.strip()
        boundary = not stripped or stripped.startswith(("#", "```", "~~~")) or bool(fence)
        if state.open and not stripped and state.block and _closes_ahead(raws, n):
            state.line(n, raw, stripped, lines)  # a blank line in a block of math, as kramdown reads it
            continue
        if state.open and boundary:  # the paragraph ends with a formula still open
            unread.append(state.abandon(lines))
        if fence or stripped.startswith(("```", "~~~")):
            run = re.match(r"`+|~+", stripped)
            if not fence:
                fence = run.group()  # ```` opens a fence that only ```` or longer closes
            elif run and run.group()[0] == fence[0] and len(run.group()) >= len(fence):
                fence = "" if not stripped[len(run.group()) :].strip() else fence
            lines.append(Line(n, raw, "", "code"))
            continue
        if not stripped:
            lines.append(Line(n, raw, "", "blank"))
            continue
        if stripped.startswith("#") and not state.open:
            lines.append(Line(n, raw, "", "heading"))
            continue
        state.line(n, raw, stripped, lines)
    if state.open:
        unread.append(state.abandon(lines))
    _group(lines)
    said = [(k, why, raws[k - 1].strip() if k <= len(raws) else "") for k, why in unread]
    return Document(lines, unread=said)


@dataclass
class _Open:
    """The formula left open at the end of a line: a display (its rows so far), or an inline
    formula (the prose of the line it opened on), with the lines it has taken."""

    kind: str = ""  # "", "display" or "inline"
    closing: str = ""
    first: int = 0  # the line it opened on
    start: int = 0  # a display's first line with math on it
    parts: list[tuple[int, str]] = field(default_factory=list)  # (line, text) of a display
    held: str = ""  # an inline formula: its line's text so far, from the line's start
    taken: list[tuple[int, str, str]] = field(default_factory=list)  # (n, raw, text) read so far
    #: A display whose ``$$`` opens its line: a block of math, which may hold blank lines.
    block: bool = False

    @property
    def open(self) -> bool:
        return bool(self.kind)

    def abandon(self, lines: list[Line]) -> tuple[int, str]:
        """Give up the open formula: its lines are read as prose; (line, why) for the report."""
        why = (
            "display math opened here is not closed in its paragraph"
            if self.kind == "display"
            else "an inline formula opened here is not closed in its paragraph"
        )
        first = self.first
        for n, raw, text in self.taken:
            lines.append(_prose(n, raw, text, "table" if text.startswith("|") else "prose"))
        self.__init__()  # type: ignore[misc]
        return first, why

    def line(self, n: int, raw: str, text: str, lines: list[Line]) -> None:
        """Read one line: closing what is open, then prose, inline formulas and displays."""
        self.taken.append((n, raw, text))
        i = 0
        if self.kind == "inline":
            k = _closing_at(text, self.closing, 0)
            if k < 0:
                self.held += " " + text
                lines.append(Line(n, raw, "", "prose"))  # read on the line where it opened
                return
            end = k + len(self.closing)
            first, opened = self.first, self.held + " " + text[:end]
            self.__init__()  # type: ignore[misc]
            self._scan(first, raw, opened, 0, lines)  # closes on the line it opened on
            if lines and lines[-1].number == first and lines[-1].formulas:  # and runs to this one
                _tex, _plain, start, stop = lines[-1].formulas[-1]
                lines[-1].wraps.append((start, stop, n))
            text = text[end:]  # the rest of the line is read as its own
            self.taken = [(n, raw, text)]
        self._scan(n, raw, text, i, lines)
        if not self.kind:
            self.taken = []

    def _scan(self, n: int, raw: str, text: str, i: int, lines: list[Line]) -> None:
        prose: list[str] = []
        while i <= len(text):
            if self.kind == "display":
                k = text.find(self.closing, i)
                if k < 0:
                    self.parts.append((n, text[i:]))
                    break
                self.parts.append((n, text[i:k]))
                _flush(n, raw, prose, lines)
                lines.append(Line(self.start, raw, "", "blank"))
                lines.extend(_display_rows(self.parts, self.start))
                lines.append(Line(n, raw, "", "blank"))
                i = k + len(self.closing)
                self.__init__()  # type: ignore[misc]
                continue
            m = _OPENING.search(text, i)
            if m is None:
                prose.append(text[i:])
                break
            if m.start() > 0 and text[m.start() - 1] == "\\" and m.group().startswith("$"):  # \$: a dollar
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
            if opening == "$$" and _within_prose(text, prose, m.end()):
                apart = False  # $$x$$ amid a sentence is inline math, as kramdown reads it
            if apart:  # its first line is the first with math on it
                self.kind, self.closing, self.first = "display", closing, n
                self.block = opening == "$$" and not "".join(prose).strip()
                self.start = n if text[m.end() :].strip() else n + 1
                self.taken = [(n, raw, text[m.start() :])]  # what is read again if it never closes
                i = m.end()
                continue
            k = _closing_at(text, closing, m.end())
            if k < 0:  # open at the line's end: the next lines of the paragraph continue it
                self.kind, self.closing, self.first = "inline", closing, n
                self.held = "".join(prose) + text[m.start() :]
                self.taken = [(n, raw, self.held)]
                return
            prose.append("$" + text[m.end() : k].replace("$", "") + "$")
            i = k + len(closing)
        _flush(n, raw, prose, lines)


def _within_prose(text: str, prose: list[str], after: int) -> bool:
    """A ``$$`` opened at ``after`` stands amid prose: words before it on its line, or after the
    ``$$`` that closes it on the same line (only a ``$$`` that has its line to itself, its
    formula's lines too, sets math apart)."""
    if "".join(prose).strip():
        return True
    k = text.find("$$", after)
    return k >= 0 and bool(text[k + 2 :].strip(" \t.,;:"))


def _closes_ahead(raws: list[str], n: int) -> bool:
    """A ``$$`` closes a block of math within :data:`CONTEXT` lines after line ``n``, before any
    heading or code fence: kramdown (Jekyll's Markdown) reads such a block whole, blank lines and
    all; anything else ends at its paragraph."""
    for raw in raws[n : n + CONTEXT]:
        stripped = raw.strip()
        if stripped.startswith(("#", "```", "~~~")):
            return False
        if "$$" in raw:
            return True
    return False


def _closing_at(text: str, closing: str, i: int) -> int:
    """Where ``closing`` next stands in ``text`` from ``i`` (a single ``$``, not ``$$``)."""
    k = text.find(closing, i)
    while closing == "$" and k >= 0 and text.startswith("$$", k):
        k = text.find(closing, k + 2)
    return k


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
#: A row that goes on with the sum or product of the row before it: ``&\quad + 4``.
_CONTINUED = re.compile(r"(?:\s|\\quad|\\qquad|\\[,;:!]|\{\})*(?:[-+]|\\cdot|\\times)")


def rows(tex: str) -> list[str]:
    r"""A display's formulas: an ``aligned`` (``align``, ``gathered``, ...) environment row by
    row, its ``&`` dropped, a row that starts with a relation (``&= b``) or an operator
    (``&\quad + 4``) continuing the row before it (``a &= b \\ &= c`` is the chain
    ``a = b = c``); any other display as it is."""
    return [row for _, row, _ in _rows_at(tex)]


def _top_level(tex: str, sign: str) -> list[int]:
    """Where ``sign`` stands in ``tex`` outside braces and nested environments (the ``&`` of a
    matrix inside an aligned row is the matrix's own)."""
    out, depth = [], 0
    for m in re.finditer(r"\\begin\{[^}]*\}|\\end\{[^}]*\}|\\.|[{}]|" + re.escape(sign), tex):
        t = m.group(0)
        if t == "{" or t.startswith("\\begin"):
            depth += 1
        elif t == "}" or t.startswith("\\end"):
            depth = max(0, depth - 1)
        elif t == sign and depth == 0:
            out.append(m.start())
    return out


def _rows_at(tex: str) -> list[tuple[int, str, list[int]]]:
    """(where in ``tex`` it starts, row, where each ``=`` of the row stands) for each formula of
    :func:`rows`."""
    m = _ROWS.search(tex)
    if m is None:
        return [(0, tex, [])]
    out: list[tuple[int, str, list[int]]] = []
    for start, piece in _row_pieces(m.group(2), m.start(2)):
        equals = [start + k for k in _top_level(piece, "=")]
        start += len(piece) - len(piece.lstrip())  # a row starts at its first character
        row = re.sub(r"\\(?:tag|label)\{[^}]*\}|\\(?:nonumber|notag)\b", "", piece)
        row = "".join(" " if k in set(_top_level(row, "&")) else c for k, c in enumerate(row)).strip()
        if not row:
            continue
        if out and (_RELATION.match(row) or _CONTINUED.match(row)):
            out[-1] = (out[-1][0], out[-1][1] + " " + row, [*out[-1][2], *equals])
        else:
            out.append((start, row, equals))
    before, after = tex[: m.start()].strip(), tex[m.end() :].strip()
    rows = ((0, before, []), *out, (m.end(), after, []))
    return [(k, x, c) for k, x, c in rows if x.strip(" ,.")]


#: The end of a row of an aligned display or an array: ``\\``, or ``\\[10pt]``.
_ROW_END = re.compile(r"(\\\\(?:\[[^\]]*\])?)")
#: A row's end, or an environment opening or closing within the rows (a matrix in a row).
_NESTING = re.compile(r"(?P<open>\\begin\{[^}]*\})|(?P<close>\\end\{[^}]*\})|" + _ROW_END.pattern)
#: Horizontal rules between rows (no value), and what may stand before a row's first cell.
_RULES = re.compile(r"\\(?:hline|toprule|midrule|bottomrule)\b")
_BEFORE_ROW = re.compile(r"(?:\s|" + _RULES.pattern + r")*")


def _row_pieces(body: str, at: int = 0) -> list[tuple[int, str]]:
    """(where it starts, counted from ``at``, its text) for each piece of ``body`` between the
    ends of its rows."""
    out, start, depth, last = [], at, 0, 0
    for m in _NESTING.finditer(body):
        if m.group("open") or m.group("close"):
            depth = depth + 1 if m.group("open") else max(0, depth - 1)
        elif depth == 0:  # a row of a matrix inside the row is the matrix's own
            out.append((start, body[last : m.start()]))
            start, last = at + m.end(), m.end()
    out.append((start, body[last:]))
    return out


def _display_rows(parts: list[tuple[int, str]], start: int) -> list[Line]:
    """A display's math lines, one per formula of :func:`rows`, each on the line it starts."""
    tex, where = "", []
    for n, text in parts:
        if text.strip():
            where.append((len(tex), n))
            tex += text + " "
    out = []
    table = _ARRAY.fullmatch(tex.strip())
    cells = _array_rows(table.group(1)) if table is not None else []
    if table is not None and _equations(cells):  # {rcl}: a chain of equations, not a table
        at, width = tex.index(table.group(0)), table.start(1) - table.start(0)
        # \begin{aligned} as wide as \begin{array}{rcl}: the rows keep their places
        aligned = "\\begin{aligned}".ljust(width) + table.group(1) + "\\end{aligned}"
        tex = tex[:at] + aligned + tex[at + len(table.group(0)) :]
    elif table is not None:  # a table set in math: a table row per row, a formula per cell
        offset = len(tex) - len(tex.lstrip()) + table.start(1)
        for at, row in cells:
            n = max((line for k, line in where if k <= offset + at), default=start)
            out.append(_table_row(max(n, start), row))
        return out

    def line_at(at: int) -> int:
        return max(max((line for k, line in where if k <= at), default=start), start)

    for at, row, equals in _rows_at(tex.strip()):
        out.append(_display(line_at(at), row))
        out[-1].equals_at = [line_at(k) for k in equals]
    return out


#: A display that is one array and nothing else: a table of formulas (``\begin{array}{ccc}``).
_ARRAY = re.compile(r"\\begin\s*\{array\}\s*\{[^{}]*\}(.*)\\end\s*\{array\}", re.S)


def _equations(rows: list[tuple[int, list[str]]]) -> bool:
    """An array laid out as equations (``a & = & b \\\\ & = & c``): three cells a row, the
    middle one a relation."""
    return bool(rows) and all(len(c) == 3 and _RELATION.fullmatch(c[1] or "=") for _, c in rows)


def _array_rows(body: str) -> list[tuple[int, list[str]]]:
    """(where in ``body`` it starts, its cells) for each row of an array that has a cell."""
    out = []
    for start, piece in _row_pieces(body):
        cells = [c.strip() for c in re.split(r"(?<!\\)&", _RULES.sub("", piece))]
        if any(cells):  # a row starts at its first cell, after any rule above it
            out.append((start + _BEFORE_ROW.match(piece).end(), cells))
    return out


def _table_row(n: int, cells: list[str]) -> Line:
    """An array's row as a Markdown table row whose cells are formulas (an empty cell empty)."""
    text, formulas = "|", []
    for cell in cells:
        if cell:
            plain = _plain(cell)
            text += " "
            formulas.append((cell, plain, len(text), len(text) + len(plain) + 2))
            text += f"⟨{plain}⟩"
        text += " |"
    line = Line(n, " & ".join(cells), text, "table")
    line.formulas.extend(formulas)
    return line


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


#: An HTML tag with its attributes (``<img src="a.png" width="80%">``): markup, never a claim.
_TAG = re.compile(r"""</?[A-Za-z][\w-]*(?:\s+[\w:-]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'<>=`]+))?)*\s*/?>""")
#: A code span that is arithmetic (```12 * 64 = 768```): numbers, names, operators and a relation.
_CODE_MATH = re.compile(r"(?=[^`]*\d)(?=[^`]*(?:==?|<=?|>=?|≈|≤|≥))[\w\s.+\-*/^()=<>≈≤≥,%]+")


def _prose(n: int, raw: str, body: str, kind: str) -> Line:
    body = re.sub(r"^(?:[-*+]|\d+[.)]|\(\d+\))\s+", "", body)  # list markers and numbering: 1. 1) (1)
    body = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", body)  # links keep their text
    body = re.sub(r"https?://[^\s\"'<>]+", "", body)  # a link (within a tag's attribute too: the tag stays)
    # a power or an index in HTML after a capital, a digit, a bracket or a lone letter
    # (12BT<sup>2</sup>NH, x<sub>i</sub>) is math; after a word, a number in <sup> is a footnote mark
    body = _HTML_SCRIPT.sub(_script, body)
    body = re.sub(r"<sup>\s*\[?\d+\]?\s*</sup>|\[\^\w+\]", "", body)  # footnote marks
    line = Line(n, raw, "", kind)
    out: list[str] = []
    pos = 0
    for m in re.finditer(r"\$([^$]+)\$|`([^`]*)`|" + _TAG.pattern, body):
        out.append(_words(body[pos : m.start()]))
        code = m.group(2)
        if m.group(1) is not None or (code is not None and _CODE_MATH.fullmatch(code.strip())):
            tex = m.group(1) if m.group(1) is not None else code.strip().replace("==", "=")
            plain = _plain(tex) if m.group(1) is not None else tex
            start = sum(len(x) for x in out)
            out.append(f"⟨{plain}⟩")
            line.formulas.append((tex, plain, start, start + len(plain) + 2))
        elif code is not None:
            out.append(code)
        else:
            out.append(" " * (m.end() - m.start()) if m.group().strip() else "")  # a tag: markup
        pos = m.end()
    out.append(_words(body[pos:]))
    line.text = "".join(out)
    return line


#: A superscript or subscript in HTML, with what stands before and after it.
_HTML_SCRIPT = re.compile(
    r"(?P<before>\S{0,4})<(?P<tag>sup|sub)>\s*(?P<x>[\w+\-]{1,6})\s*</(?P=tag)>(?P<after>\S?)"
)


def _script(m: re.Match) -> str:
    """A power or an index written in HTML as math, where it writes math: after a lone letter
    (``N<sup>2</sup>``, ``x<sub>i</sub>``), inside a run of capitals that goes on (``12BT<sup>2</sup>NH``)
    or after a number standing alone (``2<sup>10</sup>``). After a word (``BERT<sup>4</sup> is``),
    a model's name (``GPT-3<sup>2</sup>``) or as an ordinal (``1<sup>st</sup>``) it is left as written
    (a footnote mark, dropped later, or a word)."""
    before, x, after = m.group("before"), m.group("x"), m.group("after")
    lone_letter = re.search(r"(?:^|[^A-Za-z])[A-Za-z]$", before)
    capitals_go_on = re.search(r"[A-Z]$", before) and re.match(r"[A-Za-z0-9]", after)
    number = re.search(r"(?:^|[\s(=])\d+$", before) or re.fullmatch(r"\d+", before)
    if re.fullmatch(r"st|nd|rd|th", x) or not (lone_letter or capitals_go_on or number):
        return m.group(0)
    return before + ("^" if m.group("tag") == "sup" else "_") + (x if len(x) == 1 else f"{{{x}}}") + after


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
