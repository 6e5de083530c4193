"""Figures a sentence states again in words, right after the formula that computes them:
"``... = 16e9``, or 16B parameters", "``2 \\cdot 64 \\cdot 4096`` in int8, which is 512kB".

A figure in words is read only where the words say it restates the formula just before it: the
formula ends at most a few words earlier on the line, and a restating word stands between them
("or", "i.e.", "that is", "which is", "this is", "which comes to"). The formula must compute (an
operator in it: ``d_model = 512`` only gives a value, and "or 1024" after it names another), and
its last member must have a value, with the values the text gave before (``4d^2`` after
``d = 512``). Then:

- the figure is **certified** when it is that value correctly rounded, in its scale (16B is
  16e9 to two digits; 512kB and 64k may be binary multiples, as texts write them, where the value
  is a whole number of 1024s);
- it is **wrong** when it is not, after "or", "i.e." or "that is", which say the same quantity
  again, and not followed by words that take it further ("over the 6 layers", "in all", "per
  head"); after "or", only a figure written in another form (a scale, a unit) restates. After
  "which is" or "this is", a text often converts (parameters to bytes, FLOPs to milliseconds):
  a figure that differs there is left to the other rules.

A figure that names its quantity in other units than the formula ("parameters, or 8 GB in
fp16"), or that is a share, a fraction or a factor ("12.5 % of", "1/8 of"), is not read.

A share that opens the next sentence, "This gives us roughly 1/4 of parameters ...", after a
formula that ends its sentence with that share, is its value again (within 5 % after
"roughly").

A figure anywhere else is not compared with the formulas of its line: the same number may be
another quantity (a model width of 512 and a head of 512 dimensions).
"""

from __future__ import annotations

import re
from collections.abc import Callable

import sympy as sp

from . import calc
from .context import AuditContext
from .document import Line
from .match import CERTIFIED, WRONG, Claim, evaluate, inside
from .said import Math, Said
from .stated import UNITS, Stated, Unreadable, rounds_to

#: A figure in words with its scale: 16B, 2.79M, 8k, 4e3, 512kB, 1.5 billion, 524,288.
_FIGURE = re.compile(
    r"(?<![\w.,⟨])(?P<num>\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)"
    r"(?:(?P<exp>e[+-]?\d+)|\s?(?P<letter>[kKMBGT])(?![\w])|\s?(?P<bytes>[kKMGT]i?B|bytes)\b"
    r"|\s(?P<word>thousand|million|billion|trillion)\b)?"
)
#: Scale letters (16B, 2.79M, 8k); scale words and byte units are the stated figures' (UNITS).
_LETTERS = {"k": 10**3, "K": 10**3, "M": 10**6, "B": 10**9, "G": 10**9, "T": 10**12}
#: The binary reading of a decimal prefix, as texts write it (512kB for 524,288 bytes, 64k).
_BINARY = {"k": 2**10, "K": 2**10, "M": 2**20, "G": 2**30, "T": 2**40,
           "kB": 2**10, "KB": 2**10, "MB": 2**20, "GB": 2**30, "TB": 2**40}  # fmt: skip
#: Between the formula and the figure: a few words (a unit), then a word that restates.
_AGAIN = re.compile(
    r"^[⟩\s]*(?:[^.;:⟨⟩]{0,40}?)(?P<cue>\bor|\bi\.\s?e\.,?|\bthat is|\bwhich is|\bthis is|\bwhich comes to)"
    r"\s*(?:about|roughly|approximately|around|nearly|~|≈)?\s*$",
    re.I,
)
#: Restating words after which the figure must be the same quantity.
_SAME = re.compile(r"^(?:or|i\.\s?e\.,?|that is)$", re.I)
#: Words after the figure that take it further than the formula went.
_FURTHER = re.compile(
    r"^\s*(?:\w+\s+){0,2}?(?:over|across|for|per|in|on|with|in all|altogether|total|each|times|of)\b",
    re.I,
)
#: After the figure: a share, a fraction or a factor of something else.
_ANOTHER_QUANTITY = re.compile(r"\s*(?:%|percent|per cent|/\s*\d|in\s+\d|x\b|×|of\b)", re.I)
#: Words for a number format of values, each a number of bytes (int8: 1; fp16: 2).
_FORMATS = re.compile(r"\b(?:fp|bf|int|float|half|bfloat)\d*\b|\bhalf precision\b", re.I)


def restated_claims(au: AuditContext, line: Line, add: Callable, covered: list) -> None:
    for m in _FIGURE.finditer(line.text):
        start, end = m.span()
        if inside(covered, start, end) or _in_formula(line, start):
            continue
        before = _formula_before(line, start)
        if before is None:
            continue
        plain, formula_end = before
        cue = _AGAIN.match(line.text[formula_end:start])
        if cue is None or _ANOTHER_QUANTITY.match(line.text[end:]):
            continue  # a share or a part of something else ("i.e. 12.5 % of the model width")
        if _converted(line.text[formula_end : formula_end + cue.start("cue")], m, line.text[end:]):
            continue  # parameters said again as bytes, seconds as hours: a conversion
        value = _value(au, line, formula_end, plain)
        readings = _readings(m, value)
        if value is None or not readings:
            continue
        text = line.text[start:end]
        if any(rounds_to(value, r, False) for r in readings):
            rule = f"arithmetic: the value of the formula before it, said again ({readings[0].digits} digits)"
            add(Claim(line.number, text, CERTIFIED, Said(Math(value)), rule, [(start, end)]))
        elif (
            _SAME.match(cue.group("cue").strip())
            and not _FURTHER.match(line.text[end:])
            and _plainly_again(m, cue)
        ):
            rule = "arithmetic: said to restate the formula before it, not its value in any unit"
            add(Claim(line.number, text, WRONG, Said(Math(value)), rule, [(start, end)]))


def _plainly_again(m: re.Match, cue: re.Match) -> bool:
    """After "i.e." or "that is", any figure restates; after "or", one written in another form
    (a scale, a unit: 16e9, or 16B): "2^{10} = 1024 heads, or 2048" names another value."""
    scaled = m.group("exp") or m.group("letter") or m.group("bytes") or m.group("word")
    return bool(scaled) or cue.group("cue").strip().lower() != "or"


def _converted(between: str, m: re.Match, after: str) -> bool:
    """The figure names its quantity in other units than the formula: "``...`` parameters, or
    8 GB", "seconds, or 1.7k hours", "values in fp16, which is 512kB" (two bytes a value)."""
    before_noun = re.search(r"([A-Za-z]+)\W*$", between.strip(" ,;")) if between.strip(" ,;") else None
    after_noun = re.match(r"\s*([A-Za-z]+)", after)
    if m.group("bytes"):  # bytes must be what the formula counts, at one byte a value
        formats = _FORMATS.findall(between)
        bytes_before = re.search(r"\bbytes?\b|\bint8\b", between, re.I)
        return not bytes_before or any(f.lower() != "int8" for f in formats)
    if before_noun and after_noun:
        a, b = (w.lower().rstrip("s") for w in (before_noun.group(1), after_noun.group(1)))
        return a != b
    return False


def _readings(m: re.Match, value: sp.Basic | None = None) -> list[Stated]:
    """The figure's values: one, or two where its unit has a decimal and a binary reading (a
    binary one only for a value that is a whole number of 1024s: 65,536 is 64k, 2,000,000 is
    not 1.9M)."""
    try:
        base = Stated.read(m.group("num") + (m.group("exp") or ""))
    except Unreadable:
        return []
    binary = value is not None and value.is_Integer and value % 1024 == 0
    unit = m.group("letter") or m.group("bytes") or m.group("word")
    decimal = 1 if unit is None else _LETTERS[unit] if m.group("letter") else UNITS[unit]  # MiB: 2^20
    factors = sorted({decimal, _BINARY[unit]} if binary and unit in _BINARY else {decimal})
    return [
        Stated(base.text, base.value * f, base.digits, base.unit * f, base.whole and f == 1) for f in factors
    ]


def _formula_before(line: Line, start: int) -> tuple[str, int] | None:
    """The formula that ends last before ``start`` on the line, with where it ends."""
    before = [(plain, e) for _, plain, s, e in line.formulas if e <= start]
    return max(before, key=lambda x: x[1]) if before else None


def _value(au: AuditContext, line: Line, at: int, plain: str) -> sp.Basic | None:
    """The value of the formula's last member, with the values the text gave before it; None
    unless the formula computes (an operator in it) and the value is a real number."""
    try:
        members, _ = calc.parse_chain(plain.strip().rstrip(".,;"))
    except Unreadable:
        return None
    if all(m[0] in ("sym", "num") for m in members):
        return None  # d_model = 512: a value given, not computed
    env = {**au.env, **au.premises(line, at)}
    try:
        value = evaluate(members[-1], env)
    except Exception:  # a member the evaluator refuses: nothing to compare with
        return None
    if value is None or isinstance(value, sp.MatrixBase) or value.free_symbols:
        return None
    return value if value.is_extended_real and value.is_finite else None


def _in_formula(line: Line, pos: int) -> bool:
    return any(s <= pos < e for _, _, s, e in line.formulas)


SHARE_RULE = "arithmetic: a share the sentence before computed, said again in words"
#: "This gives us roughly 1/4 of parameters are used in attention": the next sentence's share.
_SHARE_AGAIN = re.compile(
    r"^\s*(?:This|That|Which)\s+(?:gives|shows)\s+(?:us\s+)?(?P<about>roughly\s+|about\s+|~\s*)?"
    r"(?P<num>\d+)\s*/\s*(?P<den>\d+)\s+of\s+(?:the\s+)?(?P<noun>[a-z]+)"
)


def _first_value(au: AuditContext, plain: str) -> sp.Expr | None:
    """The value of the first member of a chain that has one, with the relations the text
    assumed (``4DNH / (4DNH + 3DF)`` with ``D = NH``, ``F = 4D``): what it computes, not what it
    states."""
    from . import letters

    try:
        members, _ = calc.parse_chain(plain)
    except Unreadable:
        return None
    for m in members:
        v = letters.value(m, {}, [])
        v = letters.assumed(v, au.relations) if v is not None else None
        if v is not None and not v.free_symbols:
            return v
        if v is not None and (s := sp.simplify(v)).is_number:
            return s
    return None


def share_claims(au: AuditContext, line: Line, add: Callable, covered: list) -> None:
    """A share in words that opens the sentence after a formula computing it: its value again."""
    for a, b in line.sentences():
        m = _SHARE_AGAIN.match(line.text[a:b])
        span = (a + m.start("num"), a + m.end("den")) if m else None
        if m is None or inside(covered, *span):
            continue
        before = _formula_before(line, a)
        if before is None or line.text[before[1] : a].strip(" .") != "":
            continue  # the formula must end the sentence just before
        previous = line.text[line.sentence_at(max(0, a - 2))[0] : a]
        if m.group("noun").rstrip("s") not in previous:
            continue  # a share of something the sentence before does not compute
        value = _first_value(au, before[0])
        if value is None or isinstance(value, sp.MatrixBase) or value.free_symbols:
            continue
        stated = sp.Rational(int(m.group("num")), int(m.group("den")))
        ok = abs(value - stated) <= stated / 20 if m.group("about") else value == stated
        add(
            Claim.judged(line.number, line.text[span[0] : span[1]], ok, Said(Math(value)), SHARE_RULE, [span])
        )


#: A figure in words the formula right after it uses: "2.79M H800 hours means ⟨2.79e6 * ...⟩",
#: "the activated parameter count of 37B, this training run should have used about ⟨6 * 37e9 ...⟩".
_USED_AFTER = re.compile(r"^[^.;⟨⟩]{0,70}⟨")


def premise_figures(au: AuditContext, line: Line, add: Callable, covered: list) -> None:
    """A figure in words that a formula later in its sentence uses as one of its factors (the
    same value, in its scale) is that formula's premise, part of its claim, not a claim of its own."""
    for m in _FIGURE.finditer(line.text):
        start, end = m.span()
        scaled = m.group("letter") or m.group("word")
        if not scaled or inside(covered, start, end) or _in_formula(line, start):
            continue
        after = _USED_AFTER.match(line.text[end:])
        previous = _formula_before(line, start)
        if after is None or (previous and _AGAIN.match(line.text[previous[1] : start])):
            continue  # a figure said again after a formula ("i.e. 4.8B") is that one's to judge
        at = end + after.end() - 1
        formula = next((p for _t, p, s, _e in line.formulas if s == at), None)
        readings = _readings(m, None)
        factors = [n for n in re.findall(r"(?<![\w.])\d+(?:\.\d+)?(?:e[+-]?\d+)?(?![\w.])", formula or "")]
        values = {sp.Rational(f) for f in factors}
        if formula and any(r.value in values for r in readings if r.value is not None):
            covered.append((start, end))


HALF_RULE = "arithmetic: half the figure before it, said in its own units"
#: "3,026 TFLOPs/s of FP8 performance with sparsity, or typically half this (1.513e15 FLOPs/s)".
_HALF = re.compile(
    r"(?<![\w.,+-])(?P<a>\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)\s*(?P<prefix>[KMGTP]?)FLOPs?(?:/s)?\b[^.;⟨⟩]{0,60}?"
    r"(?<![\w-])(?P<hedge>(?:(?:only|roughly|about|approximately|around|nearly|almost|a\s+bit|slightly|less|more)\s+)*"
    r"(?:than\s+)?)half\s+(?:of\s+)?(?:this|that)\s*\(\s*(?P<b>\d+(?:\.\d+)?(?:e[+-]?\d+)?)\s*(?P<bprefix>[KMGTP]?)FLOPs?"
)
_PREFIX = {"": 1, "K": 10**3, "M": 10**6, "G": 10**9, "T": 10**12, "P": 10**15}


def half_claims(au: AuditContext, line: Line, add: Callable, covered: list) -> None:
    """ "3,026 TFLOPs/s ..., or typically half this (1.513e15 FLOPs/s)": the second figure is half
    the first, each in its units, to the digits it is written with."""
    for m in _HALF.finditer(line.text):
        span = m.span("b")
        if inside(covered, *m.span("a")) or inside(covered, *span) or m.group("hedge").strip():
            continue  # "roughly half that", "a bit less than half": not said exactly
        first = sp.Rational(m.group("a").replace(",", "")) * _PREFIX[m.group("prefix")]
        try:
            stated = Stated.read(m.group("b"))
        except Unreadable:
            continue
        scale = _PREFIX[m.group("bprefix")]
        ok = rounds_to(first / 2 / scale, stated, False)
        said = Said(Math(first / 2), " FLOPs: half of ", Math(first))
        spans = [m.span("a"), span]
        add(Claim.judged(line.number, line.text[m.start() : m.end()], ok, said, HALF_RULE, spans))
