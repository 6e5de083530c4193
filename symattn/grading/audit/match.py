"""Claims, their verdicts, and comparing a computed value with a figure as stated."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import sympy as sp

from ...core.flops import N, d_model, h
from . import calc
from .document import Line
from .said import Math, Said
from .stated import Stated, Unreadable, is_zero, rounds_to

CERTIFIED, WRONG, UNCHECKED = "certified", "wrong", "unchecked"


@dataclass
class Claim:
    line: int
    text: str
    verdict: str
    #: The true value in words and math (:class:`Said`); kept as plain text, its math as LaTeX
    #: in :attr:`value_latex`
    value: str | None
    rule: str
    spans: list[tuple[int, int]] = field(default_factory=list, repr=False)
    #: The claim's text with each formula as the module wrote it, in $...$, for a page to typeset
    typeset: str = field(default="", repr=False)
    #: The true value for a page: words, and each math part in $...$
    value_latex: str | None = field(default=None, repr=False)
    #: The last line of a claim that runs over several (an inline formula wrapped), else 0.
    through: int = field(default=0, repr=False)

    def __post_init__(self) -> None:
        if self.through <= self.line:
            self.through = 0  # a claim that ends on its own line runs over no other
        if isinstance(self.value, Said):
            self.value, self.value_latex = self.value.plain(), self.value.markdown()
        elif self.value is not None:
            raise TypeError("a claim's value is said in words and math (Said), not as a string")

    @classmethod
    def judged(
        cls, line: int, text: str, holds: bool, value: Said, rule: str, spans: list, through: int = 0
    ) -> Claim:
        """A decided claim: certified when it ``holds``, else wrong."""
        return cls(line, text, CERTIFIED if holds else WRONG, value, rule, spans, through=through)

    def as_dict(self) -> dict:
        return {
            "line": self.line,
            "text": self.text,
            "verdict": self.verdict,
            "value": self.value,
            "value_latex": self.value_latex,
            "rule": self.rule,
            **({"through": self.through} if self.through else {}),
        }


KNOWN_SYMBOLS = {"N", "h", "d_model", "d_k", "d_v", "g", "d"}


def evaluate(node: calc.Node, env: dict) -> sp.Basic | None:
    """The member's exact value, or None when it uses something undefined."""
    unknown = (
        calc.symbols_of(calc.dot_products(node))
        - KNOWN_SYMBOLS
        - set(env)
        - set(calc.UNITS)
        - {"z", "q_i", "k_i", "i"}
    )
    if unknown:
        return None
    try:
        value = calc.exact(node, env)
    except (Unreadable, TypeError, ValueError, AttributeError, ZeroDivisionError):
        return None
    if isinstance(value, sp.MatrixBase):
        return value
    value = sp.sympify(value)
    names = {s.name for s in value.free_symbols}
    if names - KNOWN_SYMBOLS - set(env):
        return None
    return value


class Figures:
    """Rounded figures the text has stated, each with the exact value it stands for.

    When a claim is certified as the rounding of an exact value (``√2 ≈ 1.414``), the figure
    ``1.414`` is remembered with its line; a later formula of the same section that computes
    with it (``e^{1.414} = 4.113``) may then be read with the exact value in its place, as a
    reader would, and the claim says so ("reading 1.414 as √2"). The latest statement of a
    figure before the formula is the one read; a figure stated for two values on one line is
    not read. Where the text works the module's example, a figure that rounds exactly one of
    the example's entries (``known``) stands for it too.
    """

    def __init__(self, known: list[sp.Basic] | None = None) -> None:
        self._stated: dict[str, list[tuple[int, int, sp.Basic]]] = {}  # key -> (section, line, value)
        self._known = [v for v in (known or []) if v.is_number and v.is_finite and not v.is_Rational]

    @staticmethod
    def key(text: str) -> str:
        return re.sub(r"[\s,{}]|\\,", "", text).replace("−", "-")

    def remember(self, text: str, value: sp.Basic, line: Line) -> None:
        key = self.key(text)
        if "." not in key or not isinstance(value, sp.Basic) or not value.is_number:
            return
        try:
            if sp.Rational(key) == value:
                return  # the figure is the value itself
        except (TypeError, ValueError):
            return
        self._stated.setdefault(key, []).append((line.section, line.number, value))

    def value(self, text: str, line: Line, example: bool) -> sp.Basic | None:
        """What the figure ``text`` stands for on ``line``, or None: read it as written."""
        key = self.key(text)
        here = [(n, v) for sec, n, v in self._stated.get(key, []) if sec == line.section and n <= line.number]
        if here:
            last = max(n for n, _ in here)
            values = [v for n, v in here if n == last]
            return values[0] if all(same(v, values[0]) for v in values) else None
        return self._known_value(key) if example else None

    def read(self, node: calc.Node, line: Line, example: bool) -> tuple[calc.Node, dict, list[str]] | None:
        """``node`` with each figure that stands for an exact value replaced by a name bound
        to it, the binding, and the figures replaced; None when there is none."""
        env: dict[str, sp.Basic] = {}
        used: list[str] = []

        def walk(n):
            if not isinstance(n, tuple):
                return n
            if n and n[0] == "num":
                value = self.value(n[1], line, example)
                if value is not None:
                    name = f"figure{len(env)}"
                    env[name] = value
                    used.append(n[1])
                    return ("sym", name)
                return n
            return tuple(walk(c) for c in n)

        out = walk(node)
        return (out, env, used) if used else None

    def _known_value(self, key: str) -> sp.Basic | None:
        if "." not in key:
            return None
        try:
            stated = Stated.read(key)
        except (Unreadable, ValueError):
            return None
        hits = [v for v in self._known if rounds_to(v, stated, False)]
        return hits[0] if hits and all(same(h, hits[0]) for h in hits) else None

    def said(self, used: list[str], env: dict) -> str:
        from ...proof.latex import latex

        return "reading " + ", ".join(f"{u} as ${latex(v)}$" for u, v in zip(used, env.values(), strict=True))


def stated_vector(node: calc.Node) -> list[tuple[str, bool]] | None:
    """The entries of a vector of literals (``-oo`` allowed), else None."""
    if node[0] != "vec":
        return None
    out = []
    for item in node[1]:
        lit = calc.literal(item)
        if lit is not None:
            out.append((lit, False))
        elif item in (("neg", ("sym", "oo")),):
            out.append(("-oo", True))
        else:
            return None
    return out


def entry_ok(true: sp.Basic, text: str, exact_whole: bool) -> bool:
    if text == "-oo":
        return true == -sp.oo
    return rounds_to(true, Stated.read(text), exact_whole)


def vector_ok(true: sp.Matrix, stated: list[tuple[str, bool]], exact_whole: bool = True) -> bool:
    values = list(true)
    return len(values) == len(stated) and all(
        entry_ok(t, s, exact_whole) for t, (s, _) in zip(values, stated, strict=True)
    )


def distance(true: sp.Matrix, stated: list[tuple[str, bool]]) -> float:
    values = list(true)
    if len(values) != len(stated):
        return float("inf")
    d = 0.0
    for t, (s, inf) in zip(values, stated, strict=True):
        if inf or t == -sp.oo:
            d += 0 if (inf and t == -sp.oo) else 1e9
        else:
            d += abs(float(sp.N(t, 20)) - float(Stated.read(s).value))
    return d


def substitute_heads(value: sp.Basic) -> sp.Basic:
    """Multi-head widths in terms of d_model: d_k = d_v = d_model / h (the library's d_head)."""
    from ...core.flops import d_head

    names = {s.name: s for s in getattr(value, "free_symbols", set())}
    subs = {names[n]: d_head for n in ("d_k", "d_v") if n in names}
    if "d_model" in names:
        subs[names["d_model"]] = d_model
    if "N" in names:
        subs[names["N"]] = N
    if "h" in names:
        subs[names["h"]] = h
    return value.subs(subs) if subs else value


def same(a: sp.Basic, b: sp.Basic) -> bool:
    if isinstance(a, sp.MatrixBase) or isinstance(b, sp.MatrixBase):
        return (
            isinstance(a, sp.MatrixBase)
            and isinstance(b, sp.MatrixBase)
            and a.shape == b.shape
            and all(same(x, y) for x, y in zip(a, b, strict=True))
        )
    diff = sp.simplify(sp.expand(a - b))
    return diff == 0 or (diff.is_number and is_zero(diff))


def inside(covered: list[tuple[int, int]], start: int, end: int) -> bool:
    return any(a <= start and end <= b for a, b in covered)


def formula_span(line: Line, start: int, end: int) -> tuple[int, int]:
    for _, _, a, b in line.formulas:
        if a <= start and end <= b:
            return a, b
    return start, end


def value_text(values: list, stated_i: int | None) -> Said | None:
    shown = [v for i, v in enumerate(values) if v is not None and i != stated_i]
    return Said(Math(shown[-1])) if shown else None
