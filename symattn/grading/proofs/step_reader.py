r"""Reading a learner's derivation: lines of LaTeX into chains of SymPy steps.

A derivation file holds one step per line. ``A = B`` starts a chain (and is itself a step),
``= C`` continues it; blank lines and ``%`` comments are ignored. :func:`read_lines` splits a
file into :class:`Line` s; :func:`parse_expression` reads one side of a step into a small
syntax tree; :mod:`symattn.grading.proofs.variance_world` and :mod:`symattn.grading.proofs.permutation_world`
turn that tree into SymPy objects for their exercise.

The text is untrusted. Nothing here calls ``eval``, ``exec`` or ``sympify`` on it: a
hand-written recursive-descent parser accepts a short list of LaTeX commands
(``\operatorname{Var}``, ``\mathbb{E}``, ``\sum``, ``\frac``, ``\sqrt``, ``^\top``,
``\operatorname{softmax}``, ``\operatorname{Attention}``, ...) and refuses everything else
with one sentence that names the problem and its position.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ...errors import SymattnError
from ...unicode_text import first_refused

#: Longest line accepted, in characters.
MAX_LINE = 400
#: Longest physical line read (an aligned block may hold several steps on one line).
RAW_LINE = 4 * MAX_LINE
_BLANKS = re.compile(r"\s+")
#: Most step lines in one derivation.
MAX_LINES = 60
#: Deepest nesting of brackets accepted.
MAX_DEPTH = 30
#: Longest run of digits accepted.
MAX_DIGITS = 12
#: Most terms one step may multiply out to (its two sides together, :func:`expansion_terms`),
#: and a whole derivation: what bounds a step's work, whatever the machine (issue 49). The
#: project's banks reach 8 for a step.
MAX_STEP_TERMS = 100
MAX_DERIVATION_TERMS = 400
#: Most operators (softmax, Attention, Var, E, ...) nested in one side, Attention counted as two
#: (a softmax inside products): the banks nest one, E[(X - E[X])^2] two. A step is proved at
#: several exact instances, whose work grows about fivefold with each level of softmax (one true
#: ex6.7 line took 1.1, 2.2 and 11 s of CPU at 2, 3 and 4 levels).
MAX_NESTED_OPERATORS = 3
#: Most softmax applied in one side, Attention counted as two: each multiplies the size of the
#: exact entries the step is proved on, nested or in a product (softmax(S) written four times
#: in a product took 1.3 s of CPU, five times 8 s). The banks apply at most two.
MAX_SOFTMAX = 4
#: Most costly steps in one derivation: operators nested MAX_NESTED_OPERATORS deep, or softmax
#: applied three or more times in a side (each 0.2-3.4 s of CPU here, ten to fifty times a
#: step of the banks, which have none): past them, such steps are refused, so that a
#: derivation's work stays bounded by its text.
MAX_COSTLY_STEPS = 4
COSTLY_SOFTMAX = 3

Node = tuple  # ("num", int|str) ("id", ...) ("add", ...) ...: see Parser


class StepSyntaxError(SymattnError, ValueError):
    """A line of a derivation cannot be read: unknown command, bad brackets, junk, ..."""


@dataclass(frozen=True)
class Line:
    """One step: ``lhs = rhs`` (``lhs`` None continues the chain) at file line ``number``."""

    number: int
    latex: str
    lhs: str | None
    rhs: str
    error: str = ""  # why the line cannot be read as a step, if it cannot
    #: a claim stated before its proof ("**Lemma 1.** $A = B$."): proved by the lines after it
    stated: bool = False


#: Environments a derivation may be pasted in; their \begin and \end are dropped.
_ENVIRONMENTS = re.compile(
    r"\\(?:begin|end)\{(?:align|aligned|alignat|alignedat|equation|gather|gathered|eqnarray|split|"
    r"multline|flalign)\*?\}(?:\{\d+\})?"
)
#: An equals sign with a note over it: \overset{(1)}{=}, \stackrel{\text{scale}}{=}.
_NOTED_EQUALS = re.compile(r"\\(?:overset|stackrel)\{(?:[^{}]|\{[^{}]*\})*\}\{\s*=\s*\}")
#: Labels and numbers beside a step: \tag{1}, \label{...}, \nonumber.
_TAGS = re.compile(r"\\(?:tag\*?|label|eqref|ref)\{[^{}]*\}|\\(?:nonumber|notag)\b")
#: A note at the end of a step: "\quad \text{(rule 4)}", "\qquad (\text{independence})".
_NOTE = re.compile(  # possessive: no backtracking into a long run of spaces
    r"(?:\\q?quad\b|\\[,;: ]|\\hspace\{[^{}]*\}|\s)++\(?\s*+"
    r"\\(?:text|textrm|textit|textbf|mbox|mathrm)\{[^{}]*\}\s*+\)?\s*+$"
)
#: A justification after a space at the end of a step: "\qquad (P^\top P = I)", "\quad \text{since }
#: (AB)^\top = B^\top A^\top": a note, not a statement to check.
_JUSTIFICATION = re.compile(
    r"(?:\\q?quad\b|\\hspace\{[^{}]*\})(?:\\q?quad\b|\\[,;: ]|\s)*+"
    r"(?:\([^()]*=[^()]*\)|\\(?:text|textrm|mathrm|mbox)\{\s*(?:since|by|using|as|because|from|via)\b[^{}]*\}.*)$"
)
#: The end of a proof: \square, \blacksquare, \qed, ∎.
_END_OF_PROOF = re.compile(r"(?:\\(?:square|blacksquare|Box|qed|qedhere)(?![A-Za-z])|∎)\s*$")
#: A transpose written as a letter in a font: ^{\mathsf{T}}, ^\mathrm{T}.
_FONT = r"\\(?:mathsf|mathrm|textsf|mathtt|text)\{\s*T\s*\}"
_FONT_TRANSPOSE = re.compile(rf"\^\s*(?:\{{\s*{_FONT}\s*\}}|{_FONT})")
#: An equation's number after a space at the end of a step: "\qquad (2)", "\quad (3a)" (not a factor).
_NUMBER = re.compile(
    r"(?:\\q?quad\b|\\[,;: ]|\\hspace\{[^{}]*\})(?:\\q?quad\b|\\[,;: ]|\s)*+\(\s*\d{1,3}[a-z]?\s*\)\s*+$"
)
#: A number in parentheses after a plain space at the end of a step, "= d_k (3)": an equation's
#: number or a factor, asked about.
_BARE_NUMBER = re.compile(r"[^\s=(]\s+\(\s*(\d{1,3})\s*\)\s*$")
#: Words and arrows between statements ("\implies", "\therefore", "\text{so}"): each starts a
#: statement of its own, checked as any other line.
_CONNECTIVES = re.compile(
    r"\\(?:implies|Longrightarrow|Rightarrow|therefore|iff|Leftrightarrow)(?![A-Za-z])"
    r"|\\(?:text|textrm|mathrm|mbox)\{\s*(?:so|hence|thus|therefore|then|and)\s*,?\s*\}"
    r"|^\s*(?:so|hence|thus|therefore|then)\b,?",
    re.I,
)
#: Unicode a learner's editor may produce, and the LaTeX it stands for.
UNICODE = {
    "\ufeff": "",  # a byte-order mark anywhere
    "\u2212": "-",  # minus sign
    "\u2013": "-",  # en dash
    "\u00d7": r"\cdot ",
    "\u22c5": r"\cdot ",
    "\u00b7": r"\cdot ",
    "\u221a": r"\sqrt ",
    "\u03a3": r"\sum",
    "\u2211": r"\sum",
    "\u03c3": r"\sigma ",
    "\u1d40": r"^\top ",
    "\u22a4": r"\top ",
    "\u00a0": " ",
    "\u2009": " ",
    "\u202f": " ",
    "\u2026": r"\ldots ",
    "\u22ef": r"\cdots ",
    "\u27f9": r"\implies ",
    "\u21d2": r"\Rightarrow ",
    "\u2234": r"\therefore ",
    "\u00b2": "^2",
}


#: An inner product of two vectors named by letters, ``\langle q, k \rangle``: their dot product.
_INNER = re.compile(r"\\langle\s*([A-Za-z](?:_\{?\w+\}?)?)\s*,\s*([A-Za-z](?:_\{?\w+\}?)?)\s*\\rangle")
#: Other textbooks' variance, \mathbb{V}[X] or \mathbb{V}(X).
_BLACKBOARD_V = re.compile(r"\\mathbb\s*\{\s*V\s*\}(?=\s*[(\[])")


def plain_unicode(text: str) -> str:
    r"""``text`` with the Unicode of :data:`UNICODE` written as LaTeX, and other textbooks'
    notations as this one's: ``\langle q, k \rangle`` is ``q \cdot k``, ``\mathbb{V}`` is Var."""
    for ch, tex in UNICODE.items():
        text = text.replace(ch, tex)
    text = _INNER.sub(r"\1 \\cdot \2", text)
    return _BLACKBOARD_V.sub(r"\\operatorname{Var}", text)


def read_lines(text: str) -> list[Line]:
    r"""Split a derivation into steps; a bad layout raises :class:`StepSyntaxError`.

    Accepted layouts: one step per line (``A = B``, then ``= C``); a chain on one line
    (``A = B = C``, each ``=`` a step); a pasted ``align*`` or ``aligned`` block, with ``&``,
    row breaks ``\\`` (several rows on one line too), ``\tag``, ``\label`` and
    ``\nonumber``; a note after a step (``\quad \text{(rule 4)}``); ``$``, ``$$``, ``\[``
    and ``\]``; a byte-order mark and Windows line ends. The steps of one line share its number.
    """
    if len(text) > MAX_LINES * MAX_LINE * 2:
        raise StepSyntaxError(f"the derivation is too long ({len(text)} characters)")
    physical = []
    # lines end at CR, LF or CRLF only (a form feed, U+2028 or U+0085 is no line of the file)
    for number, raw in enumerate(re.split(r"\r\n|\r|\n", plain_unicode(text).removesuffix("\n")), start=1):
        # Bounded before any pattern runs on it; runs of spaces are one space in LaTeX.
        if len(raw) > RAW_LINE:
            raise StepSyntaxError(
                f"line {number} is too long ({len(raw)} characters; a step has at most {MAX_LINE})"
            )
        physical.append(_BLANKS.sub(" ", raw))
    out: list[Line] = []
    started = False
    lone: tuple[int, str] | None = None  # an expression alone on its line, the next may go on with "= ..."
    for number, raw in _joined_cases(physical):
        for row in _rows(raw):
            line = _clean(row)
            if not line:
                continue
            if len(line) > MAX_LINE:
                raise StepSyntaxError(
                    f"line {number} is too long ({len(line)} characters, at most {MAX_LINE})"
                )
            try:
                _check_brackets(line)
                if m := _BARE_NUMBER.search(line):
                    raise StepSyntaxError(
                        f"the ({m.group(1)}) at the end may be an equation number or a factor "
                        f"{m.group(1)}: write \\qquad ({m.group(1)}) or \\tag{{{m.group(1)}}} for a number, "
                        f"\\cdot {m.group(1)} for a factor"
                    )
                parts = _split_equals(line)
                if lone is not None:
                    if parts[0] == "":  # "A" alone, then "= B": the chain A = B
                        parts[0], line = lone[1], f"{lone[1]} {line}"
                    else:
                        out.append(Line(lone[0], lone[1], None, "", _NEEDS_EQUALS))
                    lone = None
                if len(parts) == 1 and parts[0] and not _CONNECTIVES.search(parts[0]):
                    lone = (number, parts[0])
                    continue
                if parts[0] == "" and not started:
                    raise StepSyntaxError("'= ...' continues a chain, but no chain has started")
                if len(parts) < 2:
                    raise StepSyntaxError(_NEEDS_EQUALS)
                if any(not p for p in parts[1:]):
                    raise StepSyntaxError("nothing between two '=' or after the last one")
            except StepSyntaxError as exc:
                out.append(Line(number, line, None, "", str(exc)))
                continue
            for k, rhs in enumerate(parts[1:]):
                if len(out) >= MAX_LINES:
                    raise StepSyntaxError(f"too many steps (at most {MAX_LINES})")
                lhs = (parts[0] or None) if k == 0 else None
                shown = (
                    line
                    if len(parts) == 2
                    else (f"{parts[0]} = {rhs}" if k == 0 and parts[0] else f"= {rhs}")
                )
                stated = bool(STATEMENT.match(physical[number - 1]))
                out.append(Line(number, _decode_cases(shown), lhs, rhs, stated=stated))
            started = True
    if lone is not None:
        out.append(Line(lone[0], lone[1], None, "", _NEEDS_EQUALS))
    if not out:
        raise StepSyntaxError("the derivation has no steps")
    return out


_NEEDS_EQUALS = "a step needs '=' ('A = B', or '= B' to continue a chain; 'A' alone, then '= B')"


_CASES = re.compile(r"\\begin\{cases\}(.*?)\\end\{cases\}", re.S)


def _joined_cases(physical: list[str]) -> list[tuple[int, str]]:
    """Lines without comments, a ``cases`` block that spans several joined onto its first line
    and written as ``\\casesplit{value}{condition}...`` (its ``&``, ``\\\\`` and ``=`` kept
    from the layout)."""
    out: list[tuple[int, str]] = []
    pending: tuple[int, str] | None = None
    for number, raw in enumerate(physical, start=1):
        line = _without_prose(_strip_comment(raw))
        if pending is not None:
            pending = (pending[0], pending[1] + " " + line)
            if len(pending[1]) > RAW_LINE:
                raise StepSyntaxError(
                    f"line {pending[0]}: the cases block is too long (more than {RAW_LINE} characters)"
                )
            if "\\end{cases}" not in line:
                continue
            number, line = pending
            pending = None
        elif "\\begin{cases}" in line and "\\end{cases}" not in line:
            pending = (number, line)
            continue
        out.append((number, _CASES.sub(_encode_cases, line)))
    if pending is not None:
        out.append(pending)  # an unclosed block: reported as the line it starts on
    return out


#: A Markdown list marker or heading at a line's start: "1. ", "2) ", "- ", "## ".
_MARKER = re.compile(r"^\s*(?:\d{1,3}[.)]|[-*+]|#{1,6})\s+")
#: Inline math in a Markdown sentence: ``$...$`` (not ``$$``).
_INLINE = re.compile(r"(?<!\$)\$(?!\$)([^$]+)\$(?!\$)")
#: A claim's label at a line's start: "**Lemma 1.**", "Theorem:", "*Claim (rows).*".
STATEMENT = re.compile(
    r"^\s*(?:[-*+]\s+)?(?:\*\*|__|\*|_)?\s*(?:(?:Lemma|Theorem|Claim|Proposition|Corollary|Goal)\b"
    r"(?:\s*\d+(?:\.\d+)*)?(?:\s*\([^()$]*\))?\s*[.:]?\s*(?:\*\*|__|\*|_)?\s*[.:]?"
    r"|(?:To\s+(?:show|prove)\s*:?|We\s+(?:want\s+to\s+|will\s+|now\s+|shall\s+|must\s+)?(?:show|prove)"
    r"(?:\s+that)?)\s*)",
    re.I,
)
#: A sentence that names a formula only to deny it ("It is not true that $A = B$", "... would give
#: $A = B$, which is false"): prose, not a step.
_DENIED = re.compile(r"\b(?:not\s+true|is\s+false|which\s+is\s+false|is\s+wrong|would\s+give|fails?)\b", re.I)


#: A proof's label at a line's start: "*Proof.*", "Proof:", "**Proof of Lemma 1.**".
_PROOF = re.compile(r"^\s*(?:\*\*|__|\*|_)?\s*Proof\b[^.:$]{0,40}[.:]\s*(?:\*\*|__|\*|_)?", re.I)


def _without_prose(line: str) -> str:
    """A line of a derivation written in Markdown: prose around the math. A sentence (two words
    or more outside its math and commands, and no "=" there) that holds one inline formula
    stating an equality is that formula; one that holds none is prose, read as nothing. A
    numbered list's marker ("1. ") before a step is dropped; a "- " stays, a minus sign. Display
    math (``$$``) and lines without words are as they are."""
    if "$$" in line or not line.strip():
        return line
    if "$" in line and _DENIED.search(_INLINE.sub(" ", line)):
        return ""
    label = STATEMENT.match(line) or _PROOF.match(line)
    if label:  # a labelled claim or proof: its one equality, however few words
        return _one_equality(line[label.end() :])
    marker = _MARKER.match(line)
    numbered = marker is not None and marker.group(0).strip()[0].isdigit()
    body = line[marker.end() :] if marker else line
    outside = _INLINE.sub(" ", body)
    plain = re.sub(r"\\[A-Za-z]+\*?(?:\{[^{}]*\})?", " ", outside)
    words = re.findall(r"(?<![\\A-Za-z_^])[A-Za-z]?[a-z]{2,}\b", plain)  # words, not PXW
    if "=" in outside or len(words) < (1 if _INLINE.search(body) else 2):
        return body if numbered else line
    return _one_equality(body)


def _one_equality(sentence: str) -> str:
    """The one inline formula of a sentence that states an equality; "" (prose) if it holds
    none or several."""
    found = [m for m in _INLINE.finditer(sentence) if "=" in m.group(1)]
    if len(found) > 1:  # "$A = B$ since $P^\top P = I$": the one that is not a reason given
        found = [m for m in found if not _REASON.search(sentence[: m.start()])]
    stated = [m.group(1) for m in found]
    if len(stated) > 1:  # "Write $S = ...$. By $P^\top P = I$: ...": the one that defines a name
        stated = _DEFINING.findall(sentence)
    return stated[0] if len(stated) == 1 else ""


#: Words that give a reason just before a formula: "since $P^\top P = I$".
_REASON = re.compile(r"\b(?:since|because|as|by|using|from|via|and)\s*$", re.I)


#: A formula that defines a name in a sentence: "Write $S = ...$", "let $A = ...$".
_DEFINING = re.compile(
    r"\b(?:[Ll]et|[Ww]rite|[Dd]efine|[Ss]et|[Dd]enote|[Pp]ut|[Ww]ith)\s+\$(\s*[A-Za-z]'?\s*=[^$]+)\$"
)


def _encode_cases(m: re.Match) -> str:
    parts = []
    for row in re.split(r"\\\\(?:\[[^\]]*\])?", m.group(1)):
        if not row.strip():
            continue
        value, _, condition = row.partition("&")
        condition = re.sub(r"\\text\{\s*(?:if|for|when)\s*\}|\b(?:if|for|when)\b", " ", condition)
        condition = re.sub(r"\\text\{\s*otherwise\s*\}|\botherwise\b", r"\\otherwise", condition)
        parts.append("{" + value.strip() + "}{" + condition.strip().rstrip(".,;") + "}")
    return "\\casesplit" + "".join(parts)


def _decode_cases(text: str) -> str:
    """``\\casesplit{a}{b}{c}{d}`` shown again as the ``cases`` block it was written as."""
    while (start := text.find("\\casesplit")) >= 0:
        groups, i = [], start + len("\\casesplit")
        while i < len(text) and text[i] == "{":
            depth, j = 0, i
            while j < len(text):
                depth += {"{": 1, "}": -1}.get(text[j], 0)
                if depth == 0:
                    break
                j += 1
            groups.append(text[i + 1 : j])
            i = j + 1
        rows = " \\\\ ".join(f"{v} & {c}" for v, c in zip(groups[::2], groups[1::2], strict=False))
        text = text[:start] + "\\begin{cases} " + rows + " \\end{cases}" + text[i:]
    return text


def _rows(line: str) -> list[str]:
    """A physical line cut at its row breaks ``\\`` (outside braces), environments dropped."""
    line = _ENVIRONMENTS.sub(" ", line)
    line = _TAGS.sub(" ", line)
    line = _FONT_TRANSPOSE.sub(r"^\\top ", line.replace("\\!", " "))
    line = _NOTED_EQUALS.sub("=", line)
    line = _CONNECTIVES.sub(r" \\\\ ", line)  # "A = B \implies C = D": two statements
    rows, depth, start, i = [], 0, 0, 0
    while i < len(line):
        ch = line[i]
        if ch == "\\" and line.startswith("\\\\", i):
            if depth == 0:
                rows.append(line[start:i])
                i += 2
                i += len(m.group()) if (m := re.match(r"\s*\[[^\]]*\]", line[i:])) else 0  # \\[2pt]
                start = i
                continue
            i += 2
            continue
        if ch == "\\":
            i += 2
            continue
        depth += ch == "{"
        depth -= ch == "}"
        i += 1
    rows.append(line[start:])
    return rows


def _clean(row: str) -> str:
    """A row without delimiters, alignment marks, a note at its end and final punctuation."""
    line = row.strip()
    for _ in range(3):
        line = re.sub(r"^(\$\$?|\\\[)|(\$\$?|\\\])$", "", line.strip()).strip()
        line = _END_OF_PROOF.sub("", line).strip()
        line = _NOTE.sub("", line).strip()
        line = _JUSTIFICATION.sub("", line).strip()
        line = _NUMBER.sub("", line).strip()
        line = re.sub(r"(?:\\[,;!: ]|\\q?quad\b|\s)++$", "", line).rstrip(".,;").strip()
    return line.replace("&", "").strip()


def _strip_comment(raw: str) -> str:
    m = re.search(r"(?<!\\)%", raw)
    return raw[: m.start()] if m else raw


def _check_brackets(line: str) -> None:
    pairs = {")": "(", "]": "[", "}": "{"}
    stack: list[tuple[str, int]] = []
    for pos, ch in enumerate(line, start=1):
        if ch in "([{":
            stack.append((ch, pos))
        elif ch in ")]}":
            if not stack or stack[-1][0] != pairs[ch]:
                raise StepSyntaxError(f"unmatched {ch!r} at position {pos}")
            stack.pop()
    if stack:
        raise StepSyntaxError(f"unmatched {stack[-1][0]!r} at position {stack[-1][1]}")


def _split_equals(line: str) -> list[str]:
    """Split at each '=' outside braces and brackets (``\\sum_{i=1}`` holds one inside)."""
    parts, depth, start = [], 0, 0
    for pos, ch in enumerate(line):
        if ch in "{([":
            depth += 1
        elif ch in "})]":
            depth -= 1
        elif ch == "=" and depth == 0:
            parts.append(line[start:pos].strip())
            start = pos + 1
    parts.append(line[start:].strip())
    return parts


# -- tokens -------------------------------------------------------------------------------------
_ALLOWED_CHARS = re.compile(r"[0-9A-Za-z\s\\{}()\[\]^_+\-*/=.,'|]")
_SPACES = (
    ",",
    ";",
    ":",
    "!",
    " ",
    "quad",
    "qquad",
    "displaystyle",
    "left",
    "right",
    "bigl",
    "bigr",
    "Bigl",
    "Bigr",
    "big",
    "Big",
    "biggl",
    "biggr",
    "limits",
    "nolimits",
    "textstyle",
)
_WORDS = ("softmax", "Softmax", "Attention", "Var", "Cov")
_COMMANDS = {
    "frac",
    "dfrac",
    "tfrac",
    "sqrt",
    "sum",
    "operatorname",
    "mathrm",
    "text",
    "mathbb",
    "mathbf",
    "boldsymbol",
    "mathit",
    "mathsf",
    "top",
    "intercal",
    "cdot",
    "times",
    "ldots",
    "cdots",
    "dots",
    "sigma",
    "casesplit",
    "neq",
    "ne",
    "otherwise",
}


@dataclass(frozen=True)
class Token:
    kind: str  # num, letter, word, cmd, op
    text: str
    pos: int  # 1-based position in the line


def precheck(text: str) -> None:
    """Refuse characters, code and sizes that no step needs, before tokenizing."""
    if refused := first_refused(text, _ALLOWED_CHARS):
        raise StepSyntaxError(refused)
    if re.search(r"__|\bimport\b|\blambda\b|\beval\b|\bexec\b", text):
        raise StepSyntaxError("this looks like program code, not a step of a derivation")
    if m := re.search(r"\d{" + str(MAX_DIGITS + 1) + ",}", text):
        raise StepSyntaxError(f"too costly to check: a number with {len(m.group())} digits")


def tokenize(text: str) -> list[Token]:
    precheck(text)
    toks: list[Token] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch.isspace():
            i += 1
        elif ch.isdigit() or (ch == "." and i + 1 < n and text[i + 1].isdigit()):
            m = re.match(r"\d*\.?\d*", text[i:])
            toks.append(Token("num", m.group().rstrip("."), i + 1))
            i += len(m.group().rstrip(".")) or 1
        elif ch.isalpha():
            word = next(
                (
                    w
                    for w in _WORDS
                    if text.startswith(w, i) and not text[i + len(w) : i + len(w) + 1].isalpha()
                ),
                None,
            )
            if word:
                toks.append(Token("word", word, i + 1))
                i += len(word)
            else:
                toks.append(Token("letter", ch, i + 1))
                i += 1
        elif ch == "\\":
            m = re.match(r"\\([A-Za-z]+|.)", text[i:])
            if not m:
                raise StepSyntaxError(f"a lone backslash at position {i + 1}")
            name = m.group(1)
            i += len(m.group())
            if name in _SPACES:
                continue
            if name in ("{", "}"):
                toks.append(Token("op", "(" if name == "{" else ")", i))
                continue
            if name not in _COMMANDS:
                raise StepSyntaxError(
                    f"the command \\{name} at position {i - len(m.group()) + 1} is not accepted here"
                )
            if name in ("cdot", "times"):
                toks.append(Token("op", "*", i))
            else:
                toks.append(Token("cmd", name, i - len(m.group()) + 1))
        else:
            toks.append(Token("op", ch, i + 1))
            i += 1
    _check_depth(toks)
    return toks


def _check_depth(toks: list[Token]) -> None:
    pairs = {")": "(", "]": "[", "}": "{"}
    stack: list[Token] = []
    for t in toks:
        if t.kind != "op":
            continue
        if t.text in "([{":
            stack.append(t)
            if len(stack) > MAX_DEPTH:
                raise StepSyntaxError(f"too costly to check: nested more than {MAX_DEPTH} deep")
        elif t.text in ")]}":
            if not stack or stack[-1].text != pairs[t.text]:
                raise StepSyntaxError(f"unmatched {t.text!r} at position {t.pos}")
            stack.pop()
    if stack:
        raise StepSyntaxError(f"unmatched {stack[-1].text!r} at position {stack[-1].pos}")


# -- the grammar --------------------------------------------------------------------------------
# expr   := ["+"|"-"] term (("+"|"-") term)*
# term   := factor (["*"] factor | "/" factor)*          juxtaposition multiplies
# factor := primary ("^" script | "_" script | "'")*
# primary:= number | letter | "(" expr ")" | "[" expr "]" | "{" expr "}" | \frac{}{} | \sqrt{}
#         | \sum_{i=1}^{n} term | Var(expr) | E[expr] | softmax(expr) | Attention(expr, ...)
_OPERATORS = {"var": "Var", "softmax": "softmax", "attention": "Attention", "e": "E", "cov": "Cov"}


class Parser:
    def __init__(self, text: str):
        self.text = text
        self.toks = tokenize(text)
        self.i = 0

    # helpers
    def peek(self, k: int = 0) -> Token | None:
        j = self.i + k
        return self.toks[j] if j < len(self.toks) else None

    def next(self) -> Token:
        t = self.peek()
        if t is None:
            raise StepSyntaxError("the expression ends too early")
        self.i += 1
        return t

    def at(self, kind: str, text: str | None = None) -> bool:
        t = self.peek()
        return t is not None and t.kind == kind and (text is None or t.text == text)

    def expect(self, text: str) -> Token:
        t = self.peek()
        if t is None or t.kind != "op" or t.text != text:
            where = f"at position {t.pos}" if t else "at the end"
            raise StepSyntaxError(f"expected {text!r} {where}")
        return self.next()

    def parse(self) -> Node:
        if not self.toks:
            raise StepSyntaxError("an empty side")
        node = self.expr()
        if self.peek() is not None:
            t = self.peek()
            raise StepSyntaxError(f"unexpected {t.text!r} at position {t.pos}")
        return node

    # grammar
    def expr(self) -> Node:
        terms: list[Node] = []
        sign = 1
        if self.at("op", "-") or self.at("op", "+"):
            sign = -1 if self.next().text == "-" else 1
        t = self.term()
        terms.append(("neg", t) if sign < 0 else t)
        while self.at("op", "+") or self.at("op", "-"):
            op = self.next().text
            t = self.term()
            terms.append(("neg", t) if op == "-" else t)
        return terms[0] if len(terms) == 1 else ("add", *terms)

    def _starts_factor(self) -> bool:
        t = self.peek()
        if t is None:
            return False
        if t.kind in ("num", "letter", "word"):
            return True
        if t.kind == "cmd":
            return t.text not in ("top", "intercal")
        return t.kind == "op" and t.text in "([{"

    def term(self) -> Node:
        factors: list[Node] = [self.factor()]
        while True:
            if self.at("op", "*"):
                self.next()
                factors.append(self.factor())
            elif self.at("op", "/"):
                self.next()
                factors.append(("inv", self.factor()))
            elif self._starts_factor():
                factors.append(self.factor())
            else:
                break
        return factors[0] if len(factors) == 1 else ("mul", *factors)

    def factor(self) -> Node:
        if self.at("op", "-"):
            self.next()
            return ("neg", self.factor())
        node = self.primary()
        while True:
            if self.at("op", "^"):
                self.next()
                node = self._superscript(node)
            elif self.at("op", "_") and node[0] == "id" and node[2] is None:
                self.next()
                node = ("id", node[1], self._subscript(), node[3])
            elif self.at("op", "'") and node[0] == "id":
                self.next()
                node = ("id", node[1] + "'", node[2], node[3])
            else:
                return node

    def _superscript(self, base: Node) -> Node:
        t = self.peek()
        if t is None:
            raise StepSyntaxError("nothing after '^'")
        if t.kind == "cmd" and t.text in ("top", "intercal"):
            self.next()
            return ("T", base)
        if t.kind == "letter" and t.text == "T":
            self.next()
            return ("T", base)
        if t.kind == "op" and t.text == "{":
            inner = self._group_tokens()
            if len(inner) == 1 and (
                (inner[0].kind == "cmd" and inner[0].text in ("top", "intercal"))
                or (inner[0].kind == "letter" and inner[0].text == "T")
            ):
                return ("T", base)
            if base[0] == "id" and base[3] is None and len(inner) == 1 and inner[0].kind == "letter":
                return ("id", base[1], base[2], inner[0].text)
            return ("pow", base, _sub_parse(self.text, inner))
        if base[0] == "id" and base[3] is None and t.kind == "letter" and t.text in "QKVO":
            self.next()
            return ("id", base[1], base[2], t.text)
        if t.kind == "num":
            if len(t.text) > 1:
                raise StepSyntaxError(f"write ^{{{t.text}}} with braces (position {t.pos})")
            self.next()
            return ("pow", base, ("num", t.text))
        if t.kind == "letter":
            self.next()
            return ("pow", base, ("id", t.text, None, None))
        raise StepSyntaxError(f"unexpected {t.text!r} after '^' at position {t.pos}")

    def _subscript(self) -> Node:
        t = self.peek()
        if t is None:
            raise StepSyntaxError("nothing after '_'")
        if t.kind == "op" and t.text == "{":
            inner = self._group_tokens()
            if not inner:
                raise StepSyntaxError(f"an empty subscript at position {t.pos}")
            return _sub_parse(self.text, inner)
        if t.kind == "letter":
            self.next()
            return ("id", t.text, None, None)
        if t.kind == "num":
            if len(t.text) > 1:
                raise StepSyntaxError(f"write _{{{t.text}}} with braces (position {t.pos})")
            self.next()
            return ("num", t.text)
        if t.kind == "word":
            self.next()
            return ("id", t.text, None, None)
        raise StepSyntaxError(f"unexpected {t.text!r} after '_' at position {t.pos}")

    def _group_tokens(self, open_: str = "{", close: str = "}") -> list[Token]:
        start = self.expect(open_)
        depth, out = 1, []
        while True:
            t = self.peek()
            if t is None:
                raise StepSyntaxError(f"unmatched {open_!r} at position {start.pos}")
            self.next()
            if t.kind == "op" and t.text == open_:
                depth += 1
            elif t.kind == "op" and t.text == close:
                depth -= 1
                if depth == 0:
                    return out
            out.append(t)

    def _group(self) -> Node:
        if self.at("op", "{"):
            inner = self._group_tokens()
            if not inner:
                raise StepSyntaxError("an empty group {}")
            return _sub_parse(self.text, inner)
        return self.factor()  # \frac12, \sqrt d

    def _name_arg(self) -> str:
        """The text of \\operatorname{...} / \\mathrm{...}: letters only."""
        inner = self._group_tokens() if self.at("op", "{") else [self.next()]
        return "".join(t.text for t in inner)

    def primary(self) -> Node:
        t = self.next()
        if t.kind == "num":
            return ("num", t.text)
        if t.kind == "op" and t.text in "([{":
            close = {"(": ")", "[": "]", "{": "}"}[t.text]
            self.i -= 1
            inner = self._group_tokens(t.text, close)
            if not inner:
                raise StepSyntaxError(f"empty brackets at position {t.pos}")
            return ("group", _sub_parse(self.text, inner))
        if t.kind == "word":
            return self._operator(_OPERATORS[t.text.lower()], t)
        if t.kind == "letter":
            if t.text == "E" and (self.at("op", "[") or self.at("op", "(")):
                return self._operator("E", t)
            return ("id", t.text, None, None)
        if t.kind == "cmd":
            name = t.text
            if name in ("frac", "dfrac", "tfrac"):
                num = self._group()
                den = self._group()
                return ("mul", num, ("inv", den))
            if name == "sqrt":
                if self.at("op", "["):
                    raise StepSyntaxError(f"only square roots are accepted (position {t.pos})")
                return ("sqrt", self._group())
            if name == "sum":
                return self._sum(t)
            if name in ("operatorname", "mathrm", "text", "mathbb", "mathit", "mathsf"):
                word = self._name_arg()
                key = word.lower()
                if key in _OPERATORS and (key != "e" or self.at("op", "[") or self.at("op", "(")):
                    return self._operator(_OPERATORS[key], t)
                if len(word) == 1 and word.isalpha():
                    return ("id", word, None, None)
                raise StepSyntaxError(f"unknown name {word!r} at position {t.pos}")
            if name in ("mathbf", "boldsymbol"):
                word = self._name_arg()
                if len(word) == 1 and word.isalpha():
                    return ("id", word, None, None)
                if word == "1":
                    if self.at("op", "_"):  # its length, \mathbf{1}_N: a vector of ones all the same
                        self.next()
                        self._subscript()
                    return ("ones",)  # the all-ones vector
                raise StepSyntaxError(f"unknown name {word!r} at position {t.pos}")
            if name in ("ldots", "cdots", "dots"):
                return ("dots",)
            if name == "sigma":
                return self._sigma(t)
            if name == "casesplit":
                return self._cases(t)
            raise StepSyntaxError(f"unexpected \\{name} at position {t.pos}")
        raise StepSyntaxError(f"unexpected {t.text!r} at position {t.pos}")

    def _operator(self, op: str, t: Token) -> Node:
        if self.at("op", "["):
            inner = self._group_tokens("[", "]")
        elif self.at("op", "("):
            inner = self._group_tokens("(", ")")
        else:
            raise StepSyntaxError(f"{op} at position {t.pos} needs its argument in brackets")
        if not inner:
            raise StepSyntaxError(f"{op} at position {t.pos} has no argument")
        args = [_sub_parse(self.text, part) for part in _split_commas(inner)]
        if op == "Cov" and len(args) != 2:
            raise StepSyntaxError(f"Cov at position {t.pos} takes two arguments: Cov(X, Y)")
        if op == "Var" and len(args) == 2:
            raise StepSyntaxError(f"Var at position {t.pos} takes one argument: of two, Cov(X, Y)")
        if op not in ("Attention", "Cov") and len(args) != 1:
            raise StepSyntaxError(f"{op} at position {t.pos} takes one argument")
        return ("op", op, *args)

    def _cases(self, t: Token) -> Node:
        """A split into the cases i = j and i != j: ("cases", (value, ("eq"|"ne", i, j)), ...)."""
        cases = []
        while self.at("op", "{"):
            value = _sub_parse(self.text, self._group_tokens())
            cond = self._group_tokens() if self.at("op", "{") else []
            cases.append((value, _condition(cond, t)))
        if (
            len(cases) != 2
            or {c[1][0] for c in cases} - {"eq", "ne", "otherwise"}
            or (
                sorted(c[1][0] for c in cases) not in (["eq", "ne"], ["eq", "otherwise"], ["ne", "otherwise"])
            )
        ):
            raise StepSyntaxError(
                f"cases at position {t.pos}: give two, i = j and i \\neq j (or one of them and 'otherwise')"
            )
        pairs = {c[1][1:] for c in cases if c[1][0] != "otherwise"}
        if len(pairs) != 1:
            raise StepSyntaxError(f"cases at position {t.pos}: both cases must compare the same two indices")
        (a, b) = next(iter(pairs))
        return (
            "cases",
            *[
                (v, (k if k != "otherwise" else ("ne" if "eq" in {x[1][0] for x in cases} else "eq"), a, b))
                for v, (k, *_) in cases
            ],
        )

    def _sigma(self, t: Token) -> Node:
        """sigma_X^2 (or sigma^2_X) is Var(X), sigma_X its square root (the standard deviation)."""
        if self.at("op", "^"):  # \sigma^2_z
            after = self.peek(1)
            if after is not None and after.kind == "num" and after.text == "2" and self.peek(2) is not None:
                nxt = self.peek(2)
                if nxt.kind == "op" and nxt.text == "_":
                    self.i += 3
                    return ("op", "Var", self._subscript())
        if not self.at("op", "_"):
            raise StepSyntaxError(
                f"\\sigma at position {t.pos} needs what it is the deviation of: \\sigma_z^2 is Var(z)"
            )
        self.next()
        of = self._subscript()
        if self.at("op", "^"):
            after = self.peek(1)
            if after is not None and after.kind == "num" and after.text == "2":
                self.i += 2
                return ("op", "Var", of)
            if after is not None and after.kind == "op" and after.text == "{":
                save = self.i
                self.next()
                inner = self._group_tokens()
                if len(inner) == 1 and inner[0].kind == "num" and inner[0].text == "2":
                    return ("op", "Var", of)
                self.i = save
        return ("sqrt", ("op", "Var", of))

    def _sum(self, t: Token) -> Node:
        if not self.at("op", "_"):
            raise StepSyntaxError(f"\\sum at position {t.pos} needs an index: \\sum_{{i=1}}^{{d_k}}")
        self.next()
        inner = self._group_tokens() if self.at("op", "{") else [self.next()]
        if not inner or inner[0].kind != "letter":
            raise StepSyntaxError(f"\\sum at position {t.pos}: the index must be a letter")
        index = inner[0].text
        low: Node | None = None
        if len(inner) > 1:
            if not (inner[1].kind == "op" and inner[1].text == "=") or len(inner) < 3:
                raise StepSyntaxError(f"\\sum at position {t.pos}: write the index as {{i=1}}")
            low = _sub_parse(self.text, inner[2:])
        high: Node | None = None
        if self.at("op", "^"):
            self.next()
            high = self._group()
        body = self.term()
        return ("sum", index, low, high, body)


def _condition(toks: list[Token], where: Token) -> tuple:
    """``i = j``, ``i \\neq j`` or ``\\otherwise``, as ("eq"|"ne"|"otherwise", i, j)."""
    if len(toks) == 1 and toks[0].kind == "cmd" and toks[0].text == "otherwise":
        return ("otherwise", None, None)
    if (
        len(toks) == 3
        and toks[0].kind == "letter"
        and toks[2].kind == "letter"
        and (
            (toks[1].kind == "op" and toks[1].text == "=")
            or (toks[1].kind == "cmd" and toks[1].text in ("neq", "ne"))
        )
    ):
        return ("eq" if toks[1].text == "=" else "ne", toks[0].text, toks[2].text)
    raise StepSyntaxError(f"cases at position {where.pos}: a condition must be i = j, i \\neq j or otherwise")


def _split_commas(toks: list[Token]) -> list[list[Token]]:
    parts: list[list[Token]] = [[]]
    depth = 0
    for t in toks:
        if t.kind == "op" and t.text in "([{":
            depth += 1
        elif t.kind == "op" and t.text in ")]}":
            depth -= 1
        if depth == 0 and t.kind == "op" and t.text == ",":
            parts.append([])
        else:
            parts[-1].append(t)
    if any(not p for p in parts):
        raise StepSyntaxError("an empty argument")
    return parts


def _sub_parse(text: str, toks: list[Token]) -> Node:
    p = Parser.__new__(Parser)
    p.text, p.toks, p.i = text, toks, 0
    return p.parse()


def parse_expression(text: str) -> Node:
    """The syntax tree of one side of a step (see the grammar above)."""
    if not text.strip():
        raise StepSyntaxError("an empty side")
    if len(text) > MAX_LINE:
        raise StepSyntaxError(f"too long ({len(text)} characters, at most {MAX_LINE})")
    try:
        return Parser(plain_unicode(text)).parse()
    except RecursionError:
        raise StepSyntaxError("nested too deeply to read") from None


def expansion_terms(node: Node) -> int:
    """How many terms a side multiplies out to, at most: a sum's terms add, a product's
    multiply, (a_1 + ... + a_t)^n has C(t + n - 1, n), Var(X) those of X squared, a sum with
    whole-number bounds its body's times its count. Read off the syntax tree, before any work."""
    from math import comb, prod

    kind = node[0]
    if kind == "add":
        return sum(expansion_terms(t) for t in node[1:])
    if kind in ("mul", "dot"):
        return prod(expansion_terms(t) for t in node[1:])
    if kind == "pow":
        base, exp = expansion_terms(node[1]), node[2]
        if exp[0] == "num" and str(exp[1]).isdigit() and int(exp[1]) > 0:
            return comb(base + int(exp[1]) - 1, int(exp[1]))
        return base
    if kind == "op":
        args = [expansion_terms(a) for a in node[2:]]
        if node[1] == "Var":
            return args[0] ** 2
        return prod(args) if node[1] == "Cov" else sum(args)
    if kind == "sum":
        _, _, low, high, body = node
        count = 1
        if low is not None and high is not None and low[0] == high[0] == "num":
            count = max(1, int(high[1]) - int(low[1]) + 1)
        return count * expansion_terms(body)
    if kind == "cases":
        return sum(expansion_terms(value) for value, _ in node[1:])
    if kind in ("group", "neg", "inv", "sqrt", "T"):
        return expansion_terms(node[1])
    return 1


def softmax_count(node: Node) -> int:
    """How many times a side applies softmax, nested or in products; Attention counts as two."""
    if not isinstance(node, tuple) or not node:
        return 0
    inner = sum(softmax_count(c) for c in node[1:] if isinstance(c, tuple))
    return inner + (0 if node[0] != "op" else 2 if node[1] == "Attention" else node[1] == "softmax")


def operator_depth(node: Node) -> int:
    """How deeply operators (softmax, Attention, Var, E, ...) nest in a side; Attention, a
    softmax inside products, counts as two."""
    if not isinstance(node, tuple) or not node:
        return 0
    inner = max((operator_depth(c) for c in node[1:] if isinstance(c, tuple)), default=0)
    return inner + (0 if node[0] != "op" else 2 if node[1] == "Attention" else 1)


def identifier_name(node: Node) -> str:
    """How an identifier node is written: ``W^Q``, ``d_k``, ``q_i``."""
    _, base, sub, sup = node
    text = base
    if sup:
        text += "^" + sup
    if sub is not None:
        text += "_" + (sub[1] if sub[0] in ("id", "num") else "{...}")
    return text


def subscript_text(sub: Any) -> str | None:
    """A subscript that is a plain name (``k`` in ``d_k``, ``model``), else None."""
    if sub is None:
        return None
    if sub[0] == "id" and sub[2] is None and sub[3] is None:
        return sub[1]
    if sub[0] == "mul" and all(s[0] == "id" and s[2] is None and s[3] is None for s in sub[1:]):
        return "".join(s[1] for s in sub[1:])
    return None


# -- the rules of a learner's world (ex6.3's learner_scalar, ex6.7's learner_matrix) ---------
@dataclass(frozen=True)
class NamedRule:
    """A rewrite a learner may use (or a slip), by name; ``feedback`` is what a learner is told."""

    name: str
    rewrite: Callable[[Any], Any]
    feedback: str = ""
    #: A hypothesis that puts values in (Var(q_i) = 1): a step may use it on one of its sides
    #: only, as a substitution into that side; used on both, it would "prove" any two sides
    #: that merely take the same value (Var(z) = sum_i Var(q_i)).
    substitution: bool = False


def rule_lemmas(
    rules: tuple[NamedRule, ...],
    statement: str,
    holds: Callable[[NamedRule, int], bool],
    sizes: Callable[[NamedRule], tuple[int, ...]],
    doubled: Callable[[Any], Any] = lambda out: 2 * out,
) -> list:
    """Each rule as a :class:`~symattn.proof.Lemma`: ``holds(rule, n)`` checks it at size n.

    ``statement`` is formatted with the rule's name (``{name}``). Each lemma's false twin, derived
    here, is the same check of the rule with its result doubled (``doubled``, in the world's own
    terms): it must fail at every size, or the check there cannot tell a rule from a wrong one."""
    from ...proof.engine import Lemma

    return [
        Lemma(
            r.name,
            statement.format(name=r.name),
            lambda n, r=r: holds(r, n),
            sizes=sizes(r),
            twin=lambda n, r=r: holds(_doubled(r, doubled), n),
            twin_statement=f"{r.name}, with its result doubled",
        )
        for r in rules
    ]


def _doubled(rule: NamedRule, doubled: Callable[[Any], Any]) -> NamedRule:
    """``rule`` with every rewrite it makes multiplied by 2 (a changed coefficient)."""

    def rewrite(node: Any) -> Any:
        out = rule.rewrite(node)
        return None if out is None else doubled(out)

    return dataclasses.replace(rule, rewrite=rewrite)
