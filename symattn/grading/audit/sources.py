"""The texts an audit reads, each turned into the Markdown with LaTeX that :mod:`.document` reads.

- **Markdown** (``.md`` and anything else) is read as it is.
- **Jupyter notebooks** (``.ipynb``) are read with ``nbformat`` (the Jupyter project's own
  reader and validator): each markdown cell's text, each code cell as a fenced block (code is
  not prose: the audit reads no claim in it, as in a Markdown fence). A claim's line is mapped
  back to its cell (:meth:`Source.where`).
- **LaTeX** (``.tex``) is parsed with ``pylatexenc``'s ``LatexWalker`` (a well-kept LaTeX parser,
  not patterns of our own): inline and display math in any of its forms (``$``, ``\\(``,
  ``\\[``, ``equation``, ``align``, ``eqnarray``, ...) becomes ``$...$`` or ``$$...$$``; the
  text of sectioning and text macros is kept (``\\section`` as a heading, ``\\emph``,
  ``\\footnote``); ``tabular`` rows become Markdown table rows; macros that carry no prose
  (``\\cite``, ``\\label``, ``\\includegraphics``, the preamble) are dropped, so their numbers
  are never taken for claims; ``\\newcommand`` macros without arguments (``\\dmodel``) are
  expanded in math. Every line keeps its number, so a claim is reported at its source line.
  ``\\input`` and ``\\include`` are refused: the audit reads one file, and a verdict on part of
  a text would pass over the rest.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field, replace

from ...errors import InputError
from .macros import Budget, Macro, blanked, definitions, expand

#: The kinds of text an audit reads, by file name extension (anything else is Markdown).
KINDS = {".ipynb": "notebook", ".tex": "latex", ".ltx": "latex"}


@dataclass(frozen=True)
class Source:
    """A text as the Markdown the audit reads, and where each of its lines came from."""

    text: str
    kind: str = "markdown"
    #: For a notebook: the first line of each cell in :attr:`text`, and the cell's number.
    cells: tuple[tuple[int, int], ...] = field(default=())
    #: Where the text was cut at the bound of characters read (the first line not read), or 0.
    cut: int = 0

    def where(self, line: int) -> str:
        """A line of :attr:`text` as its author finds it: ``12``, or ``cell 4, line 2``."""
        if not self.cells:
            return str(line)
        k = bisect.bisect_right([first for first, _ in self.cells], line) - 1
        if k < 0:
            return str(line)
        first, cell = self.cells[k]
        return f"cell {cell}, line {line - first + 1}"


def kind_of(path: str) -> str:
    """The kind of text a file holds, by its extension."""
    return KINDS.get(re.sub(r"^.*(\.[^./\\]+)$", r"\1", path.lower()) if "." in path else "", "markdown")


def read_source(
    text: str, kind: str = "markdown", characters: int | None = None, preamble: str = ""
) -> Source:
    """``text`` of the given kind as a :class:`Source`; :class:`~symattn.errors.InputError` with
    one line when it cannot be read (a notebook that is not one, an ``\\input``). A text read
    longer than ``characters`` is cut at the last paragraph that ends within them, and
    :attr:`Source.cut` says where. ``preamble``: the text of a file where the author defines
    macros the text uses (a LaTeX preamble or style file, :mod:`.macros`)."""
    found, _ = definitions(_uncommented(preamble)) if preamble else ({}, [])
    if kind == "notebook":
        source = _cut(_notebook(text), characters)
        return replace(source, text=markdown(source.text, found))
    if kind == "latex":
        head = _cut(Source(text), characters)
        body = latex_to_markdown(head.text, tolerant=bool(head.cut), preamble=preamble)
        return replace(head, text=body, kind="latex")
    source = _cut(Source(text), characters)
    return replace(source, text=markdown(source.text, found))


# -- Markdown ---

#: A YAML front matter: ``---`` opening the file (after a byte-order mark), a first line that
#: reads as YAML (``layout: distill``), and ``---`` or ``...`` closing it (a ``---`` rule that
#: opens a page, followed by prose, is no front matter).
_FRONT_MATTER = re.compile(
    r"\A\ufeff?---[ \t]*\n(?=[ \t]*[\w\"'-][^\n]*:)(?:[^\n]*\n)*?(?:---|\.\.\.)[ \t]*(?=\n|\Z)"
)
#: Elements and template blocks whose lines are not prose, by what opens and what closes them.
_BLOCKS = (
    (re.compile(r"\s*<style\b", re.I), "</style"),
    (re.compile(r"\s*<script\b", re.I), "</script"),
    (re.compile(r".*\{%-?\s*comment\s*-?%\}"), "endcomment"),
)


def markdown(text: str, macros: dict[str, Macro] | None = None) -> str:
    """A Markdown text as the audit reads it, line for line: its markup that is not prose blanked
    (a front matter; on prose lines, a style or script element, a Liquid comment, template tags
    ``{% ... %}`` and ``{{ ... }}`` within a line), the macros it defines (in a MathJax block,
    ``\\def\\red#1{...}``) and ``macros`` expanded outside code, their definitions blanked."""
    text = _FRONT_MATTER.sub(lambda m: re.sub(r"[^\n]", " ", m.group()), text, count=1)
    lines = text.split("\n")
    prose = _prose_lines(lines)
    closing = {end: _next_line_with(lines, end) for _, end in _BLOCKS}
    k = 0
    while k < len(lines):
        if not prose[k]:
            k += 1
            continue
        block = next((end for opening, end in _BLOCKS if opening.match(lines[k])), None)
        last = closing[block][k] if block else -1
        if last >= 0:  # an element or a comment, to the line that closes it
            for j in range(k, last + 1):
                lines[j] = " " * len(lines[j])
            k = last + 1
            continue
        lines[k] = _templates(_elements(lines[k]))
        k += 1
    text = "\n".join(lines)
    code_blanked = "\n".join(x if keep else " " * len(x) for x, keep in zip(lines, prose, strict=True))
    found, spans = definitions(code_blanked)  # a definition in code is code
    if not found and not macros:
        return text
    lines = blanked(text, spans).split("\n")
    known, budget = {**(macros or {}), **found}, Budget()
    for k, is_prose in enumerate(prose):
        if is_prose:
            lines[k] = expand(lines[k], known, budget)
    return "\n".join(lines)


def _next_line_with(lines: list[str], needle: str) -> list[int]:
    """For each line, the first line from it that holds ``needle`` (any case), or -1: one pass
    from the end, so a text that opens many and closes none costs no more than its length."""
    out, found = [-1] * len(lines), -1
    for k in range(len(lines) - 1, -1, -1):
        if needle in lines[k].lower():
            found = k
        out[k] = found
    return out


def _elements(line: str) -> str:
    """``line`` with a style or script element that opens and closes within it blanked."""
    lower = line.lower()
    if "<script" not in lower and "<style" not in lower:
        return line
    spans, i, opens = [], 0, {"<script": -2, "<style": -2}
    while True:
        for mark, at in opens.items():
            if at != -1 and at < i:
                opens[mark] = lower.find(mark, i)
        a = min((p for p in opens.values() if p >= 0), default=-1)
        if a < 0:
            break
        tag = "</script" if lower.startswith("<script", a) else "</style"
        b = lower.find(tag, a)
        if b < 0:
            break
        end = lower.find(">", b)
        end = len(line) if end < 0 else end + 1
        spans.append((a, end))
        i = end
    return blanked(line, spans)


def _templates(line: str) -> str:
    """``line`` with its template tags blanked: ``{% ... %}``, and ``{{ ... }}`` with no brace
    inside (``\\frac{{x}^2}{2}`` is math). One pass: the closing looked for is kept until passed."""
    if "{%" not in line and "{{" not in line:
        return line
    spans, i, ends, opens = [], 0, {"%}": -2, "}}": -2}, {"{%": -2, "{{": -2}
    while True:
        for mark, at in opens.items():  # each found again only once passed: one pass in all
            if at != -1 and at < i:
                opens[mark] = line.find(mark, i)
        starts = [p for p in opens.values() if p >= 0]
        if not starts:
            break
        a = min(starts)
        close = "%}" if line.startswith("{%", a) else "}}"
        if ends[close] != -1 and ends[close] < a + 2:
            ends[close] = line.find(close, a + 2)
        b = ends[close]
        if b < 0 or (close == "}}" and re.search(r"[{}]", line[a + 2 : b])):
            i = a + 1  # unclosed, or braces inside: not a tag
            continue
        spans.append((a, b + 2))
        i = b + 2
    return blanked(line, spans)


_FENCE = re.compile(r"^[ \t]*(`{3,}|~{3,})")


def _prose_lines(lines: list[str]) -> list[bool]:
    """For each line, whether it stands outside a code fence."""
    out, fence = [], ""
    for line in lines:
        m = _FENCE.match(line)
        if fence:
            out.append(False)
            closes = m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence)
            if closes and not line[m.end() :].strip():
                fence = ""
        elif m:
            fence = m.group(1)
            out.append(False)
        else:
            out.append(True)
    return out


def _cut(source: Source, characters: int | None) -> Source:
    """The source up to its last paragraph break within ``characters`` (a line break if it has
    none there), or the whole of it when it is not longer."""
    text = source.text
    if characters is None or len(text) <= characters:
        return source
    end = text.rfind("\n\n", 0, characters)
    end = end if end > 0 else max(text.rfind("\n", 0, characters), 0)
    skip = len(text) - end - len(text[end:].lstrip("\n"))  # the break itself is not text
    return replace(source, text=text[:end], cut=text.count("\n", 0, end + skip) + 1)


# -- notebooks ---


def _notebook(text: str) -> Source:
    import nbformat

    try:
        nb = nbformat.reads(text, as_version=4)
        nbformat.validate(nb)
    except Exception as exc:  # nbformat raises JSON, schema and version errors of many kinds
        import json

        if isinstance(exc, json.JSONDecodeError):
            why = f"not JSON ({exc.msg} at line {exc.lineno})"
        elif type(exc).__name__ == "NotJSONError":
            why = "not JSON"
        elif type(exc).__name__ == "ValidationError":
            why = "its JSON does not follow the notebook format's schema"
        else:
            why = "its JSON is not a notebook of a version nbformat knows"
        raise InputError(f"not a Jupyter notebook nbformat reads: {why}") from None
    out: list[str] = []
    cells: list[tuple[int, int]] = []
    for number, cell in enumerate(nb.cells, start=1):
        source = cell.source if isinstance(cell.source, str) else "".join(cell.source)
        cells.append((len(out) + 1, number))
        if cell.cell_type == "markdown":
            out += source.splitlines() or [""]
        else:  # code and raw cells: not prose, kept as a fence so that nothing shifts
            fence = "~~~~" if "~~~" in source else "~~~"
            out += [fence, *source.splitlines(), fence]
        out.append("")  # a cell ends its paragraph
    return Source("\n".join(out), "notebook", tuple(cells))


# -- LaTeX ---

#: Environments whose body is display math; those with alignment points become ``aligned``.
_MATH_ENVIRONMENTS = {
    "equation": False,
    "displaymath": False,
    "math": False,
    "align": True,
    "aligned": True,
    "alignat": True,
    "eqnarray": True,
    "gather": True,
    "multline": False,
    "split": True,
    "flalign": True,
}
#: Environments whose body is code or verbatim text: kept as a fence, never read for claims.
_CODE_ENVIRONMENTS = {"verbatim", "lstlisting", "minted", "Verbatim", "algorithmic", "algorithm"}
_TABLES = {"tabular", "tabularx", "tabular*", "array"}
_HEADINGS = {
    "part": 1, "chapter": 1, "title": 1, "section": 2, "subsection": 3, "subsubsection": 4, "paragraph": 5,
}  # fmt: skip
#: Macros whose last argument is prose, kept as text.
_TEXT_MACROS = {
    "emph", "textbf", "textit", "textsl", "textsc", "textrm", "textsf", "texttt", "text",
    "underline", "mbox", "hbox", "textnormal", "uline", "caption", "abstract", "item",
}  # fmt: skip
_REFUSED = {"input", "include", "subfile", "import", "subimport", "includeonly"}
_ESCAPED = {"%": "%", "&": "&", "$": "\\$", "_": "_", "#": "#", "{": "{", "}": "}", " ": " ", ",": " "}
_SPECIALS = {"~": " ", "--": "–", "---": "—", "``": '"', "''": '"', "`": "'", "'": "'"}


def latex_to_markdown(text: str, tolerant: bool = False, preamble: str = "") -> str:
    """A LaTeX source as Markdown with its math, line for line (see the module's docstring);
    ``tolerant`` for a text cut short, whose environments may not close; ``preamble``, the text
    of the file where the author defines macros (:mod:`.macros`; minted's ``\\newmintinline``
    and ``\\newmintedfile`` too)."""
    from pylatexenc.latexwalker import LatexWalker, LatexWalkerError

    own, spans = definitions(_uncommented(text))
    text = blanked(text, spans)
    known = {**definitions(_uncommented(preamble))[0], **own} if preamble else own
    inline, files = _minted(_uncommented(preamble) + "\n" + _uncommented(text))
    try:
        walker = LatexWalker(text, latex_context=_context(inline, files), tolerant_parsing=tolerant)
        nodes, _, _ = walker.get_latex_nodes()
    except LatexWalkerError as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else "unbalanced braces"
        raise InputError(f"not LaTeX pylatexenc reads: {first[:160]}") from None
    except RecursionError:
        raise InputError("not LaTeX pylatexenc reads: nested too deeply") from None
    writer = _LatexWriter(text, known, inline, files)
    out = writer.nodes(nodes)
    if out.count("\n") != text.count("\n"):  # never: each node keeps its newlines
        raise AssertionError("the LaTeX reader lost the source's line numbers")
    return out


def _uncommented(tex: str) -> str:
    """``tex`` with its comments blanked (``%`` to the line's end, not ``\\%``), of the same length."""
    return re.sub(r"(?<!\\)%[^\n]*", lambda m: " " * len(m.group()), tex)


#: Code set inline, and listings of files, as minted and listings write them (built in).
_INLINE_CODE = {"mintinline": "[{{", "lstinline": "[{", "verb": "{"}
_CODE_FILES = {"inputminted": "[{{", "lstinputlisting": "[{"}
_MINTED = re.compile(
    r"\\newmint(inline|edfile|ed)?\s*\[\s*([A-Za-z]+)\s*\]|\\newmint(inline|edfile|ed)?\s*\{\s*([A-Za-z]+)\s*\}"
)


def _minted(tex: str) -> tuple[dict[str, str], dict[str, str]]:
    """The inline-code and file-listing macros a text's minted definitions make, with the
    arguments each takes: ``\\newmintinline[pyinline]{python}{}`` makes ``\\pyinline{code}``,
    ``\\newmintedfile[pyfile]{python}{}`` makes ``\\pyfile[options]{file}`` (a name in brackets,
    else the language's: ``\\newmintinline{python}{}`` makes ``\\pythoninline``)."""
    inline, files = dict(_INLINE_CODE), dict(_CODE_FILES)
    for m in _MINTED.finditer(tex):
        kind = m.group(1) if m.group(2) else m.group(3)
        suffix = {"inline": "inline", "edfile": "file"}.get(kind or "", "")
        name = m.group(2) or m.group(4) + suffix
        if kind == "inline":
            inline[name] = "[{"
        elif kind == "edfile":
            files[name] = "[{"
    return inline, files


def _context(inline: dict[str, str], files: dict[str, str]):
    """pylatexenc's default macros, with the code macros' arguments, so that their code and
    file names are read as their arguments, not as prose."""
    from pylatexenc.latexwalker import get_default_latex_context_db
    from pylatexenc.macrospec import MacroSpec

    db = get_default_latex_context_db()
    specs = [MacroSpec(name, args) for name, args in {**inline, **files}.items() if name != "verb"]
    db.add_context_category("symattn-code", macros=specs, prepend=True)
    return db


class _LatexWriter:
    def __init__(self, source: str, macros: dict[str, Macro], inline: dict[str, str], files: dict[str, str]):
        self.source = source
        self.macros = macros
        self.inline = inline
        self.files = files
        self.budget = Budget()

    def line_of(self, pos: int) -> int:
        return self.source.count("\n", 0, pos) + 1

    def nodes(self, nodes) -> str:
        return "".join(self.node(n) for n in nodes or ())

    def node(self, n) -> str:
        from pylatexenc import latexwalker as lw

        raw = n.latex_verbatim()
        if isinstance(n, lw.LatexCharsNode):
            return raw
        if isinstance(n, lw.LatexCommentNode):
            return _newlines(raw)
        if isinstance(n, lw.LatexSpecialsNode):
            return _SPECIALS.get(n.specials_chars, n.specials_chars)
        if isinstance(n, lw.LatexGroupNode):
            return self.nodes(n.nodelist)
        if isinstance(n, lw.LatexMathNode):
            inner = raw[len(n.delimiters[0]) : len(raw) - len(n.delimiters[1])]
            return self.math(inner, n.displaytype == "display")
        if isinstance(n, lw.LatexEnvironmentNode):
            return self.environment(n, raw)
        if isinstance(n, lw.LatexMacroNode):
            return self.macro(n, raw)
        return _newlines(raw)

    def math(self, inner: str, display: bool, aligned: bool = False) -> str:
        inner = re.sub(r"\\(?:label|tag)\*?\{[^{}]*\}|\\nonumber\b|\\notag\b", "", inner)
        # TeX allows no blank line in math: one left by a \label is not a paragraph's end
        rows = inner.split("\n")
        inner = "\n".join([rows[0], *(r if r.strip() else r"\quad" for r in rows[1:-1]), *rows[1:][-1:]])
        inner = expand(inner, self.macros, self.budget)
        if aligned:
            inner = inner.replace("&=&", "&=").replace("& = &", "& =")
            lead = inner[: len(inner) - len(inner.lstrip())]  # the body keeps its newlines
            return f"$${lead}\\begin{{aligned}}{inner[len(lead) :]}\\end{{aligned}}$$"
        return f"$${inner}$$" if display else f"${inner}$"

    def environment(self, n, raw: str) -> str:
        name = n.environmentname
        base = name.rstrip("*")
        if base in _MATH_ENVIRONMENTS:
            body = "".join(x.latex_verbatim() for x in n.nodelist or ())
            return self.math(body, True, _MATH_ENVIRONMENTS[base])
        if name in _CODE_ENVIRONMENTS or base in _CODE_ENVIRONMENTS:
            lines = raw.split("\n")  # \begin{...} and \end{...} become the fence's lines
            return "\n".join(["~~~", *lines[1:-1], "~~~"]) if len(lines) > 1 else ""
        if name in _TABLES:
            return self.table(n, raw)
        # any other environment (document, itemize, figure, abstract, ...): its prose and math;
        # of \begin{...} with its arguments and of \end{...}, only their newlines
        body = self.nodes(n.nodelist)
        return "\n" * (raw.count("\n") - body.count("\n")) + body

    def table(self, n, raw: str) -> str:
        """A tabular's rows as Markdown table rows (``|`` between cells), line for line."""
        from pylatexenc import latexwalker as lw

        parts: list[str] = []
        for x in n.nodelist or ():
            if isinstance(x, lw.LatexMacroNode) and x.macroname == "\\":
                parts.append("\0")  # the end of a row
            elif isinstance(x, lw.LatexSpecialsNode) and x.specials_chars == "&":
                parts.append("\1")  # a cell boundary
            elif isinstance(x, lw.LatexMacroNode) and x.macroname in ("multicolumn", "multirow"):
                args = [a for a in (x.nodeargd.argnlist if x.nodeargd else []) if a is not None]
                parts.append(self.node(args[-1]) if args else "")
            else:
                parts.append(self.node(x))
        body = "".join(parts).replace("&", "\1")
        out: list[str] = []
        started = False
        for row in body.split("\0"):
            cells = [c.replace("\n", " ").strip() for c in row.split("\1")]
            line = "| " + " | ".join(cells) + " |" if any(cells) else ""
            breaks = row.count("\n")
            if started and breaks > 1:  # a rule (\midrule) between rows: the table goes on
                out.append("\n" + "| --- |\n" * (breaks - 1) + line)
            else:
                out.append("\n" * breaks + line)
            started = started or bool(line)
        rows = "".join(out)
        return "\n" * (raw.count("\n") - rows.count("\n")) + rows

    def macro(self, n, raw: str) -> str:
        name = n.macroname
        args = [a for a in (n.nodeargd.argnlist if n.nodeargd else []) if a is not None]
        if name in _REFUSED:
            target = args[-1].latex_verbatim().strip("{}") if args else ""
            raise InputError(
                f"line {self.line_of(n.pos)}: \\{name}{{{target}}}: the audit reads one file; "
                "put the text it includes in this one"
            )
        if name in _ESCAPED:
            return _ESCAPED[name]
        if name in self.inline and args:  # code set inline: a code span, as Markdown writes it
            code = args[-1].latex_verbatim()
            code = code[1:-1] if code.startswith("{") else code
            return "`" + code.replace("\n", " ").replace("`", "'") + "`" + _newlines(code)
        if name in self.files:  # a listing of a file: code, not prose
            return _newlines(raw)
        if name in _HEADINGS and args:
            title = self.node(args[-1])
            return "#" * _HEADINGS[name] + " " + " ".join(title.split()) + _newlines(title)
        if name in _TEXT_MACROS and args:
            return self.node(args[-1])
        if name == "footnote" and args:
            return " (" + self.node(args[-1]) + ")"
        if name == "href" and len(args) >= 2:
            return self.node(args[-1])
        if name == "\\":
            return " "
        return _newlines(raw)  # \cite, \label, \vspace{1em}, \includegraphics[...]: no prose


def _newlines(raw: str) -> str:
    return "\n" * raw.count("\n")
