"""The wavelengths of sinusoidal position encodings, as a text states their range.

A text that encodes positions with sines and cosines of ``pos / B^(2i/d)`` (Vaswani et al.'s
base B = 10000) gives its dimensions the wavelengths ``2π B^(2i/d)``: ``2π`` for the first pair
(i = 0), growing geometrically towards ``2π B`` for the last (just under it). A sentence about the
wavelengths that gives their range, "range from ⟨2π⟩ to ⟨10000 · 2π⟩", is checked against the
text's own base: the first end must be 2π, the second 2π times the base.

The base is read from the text's own encoding, a sine or cosine of a position divided by a
number of three digits or more raised to a fraction over the width (``10000^(i/d_model)``,
``10000^(2j/d)``). Nothing is judged in a text that writes no such encoding.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import sympy as sp

from . import calc
from .context import AuditContext
from .document import Line
from .match import CERTIFIED, WRONG, Claim, inside
from .said import Math, Said
from .stated import Unreadable

RULE = "position encodings: the wavelengths 2π B^(2i/d) run from 2π to 2π B, B the text's base"

#: A base raised to a fraction over the width, inside a sine or a cosine: (sin|cos)(... 10000^(2i/d)).
_BASE = re.compile(r"\b(?:sin|cos)\s*\([^⟨⟩]*?(?<![\d.])(\d{3,})\s*\^\s*\(\s*\(?[^()]*?/\s*\(?d\w*\)?\s*\)")
#: "range from ⟨2π⟩ to ⟨10000 · 2π⟩", "from ⟨2π⟩ to ⟨10000 · 2π⟩".
_RANGE = re.compile(
    r"\bfrom\s+(?:about\s+)?⟨(?P<low>[^⟨⟩]*)⟩\s*(?:up\s+)?to\s+(?:about\s+)?⟨(?P<high>[^⟨⟩]*)⟩"
)
#: "wavelength is ⟨2π⟩, hence the repetition after position ⟨6⟩" (one sentence).
_REPEATS = re.compile(
    r"\bwave-?length (?:is|of)\s+(?:about\s+)?⟨(?P<w>[^⟨⟩]*)⟩[^.⟨⟩]{0,40}?\b(?:repeti\w*|repeats?|period\w*)"
    r"\s+after\s+(?:about\s+)?(?:position\s+|step\s+)?⟨(?P<n>[^⟨⟩]*)⟩",
    re.I,
)
REPEATS_RULE = "position encodings: a pattern of wavelength W repeats after W positions (⌊W⌋ or ⌈W⌉)"
_WAVELENGTH = re.compile(r"\bwave-?lengths?\b", re.I)


def wavelength_claims(au: AuditContext, line: Line, add: Callable, covered: list) -> None:
    if "position encoding base" not in au.doc.found_once:
        au.doc.found_once["position encoding base"] = _base(au.doc)
    base = au.doc.found_once["position encoding base"]
    if base is None or not _WAVELENGTH.search(line.text):
        return
    for m in _RANGE.finditer(line.text):
        if inside(covered, *m.span()):
            continue
        sentence, at = au.doc.sentence(line, m.start())
        if not _WAVELENGTH.search(sentence[:at]):
            continue  # the range is the wavelengths' only in a sentence about them
        try:
            low, high = (_value(m.group(k)) for k in ("low", "high"))
        except Unreadable:
            continue
        ok = sp.simplify(low - 2 * sp.pi) == 0 and sp.simplify(high - 2 * sp.pi * base) == 0
        said = Said("from ", Math(2 * sp.pi), " to ", Math(2 * sp.pi * base), f" (base {base})")
        add(Claim(line.number, m.group(0), CERTIFIED if ok else WRONG, said, RULE, [m.span()]))


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
        if not after.is_Integer or not wavelength.is_positive:
            continue
        ok = after in (sp.floor(wavelength), sp.ceiling(wavelength))
        said = Said(
            "after ",
            Math(wavelength),
            " positions: ",
            Math(sp.floor(wavelength)),
            " or ",
            Math(sp.ceiling(wavelength)),
        )
        add(Claim(line.number, m.group(0), CERTIFIED if ok else WRONG, said, REPEATS_RULE, [m.span()]))


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
    return bases.pop() if len(bases) == 1 else None
