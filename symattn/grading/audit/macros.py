"""An author's own LaTeX macros, read where they are defined and expanded where they are used.

Authors name what they write often: ``\\newcommand{\\dmodel}{d_{\\text{model}}}`` in a LaTeX
preamble or style file, ``\\def\\red#1{\\textcolor{red}{#1}}`` in a Markdown page's MathJax
block, ``\\DeclareMathOperator{\\Var}{Var}``. A claim written with them (``$\\Ocal(SD^2)$``,
``$2\\blue{GH}\\red{KL}$``) means what they expand to, so the audit expands them before it
reads a formula. Definitions are read with arguments (``#1`` ... ``#9``, an optional first
argument's default) from the text itself and from any preamble the author names
(``symattn audit chapter.tex --macros preamble.sty``).

A macro means what TeX makes of it: its body and arguments put in as written, no group added
(with ``\\newcommand{\\two}{1+1}``, ``\\two^2`` is ``1+1^2``, which TeX sets as 1 + 1²).

Reading and expansion are bounded by the text: a definition's body is read to at most
:data:`MAX_BODY` characters; expansion makes a fixed number of rounds, and all of a text's
expansions together add at most :data:`MAX_ADDED` characters (a :class:`Budget`), so a macro
defined in terms of itself stays as it is rather than growing without end; an expansion that
would change where a line ends is not made (claims are reported at their source lines).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

#: Rounds of expansion (a macro used in another's body is expanded in the next round).
ROUNDS = 8
#: The longest text an expansion may make (longer: the text is left as it was).
MAX_EXPANDED = 200_000
#: The most characters all the expansions of one text may add.
MAX_ADDED = 2_000_000
#: The longest body a definition may have (longer: not read as a definition).
MAX_BODY = 5_000
_TOKENS = re.compile(r"\\.|[{}]", re.S)


class Budget:
    """What the expansions of one text may still add, in characters."""

    def __init__(self, characters: int = MAX_ADDED):
        self.left = characters


_NAME = r"\\([A-Za-z]+|.)"
_NAME_AT = re.compile(_NAME)
#: The commands that define a macro, as LaTeX and MathJax read them.
_DEFINING = re.compile(
    r"\\(?P<kind>newcommand|renewcommand|providecommand|DeclareRobustCommand|DeclareMathOperator|def)"
    r"(?P<star>\*?)(?![A-Za-z])"
)


@dataclass(frozen=True)
class Macro:
    name: str
    arguments: int
    #: The first argument's default when it is optional (``\newcommand{\x}[2][1]{...}``).
    default: str | None
    body: str


def _skip_spaces(tex: str, i: int) -> int:
    while i < len(tex) and tex[i] in " \t\n":
        i += 1
    return i


def _bracketed(tex: str, i: int) -> tuple[str, int] | None:
    """The inside of ``[...]`` at ``i`` (no nesting) and the index after it, or None."""
    if i >= len(tex) or tex[i] != "[":
        return None
    k = tex.find("]", i)
    return (tex[i + 1 : k], k + 1) if k > 0 else None


def definitions(tex: str) -> tuple[dict[str, Macro], list[tuple[int, int]]]:
    """The macros ``tex`` defines, by name (a later definition wins), and the span of each
    definition (what a reader of the prose never sees)."""
    found: dict[str, Macro] = {}
    spans: list[tuple[int, int]] = []
    closing = _groups(tex) if _DEFINING.search(tex) else {}
    for m in _DEFINING.finditer(tex):
        if spans and m.start() < spans[-1][1]:
            continue  # inside a definition read already
        read = _definition(tex, m, closing)
        if read is None:
            continue
        macro, end = read
        if m.group("kind") == "providecommand" and macro.name in found:
            continue
        found[macro.name] = macro
        spans.append((m.start(), end))
    return found, spans


def _groups(tex: str) -> dict[int, int]:
    """Where each group of ``tex`` that closes within :data:`MAX_BODY` characters closes, by where
    it opens: one pass, however many groups never close."""
    out: dict[int, int] = {}
    opened: list[int] = []
    for m in _TOKENS.finditer(tex):
        c = m.group()
        if c == "{":
            opened.append(m.start())
        elif c == "}" and opened:
            start = opened.pop()
            if m.start() - start <= MAX_BODY:
                out[start] = m.end()
    return out


def _group_at(tex: str, i: int, closing: dict[int, int]) -> tuple[str, int] | None:
    """The inside of the group opening at ``i`` and the index after it (from :func:`_groups`)."""
    end = closing.get(i)
    return (tex[i + 1 : end - 1], end) if end is not None else None


def _definition(tex: str, m: re.Match, closing: dict[int, int]) -> tuple[Macro, int] | None:
    kind, i = m.group("kind"), _skip_spaces(tex, m.end())
    group = _group_at(tex, i, closing)
    if group is not None:
        name, i = group[0].strip(), group[1]
    else:
        n = _NAME_AT.match(tex, i)
        if n is None:
            return None
        name, i = n.group(), n.end()
    if not re.fullmatch(_NAME, name):
        return None
    name = name[1:]
    if kind == "def":  # \def\name#1#2{body}
        params = re.compile(r"(?:#\d)*").match(tex, i)
        count = len(params.group()) // 2 if params else 0
        body = _group_at(tex, params.end() if params else i, closing)
        return (Macro(name, count, None, _one_line(body[0])), body[1]) if body else None
    if kind == "DeclareMathOperator":
        body = _group_at(tex, _skip_spaces(tex, i), closing)
        if body is None:
            return None
        limits = r"\operatorname*" if m.group("star") else r"\operatorname"
        return Macro(name, 0, None, limits + "{" + body[0] + "}"), body[1]
    count, default = 0, None
    i = _skip_spaces(tex, i)
    if (n := _bracketed(tex, i)) is not None:
        if not n[0].strip().isdigit():
            return None
        count, i = int(n[0]), _skip_spaces(tex, n[1])
        if (d := _bracketed(tex, i)) is not None:
            default, i = d[0], _skip_spaces(tex, d[1])
    body = _group_at(tex, i, closing)
    return (Macro(name, count, default, _one_line(body[0])), body[1]) if body else None


def _one_line(body: str) -> str:
    """A body written over several lines as TeX reads it: a ``%`` ends a line with no space, any
    other line end is a space."""
    return re.sub(r"\s*\n\s*", " ", re.sub(r"(?<!\\)%[^\n]*\n?", "", body)).strip()


def blanked(tex: str, spans: list[tuple[int, int]]) -> str:
    """``tex`` with each span (in order, apart) blanked: its characters spaces, its line breaks
    kept, so that every line keeps its number and every character its place."""
    out, last = [], 0
    for start, end in spans:
        out += [tex[last:start], re.sub(r"[^\n]", " ", tex[start:end])]
        last = end
    return "".join(out) + tex[last:]


def expand(tex: str, macros: dict[str, Macro], budget: Budget | None = None) -> str:
    """``tex`` with ``macros`` expanded (see the module's docstring for the bounds); ``budget``
    the characters the text's expansions may still add, spent here by every round tried (one
    given up for its size too), so that the work of a whole text is bounded."""
    if not macros or "\\" not in tex:
        return tex
    budget = budget or Budget()
    names = "|".join(sorted(map(re.escape, macros), key=len, reverse=True))
    pattern = re.compile(r"\\(" + names + r")(?![A-Za-z])")
    for _ in range(ROUNDS):
        if budget.left <= 0:
            break
        limit = min(MAX_EXPANDED, len(tex) + budget.left)
        new, changed = _round(tex, pattern, macros, limit)
        budget.left -= max(len(new) - len(tex), 0) if new is not None else budget.left
        if new is None or not changed:
            break
        tex = new
    return tex


def _round(tex: str, pattern: re.Pattern, macros: dict[str, Macro], limit: int) -> tuple[str | None, bool]:
    """One round of expansion; (None, False) as soon as the text would grow past ``limit``."""
    out, last, changed, size = [], 0, False, 0
    closing = _groups(tex)  # the arguments' groups, found in one pass
    for m in pattern.finditer(tex):
        if m.start() < last:
            continue  # an argument of a macro just expanded
        macro = macros[m.group(1)]
        i, args = m.end(), []
        if macro.default is not None:
            optional = _bracketed(tex, _skip_spaces(tex, i))
            if optional is not None:
                args.append(optional[0])
                i = optional[1]
            else:
                args.append(macro.default)
        while len(args) < macro.arguments:
            arg = _argument(tex, i, closing)
            if arg is None:
                break
            args.append(arg[0])
            i = arg[1]
        if len(args) < macro.arguments:
            continue  # used without its arguments: left as written
        body = _substituted(macro.body, args)
        before = tex[max(0, m.start() - 64) : m.start()].rstrip()  # a control word is shorter
        if re.search(r"\\[A-Za-z]+$", before) and not re.search(r"\\(?:left|right|[a-z]*space)$", before):
            body = "{" + body + "}"  # \frac\N2: the macro is one argument of the command before it
        elif m.start() > 0 and tex[m.start() - 1].isalpha():
            body = " " + body  # after a letter: a word of its own still
        if re.search(r"\\[A-Za-z]+$", body) and tex[i : i + 1].isalpha():
            body += " "  # a body that ends in a control word stays one before a letter
        if body.count("\n") != tex[m.start() : i].count("\n"):
            continue  # it would move the lines after it
        out += [tex[last : m.start()], body]
        size += m.start() - last + len(body)
        if size > limit:
            return None, False
        last, changed = i, True
    return "".join(out) + tex[last:], changed


def _substituted(body: str, args: list[str]) -> str:
    """``body`` with ``#k`` replaced by the k-th argument (an argument never given: nothing)."""

    def argument(a: re.Match) -> str:
        k = int(a.group(1))
        return args[k - 1] if 1 <= k <= len(args) else ""

    return re.sub(r"#(\d)", argument, body)


def _argument(tex: str, i: int, closing: dict[int, int]) -> tuple[str, int] | None:
    """A macro's argument at ``i``: a group's inside, a control word, or one character."""
    i = _skip_spaces(tex, i)
    if i >= len(tex) or tex[i] == "}":
        return None
    if tex[i] == "{":
        return _group_at(tex, i, closing)
    if tex[i] == "\\":
        n = _NAME_AT.match(tex, i)
        return (n.group(), n.end()) if n else None
    return tex[i], i + 1
