"""Sinusoidal position encodings, as a text describes them in words.

A text that encodes positions with sines and cosines of ``pos / B^(2i/d)`` (Vaswani et al.'s
base B = 10000) gives its dimensions the wavelengths ``2π B^(2i/d)``: ``2π`` for the first pair
(i = 0), growing geometrically towards ``2π B`` for the last (just under it). Read here:

- the **range of the wavelengths**, "range from ⟨2π⟩ to ⟨10000 · 2π⟩", against the text's own
  base: the ends are 2π and 2π times the base, in either order;
- a **repetition**: "the wavelength is ⟨2π⟩, hence the repetition after position ⟨6⟩" (⌊W⌋ or ⌈W⌉);
- **columns compared by frequency**: "the 6th and 7th columns have a higher frequency than the
  8th and 9th" (a column's frequency falls with its index);
- **binary counting**, the analogy texts draw for the falling frequencies: the k-th lowest bit
  alternates every 2^(k-1) numbers.

The base is read from the text's own encoding, a number of three digits or more raised to a
fraction over the width (``10000^(i/d_model)``, ``10000^(2j/d)``), in a text that writes a sine
or a cosine. Nothing about wavelengths or columns is judged in a text that writes no such
encoding, or two bases.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import sympy as sp

from . import calc
from .context import AuditContext
from .document import Line
from .hedges import hedged
from .match import Claim, inside
from .said import Math, Said
from .stated import Unreadable

RULE = "position encodings: the wavelengths 2π B^(2i/d) run from 2π to 2π B, B the text's base"

#: A base raised to a fraction over the width: 10000^(2i/d), 10000^(i/d_model), 500000^(-2j/d),
#: 10000^(((2i)/(d_model))). Every such base in the text counts (one encoding, or two: none judged).
_BASE = re.compile(r"(?<![\d.])(\d{3,})\s*\^\s*\(\s*-?\s*\(*[^()/]*\)?\s*/\s*\(*\s*d\w*\s*\)")
#: "The wavelengths (in different dimensions) range from ⟨2π⟩ to ⟨10000 · 2π⟩": the range said
#: of the wavelengths themselves, by a verb of range right after them.
_RANGE = re.compile(
    r"\bwave-?lengths?\b(?:\s+(?:in|of|across|over)\s+(?:the\s+)?(?:different\s+)?dimensions)?\s+"
    r"(?:range|ranges|run|runs|grow|grows|go|goes|increase|increases|vary|varies|shrink|shrinks|span|spans|"
    r"form a geometric (?:progression|sequence))\s+"
    r"from\s+⟨(?P<low>[^⟨⟩]*)⟩\s*(?:up\s+)?to\s+⟨(?P<high>[^⟨⟩]*)⟩",
    re.I,
)
#: "wavelength is ⟨2π⟩, hence the repetition after position ⟨6⟩" (one sentence).
_REPEATS = re.compile(
    r"\bwave-?length (?:is|of)\s+(?:about\s+)?⟨(?P<w>[^⟨⟩]*)⟩[^.⟨⟩]{0,40}?\b(?:repeti\w*|repeats?|period\w*)"
    r"\s+after\s+(?:about\s+)?(?:position\s+|step\s+)?⟨(?P<n>[^⟨⟩]*)⟩",
    re.I,
)
_NEGATED = re.compile(r"\b(?:no|not|never|nor)\b", re.I)
REPEATS_RULE = "position encodings: a pattern of wavelength W repeats after W positions (⌊W⌋ or ⌈W⌉)"


def wavelength_claims(au: AuditContext, line: Line, add: Callable, covered: list) -> None:
    base = au.doc.once("position encoding base", _base)
    if base is None:
        return
    for m in _RANGE.finditer(line.text):
        if inside(covered, *m.span()):
            continue
        try:
            low, high = (_value(m.group(k)) for k in ("low", "high"))
        except Unreadable:
            continue
        if any(_approximate(x) or _below_base(x) for x in (low, high)):
            continue  # 6.28 to 62832, or 2π·10000^(510/512): not judged exactly here
        first, last = 2 * sp.pi, 2 * sp.pi * base
        # in either order: read from the last dimension to the first, the range is the same
        ok = {sp.simplify(low - first), sp.simplify(high - last)} == {0} or {
            sp.simplify(low - last),
            sp.simplify(high - first),
        } == {0}
        said = Said("from ", Math(first), " to ", Math(last), f" (base {base})")
        add(Claim.judged(line.number, m.group(0), ok, said, RULE, [m.span()]))


def repetition_claims(au: AuditContext, line: Line, add: Callable, covered: list) -> None:
    """ "The wavelength is ⟨2π⟩, hence the repetition after position ⟨6⟩": a pattern of wavelength
    W repeats after W positions, a whole number of them at ⌊W⌋ or ⌈W⌉."""
    for m in _REPEATS.finditer(line.text):
        if inside(covered, *m.span()):
            continue
        try:
            wavelength, after = _value(m.group("w")), _value(m.group("n"))
        except Unreadable:
            continue
        if not after.is_Integer or not wavelength.is_positive or _NEGATED.search(m.group(0)):
            continue  # "hence no exact repetition after position 6": a denial is not the claim
        ok = after in (sp.floor(wavelength), sp.ceiling(wavelength))
        said = Said(
            "after ",
            Math(wavelength),
            " positions: ",
            Math(sp.floor(wavelength)),
            " or ",
            Math(sp.ceiling(wavelength)),
        )
        add(Claim.judged(line.number, m.group(0), ok, said, REPEATS_RULE, [m.span()]))


#: A paragraph whose columns are not in the encoding's own order.
_REORDERED = re.compile(r"revers|sort|learn|fourier|permut|shuffl|increasing order", re.I)
#: Counting that is not plain binary counting, or a count of something else than flips.
_NOT_COUNTING = re.compile(r"\bgray\b|cycle|even numbers|odd numbers|only the|every other|quantiz", re.I)
FREQUENCY_RULE = (
    "position encodings: a column's frequency 1/B^(2j/d) falls as its pair j grows: later columns have "
    "lower frequencies"
)
#: "have a higher frequency than": a comparison of the columns before it with those after it.
_COMPARED = re.compile(r"\b(?P<cmp>higher|lower|greater|smaller)\s+frequenc(?:y|ies)\s+than\b", re.I)
#: An ordinal: ``⟨6^(th)⟩``, ``6th``.
_ORDINAL = re.compile(
    r"(?<![\w.])(\d+)(?:\s*\^\s*\(?\s*(?:textrm\s*)?\(?\s*(?:st|nd|rd|th)\b|(?:st|nd|rd|th)\b)"
)


def frequency_claims(au: AuditContext, line: Line, add: Callable, covered: list) -> None:
    """ "the 6th and the 7th columns have a higher frequency than the 8th and the 9th": in a text
    with a sinusoidal encoding, the columns' frequencies fall with their index, so columns all
    before the others have the higher frequencies (groups that overlap, or single columns one
    apart, which may share a pair, are not judged)."""
    if au.doc.once("position encoding base", _base) is None:
        return
    for m in _COMPARED.finditer(line.text):
        if inside(covered, *m.span()):
            continue
        sentence, at = au.doc.sentence(line, m.start())
        if "column" not in sentence.lower() or hedged(sentence) or _REORDERED.search(au.doc.block_text(line)):
            continue  # "one might expect ..., but", columns reversed, sorted or learned
        before = [int(x) for x in _ORDINAL.findall(sentence[:at])]
        after = [int(x) for x in _ORDINAL.findall(sentence[at + len(m.group(0)) :])]
        if not before or not after:
            continue
        if max(before) < min(after):
            earlier_higher = True
        elif min(before) > max(after):
            earlier_higher = False
        else:
            continue
        apart = min(after) - max(before) if earlier_higher else min(before) - max(after)
        if apart < 2 and (len(before) < 2 or len(after) < 2):
            continue
        higher = m.group("cmp").lower() in ("higher", "greater")
        said = Said(
            "the earlier columns have the higher frequency"
            if earlier_higher
            else "the later columns have the lower frequency"
        )
        ok = higher == earlier_higher
        add(Claim.judged(line.number, m.group(0), ok, said, FREQUENCY_RULE, [m.span()]))


BITS_RULE = "binary counting: the k-th lowest bit alternates every 2^(k-1) numbers"
_BIT_ORDINALS = {"lowest": 1, "least significant": 1, "first": 1, "second": 2, "third": 3, "fourth": 4,
                 "fifth": 5}  # fmt: skip
_BIT = re.compile(
    r"\b(?:the\s+)?(?P<which>(?:(?:second|third|fourth|fifth)[- ])?lowest|least significant)\s+bits?\b", re.I
)
_PERIOD_WORDS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "eight": 8, "sixteen": 16}
_EVERY = re.compile(
    r"\bevery\s+(?:(?P<n>\d+|two|three|four|five|six|eight|sixteen|⟨\s*\d+\s*⟩)\s+)?numbers?\b", re.I
)


def bit_claims(au: AuditContext, line: Line, add: Callable, covered: list) -> None:
    """ "the lowest bit, the second-lowest bit, and the third-lowest bit alternate on every number,
    every two numbers, and every four numbers, respectively": counting in binary, the k-th lowest
    bit flips every 2^(k-1) numbers. The bits and the periods are paired in order (with
    "respectively"), or one bit with one period in a sentence."""
    for m in _EVERY.finditer(line.text):
        if inside(covered, *m.span()):
            continue
        sentence, at = au.doc.sentence(line, m.start())
        if not re.search(r"\b(?:alternat|flip|chang|toggl|rotat|switch)\w*", sentence, re.I):
            continue
        context = au.doc.block_text(line) + au.previous_block(line)
        if (
            not re.search(r"\bbinary|\bcount", context, re.I)
            or _NOT_COUNTING.search(context)
            or hedged(sentence)
        ):
            continue  # counting in binary only: not a Gray code, not every other number
        bits = [_bit_rank(b.group("which")) for b in _BIT.finditer(sentence)]
        periods = [(p.start(), _period(p)) for p in _EVERY.finditer(sentence)]
        if not bits or len(bits) != len(periods) or (len(bits) > 1 and "respectively" not in sentence):
            continue
        k = next((i for i, (start, _) in enumerate(periods) if start == at), None)
        if k is None or bits[k] is None or periods[k][1] is None:
            continue
        want = 2 ** (bits[k] - 1)
        said = Said(f"bit {bits[k]} from the lowest flips every {want} numbers")
        ok = periods[k][1] == want
        add(Claim.judged(line.number, m.group(0), ok, said, BITS_RULE, [m.span()]))


def _bit_rank(which: str) -> int | None:
    which = which.lower().replace("-", " ")
    if which in ("lowest", "least significant"):
        return 1
    return _BIT_ORDINALS.get(which.split()[0])


def _period(m: re.Match) -> int | None:
    n = (m.group("n") or "1").strip("⟨⟩ ").lower()
    return int(n) if n.isdigit() else _PERIOD_WORDS.get(n)


def _approximate(x: sp.Expr) -> bool:
    """A figure written with a decimal point (6.28): a rounded value, not judged exactly here."""
    return bool(x.atoms(sp.Float)) or (x.is_Rational and not x.is_Integer)


def _below_base(x: sp.Expr) -> bool:
    """2π·B^r for a fractional power r (the last wavelength, 2π·B^((d-2)/d), just under 2πB)."""
    return any(p.base.is_Integer and p.exp.is_Rational and not p.exp.is_Integer for p in x.atoms(sp.Pow))


def _value(plain: str) -> sp.Expr:
    members, relations = calc.parse_chain(plain)
    if relations or len(members) != 1:
        raise Unreadable("not one value")
    value = calc.exact(members[0], {})
    value = value.xreplace({s: sp.pi for s in getattr(value, "free_symbols", ()) if s.name == "pi"})
    if not isinstance(value, sp.Expr) or value.free_symbols:
        raise Unreadable("not a number")
    return value


def _base(doc) -> int | None:
    """The base of the text's sinusoidal encoding, if it writes one (and only one)."""
    bases = {
        int(m.group(1))
        for line in doc.lines
        for _, plain, _, _ in line.formulas
        for m in _BASE.finditer(plain)
    }
    encodes = any(re.search(r"\b(?:sin|cos)\s*\(", p) for line in doc.lines for _, p, _, _ in line.formulas)
    return bases.pop() if len(bases) == 1 and encodes else None
