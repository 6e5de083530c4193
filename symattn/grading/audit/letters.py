"""Identities in the text's own letters: ``18BTDF + 24BTDNH = 6BT(3DF + 4DNH)``.

Texts on the cost of a transformer write products of sizes as runs of capital letters (BTDNH
is B·T·D·N·H) and state what they assume as formulas (``assume $F = 4D$ and $D = NH$``).
A chain of such members is judged as a careful reader judges it:

- each member is evaluated with every letter a positive size, the values the text gave
  (``D = 4096``) and the relations it assumed (``F = 4D``, ``N·H = D``: the single letter is
  replaced by what it equals, in the order the text states them) put in;
- two neighbours that SymPy proves equal agree; two whose ratio is a number other than 1 (a
  slip in a coefficient: no relation between the letters can make 72 equal 96) disagree, and
  the claim is wrong; two whose ratio still depends on the letters are equal only under some
  premise the text does not state: the claim stays unchecked, with that reason.

Nothing is evaluated but sizes: a member calling a function other than sqrt, exp or ln, or
holding a matrix, is not read here.
"""

from __future__ import annotations

import re

import sympy as sp

from . import calc
from .stated import Unreadable

#: Capital words that are not products of letters: units and names authors write in math.
_WORDS = calc.CAPITAL_WORDS
_RUN = re.compile(r"[A-Z]{2,8}")


def split_letters(node: calc.Node) -> calc.Node:
    """Runs of capitals read as products of single letters (BTDNH is B·T·D·N·H; ``BT^2`` is
    B·T², the power binding to the last letter)."""
    if not isinstance(node, tuple):
        return node
    if node[0] == "sym" and _RUN.fullmatch(node[1]) and node[1] not in _WORDS:
        return _product(list(node[1]))
    if node[0] == "pow" and node[1][0] == "sym" and _RUN.fullmatch(node[1][1]) and node[1][1] not in _WORDS:
        letters = list(node[1][1])
        return ("mul", _product(letters[:-1]), ("pow", ("sym", letters[-1]), split_letters(node[2])))
    return tuple(split_letters(x) if isinstance(x, tuple) else x for x in node)


def _product(letters: list[str]) -> calc.Node:
    out: calc.Node = ("sym", letters[0])
    for c in letters[1:]:
        out = ("mul", out, ("sym", c))
    return out


def value(node: calc.Node, given: dict, relations: list[tuple[sp.Symbol, sp.Expr]]) -> sp.Expr | None:
    """The member's value in the text's letters, or None when it is not made of sizes."""
    node = split_letters(node)
    for n in calc.walk(node):
        if n[0] == "call" and n[1] not in ("sqrt", "exp", "ln"):
            return None
        if n[0] == "sym" and re.fullmatch(r"[a-z]{2,}", n[1]) and n[1] not in ("oo",):
            return None  # a word (mod, max, softmax): not a size
        if n[0] in ("vec", "sum"):
            return None
        if n[0] == "pow" and n[2][0] == "sym":  # X^T, P^(-1): matrices, not sizes
            return None
    try:
        v = calc.exact(node, {})
    except (Unreadable, TypeError, ValueError, ZeroDivisionError, AttributeError, RecursionError):
        return None
    if isinstance(v, sp.MatrixBase) or not isinstance(v, sp.Expr):
        return None
    v = assumed(v, relations)
    v = v.xreplace({s: given[s.name] for s in v.free_symbols if s.name in given})
    for letter, expr in relations:  # N·H = D with D = 4096 given: N·H is 4096, N and H unknown
        if letter.name in given and expr.free_symbols and not any(x.name in given for x in expr.free_symbols):
            v = v.subs(expr, given[letter.name])
    return v


def read(plain: str, given: dict | None = None) -> sp.Expr | None:
    """A lone member written in the text's letters (``6NPM``, ``I-1``, ``2 E D^(2)``) as its value,
    with the values ``given`` put in, or None: a relation, an unreadable formula or one not made
    of sizes."""
    try:
        members, relations = calc.parse_chain(plain.strip())
        found = value(members[0], given or {}, []) if not relations and len(members) == 1 else None
    except (Unreadable, TypeError, ValueError, ZeroDivisionError):
        return None
    return found if isinstance(found, sp.Expr) else None


def assumed(v: sp.Expr, relations: list[tuple[sp.Symbol, sp.Expr]]) -> sp.Expr:
    """``v`` with the relations the text assumed put in, in the order it stated them (F = 4D,
    then D = NH: each letter replaced by what it equals)."""
    for symbol, expr in relations:
        v = v.xreplace({symbol: expr})
    return v


def relation(members: list[calc.Node]) -> tuple[sp.Symbol, sp.Expr] | None:
    """``F = 4D``, ``D = NH``, ``N·H = D``: a relation that names one letter by the others (the
    letter replaced by what it equals), or None."""
    if len(members) != 2:
        return None
    sides = [value(m, {}, []) for m in members]
    if any(s is None for s in sides):
        return None
    for one, other in (sides, sides[::-1]):
        if (
            isinstance(one, sp.Symbol)
            and len(one.name) == 1  # a letter: d_k = d_model / h is a claim the heads' rules read
            and other.free_symbols
            and one not in other.free_symbols
        ):
            return one, other
    return None


def named(v: sp.Expr) -> bool:
    """A member that names a quantity in words (``attention FLOPs``, ``num tokens``): what it
    stands for is said, not computed, so it is compared with nothing."""
    return any(len(s.name) > 1 and not _RUN.fullmatch(s.name) and "_" in s.name for s in v.free_symbols)


def verdict(values: list[sp.Expr]) -> tuple[str, int]:
    """("agree" | "differ" | "open", k) for a chain of values: the first pair k, k + 1 that
    differs by a number ("differ") or by letters ("open"); "none" when no two neighbours could be
    compared (a member named in words stands between them)."""
    compared = False
    for k in range(len(values) - 1):
        a, b = values[k], values[k + 1]
        if named(a) or named(b):
            continue
        compared = True
        if sp.simplify(sp.expand(a - b)) == 0:
            continue
        ratio = sp.simplify(a / b) if b != 0 else None
        if ratio is not None and not ratio.free_symbols and ratio.is_number:
            return "differ", k
        return "open", k
    return ("agree" if compared else "none"), -1


def equal_lengths(a: sp.Expr, b: sp.Expr, proportional: bool = False) -> tuple[sp.Symbol, sp.Symbol] | None:
    """The two letters ``a`` and ``b`` differ by, when that is all (``12BTSNH`` and ``12BT^2NH``:
    S for T): the pair (S, T) such that ``a`` with T for S is ``b`` (with ``proportional``, a
    number of times ``b``: ``6BT^2NH`` too), or None."""
    for x in a.free_symbols | b.free_symbols:
        for y in a.free_symbols | b.free_symbols:
            if x == y:
                continue
            put = a.xreplace({x: y})
            if sp.expand(put - b) == 0 or (proportional and sp.simplify(put / b).is_number):
                return x, y
    return None


#: Where a text says two sizes are equal: ``S = T`` in its math, or "T and S are the same".
_EQUAL_WORDS = r"(?:are|is)\s+(?:the\s+same|equal)(?!\s+(?:to|as)\b)"


def stated_equal(doc, x: sp.Symbol, y: sp.Symbol) -> tuple[int, str] | None:
    """The line where the text states ``x = y`` (``S = T``, ``T=S``, "T and S are the same"),
    with the sentence that says it: the premise a claim equal only when they are rests on."""
    a, b = re.escape(x.name), re.escape(y.name)
    pairs = (rf"{a}\s*=\s*{b}", rf"{b}\s*=\s*{a}")
    formula = re.compile(rf"⟨\s*(?:{'|'.join(pairs)})\s*⟩")
    words = re.compile(rf"\b(?:{a}\s+and\s+{b}|{b}\s+and\s+{a})\s+{_EQUAL_WORDS}")
    for line in doc.lines:
        for pattern in (formula, words):
            m = pattern.search(line.text)
            if m is not None:
                s, e = line.sentence_at(m.start())
                return line.number, line.text[s:e].strip()
    return None


def approximate(a: sp.Expr, b: sp.Expr) -> str:
    """``a ≈ b`` between counts in the text's letters: "agree" when b is a with terms dropped
    of lower degree than b's least (``6ND + 2N ≈ 6ND``; ``(V + S)D ≈ VD`` drops SD, as large in
    degree: it needs S ≪ V, a premise, and is "open"); "differ"
    when both are of one degree throughout and the degrees differ (a count of degree 3 is
    never about one of degree 2: ``(V + S)D^2 ≈ VD``); "open" otherwise (an approximation that
    needs a premise, such as T ≈ D)."""
    if sp.simplify(sp.expand(a - b)) == 0:
        return "agree"
    letters = sorted(a.free_symbols | b.free_symbols, key=str)
    if not letters:
        return "open"
    try:
        pa, pb = sp.Poly(sp.expand(a), *letters), sp.Poly(sp.expand(b), *letters)
    except sp.PolynomialError:
        return "open"
    if pa.is_zero or pb.is_zero:
        return "open"
    ta, tb = dict(pa.terms()), dict(pb.terms())
    least = min(sum(m) for m in tb)
    if all(ta.get(m) == c for m, c in tb.items()) and all(sum(m) < least for m in ta if m not in tb):
        return "agree"
    degrees_a, degrees_b = {sum(m) for m in ta}, {sum(m) for m in tb}
    if len(degrees_a) == 1 and len(degrees_b) == 1 and degrees_a != degrees_b:
        return "differ"
    if max(degrees_a) == max(degrees_b):  # the leading terms a number other than 1 apart: 6ND vs 4ND
        lead_a, lead_b = (
            sum(
                c * sp.prod(x**e for x, e in zip(letters, m, strict=True))
                for m, c in t.items()
                if sum(m) == top
            )
            for t, top in ((ta, max(degrees_a)), (tb, max(degrees_b)))
        )
        ratio = sp.simplify(lead_a / lead_b)
        if ratio.is_number and ratio != 1:
            return "differ"
    return "open"
