"""A relation simplified, and its worked instance: "This is purely a question of when ⟨24BTDNH ==
12BT^2NH⟩. Simplifying we get ⟨2D = T⟩, so e.g. for ⟨D = 4096⟩, this is ⟨8192⟩."

**Simplified**: a relation followed by "simplifying (rearranging, dividing ...) we get" another
(or "solving" a relation that "yields" another)
is the same relation when the difference of the first's sides is the second's times a factor
SymPy proves of one sign, every letter a positive size (24BTDNH − 12BT²NH = −12BTNH · (T − 2D));
``a > b`` is read as ``b < a``. An equation is kept by a factor of either sign, an inequality by
a positive one only: a negative one turns it round (−2x < −4 is x > 2, never x < 2), and the
claim is wrong, as it is when positive sizes make one relation's sides equal and not the
other's. Anything else decides nothing.

The relation is the latest one the sentence (or the paragraph before it) states between two of
the text's letters, ``2D = T`` or ``T > 8D`` (an inequality's boundary, ``T = 8D``); the
instance gives one letter a value and states the other's. SymPy solves the relation for the
other letter (runs of capitals read as products, as in :mod:`.letters`) and puts the value in;
the figure stated must be that value, to its precision. A relation that does not fix the other
letter (two solutions, none, more letters) decides nothing.
"""

from __future__ import annotations

import re

import sympy as sp

from . import calc, letters
from .stated import Stated, Unreadable, rounds_to

_INSTANCE = re.compile(
    r"\b(?:e\.g\.,?\s+)?[Ff]or\s+(?:e\.g\.,?\s+)?⟨\s*(?P<given>[A-Za-z]\w*\s*=\s*[^⟩=]+)⟩,?\s+"
    r"(?:this|that|it)\s+(?:is|would be|gives|comes to)\s+(?P<approx>~\s*|about\s+|roughly\s+|around\s+)?"
    r"⟨\s*(?P<value>[\d.,]+)\s*⟩"
)
#: "Solving ⟨2N^2 d = 4 N d^2⟩ yields ⟨N = 2d⟩": the relation posed, then what it comes to.
_SOLVING = re.compile(
    r"\b(?:[Ss]olv(?:ing|e)|[Ee]quating|[Ss]etting|[Ww]e\s+solve)\s+(?:for\s+⟨?\w+⟩?\s*,?\s+(?:in\s+)?)?"
    r"(?:the\s+(?:two\s+)?\w+\s*,\s*)?"
    r"⟨(?P<first>[^⟩]+)⟩\s*,?\s+(?:for\s+⟨?\w+⟩?\s*,?\s+)?"
    r"(?:(?:and|then)\s+(?:solving|solve|we\s+solve)(?:\s+for\s+⟨?\w+⟩?)?\s*,?\s+)?"
    r"(?:we get|gives|yields|we find|find|we obtain|leaves|has the (?:positive )?solution)\s+"
    r"⟨(?P<second>[^⟩]+)⟩"
)
_RELATIONS = {"=", "==", ">", "<", "≥", "≤", ">=", "<="}
#: Words that make a text's letters other than positive sizes.
_NOT_SIZES = re.compile(r"\b(?:negative|real|integers?|complex|signs?|any number|nonzero)\b", re.I)
_SIMPLIFIED = re.compile(
    r"⟨(?P<first>[^⟩]+)⟩[.,;:]?\s+(?:(?:and|so|then|thus)\s+)?(?:[Ss]implifying|[Rr]earranging|[Ss]olving|[Cc]ancelling|[Dd]ividing"
    r"[^⟨.;]{0,40}?),?\s+(?:we get|gives|yields|we find|we obtain|leaves)\s+⟨(?P<second>[^⟩]+)⟩"
)


def instance_claims(au, line, add, covered) -> None:
    from .match import Claim, inside
    from .said import Math, Said

    for m in _INSTANCE.finditer(line.text):
        if inside(covered, *m.span("value")):
            continue
        try:
            members, _ = calc.parse_chain(m.group("given"))
            given = letters.value(members[0], {}, [])
            value = letters.value(members[1], {}, [])
        except Unreadable:
            continue
        if not isinstance(given, sp.Symbol) or value is None or value.free_symbols:
            continue
        relation = _relation(au, line, m.start(), given)
        if relation is None:
            continue
        between = line.text[line.text.rfind(relation[0], 0, m.start()) + len(relation[0]) : m.start()]
        if relation[0] in line.text[: m.start()] and given.name in re.findall(
            r"[A-Za-z]\w*", " ".join(re.findall(r"⟨([^⟩]*)⟩", between))
        ):
            continue  # "T > 8D; the width is D/32, so for D = 4096, this is 128": which one "this" is, unsure
        shown, other, solved = relation
        true = solved.xreplace({given: value})
        try:
            stated = Stated.read(m.group("value"))
        except Unreadable:
            continue
        ok = rounds_to(true, stated, exact_whole=not m.group("approx"))
        add(
            Claim.judged(
                line.number,
                m.group(0),
                ok,
                Said(f"{other} = ", Math(true)),
                f"worked example: the relation {shown} solved for {other} at {given} = {value} (SymPy)",
                [m.span("value")],
            )
        )


def simplified_claims(au, line, add, covered) -> None:
    from .match import CERTIFIED, WRONG, Claim, inside
    from .said import Math, Said

    for m in [*_SIMPLIFIED.finditer(line.text), *_SOLVING.finditer(line.text)]:
        if inside(covered, *m.span("second")) or re.match(r"\s*(?:or|and)\b", line.text[m.end() :]):
            continue  # "we get ⟨c < 0⟩ or ⟨c > 0⟩": the second relation is only part of what is said
        a, b = line.sentence_at(m.start())
        earlier = au.doc.sentence(line, max(0, a - 2))[0] if a else ""
        if _NOT_SIZES.search(line.text[a:b] + " " + earlier):
            continue  # letters said to be negative, or any real number: not sizes, not read here
        sides = [_sides(m.group(k)) for k in ("first", "second")]
        if sides[0] is None or sides[1] is None or sides[0][0] != sides[1][0]:
            continue
        sizes = {x: sp.Symbol(x.name, positive=True) for _, a, b in sides for x in (a - b).free_symbols}
        first, second = ((a - b).xreplace(sizes) for _, a, b in sides)
        if second == 0:
            continue
        factor = sp.factor(sp.cancel(first / second))
        # an equation is kept by any factor of one sign; an inequality by a positive one, and
        # turned round by a negative one (-2x < -4 is x > 2, never x < 2)
        equation = sides[0][0] == "="
        same = factor.is_positive is True or (equation and factor.is_negative is True)
        flipped = not equation and factor.is_negative is True
        if not same and not flipped and not _apart(first, second):
            continue
        add(
            Claim(
                line.number,
                m.group(0),
                CERTIFIED if same else WRONG,
                Said("the first's sides differ by ", Math(factor), " times the second's")
                + Said(": a negative factor turns an inequality round" if flipped else ""),
                "letters: a relation simplified is the same relation (a factor of one sign, every letter "
                "a positive size; SymPy)",
                # the relation solved is posed, not claimed: it is part of this claim
                [(m.start("second") - 1, m.end("second") + 1)]
                + ([(m.start("first") - 1, m.end("first") + 1)] if m.re is _SOLVING else []),
            )
        )


def _apart(first: sp.Expr, second: sp.Expr) -> bool:
    """Whether some positive sizes make ``second`` zero and ``first`` not: the relations differ."""
    for letter in sorted(second.free_symbols, key=str):
        for root in sp.solve(second, letter):
            if root.is_positive is not True:
                continue
            rest = sp.factor(first.xreplace({letter: root}))
            if rest.is_positive is True or rest.is_negative is True:
                return True
    return False


def _split_known(plain: str) -> str:
    """``4Nd^(2)`` beside ``2N^(2) d``: a run of letters each written alone in the formula is
    their product (N d), as in the text's letters."""
    alone = set(re.findall(r"(?<![A-Za-z_])([A-Za-z])(?![A-Za-z_(])", plain))
    return re.sub(
        r"(?<![A-Za-z_])([A-Za-z]{2,3})(?![A-Za-z_(])",
        lambda m: " ".join(m.group(1)) if set(m.group(1)) <= alone else m.group(1),
        plain,
    )


def _sides(plain: str) -> tuple[str, sp.Expr, sp.Expr] | None:
    """(relation, left, right) of a relation between two sides in the text's letters."""
    plain = _split_known(plain)
    try:  # "when A == B": a programmer's equality, read as one
        members, relations = calc.parse_chain(re.sub(r"(?<![<>=!])==(?!=)", "=", plain))
    except Unreadable:
        return None
    if len(members) != 2 or not relations or relations[0] not in _RELATIONS:
        return None
    sides = [letters.value(x, {}, []) for x in members]
    if sides[0] is None or sides[1] is None:
        return None
    flip = {">": "<", "≥": "≤", ">=": "≤", "<=": "≤"}  # a > b is b < a: one direction to compare
    if relations[0] in (">", "≥", ">="):
        return flip[relations[0]], sides[1], sides[0]
    return flip.get(relations[0], relations[0]), sides[0], sides[1]


def _relation(au, line, before: int, given: sp.Symbol) -> tuple[str, sp.Symbol, sp.Expr] | None:
    """(the relation as written, the other letter, its value in ``given``) from the latest
    relation between ``given`` and one other letter stated before ``before`` in the line, or
    in the paragraph's lines before it."""
    block = au.doc.block(line) if line.kind == "prose" else [line]
    lines = [*[x for x in block if x.number < line.number][-3:], line]
    formulas = [plain for x in lines for _, plain, start, _ in x.formulas if x is not line or start < before]
    for plain in reversed(formulas):
        try:
            members, relations = calc.parse_chain(plain)
        except Unreadable:
            continue
        if len(members) != 2 or not relations or relations[0] not in _RELATIONS:
            continue
        sides = [letters.value(x, {}, []) for x in members]
        if any(s is None for s in sides):
            continue
        symbols = set().union(*(s.free_symbols for s in sides))
        if given not in symbols or len(symbols) != 2:
            continue
        (other,) = symbols - {given}
        solutions = sp.solve(sp.Eq(sides[0], sides[1]), other)
        if len(solutions) != 1:
            return None
        return plain, other, solutions[0]
    return None
