"""Reading the sides of an answer's chain as SymPy values: numbers, expressions and matrices.

Runs inside the judge's worker (:func:`symattn.grading.answers.judge.judge_text`). A side is empty
(``\\approx 1.96`` has an empty first side), an infinity, a matrix written with a
``bmatrix``-like environment (a factor in front and transposes after are allowed), or an
expression read by :func:`symattn.grading.answers.parsing.read_latex`.
"""

from __future__ import annotations

import re
from typing import Any

import sympy as sp

from ...proof.certify import NotFinite
from ...proof.magnitude import digits_beyond
from ..plain_math import plain_math
from .notation import MAX_TERMS, Chain
from .parsing import LatexError, read_latex
from .verdicts import INF, INFINITIES

_MATRIX = re.compile(
    r"^(?P<pre>.*?)(?:\\left\s*[\[(]\s*)?\\begin\{(?P<env>[A-Za-z]+)\}(?:\{[^{}]*\})?"
    r"(?P<body>.*?)\\end\{(?P=env)\}(?:\s*\\right\s*[\])])?(?P<post>.*)$",
    re.S,
)
_TRANSPOSE = re.compile(r"\^\{T\^\{?T\}?\}|\^\{T\}|\^T|'")


def read_side(text: str, notes: list[str]) -> Any:
    """One side of a chain as SymPy: None if empty, a Matrix, or an expression."""
    text = text.strip()
    if not text:
        return None
    if text in (r"\infty", r"+\infty"):
        return INF
    if text == r"-\infty":
        return -INF
    if r"\begin{" in text:
        return _read_matrix(text, notes)
    if re.fullmatch(r"\[\s*\[.*\]\s*\]", text, re.S):
        return _read_rows(text)
    value = read_latex(text)
    if isinstance(value, list):
        value = sp.Matrix([value])
    if isinstance(value, sp.MatrixBase):
        return sp.Matrix(value)
    if isinstance(value, (sp.Rel, sp.logic.boolalg.Boolean)) and not isinstance(value, sp.Expr):
        raise LatexError("cannot read this relation: write it as, say, N > 8192")
    if not isinstance(value, sp.Expr):
        raise LatexError(f"cannot read '{text[:40]}' as a value here")
    if value.has(sp.Sum, sp.Product):
        value = _written_out(value)
    if r"\infty" in text and not value.has(*INFINITIES):
        # SymPy evaluated the infinity away (1/\infty is 0): still not a finite number
        raise NotFinite("the answer is not a finite number: it involves infinity")
    return value


def _written_out(value: sp.Expr) -> sp.Expr:
    """Sums and products with concrete bounds written out term by term and then evaluated, the
    inner ones of nested sums for each term of the outer (at most a hundred terms in all: a
    sum's own count is bounded by notation.py, nested sums multiply); where a term holds a power
    of more than :data:`~symattn.limits.MAX_POWER_DIGITS` digits, each term is left as written:
    ``\\sum_{i=1}^{100} 10^{10^{i}}`` is a sum of powers, as ``10^{10^{10}}`` alone is. SymPy's
    own summation is not used on them: it works symbolically
    (``\\sum_{i=1}^{30}\\sum_{j=1}^{30} \\frac{1}{i+j}`` took 12 s).
    The work is bounded by the terms and digits, whatever the machine (issue 49). A sum whose
    bounds are symbols is left to SymPy."""
    written = [0]

    def out(e: sp.Basic) -> sp.Basic:
        if isinstance(e, (sp.Sum, sp.Product)):  # Sum(f, (j, ...), (i, ...)): j's sum inside i's
            inner = e.func(e.function, *e.limits[:-1]) if len(e.limits) > 1 else e.function
            body, (i, low, high) = inner, e.limits[-1]
            if low.is_Integer and high.is_Integer:
                terms = []
                for k in range(int(low), int(high) + 1):
                    with sp.evaluate(False):
                        term = body.xreplace({i: sp.Integer(k)})
                    terms.append(out(term) if term.has(sp.Sum, sp.Product) else term)
                if not body.has(sp.Sum, sp.Product):  # the innermost: its terms are the ones written
                    written[0] += len(terms)
                    if written[0] > MAX_TERMS:
                        raise LatexError(f"too costly to check: sums of more than {MAX_TERMS} terms in all")
                with sp.evaluate(False):
                    return (sp.Add if isinstance(e, sp.Sum) else sp.Mul)(*terms)
        if e.args and not e.is_Atom:
            args = [out(a) for a in e.args]
            with sp.evaluate(False):  # a root of a written-out product would work the product out
                return e.func(*args)
        return e

    whole = out(value)
    if digits_beyond(whole):
        return whole
    return whole.doit() if not whole.has(sp.Sum, sp.Product) else value.doit()


def _read_rows(text: str) -> sp.Matrix:
    """A matrix written as nested lists, row by row: [[0, -\\infty], [0, 0]]."""
    cells = _list_cells(text)
    if cells is None:
        raise LatexError("write a matrix as rows in brackets, [[0, -\\infty], [0, 0]]")
    if any(len(r) != len(cells[0]) for r in cells):
        raise LatexError("the rows of the matrix have different lengths")
    if any(not c for r in cells for c in r):
        raise LatexError("the matrix has an empty entry")
    return sp.Matrix([[_read_entry(c) for c in r] for r in cells])


def _read_matrix(text: str, notes: list[str]) -> sp.Matrix:
    m = _MATRIX.match(text)
    if not m or r"\begin{" in m.group("body") or r"\begin{" in m.group("post"):
        raise LatexError("write one matrix, as \\begin{bmatrix} ... \\end{bmatrix}")
    cells = _environment_cells(m.group("body"))
    if not cells or any(len(r) != len(cells[0]) for r in cells):
        raise LatexError("the rows of the matrix have different lengths")
    if any(not c for r in cells for c in r):
        raise LatexError("the matrix has an empty entry")
    matrix = sp.Matrix([[_read_entry(c) for c in r] for r in cells])
    pre = m.group("pre").strip()
    pre = re.sub(r"\\(?:cdot|times)\s*$", "", pre).strip()
    if pre in ("", "+"):
        scale = None
    elif pre == "-":
        scale = sp.S.NegativeOne
    else:
        scale = read_latex(pre)
        if not isinstance(scale, sp.Expr):
            raise LatexError("cannot read the factor in front of the matrix")
    post = re.sub(r"\s+", "", m.group("post"))
    flips = 0
    while post:
        t = _TRANSPOSE.match(post)
        if not t:
            raise LatexError(f"cannot read '{post[:20]}' after the matrix")
        flips += t.group().count("T") or 1
        post = post[t.end() :]
    if flips % 2:
        matrix = matrix.T
    if scale is not None:
        matrix = matrix.applyfunc(lambda x: scale * x)
    return matrix


def _list_cells(text: str) -> list[list[str]] | None:
    """The entries of a matrix written as rows in brackets, row by row (None if it is not)."""
    inner = text.strip()[1:-1].strip()
    rows = re.findall(r"\[([^\[\]]*)\]", inner)
    if re.sub(r"\[[^\[\]]*\]|[\s,]", "", inner) or not rows:
        return None
    return [[c.strip() for c in r.split(",")] for r in rows]


def _environment_cells(body: str) -> list[list[str]]:
    """The entries of a matrix environment's body, row by row."""
    rows = [r for r in re.split(r"\\\\", body.replace(r"\hline", ""))]
    if rows and not rows[-1].strip():
        rows.pop()
    return [[c.strip() for c in r.split("&")] for r in rows]


def _read_entry(text: str) -> Any:
    if text in (r"\infty", r"+\infty"):
        return INF
    if text == r"-\infty":
        return -INF
    value = read_latex(text)
    if not isinstance(value, sp.Expr):
        raise LatexError(f"cannot read the matrix entry '{text[:30]}'")
    if value.has(sp.Sum, sp.Product):  # as a value's sums are: nested ones bounded in all
        value = _written_out(value)
    return value


def given_text(chain: Chain, sides: list[Any]) -> str:
    shown = {"<=": "≤", ">=": "≥", "!=": "≠", "~": "≈", "equiv": "≡"}
    parts = []
    for i, s in enumerate(sides):
        if i:
            parts.append(shown.get(chain.relations[i - 1], chain.relations[i - 1]))
        if s is not None:
            parts.append(_show(s))
    text = " ".join(parts)
    return text if len(text) <= 200 else text[:197] + "..."


#: Relations as LaTeX, for :func:`given_latex`.
_RELATIONS_TEX = {"<=": r"\le", ">=": r"\ge", "!=": r"\ne", "~": r"\approx", "equiv": r"\equiv"}


def given_latex(chain: Chain, sides: list[Any]) -> str:
    """What was read, as LaTeX for a page to typeset ("" when it is too long to show, or when
    SymPy's printer cannot print it: a reading to show never changes a verdict)."""
    from ...proof.latex import latex

    parts = []
    if any(isinstance(s, sp.Basic) and digits_beyond(s) for s in sides):
        return ""  # a power of more digits than any answer needs: its terms are not ordered
    try:
        for i, s in enumerate(sides):
            if i:
                parts.append(_RELATIONS_TEX.get(chain.relations[i - 1], chain.relations[i - 1]))
            if s is not None:
                parts.append(latex(sp.Matrix(s) if isinstance(s, list) else s))
    except Exception:  # RecursionError and the like: SymPy's printer on a learner's odd expression
        return ""
    text = " ".join(parts)
    return text if len(text) <= 400 else ""


def _show(value: Any) -> str:
    return plain_math(value)  # a power of too many digits is shown as written: plain_math


# -- the reading with numbers as typed -------------------------------------------------------
#: A number written alone, in the plain form :func:`~.notation.precheck` leaves: a sign, digits
#: with or without a decimal point, scientific notation (``1.9586E0``), a percentage (``196\%``).
_NUMBER = re.compile(r"[+-]?\s*(?:\d+(?:\.\d*)?|\.\d+)(?:E[+-]?\d+)?(?:\s*\\%)?")
_PLAIN_E = re.compile(r"(?:\d+(?:\.\d*)?|\.\d+)E[+-]?\d+")


def typed_text(chain: Chain, sides: list[Any], typed: dict[str, str]) -> str:
    """:func:`given_text` with every number the learner wrote alone, as a side of the chain or
    as an entry of a matrix written out entry by entry, shown as typed: ``1.96`` and ``1.970``
    (not 49/25 and 197/100), ``1.9586e0``, ``196%``. ``typed`` maps precheck's plain form of a
    number to what was typed (``1.9586E0``: ``1.9586e0``). Anything else is shown as read."""
    shown = {"<=": "≤", ">=": "≥", "!=": "≠", "~": "≈", "equiv": "≡"}
    parts = []
    for i, (text, s) in enumerate(zip(chain.sides, sides, strict=True)):
        if i:
            parts.append(shown.get(chain.relations[i - 1], chain.relations[i - 1]))
        if s is not None:
            parts.append(_typed_side(text.strip(), s, typed))
    text = " ".join(parts)
    return text if len(text) <= 200 else text[:197] + "..."


def _typed_side(text: str, value: Any, typed: dict[str, str]) -> str:
    number = _as_typed(text, typed)
    if number is not None:
        return number
    decimals = _decimals(text, typed)
    if isinstance(value, sp.MatrixBase):
        cells = _written_cells(text)
        if cells is not None and (len(cells), len(cells[0])) == value.shape:
            rows = (
                ", ".join(_as_typed(c, typed) or plain_math(value[i, j], decimals) for j, c in enumerate(row))
                for i, row in enumerate(cells)
            )
            return "[" + ", ".join(f"[{r}]" for r in rows) + "]"
    return plain_math(value, decimals)


#: A decimal inside an expression: digits with a point, perhaps in scientific notation.
_DECIMAL = re.compile(r"(?<![\w.])(\d*\.\d+|\d+\.\d*)(?:E([+-]?\d+))?(?![\w.])")


def _decimals(text: str, typed: dict[str, str]) -> dict[Any, str]:
    """The decimals typed in ``text`` that are not whole numbers, by their exact value (none of
    a hundred or more powers of ten: 1.5E999999 is not worth the million digits of its value)."""
    out: dict[Any, str] = {}
    for m in _DECIMAL.finditer(text):
        power = int(m.group(2) or 0)
        if abs(power) >= 100:
            continue
        value = sp.Rational(m.group(1)) * sp.Integer(10) ** power
        if not value.is_integer and value > 0:
            out.setdefault(value, typed.get(m.group(), m.group()))
    return out


def _as_typed(text: str, typed: dict[str, str]) -> str | None:
    """``text`` as the learner typed it, if it is a number alone; else None."""
    if not _NUMBER.fullmatch(text):
        return None
    text = _PLAIN_E.sub(lambda m: typed.get(m.group(), m.group()), re.sub(r"\s+", "", text))
    return text.replace("\\%", "%")


def _written_cells(text: str) -> list[list[str]] | None:
    """A matrix's entries as written, when the matrix is written entry by entry with nothing
    around it (no factor in front, no transpose after); else None."""
    if re.fullmatch(r"\[\s*\[.*\]\s*\]", text, re.S):
        return _list_cells(text)
    m = _MATRIX.match(text)
    if m is None or m.group("pre").strip() not in ("", "+") or m.group("post").strip():
        return None
    return _environment_cells(m.group("body"))
