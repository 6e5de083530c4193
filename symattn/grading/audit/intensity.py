r"""Arithmetic intensity: the FLOPs of a computation over the bytes it moves (issue 47).

A text on hardware works out what attention costs from the arrays it writes, in displays such as

    Q[B,T,N,H] →_reshape Q[B,T,K,G,H] · K[B,S,K,H] → O[B,T,S,K,G]
    U = softmax_S(O[B,T,S,K,G])
    U[B,T,S,K,G] · V[B,S,K,H] → X[B,T,K,G,H]

after naming the type its numbers are stored in ("in bf16"), then states the bytes, the FLOPs and
their quotient. A reader checks each from what the displays say:

- a **reshape** keeps the number of entries: [B,T,N,H] to [B,T,K,G,H] makes N = K·G, the
  premise every comparison below is made under;
- ``sizeof(Q)`` is Q's entries times the type's bytes (2 in bf16); ``sizeof(K or V)`` is that of
  either when both have one shape;
- a **product** ``X[...] · Y[...] → Z[...]`` costs 2 FLOPs for each combination of the axes of
  both (a multiply and an add; a shared axis once), and a softmax over an array O(its entries):
  the FLOPs the sentence states are the products' sum plus the O-class of the softmax's input;
- the **arithmetic intensity** is the FLOPs over the bytes, as the text stated them;
- a later sentence that sets a size, "during prefill we have S=T", "T=1", states the intensity
  again with it put in: each member of its chain is compared with that, an ``O(T)`` member by the
  growth of the one before it in T, and ``→ G`` "assuming S is very large" by the limit as S
  grows. A member written ``a / b · (c)``, whose quotient is ambiguous in inline math, is read
  as written, and else as a/(b·c), which the report then says.

Each member is certified when it equals its value in the text's letters (SymPy, every letter a
positive size), wrong otherwise; a sentence whose displays give no type or no product is not read.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

import sympy as sp

from . import letters
from .context import AuditContext
from .contractions import clean
from .document import Line
from .match import Claim, inside
from .said import Math, Said
from .training import BYTES

RULE = (
    "arithmetic intensity: FLOPs over bytes; sizeof an array its entries times its type's bytes; a product "
    "2 FLOPs a combination of its axes; a reshape keeps the entries"
)
_TYPE = re.compile(r"\b(?:in|with)\s+(?P<t>" + "|".join(BYTES) + r")\b", re.I)
_ARRAY = re.compile(r"(?<![\w])(?P<name>[A-Z])\[(?P<axes>[A-Za-z](?:\s*,\s*[A-Za-z])*)\]")
_RESHAPE = re.compile(rf"{_ARRAY.pattern}\s*\\rightarrow_?\s*reshape\s*(?P<to>[A-Z]\[[^\]]*\])")
_PRODUCT = re.compile(r"([A-Z]\[[^\]]*\])\s*\\cdot\s*([A-Z]\[[^\]]*\])\s*\\rightarrow\s*([A-Z]\[[^\]]*\])")
_SOFTMAX = re.compile(r"softmax_?\w*\s*\(\s*([A-Z]\[[^\]]*\])\s*\)")
#: What a sentence states before a formula.
_QUANTITY = (
    ("bytes", re.compile(r"\bbytes\s+(?:is|are)\s*$", re.I)),
    ("flops", re.compile(r"\bFLOPs\s+(?:is|are)\s*$", re.I)),
    ("intensity", re.compile(r"\barithmetic\s+intensity\s+(?:is|of)\s*$", re.I)),
)
#: "we have ⟨S=T⟩ so we have ...", "⟨T=1⟩ so we have": a size set, then the intensity again.
_SET = re.compile(r"⟨\s*(?P<a>[A-Z])\s*=\s*(?P<b>[A-Z]|\d+)\s*⟩\s*,?\s*so\s+we\s+have\b")


@dataclass
class Setting:
    """What the displays before a sentence give: bytes per entry, shapes, relations, FLOPs."""

    size: int
    shapes: dict[str, tuple[str, ...]] = field(default_factory=dict)
    relations: dict[sp.Symbol, sp.Expr] = field(default_factory=dict)
    flops: sp.Expr = field(default_factory=lambda: sp.Integer(0))
    softmax: sp.Expr | None = None

    def entries(self, name: str) -> sp.Expr | None:
        axes = self.shapes.get(name)
        return self.put(sp.Mul(*(letters.read(a) for a in axes))) if axes else None

    def put(self, e: sp.Expr) -> sp.Expr:
        return sp.expand(e.xreplace(self.relations))


def intensity_claims(au: AuditContext, line: Line, add: Callable, covered: list) -> None:
    if line.kind != "prose":
        return
    setting = _setting(au, line)
    if setting is None:
        return
    stated: dict[str, sp.Expr] = {}
    for _tex, plain, start, end in line.formulas:
        a, _ = line.sentence_at(start)
        words = re.sub(r"⟨[^⟩]*⟩", "X", line.text[a:start])
        kind = next((k for k, pattern in _QUANTITY if pattern.search(words)), None)
        if kind is None or inside(covered, start, end):
            continue
        members = [m.strip() for m in plain.split(" = ")]
        if kind == "bytes":
            values = [
                letters.read(re.sub(r"sizeof\(\s*(\w+)\s*\)", lambda m: _sizeof(setting, m.group(1)), m))
                for m in members
            ]
            expected = values[0]
        elif kind == "flops":
            values, expected = [_flops(setting, m) for m in members], setting.flops
        else:
            if "bytes" not in stated or "flops" not in stated:
                continue
            values, expected = [letters.read(m) for m in members], stated["flops"] / stated["bytes"]
        if expected is None or any(v is None for v in values):
            continue
        ok = all(sp.simplify(setting.put(v) - setting.put(expected)) == 0 for v in values)
        stated[kind] = expected
        said = Said(f"{kind}: ", Math(setting.put(expected)), _under(setting))
        add(Claim.judged(line.number, line.text[start:end], ok, said, RULE, [(start, end)]))
    if stated:
        return
    for m in _SET.finditer(line.text):
        _again(au, line, m, setting, add, covered)


def _again(au: AuditContext, line: Line, m: re.Match, setting: Setting, add: Callable, covered: list) -> None:
    """The intensity stated again once a size is set: each member of the chain after ``m``."""
    before = _stated_before(au, line, setting)
    formula = next(((p, s, e) for _t, p, s, e in line.formulas if s > m.end() - 2), None)
    if before is None or formula is None or inside(covered, formula[1], formula[2]):
        return
    plain, start, end = formula
    letter = letters.read(m.group("a"))
    value = letters.read(m.group("b"))
    if value is None:
        return
    intensity = sp.simplify(setting.put(before).xreplace({letter: value}))
    members = [x.strip() for x in re.split(r" = | → ", plain)]
    limit = " → " in plain
    large = re.search(r"assuming\s+⟨?\s*([A-Z])\s*⟩?\s+is\s+(?:very\s+)?large", line.text[end:])
    previous, notes, ok = intensity, [], True
    for k, text in enumerate(members):
        if limit and k == len(members) - 1:
            if large is None:
                return
            got = letters.read(text)
            target = sp.limit(previous, letters.read(large.group(1)), sp.oo)
            ok &= got is not None and sp.simplify(got - target) == 0
            continue
        if re.fullmatch(r"O\((.*)\)", text):
            grows = letters.read(text[2:-1])
            if grows is None or len(grows.free_symbols) != 1:
                return
            (x,) = grows.free_symbols
            ratio = sp.limit(previous / grows, x, sp.oo)
            ok &= bool(ratio.is_finite and ratio.is_positive)
            continue
        got, how = letters.read(text), ""
        if got is not None and sp.simplify(setting.put(got) - intensity) != 0:
            alt = re.fullmatch(r"(.+?)\s*/\s*(.+)", text)
            other = letters.read(f"({alt.group(1)})/({alt.group(2)})") if alt else None
            if other is not None and sp.simplify(setting.put(other) - intensity) == 0:
                got, how = other, f"; {text} read as ({alt.group(1)})/({alt.group(2)})"
                notes.append(how)
        if got is None:
            return
        ok &= sp.simplify(setting.put(got) - intensity) == 0
        previous = got
    said = Said(f"with {m.group('a')} = {m.group('b')}: ", Math(intensity), _under(setting), *notes)
    add(Claim.judged(line.number, line.text[start:end], ok, said, RULE, [(start, end)]))


def _under(setting: Setting) -> str:
    if not setting.relations:
        return ""
    return " (with " + ", ".join(f"{k} = {v}" for k, v in setting.relations.items()) + ", a reshape)"


def _sizeof(setting: Setting, names: str) -> str:
    sizes = {setting.entries(n) for n in names.split("_or_")}
    if len(sizes) != 1 or None in sizes:
        return "?"
    return f"({setting.size * sizes.pop()})"


def _flops(setting: Setting, text: str) -> sp.Expr | None:
    """A count of FLOPs with an O-class for the softmax: the class must be the softmax's input's
    entries (or fewer), the rest is compared as it stands."""
    o = re.search(r"\+\s*O\(([^()]*)\)\s*$", text)
    if o is not None:
        grows = letters.read(o.group(1))
        if grows is None or setting.softmax is None or sp.simplify(setting.put(grows) - setting.softmax) != 0:
            return None
        text = text[: o.start()]
    return letters.read(text)


def _setting(au: AuditContext, line: Line) -> Setting | None:
    """The displays between the sentence that names the type ("in bf16") and ``line`` (past the
    sentences of prose that follow the displays, which go on from them)."""
    lines = [x for x in au.doc.lines if x.kind != "blank" and x.number <= line.number]
    at = next((i for i in range(len(lines) - 1, -1, -1) if lines[i] is line), None)
    if at is None:
        return None
    displays: list[Line] = []
    for x in reversed(lines[max(0, at - 12) : at]):
        if x.kind == "math":
            displays.append(x)
            continue
        if not displays:
            continue  # a sentence after the displays, before this one
        typed = _TYPE.search(x.text)
        if typed is None or len(_sizes(x.text + " " + line.text)) != 1:
            return None  # no type named, or more than one: which array is in which is not read
        setting = Setting(BYTES[typed.group("t").lower()])
        for d in reversed(displays):
            _learn(setting, clean(d.formulas[0][0]) if d.formulas else "")
        return setting if setting.flops != 0 else None
    return None


def _sizes(text: str) -> set[int]:
    """The bytes per entry of every type the text names ("bf16 ... int8": {2, 1})."""
    return {BYTES[m.group(0).lower()] for m in re.finditer(r"\b(?:" + "|".join(BYTES) + r")\b", text, re.I)}


def _learn(setting: Setting, tex: str) -> None:
    for m in _RESHAPE.finditer(tex):
        before = _axes(m.group("axes"))
        after = _axes(_ARRAY.match(m.group("to")).group("axes"))
        lost, gained = [a for a in before if a not in after], [a for a in after if a not in before]
        if len(lost) == 1 and gained:
            setting.relations[letters.read(lost[0])] = sp.Mul(*(letters.read(a) for a in gained))
    for m in _ARRAY.finditer(tex):
        setting.shapes.setdefault(m.group("name"), _axes(m.group("axes")))
    for left, right, _out in _PRODUCT.findall(tex):
        axes = dict.fromkeys(
            _axes(_ARRAY.match(left).group("axes")) + _axes(_ARRAY.match(right).group("axes"))
        )
        setting.flops += setting.put(2 * sp.Mul(*(letters.read(a) for a in axes)))
    for m in _SOFTMAX.finditer(tex):
        setting.softmax = setting.put(
            sp.Mul(*(letters.read(a) for a in _axes(_ARRAY.match(m.group(1)).group("axes"))))
        )


def _axes(text: str) -> tuple[str, ...]:
    return tuple(a.strip() for a in text.split(","))


def _stated_before(au: AuditContext, line: Line, setting: Setting) -> sp.Expr | None:
    """The intensity the text stated before ``line`` (the quotient after "arithmetic intensity is")."""
    for x in reversed([x for x in au.doc.lines if x.number < line.number][-12:]):
        for _tex, plain, start, _end in x.formulas:
            a, _ = x.sentence_at(start)
            if _QUANTITY[2][1].search(re.sub(r"⟨[^⟩]*⟩", "X", x.text[a:start])):
                return letters.read(plain.split(" = ")[-1])
    return None
