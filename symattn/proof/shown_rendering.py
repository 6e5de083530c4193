"""What a derivation shows, part one: every side a page prints, and every line of its notation,
read back and compared with the object it was printed from (:func:`check_rendering`)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import sympy as sp

from ..unicode_text import UnicodeReadError, from_unicode, to_unicode
from .latex import RELATIONS_LATEX, page_latex, shown_values, side_latex, step_text, term_pieces
from .reader import RELATIONS, ReadError, Vocabulary, readings, tokenize, vocabulary
from .shown_base import (
    NotShownAsChecked,
    _as_object,
    _notation,
    agree,
    words_vocabulary,
)


def shown_sides(d: Any) -> Iterator[tuple[str, Any]]:
    """(what, value) for every side a page prints: the shown side where one is given."""
    for k, s in enumerate(d.steps):
        lhs, rhs = shown_values(s)
        if lhs is not None:
            yield f"step {k + 1}, left side", lhs
        yield f"step {k + 1}, right side", rhs


def check_rendering(d: Any) -> str:
    """Read back every printed side and notation line; raise :class:`NotShownAsChecked` at the
    first that differs from its object. Returns a summary."""
    vocab = words_vocabulary(d)
    # Among what the pages print (a claim is not printed: the claims check compares it).
    printed = vocabulary([value for _, value in shown_sides(d)], page_latex)
    for key, objects in printed.names.items():
        kinds = [type(x) for x in objects]
        if len(kinds) != len(set(kinds)):  # d_k and d both printed d: one name on the page
            shown_as = ", ".join(sorted(str(x) for x in objects))
            raise NotShownAsChecked(f"{shown_as} are all printed as ${key}$: one name, one meaning")
    printer = getattr(d, "printer", None) or side_latex
    count = 0
    pages: dict[str, tuple[Any, str, Any]] = {}  # what: (the side, its LaTeX, the reading that agreed)
    for what, value in shown_sides(d):
        page = printer(value)
        pages[what] = (value, page, _read_back(what, value, page, vocab))
        count += 1
        pieces = term_pieces(value) if not isinstance(value, str) else None
        if pieces is not None and len(pieces) > 1:  # the same sum split over rows, term by term
            _read_back(f"{what}, split over rows", value, " ".join(pieces), vocab)
            count += 1
    for k, s in enumerate(d.steps):
        written = RELATIONS_LATEX.get(s.relation, "")
        if RELATIONS.get(written) != s.relation:
            raise NotShownAsChecked(
                f"step {k + 1} states {s.relation}, but its relation is printed as ${written}$, "
                f"which reads as {RELATIONS.get(written, 'no relation')}"
            )
        # The terminal's lines for the step, as derive --format text prints them.
        lhs_line, rhs_line = step_text(s, printer)
        if lhs_line is not None:
            what = f"step {k + 1}, left side"
            _read_back_text(what, lhs_line, vocab, *pages[what])
        text, _, rhs_text = rhs_line.partition(" ")
        try:
            read = RELATIONS.get(from_unicode(text))
        except UnicodeReadError:
            read = None
        if read != s.relation:
            raise NotShownAsChecked(
                f"step {k + 1} states {s.relation}, but the terminal prints its relation as '{text}', "
                f"which reads as {read or 'no relation'}"
            )
        what = f"step {k + 1}, right side"
        _read_back_text(what, rhs_text, vocab, *pages[what])
        count += 1 + (lhs_line is not None)
    for short, meaning in _notation(d):
        for where, value in (("the notation", short), (f"the notation for {page_latex(short)}", meaning)):
            page = page_latex(value)
            agreed = _read_back(where, value, page, vocab)
            _read_back_text(where, to_unicode(page), vocab, value, page, agreed)
        count += 4
    return f"{count} read back"


def _read_back_text(what: str, text: str, vocab: Vocabulary, value: Any, page: str, agreed: Any) -> None:
    r"""Read back a side as the terminal prints it (Unicode, :func:`.latex.side_text`): it must
    be the page's formula ``page`` in form (:func:`same_form`: not only its value, so ``8`` for
    ``\sqrt{64}`` or a lost ``\cdot`` fails) and read as ``value``. A reading that is, node for
    node, the page's reading ``agreed`` (already found equal to ``value``) is not compared again."""
    printed = f"{what} is printed in the terminal as '{text}'"
    try:
        tex = from_unicode(text)
    except UnicodeReadError as exc:
        raise NotShownAsChecked(f"{printed}, which does not read back ({exc})") from None
    if not same_form(tex, page):
        raise NotShownAsChecked(f"{printed}, which is not the page's ${page}$")
    _read_back(what, value, tex, vocab, printed=f"in the terminal as '{text}'", agreed=agreed)


#: Spellings of one thing, taken as one when two formulas are compared in form.
_SAME_FORM = {
    r"\leq": r"\le",
    r"\geq": r"\ge",
    r"\ne": r"\neq",
    r"\lvert": "|",
    r"\rvert": "|",
    r"\lVert": "‖",
    r"\rVert": "‖",
    r"\|": "‖",
    r"\Vert": "‖",
    r"\dots": r"\ldots",
    r"\tfrac": r"\frac",
    r"\dfrac": r"\frac",
    r"\varepsilon": r"\epsilon",
    r"\to": r"\rightarrow",
    r"\ln": r"\log",
}


def same_form(a: str, b: str) -> bool:
    r"""Two LaTeX formulas are written alike: the same tokens in the same order, braces and
    sizing aside (``e^{z_i}`` and ``e^{z_{i}}``, ``\left(`` and ``(``), numbers digit by digit
    (``\frac14`` and ``\frac{1}{4}``), a fraction as its slash (``\frac{a+b}{c}`` and
    ``(a+b)/c``), parentheses around one token or around a group aside, an upright word in any
    of its commands (``\text``, ``\mathrm``, ``\operatorname``) and the spellings of
    :data:`_SAME_FORM` as one. A dropped ``\cdot``, limit or digit, or ``8`` for ``\sqrt{64}``,
    is another form."""
    return _form(a) == _form(b)


def _form(tex: str) -> list[str]:
    tokens: list[str] = []
    for t in tokenize(tex):
        if t.kind == "num":
            tokens.extend(t.text)
            continue
        text = re.sub(r"^\\(?:mathrm|textrm|operatorname|text)\{", r"\\text{", t.text)
        tokens.append(_SAME_FORM.get(text, text))
    out, _ = _form_sequence(tokens, 0)
    return _unparenthesised(out)


def _form_sequence(tokens: list[str], i: int) -> tuple[list[str], int]:
    out: list[str] = []
    while i < len(tokens):
        t = tokens[i]
        if t == "}":
            return out, i + 1
        if t == "{":
            inner, i = _form_sequence(tokens, i + 1)
            out += inner
        elif t == r"\frac":
            a, i = _form_argument(tokens, i + 1)
            b, i = _form_argument(tokens, i)
            out += ["(", *a, ")", "/", "(", *b, ")"]
        else:
            out.append(t)
            i += 1
    return out, i


def _form_argument(tokens: list[str], i: int) -> tuple[list[str], int]:
    if i < len(tokens) and tokens[i] == "{":
        return _form_sequence(tokens, i + 1)
    return tokens[i : i + 1], i + 1


def _unparenthesised(tokens: list[str]) -> list[str]:
    """Without parentheses around a single token or around a group that fills them."""
    changed = True
    while changed:
        changed = False
        stack: list[int] = []
        pairs: dict[int, int] = {}
        for k, t in enumerate(tokens):
            if t == "(":
                stack.append(k)
            elif t == ")" and stack:
                pairs[stack.pop()] = k
        for a, b in sorted(pairs.items()):
            if b - a == 2 or (pairs.get(a + 1) == b - 1):
                tokens = tokens[:a] + tokens[a + 1 : b] + tokens[b + 1 :]
                changed = True
                break
    return tokens




def _read_back(
    what: str, value: Any, tex: str, vocab: Vocabulary, printed: str | None = None, agreed: Any = None
) -> Any:
    """``tex`` must read as ``value``; returns the reading that agrees. ``printed`` says how the
    reader saw it, if not as ``$tex$``; a reading identical to ``agreed`` agrees."""
    printed = printed or f"as ${tex}$"
    try:
        found = list(readings(tex, vocab))
    except (ReadError, ValueError, TypeError, sp.ShapeError) as exc:
        raise NotShownAsChecked(f"{what} is printed {printed}, which does not read back ({exc})") from None
    obj = _as_object(value)
    for reading in found:
        try:
            got = reading.value()
        except ReadError:
            continue
        if (agreed is not None and got == agreed) or agree(got, obj):
            return got
    raise NotShownAsChecked(f"{what} is printed {printed}, which reads back as something else")












