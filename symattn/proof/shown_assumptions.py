"""What a derivation shows, part three: every sign a published derivation declares of a symbol
is stated on its page, and every sign the page assumes is declared (:func:`check_assumptions`)."""

from __future__ import annotations

import re
from typing import Any

import sympy as sp

from .equivalence import prove_equal
from .latex import page_latex
from .reader import Vocabulary, readings
from .shown_base import NotShownAsChecked, _first_readings, _stated, affirmed, texts, words_vocabulary

_SIGNS = ("positive", "negative", "nonnegative", "nonpositive", "zero", "nonzero", "integer")


#: Sign assumptions a page must show, and the words or relations that show each.
_SHOWN_SIGNS = {
    "positive": ("positive",),
    "negative": ("negative",),
    "nonnegative": ("nonnegative", "positive"),
    "nonpositive": ("nonpositive", "negative"),
    "integer": ("integer",),
}
#: Words after a list of names in an assumption that state their sign or that they are whole
#: numbers (``$N, h$ positive integers``, ``$n \ge 1$ an integer``, ``$d$ a positive integer``).
_KIND = r"((?:positive|negative|nonnegative|nonpositive)(?:\s+integers?)?|integers?)"
#: The words end there: a qualifier after them ("an integer or half-integer", "an integer
#: multiple of 1/2") would make them say less than they seem to (review finding).
_ENDS = r"(?=\s*(?:$|[;,.)]|\s(?:and|with|for|in|of\s+(?:them|size))\b))"
_BETWEEN = r"(?:\s*,\s*|\s*\(\s*|\s+is\s+|\s+are\s+|\s+)(?:an?\s+)?"
_SIGN_WORDS = re.compile(rf"\$([^$]+)\${_BETWEEN}{_KIND}\b{_ENDS}")
#: The same words before the names: "for integers $1 \le i, j \le n$".
_SIGN_WORDS_BEFORE = re.compile(rf"\b{_KIND}\s+\$([^$]+)\$")


def check_assumptions(d: Any) -> str:
    """Every sign and whole number SymPy is told of a symbol the proof uses (positive,
    nonnegative, integer, ...) is shown on the page: a relation of the prose (``s_q, s_k > 0``,
    ``1 \\le i, j \\le n``), an assumed value (``d_k = 2``) or an assumption's words around the
    names (``$N, h$ positive integers``, ``integers $1 \\le i \\le n$``), which must say only what
    is declared. An index that is only ever summed over (its range is its sum's) and a name a
    definition step introduces (its sign is proved of its value) are exempt. Each range the
    proof declares for an index (``Derivation.ranges``, within which its deltas are summed out)
    must be stated (``1 \\le i, j \\le n``). Raises :class:`NotShownAsChecked` naming the first
    hidden one. Only for a derivation symattn publishes (``requires_claims``: the module's, a
    plugin's, a worked solution)."""
    if not getattr(d, "requires_claims", False):
        return "not published: its page is not checked for hidden signs"
    vocab = words_vocabulary(d)
    shown: dict[Any, set[str]] = {}
    for _, lhs, rel, rhs in _stated([affirmed(text) for _, text, _ in texts(d)], vocab, every=True):
        if rel in (">", ">="):
            lhs, rhs, rel = rhs, lhs, {">": "<", ">=": "<="}[rel]
        for x, facts in _signs_stated(lhs, rel, rhs):
            shown.setdefault(x, set()).update(facts)
    stated_ranges: dict[Any, tuple[Any, Any]] = {}
    assumed = [affirmed(text) for text in d.assumptions]  # what an assumption denies is not assumed
    for reading in _first_readings(assumed, vocab):
        for x, facts in _range_signs(reading.items):  # 1 <= i, j <= n: the bound is each one's
            shown.setdefault(x, set()).update(facts)
        for x, (low, high) in _ranges_stated(reading.items).items():
            stated_ranges[x] = (low, high)
            if isinstance(low, sp.Integer) and low >= 0:  # i = 1, ..., n: i >= 1
                shown.setdefault(x, set()).update({"nonnegative"} | ({"positive"} if low >= 1 else set()))
        for lhs, rel, rhs in reading.relations():
            if rel == "=" and isinstance(lhs, sp.Symbol) and isinstance(rhs, sp.Integer):
                shown.setdefault(lhs, set()).add("integer")  # assumed d_k = 2 (a rule's n = 2: an instance)
    for text in assumed:
        found = _SIGN_WORDS.findall(text) + [(n, w) for w, n in _SIGN_WORDS_BEFORE.findall(text)]
        for names, said in found:
            words = {w.rstrip("s") for w in said.split()}
            try:
                items = next(readings(names, vocab)).items
            except Exception:
                continue
            # Every name the words are said of: a name listed, or one a relation bounds
            # (n >= 1 an integer; integers 1 <= i, j <= n). What they say must be declared.
            # a range's words are said of the names it ranges (i, j of n \ge i, j \ge 1)
            subjects = list(_ranges_stated(items)) or [e for item in items for e in _subjects(item)]
            named = (e for e in subjects if isinstance(e, sp.Symbol | sp.Indexed))
            for x in (e for e in named if not (isinstance(e, sp.Symbol) and e.name == "…")):
                if wrong := [w for w in words if getattr(x, f"is_{w}") is not True]:
                    why = f"{text!r} says {x} is {wrong[0]}, which the proof's {x} is not declared"
                    raise NotShownAsChecked(why)
                if isinstance(x, sp.Symbol):
                    shown.setdefault(x, set()).update(words)
    used = sorted(_used_symbols(d), key=str)
    for x in used:
        for fact, words in _SHOWN_SIGNS.items():
            if x.assumptions0.get(fact) and not (shown.get(x, set()) & set(words)):
                how = f"${page_latex(x)}$ an integer" if fact == "integer" else f"${page_latex(x)} > 0$"
                raise NotShownAsChecked(
                    f"{x} is declared {fact}, which no assumption or rule of the page states: show it "
                    f"(a relation such as {how}, or the word after its name)"
                )
    for x, (low, high) in (getattr(d, "ranges", None) or {}).items():
        if not _same_range(stated_ranges.get(x), (low, high)):
            raise NotShownAsChecked(
                f"the proof takes {x} from {sp.sstr(low)} to {sp.sstr(high)} (its deltas are summed "
                f"out in that range), which no assumption states: show it "
                f"(${page_latex(low)} \\le {page_latex(x)} \\le {page_latex(high)}$)"
            )
    count = len([x for x in used if any(x.assumptions0.get(f) for f in _SHOWN_SIGNS)])
    return f"{count} sign{'s' if count != 1 else ''} shown"


def _subjects(item: tuple) -> list[Any]:
    """What words after a formula are said of: a name listed; the name a relation bounds (n of
    n >= 1, i and j of 1 <= i, j <= n), not the bound; the middle of 1 <= i <= n."""
    if len(item) == 1:
        return [item[0]]
    if len(item) > 3:
        return list(item[2:-1:2])
    left, _, right = item
    return [right] if sp.sympify(left).is_Number else [left]


def _range_signs(items: tuple[tuple[Any, ...], ...]) -> list[tuple[Any, set[str]]]:
    """``1 \\le i, j \\le n``: the lower bound holds of every name in the range, not only the first."""
    first, *middle, last = items if len(items) >= 2 else ((), ())
    if len(first) != 3 or len(last) != 3 or first[1] not in ("<", "<=") or any(len(m) != 1 for m in middle):
        return []
    names = [first[2], *(m[0] for m in middle), last[0]]
    return [found for x in names for found in _signs_stated(first[0], first[1], x)]


def _ranges_stated(items: tuple[tuple[Any, ...], ...]) -> dict[Any, tuple[Any, Any]]:
    """The ranges an assumption states, as inclusive bounds: ``1 \\le i \\le n`` (or ``n \\ge i
    \\ge 1``, or ``1 \\le i < n + 1`` for a whole number), ``1 \\le i, j \\le n`` (the bounds hold of
    every name listed), ``i = 1, \\dots, n`` and ``i, j = 1, \\dots, n``."""
    if len(items) == 1 and len(items[0]) == 5:
        low, r1, x, r2, high = items[0]
        if r1 in (">", ">=") and r2 in (">", ">="):
            low, r1, r2, high = high, {">": "<", ">=": "<="}[r2], {">": "<", ">=": "<="}[r1], low
        bounds = _inclusive(x, low, r1, r2, high)
        return {x: bounds} if bounds else {}
    listed = _listed_range(items)
    if listed:
        return listed
    first, *middle, last = items if len(items) >= 2 else ((), ())
    if len(first) != 3 or len(last) != 3 or any(len(m) != 1 for m in middle):
        return {}
    names = [first[2], *(m[0] for m in middle), last[0]]
    low, r1, r2, high = first[0], first[1], last[1], last[2]
    if r1 in (">", ">=") and r2 in (">", ">="):  # n \ge i, j \ge 1
        flip = {">": "<", ">=": "<="}
        low, r1, r2, high = high, flip[r2], flip[r1], low
    found = {x: _inclusive(x, low, r1, r2, high) for x in names}
    return {x: bounds for x, bounds in found.items() if bounds}


def _inclusive(x: Any, low: Any, r1: str, r2: str, high: Any) -> tuple[Any, Any] | None:
    """low r1 x r2 high as inclusive bounds (a strict bound moved by one, for a whole number)."""
    if r1 not in ("<", "<=") or r2 not in ("<", "<="):
        return None
    if "<" in (r1, r2) and not getattr(x, "is_integer", False):
        return None
    return (low + 1 if r1 == "<" else low, high - 1 if r2 == "<" else high)


def _listed_range(items: tuple[tuple[Any, ...], ...]) -> dict[Any, tuple[Any, Any]]:
    """``i = 1, \\dots, n`` or ``i, j = 1, \\dots, n``: each name from the first value to the last."""
    at = next((k for k, item in enumerate(items) if len(item) == 3 and item[1] == "="), None)
    if at is None or len(items) != at + 3 or any(len(item) != 1 for item in (*items[:at], *items[at + 1 :])):
        return {}
    if not (isinstance(items[at + 1][0], sp.Symbol) and items[at + 1][0].name == "…"):
        return {}
    names = [item[0] for item in items[:at]] + [items[at][0]]
    return {x: (items[at][2], items[at + 2][0]) for x in names}


def _same_range(stated: tuple[Any, Any] | None, declared: tuple[Any, Any]) -> bool:
    if stated is None:
        return False
    pairs = zip(stated, declared, strict=True)
    return all(prove_equal(sp.sympify(a), sp.sympify(b)) is not None for a, b in pairs)


def _signs_stated(lhs: Any, rel: str, rhs: Any) -> list[tuple[Any, set[str]]]:
    """The signs ``lhs rel rhs`` states of a symbol (``0 < x``: positive; ``1 <= n``: positive)."""
    if isinstance(rhs, sp.Symbol) and lhs in (0, 1):  # 0 < x, 0 <= x, 1 <= n
        strict = rel == "<" or lhs == 1
        return [(rhs, {"positive", "nonnegative"} if strict else {"nonnegative"})]
    if isinstance(lhs, sp.Symbol) and rhs == 0:  # x < 0, x <= 0
        return [(lhs, {"negative", "nonpositive"} if rel == "<" else {"nonpositive"})]
    return []


def _used_symbols(d: Any) -> set[sp.Symbol]:
    """The symbols of the proof's sides and claims, but summation indices and defined names."""
    found: set[sp.Symbol] = set()
    free: set[sp.Symbol] = set()
    bound: set[Any] = set()
    defined: set[Any] = set()
    objects: list[Any] = [c for claim in d.claims for c in claim[:2]]
    for k, s in enumerate(d.steps):
        objects += [d.lhs_of(k), s.rhs, s.shown_lhs, s.shown_rhs, *(s.given or {})]
        defined |= set(s.definition or {})
    for e in objects:
        if not isinstance(e, sp.Basic | sp.MatrixBase):
            continue
        e = sp.ImmutableMatrix(e) if isinstance(e, sp.MatrixBase) else e
        found |= {a for a in e.atoms(sp.Symbol) if not isinstance(a, sp.Dummy)}
        free |= {a for a in e.free_symbols if isinstance(a, sp.Symbol)}
        for node in e.atoms(sp.Sum, sp.Product, sp.Limit):
            bound |= {node.args[1]} if isinstance(node, sp.Limit) else {lim[0] for lim in node.limits}
    # An index summed over in one side but free in another (the i of p_i and of sum_i x_i^2) is
    # used (review finding: it was exempt everywhere).
    return {x for x in found - (bound - free) - defined if not _limit_direction_symbol(x)}


def _limit_direction_symbol(x: sp.Symbol) -> bool:
    return x.name in ("+", "-", "+-")


def _hypotheses(d: Any, vocab: Vocabulary) -> dict[Any, Any]:
    """The values the assumptions give symbols (``d_k = 2``, ``d_k = d_{model} / h``)."""
    values: dict[Any, Any] = {}
    for reading, lhs, rel, rhs in _stated(d.assumptions, vocab):
        if rel == "=" and isinstance(lhs, sp.Symbol) and not reading.listing and lhs not in values:
            values[lhs] = rhs
    return values


def _unused_hypothesis(d: Any, lhs: Any, rel: str, rhs: Any) -> str:
    """Why an assumption x = c is one the proof does not use ("" if it does): the proof works
    at that value where a step puts it in (``given``), or where x is free in none of its
    checked sides (the hand-worked example, whose d_k is 2 throughout). Assuming d_k = 4 beside
    a proof for every d_k would let the theorem claim Var(z) = 4."""
    if rel != "=" or not isinstance(lhs, sp.Symbol) or not sp.sympify(rhs).is_number:
        return ""
    if any(sp.sympify((s.given or {}).get(lhs, sp.nan)) == rhs for s in d.steps):
        return ""
    sides = [x for k, s in enumerate(d.steps) for x in (d.lhs_of(k), s.rhs)]
    if any(isinstance(x, sp.Basic) and lhs in x.free_symbols for x in sides):
        return f"the proof holds for every {lhs} and puts in no {lhs} = {rhs}: an assumption it does not use"
    return ""
