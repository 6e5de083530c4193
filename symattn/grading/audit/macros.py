"""An author's own LaTeX macros, read where they are defined and expanded where they are used.

Authors name what they write often: ``\\newcommand{\\dmodel}{d_{\\text{model}}}`` in a LaTeX
preamble or style file, ``\\def\\red#1{\\textcolor{red}{#1}}`` in a Markdown page's MathJax
block, ``\\DeclareMathOperator{\\Var}{Var}``. A claim written with them (``$\\Ocal(SD^2)$``,
``$2\\blue{GH}\\red{KL}$``) means what they expand to, so the audit expands them before it
reads a formula. Definitions are read with arguments (``#1`` ... ``#9``, an optional first
argument's default) from the text itself and from any preamble the author names
(``symattn audit chapter.tex --macros preamble.sty``).

Expansion is bounded by the text: a fixed number of rounds and a size, so a macro defined in
terms of itself stays as it is rather than growing without end; an expansion that would change
where a line ends is not made (claims are reported at their source lines).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

#: Rounds of expansion (a macro used in another's body is expanded in the next round).
ROUNDS = 8
#: The longest text an expansion may make (longer: the text is left as it was).
MAX_EXPANDED = 200_000

_NAME = r"\\([A-Za-z]+|.)"
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


def _braced(tex: str, i: int) -> tuple[str, int] | None:
    """The inside of the group opening at ``i`` and the index after it, or None."""
    if i >= len(tex) or tex[i] != "{":
        return None
    depth = 0
    k = i
    while k < len(tex):
        c = tex[k]
        if c == "\\":
            k += 2
            continue
        depth += c == "{"
        depth -= c == "}"
        if depth == 0:
            return tex[i + 1 : k], k + 1
        k += 1
    return None


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
    for m in _DEFINING.finditer(tex):
        if spans and m.start() < spans[-1][1]:
            continue  # inside a definition read already
        read = _definition(tex, m)
        if read is None:
            continue
        macro, end = read
        if m.group("kind") == "providecommand" and macro.name in found:
            continue
        found[macro.name] = macro
        spans.append((m.start(), end))
    return found, spans


def _definition(tex: str, m: re.Match) -> tuple[Macro, int] | None:
    kind, i = m.group("kind"), _skip_spaces(tex, m.end())
    group = _braced(tex, i)
    if group is not None:
        name, i = group[0].strip(), group[1]
    else:
        n = re.compile(_NAME).match(tex, i)
        if n is None:
            return None
        name, i = n.group(), n.end()
    if not re.fullmatch(_NAME, name):
        return None
    name = name[1:]
    if kind == "def":  # \def\name#1#2{body}
        params = re.compile(r"(?:#\d)*").match(tex, i)
        count = len(params.group()) // 2 if params else 0
        body = _braced(tex, params.end() if params else i)
        return (Macro(name, count, None, body[0]), body[1]) if body else None
    if kind == "DeclareMathOperator":
        body = _braced(tex, _skip_spaces(tex, i))
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
    body = _braced(tex, i)
    return (Macro(name, count, default, body[0]), body[1]) if body else None


def without_definitions(tex: str, spans: list[tuple[int, int]]) -> str:
    """``tex`` with each definition blanked: its characters spaces, its line breaks kept."""
    out, last = [], 0
    for start, end in spans:
        out += [tex[last:start], re.sub(r"[^\n]", " ", tex[start:end])]
        last = end
    return "".join(out) + tex[last:]


def expand(tex: str, macros: dict[str, Macro]) -> str:
    """``tex`` with ``macros`` expanded (see the module's docstring for the bounds)."""
    if not macros or "\\" not in tex:
        return tex
    names = "|".join(sorted(map(re.escape, macros), key=len, reverse=True))
    pattern = re.compile(r"\\(" + names + r")(?![A-Za-z])")
    for _ in range(ROUNDS):
        new, changed = _round(tex, pattern, macros)
        if not changed or len(new) > MAX_EXPANDED:
            break
        tex = new
    return tex


def _round(tex: str, pattern: re.Pattern, macros: dict[str, Macro]) -> tuple[str, bool]:
    out, last, changed = [], 0, False
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
            arg = _argument(tex, i)
            if arg is None:
                break
            args.append(arg[0])
            i = arg[1]
        if len(args) < macro.arguments:
            continue  # used without its arguments: left as written
        body = _substituted(macro.body, args)
        body = _grouped(body) if macro.arguments == 0 else "{" + body + "}"
        if body.count("\n") != tex[m.start() : i].count("\n"):
            continue  # it would move the lines after it
        out += [tex[last : m.start()], body]
        last, changed = i, True
    return "".join(out) + tex[last:], changed


def _substituted(body: str, args: list[str]) -> str:
    """``body`` with ``#k`` replaced by the k-th argument (an argument never given: nothing)."""
    return re.sub(r"#(\d)", lambda a: args[int(a.group(1)) - 1] if int(a.group(1)) <= len(args) else "", body)


def _argument(tex: str, i: int) -> tuple[str, int] | None:
    """A macro's argument at ``i``: a group's inside, a control word, or one character."""
    i = _skip_spaces(tex, i)
    if i >= len(tex) or tex[i] == "}":
        return None
    if (group := _braced(tex, i)) is not None:
        return group
    if tex[i] == "\\":
        n = re.compile(_NAME).match(tex, i)
        return (n.group(), n.end()) if n else None
    return tex[i], i + 1


def _grouped(body: str) -> str:
    """An argument-free macro's body as it stands in math: a single symbol bare
    (``d_{\\text{model}}``, read as the symbol), anything longer in braces, so that ``\\dk^2``
    squares all of it; one that ends a row (``\\nonumber\\\\``) bare, as a group cannot hold a row's end."""
    if "\\\\" in body:
        return body
    if re.fullmatch(r"\s*\\?[A-Za-z]+(?:_(?:\w|\{(?:[^{}]|\{[^{}]*\})*\}))?\s*", body) or re.fullmatch(
        r"\s*\\(?:operatorname\*?|mathrm|text|mathbb|mathcal|mathbf)\{\w+\}\s*", body
    ):  # \operatorname{Var}: a name, bare too
        return body.strip()
    return "{" + body + "}"
