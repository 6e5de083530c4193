"""Figures a sentence states again in words: ``= 16e9``, "or 16B parameters".

Worked examples put a figure in a formula and say it again in the prose around it, with a scale
word or letter ("2.79M H800 hours means ``2.79e6 * 1.513e15 * 60 * 60``", "``... = 16e9``, or 16B
parameters"). A figure in words is compared with the figures of the formulas of its line:

- it is **certified** when it is the correctly rounded value of one of them (a member of a chain,
  or a figure the formula writes), in its scale: 16B is 16e9 to two digits;
- it is **wrong** when the words say it restates the formula just before it ("or", "i.e.",
  "which is", "that is", "this is") and it is not that formula's value in any reading of its
  unit (kB read as 1000 or as 1024 bytes: texts write both).

A figure that matches nothing and is not said to restate anything is left to the other rules.
Only figures that carry a scale or have three significant digits or more are read, and one of
a single significant digit (8k) is never certified: a short figure (2 heads, an 8k context)
matches some figure of a formula too easily to be certified by it.
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
from .stated import Stated, Unreadable, rounds_to

#: A figure in words with its scale: 16B, 2.79M, 8k, 4e3, 512kB, 1.5 billion, 524,288.
_FIGURE = re.compile(
    r"(?<![\w.,⟨])(?P<num>\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)"
    r"(?:(?P<exp>e[+-]?\d+)|\s?(?P<letter>[kKMBT])(?![\w])|\s?(?P<bytes>[kKMGT]i?B|bytes)\b"
    r"|\s(?P<word>thousand|million|billion|trillion)\b)?"
)
_LETTERS = {"k": 10**3, "K": 10**3, "M": 10**6, "B": 10**9, "T": 10**12}
_WORDS = {"thousand": 10**3, "million": 10**6, "billion": 10**9, "trillion": 10**12}
_BYTES = {"bytes": 1, "kB": 10**3, "KB": 10**3, "MB": 10**6, "GB": 10**9, "TB": 10**12}
_BINARY = {"kB": 2**10, "KB": 2**10, "KiB": 2**10, "MB": 2**20, "MiB": 2**20, "GB": 2**30, "GiB": 2**30,
           "TB": 2**40, "TiB": 2**40}  # fmt: skip
#: Words that say the figure after them is the formula just before, said again.
_AGAIN = re.compile(r"(?:\bor|\bi\.\s?e\.,?|\bwhich is|\bthat is|\bthis is|\bwhich comes to)\s*$", re.I)


def restated_claims(au: AuditContext, line: Line, add: Callable, covered: list) -> None:
    figures = _formula_figures(au, line)
    if not figures:
        return
    for m in _FIGURE.finditer(line.text):
        start, end = m.span()
        if inside(covered, start, end) or _in_formula(line, start):
            continue
        readings = _readings(m)
        if not readings:
            continue
        first = readings[0]
        if (
            not (m.group("exp") or m.group("letter") or m.group("bytes") or m.group("word"))
            and first.digits < 3
        ):
            continue
        text = line.text[start:end]
        # one significant digit (8k) fits too many figures to say which it restates
        match = next(((v, f) for v, f in figures if any(rounds_to(v, r, False) for r in readings)), None)
        if match is not None and first.digits >= 2:
            rule = f"arithmetic: a figure of a formula of its line, said again ({first.digits} digits)"
            add(Claim(line.number, text, CERTIFIED, Said(Math(match[0])), rule, [(start, end)]))
            continue
        before = _formula_before(line, start, figures)
        if before is not None and _AGAIN.search(line.text[before[2] : start].lstrip("⟩ ")):
            rule = "arithmetic: said to restate the formula before it, not its value in any unit"
            add(Claim(line.number, text, WRONG, Said(Math(before[0])), rule, [(start, end)]))


def _readings(m: re.Match) -> list[Stated]:
    """The figure's values: one, or two for a byte unit (decimal and binary multiples)."""
    try:
        base = Stated.read(m.group("num") + (m.group("exp") or ""))
    except Unreadable:
        return []
    factors: list[int] = [1]
    if m.group("letter"):
        factors = [_LETTERS[m.group("letter")]]
    elif m.group("word"):
        factors = [_WORDS[m.group("word")]]
    elif m.group("bytes"):
        unit = m.group("bytes")
        factors = sorted({f for f in (_BYTES.get(unit), _BINARY.get(unit)) if f})
    return [
        Stated(base.text, base.value * f, base.digits, base.unit * f, base.whole and f == 1) for f in factors
    ]


def _formula_figures(au: AuditContext, line: Line) -> list[tuple[sp.Basic, str]]:
    """Each number a formula of the line has: the value of every member of its chain that has
    one, and every figure it writes; with the formula, in order."""
    out: list[tuple[sp.Basic, str]] = []
    for _, plain, _, _ in line.formulas:
        out.extend((v, plain) for v in _values(au, plain))
    return out


def _values(au: AuditContext, plain: str) -> list[sp.Basic]:
    try:
        members, _ = calc.parse_chain(plain)
    except Unreadable:
        return []
    values = []
    for m in members:
        for node in [m, *(n for n in calc.walk(m) if n[0] == "num")]:
            try:
                v = evaluate(node, {})
            except Exception:  # a member the evaluator refuses: no figure from it
                continue
            if v is not None and not isinstance(v, sp.MatrixBase) and not v.free_symbols and v.is_real:
                values.append(v)
    return values


def _formula_before(line: Line, start: int, figures: list) -> tuple[sp.Basic, str, int] | None:
    """The last member's value of the formula that ends nearest before ``start`` in its
    sentence, with the formula and where it ends."""
    a, _ = line.sentence_at(start)
    best = None
    for _, plain, s, e in line.formulas:
        if a <= s and e <= start:
            values = [v for v, f in figures if f == plain]
            if values:
                try:
                    members, _ = calc.parse_chain(plain)
                    last = evaluate(members[-1], {})
                except Exception:
                    continue
                if last is not None and not getattr(last, "free_symbols", True):
                    best = (last, plain, e)
    return best


def _in_formula(line: Line, pos: int) -> bool:
    return any(s <= pos < e for _, _, s, e in line.formulas)
