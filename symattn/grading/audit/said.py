"""What the audit says of a claim's true value: words and math, in plain text and for a page.

A report in a terminal shows ``1 + e^(707/500) ≈ 5.112372``; the docs page typesets the same
value, ``$1 + e^{\\frac{707}{500}} \\approx 5.112372$``. Both are made from one :class:`Said`,
a sequence of words and math parts, so the two can never say different things.

>>> import sympy as sp
>>> s = Said("the middle term ", Math(sp.sqrt(2)), " is not ", Math(sp.Integer(1)))
>>> s.plain()
'the middle term √2 ≈ 1.414214 is not 1'
>>> s.markdown()
'the middle term $\\\\sqrt{2} \\\\approx 1.414214$ is not $1$'
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from .stated import show, show_latex


@dataclass(frozen=True)
class Math:
    """A value shown exact when short, with correctly rounded digits when not."""

    value: Any
    digits: int = 7

    def plain(self) -> str:
        return show(self.value, self.digits)

    def latex(self) -> str:
        return show_latex(self.value, self.digits)


@dataclass(frozen=True)
class Tex:
    """Math already written, in plain text and in LaTeX (a name such as Var(q_i k_i))."""

    text: str
    tex: str

    def plain(self) -> str:
        return self.text

    def latex(self) -> str:
        return self.tex


Part = str | Math | Tex

_JOINS = re.compile(r"\s*[=<>]\s*|,\s*")


class Said:
    """Words and math parts; ``+`` appends, :meth:`join` puts a separator between several."""

    def __init__(self, *parts: Part | Said) -> None:
        flat: list[Part] = []
        for p in parts:
            flat.extend(p.parts if isinstance(p, Said) else [p])
        self.parts: tuple[Part, ...] = tuple(flat)

    def __add__(self, other: Part | Said) -> Said:
        return Said(self, other)

    def __radd__(self, other: Part | Said) -> Said:
        return Said(other, self)

    def __eq__(self, other: object) -> bool:  # what is said, in the words a reader sees
        return isinstance(other, Said) and self.markdown() == other.markdown()

    def __hash__(self) -> int:  # a matrix part is not hashable; its text is
        return hash(self.markdown())

    def __repr__(self) -> str:
        return f"Said({self.plain()!r})"

    @staticmethod
    def join(separator: str, items: Iterable[Part | Said]) -> Said:
        out: list[Part | Said] = []
        for i, item in enumerate(items):
            if i:
                out.append(separator)
            out.append(item)
        return Said(*out)

    def plain(self) -> str:
        return "".join(p if isinstance(p, str) else p.plain() for p in self.parts)

    def markdown(self) -> str:
        """Words as they are and the math as ``$...$`` for the page's typesetting; math parts
        joined only by ``=``, ``<``, ``>`` or a comma are one formula (``$\\sqrt{64} = 8$``)."""
        out: list[str] = []
        math: list[str] = []
        parts = list(self.parts)
        for k, p in enumerate(parts):
            if not isinstance(p, str):
                math.append(p.latex())
                continue
            between = 0 < k < len(parts) - 1 and not isinstance(parts[k + 1], str) and math
            if between and _JOINS.fullmatch(p):
                math.append(r",\ " if p.strip() == "," else f" {p.strip()} ")
                continue
            if math:
                out.append("$" + "".join(math) + "$")
                math = []
            out.append(p)
        if math:
            out.append("$" + "".join(math) + "$")
        return "".join(out)
