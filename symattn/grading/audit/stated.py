"""Figures as a module states them, and whether a computed value is the figure stated.

:class:`Stated` is a figure as written: ``4.113`` has 4 significant digits and stands for
[4.1125, 4.1135]; ``330,000`` and ``500 million`` have 2 and 1 (trailing zeros of a whole
number are not significant); ``0.0020`` has 2; ``35 %`` is 0.35 to 2 digits. A whole number
stated with "=" is meant exactly.

:func:`rounds_to` decides with certified digits (:func:`symattn.core.digits.round_decimal`), or
exactly for rationals.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction

import sympy as sp

from ...core.digits import round_decimal


class Unreadable(ValueError):
    """Raised for a formula or figure the audit does not read (the claim is left unchecked)."""


# -- stated figures -----------------------------------------------------------------------------
_SCALE = {"thousand": 10**3, "million": 10**6, "billion": 10**9, "trillion": 10**12}


#: Units a figure may carry (``8\\text{GiB}``, ``2.4 million``): bytes in decimal and binary
#: multiples and the scale words, exactly.
UNITS = {
    "bytes": 1, "kB": 10**3, "KB": 10**3, "MB": 10**6, "GB": 10**9, "TB": 10**12, "PB": 10**15,
    "KiB": 2**10, "MiB": 2**20, "GiB": 2**30, "TiB": 2**40, "PiB": 2**50, **_SCALE,
}  # fmt: skip


@dataclass(frozen=True)
class Stated:
    """A figure as the module writes it: its value, significant digits and rounding unit."""

    text: str
    value: Fraction
    digits: int
    unit: Fraction  # one unit in the last significant place
    whole: bool  # written without a fraction part (an integer, possibly rounded)

    @classmethod
    def read(cls, text: str, scale: str | None = None, percent: bool = False) -> Stated:
        t = text.strip().replace(",", "").replace("−", "-").lstrip("±")
        if t.endswith("%") and not percent:  # 21.7%: the share 0.217, to the digits of 21.7
            return cls.read(t[:-1].rstrip(), scale, percent=True)
        if m := re.fullmatch(r"(.+?)\s*(bytes|[kKMGTP]i?B|thousand|million|billion|trillion)", t):  # 17GB
            inner, factor = cls.read(m.group(1), scale, percent), Fraction(UNITS[m.group(2)])
            # 131 kB for 131,072 bytes: a figure in a unit larger than one is stated to its digits
            whole = inner.whole and factor == 1
            return cls(text, inner.value * factor, inner.digits, inner.unit * factor, whole)
        if m := re.fullmatch(r"(.+?)e([+-]?\d+)", t):  # scientific notation: 3.3e5, digits of 3.3
            if abs(int(m.group(2))) > 1000:  # 1e999999999: refused before it is computed
                raise Unreadable(f"a figure too large: {text!r}")
            inner = cls.read(m.group(1), scale, percent)
            power = Fraction(10) ** int(m.group(2))
            # a figure in scientific notation states its significant digits: never a whole
            # number meant exactly (16e9 is 16 billion to two digits)
            return cls(text, inner.value * power, inner.digits, inner.unit * power, False)
        neg = t.startswith("-")
        body = t.lstrip("+-")
        if not re.fullmatch(r"\d+(\.\d+)?|\.\d+", body):
            raise Unreadable(f"not a figure: {text!r}")
        if "." in body:
            digits = len(body.replace(".", "").lstrip("0")) or 1
            unit = Fraction(1, 10 ** len(body.split(".")[1]))
        else:
            digits = len(body.strip("0")) or 1
            zeros = len(body) - len(body.rstrip("0")) if body.strip("0") else 0
            unit = Fraction(10**zeros)
        value = Fraction(body)
        factor = Fraction(_SCALE[scale]) if scale else Fraction(1)
        if percent:
            factor /= 100
        return cls(text, (-value if neg else value) * factor, digits, unit * factor, "." not in body)

    @property
    def low(self) -> Fraction:
        return self.value - self.unit / 2

    @property
    def high(self) -> Fraction:
        return self.value + self.unit / 2


def _floor_log10(a: Fraction) -> int:
    e = len(str(a.numerator)) - len(str(a.denominator))
    while Fraction(10) ** e > a:
        e -= 1
    while Fraction(10) ** (e + 1) <= a:
        e += 1
    return e


def rounds_to(true: sp.Basic, stated: Stated, exact_whole: bool = True) -> bool:
    """Whether ``true`` is ``stated``: a whole number stated with "=" (``exact_whole``) must be
    equal; otherwise ``true`` must round to it at its precision (a rational tie either way)."""
    true = sp.sympify(true)
    if not true.is_number or not true.is_finite or not true.is_real:
        return False
    if stated.whole and exact_whole:
        return is_zero(sp.Rational(stated.value.numerator, stated.value.denominator) - true)
    if true.is_Rational:
        x = Fraction(int(true.p), int(true.q))
        return stated.low <= x <= stated.high
    if stated.value == 0:
        return bool(abs(sp.N(true, 30)) <= sp.Rational(stated.unit.numerator, 2 * stated.unit.denominator))
    if stated.whole:  # "330,000": its significant digits, trailing zeros not counted
        return Fraction(round_decimal(true, stated.digits)) == stated.value
    return Fraction(round_decimal(true, stated.digits)) == stated.value


def is_zero(d: sp.Basic) -> bool:
    """Whether ``d`` is exactly 0: structurally, or by a named proof of
    :func:`symattn.proof.equivalence.prove_zero` (log(8)/log(2) - 3) confirmed at 50 digits."""
    from ...proof.equivalence import prove_zero

    if d == 0:
        return True
    if not d.is_number or prove_zero(d) is None:
        return False
    return bool(abs(sp.N(d, 50)) < sp.Rational(1, 10**40))


def show(value: sp.Basic, digits: int = 7) -> str:
    """A value for the report: exact when short, with correctly rounded digits when not."""
    from ...core.digits import decimal_string
    from ..plain_math import plain_math

    if isinstance(value, sp.MatrixBase):
        if value.rows > 1 and value.cols > 1:
            return "[" + ", ".join(show(value.row(r), digits) for r in range(value.rows)) + "]"
        return "[" + ", ".join(show(x, digits) for x in value) + "]"
    value = sp.sympify(value)
    text = plain_math(value)
    if value.is_Integer or not value.is_number or value.is_infinite or value is sp.nan:
        return text
    dec = decimal_string(value, digits)
    if value.is_Rational:
        exact = _terminating(value)
        return exact if exact is not None else (text if len(text) <= 12 else dec)
    return f"{text} ≈ {dec}" if len(text) <= 30 else dec


def show_latex(value: sp.Basic, digits: int = 7) -> str:
    """:func:`show`'s value as LaTeX for a page: the same exact form and the same digits."""
    from ...core.digits import decimal_string
    from ...proof.latex import latex
    from ..plain_math import plain_math

    if isinstance(value, sp.MatrixBase):
        if value.rows > 1 and value.cols > 1:
            rows = (" & ".join(show_latex(x, digits) for x in value.row(r)) for r in range(value.rows))
            return r"\begin{bmatrix}" + r" \\ ".join(rows) + r"\end{bmatrix}"
        return r"\left[" + ",\\ ".join(show_latex(x, digits) for x in value) + r"\right]"
    value = sp.sympify(value)
    if value is sp.nan:
        return r"\text{undefined}"
    if value is sp.zoo:
        return r"\infty\ \text{(complex)}"
    text, plain = latex(value, ln_notation=True), plain_math(value)
    if value.is_Integer or not value.is_number or value.is_infinite:
        return text
    dec = _decimal_latex(decimal_string(value, digits))
    if value.is_Rational:
        exact = _terminating(value)
        return _decimal_latex(exact) if exact is not None else (text if len(plain) <= 12 else dec)
    return rf"{text} \approx {dec}" if len(plain) <= 30 else dec


def _terminating(value: sp.Rational) -> str | None:
    """A rational's exact decimal when it terminates (1/8 is 0.125), else None (1/3)."""
    from decimal import Decimal, localcontext

    q, places = int(value.q), 0
    while q % 2 == 0:
        q, places = q // 2, places + 1
    twos, places = places, 0
    while q % 5 == 0:
        q, places = q // 5, places + 1
    if q != 1:
        return None
    with localcontext() as ctx:  # enough digits to be exact (28 by default: 1/2^100 would round)
        ctx.prec = len(str(abs(int(value.p)))) + max(twos, places) + 2
        return str(Decimal(int(value.p)) / Decimal(int(value.q)))


def _decimal_latex(decimal: str) -> str:
    """``4.851652E+8`` as ``4.851652 \\times 10^{8}``."""
    if "E" not in decimal:
        return decimal
    mantissa, exponent = decimal.split("E")
    return rf"{mantissa} \times 10^{{{int(exponent)}}}"
