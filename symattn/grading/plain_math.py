"""Expressions written as plain math for a learner to read, never in SymPy's own syntax.

What a learner is told ("read as ...", a counterexample's values) is written as a person writes
mathematics in plain text: ``10^(-10^10) + 39/20``, ``-∞``, ``e^2``, ``√(d_k)``,
``sum_{j=1}^{N} v_j``, ``v_j``, and matrices as rows ``[[0, -∞], [0, 0]]``. Never ``**``,
``oo``, ``exp(2)``, ``Sum(v[j], (j, 1, N))`` or ``v[j]``.
"""

from __future__ import annotations

import re
from typing import Any

import sympy as sp
from sympy.printing.precedence import PRECEDENCE
from sympy.printing.str import StrPrinter

from ..proof.magnitude import digits_beyond, nesting

#: Longest text shown; a longer one is cut with "...".
MAX_SHOWN = 200
#: The deepest expression whose terms are printed in SymPy's order (which evaluates them, at a
#: cost that can double with each level of an unevaluated tree); deeper ones are printed as
#: written. A learner's reading of ``\frac{e^2+11}{e^2+2}`` is 5 deep.
MAX_ORDERED_NESTING = 12


#: A factor 1 at the start of a product or after a sign: "1*" not preceded by a digit, a
#: letter, a point or a closing bracket.
_UNIT_FACTOR = re.compile(r"(?<![\w.)\]])1\*")


class _PlainPrinter(StrPrinter):
    printmethod = "_plain_math"  # not "_sympystr": objects' own SymPy forms (v[j]) are not used

    def _print_Pow(self, expr: sp.Pow, rational: bool = False) -> str:
        base, exp = expr.args
        if exp is sp.S.Half:
            return f"√{self._print(base)}" if base.is_Atom else f"√({self._print(base)})"
        if exp == -sp.S.Half:
            return f"1/√{self._print(base)}" if base.is_Atom else f"1/√({self._print(base)})"
        if exp == -1 and not base.is_Atom:
            return f"1/({self._print(base)})"
        if exp == -1:
            return f"1/{self._print(base)}"
        b = self.parenthesize(base, PRECEDENCE["Pow"], strict=True)
        if isinstance(base, (sp.Sum, sp.Product)):  # (sum_j v_j)^2, never read as sum_j v_j^2
            b = f"({b})"
        e = self._print(exp)
        if not (exp.is_Symbol or (exp.is_Integer and exp >= 0)):
            e = f"({e})"
        return f"{b}^{e}"

    def _print_exp(self, expr: Any) -> str:
        arg = expr.args[0]
        shown = self._print(arg)
        plain = arg.is_Symbol or (arg.is_Integer and not arg.is_negative)
        return f"e^{shown}" if plain else f"e^({shown})"

    def _print_Mul(self, expr: sp.Mul) -> str:
        # A product a reader built unevaluated keeps SymPy's factor 1 (-1*8192*N): drop it.
        return _UNIT_FACTOR.sub("", super()._print_Mul(expr))

    def _print_Exp1(self, expr: Any) -> str:
        return "e"

    def _print_Infinity(self, expr: Any) -> str:
        return "∞"

    def _print_NegativeInfinity(self, expr: Any) -> str:
        return "-∞"

    def _print_ComplexInfinity(self, expr: Any) -> str:
        return "∞ (complex)"

    def _print_NaN(self, expr: Any) -> str:
        return "undefined"

    def _print_Indexed(self, expr: sp.Indexed) -> str:
        index = ",".join(self._print(i) for i in expr.indices)
        return (
            f"{self._print(expr.base)}_{index}"
            if len(index) == 1
            else f"{self._print(expr.base)}_{{{index}}}"
        )

    def _print_Sum(self, expr: sp.Sum) -> str:
        body = self.parenthesize(expr.function, PRECEDENCE["Mul"])
        out = body
        for var, low, high in reversed(expr.limits):
            out = f"sum_{{{self._print(var)}={self._print(low)}}}^{{{self._print(high)}}} {out}"
        return out

    def _print_Product(self, expr: sp.Product) -> str:
        body = self.parenthesize(expr.function, PRECEDENCE["Mul"])
        out = body
        for var, low, high in reversed(expr.limits):
            out = f"prod_{{{self._print(var)}={self._print(low)}}}^{{{self._print(high)}}} {out}"
        return out

    def _print_log(self, expr: Any) -> str:
        args = expr.args
        if len(args) == 1 or args[1] is sp.E:
            return f"ln({self._print(args[0])})"
        return f"log_{self._print(args[1])}({self._print(args[0])})"

    def _print_Min(self, expr: Any) -> str:
        return "min(" + ", ".join(self._print(a) for a in expr.args) + ")"

    def _print_Max(self, expr: Any) -> str:
        return "max(" + ", ".join(self._print(a) for a in expr.args) + ")"

    def _print_Mod(self, expr: Any) -> str:
        a, b = (self.parenthesize(x, PRECEDENCE["Mul"]) for x in expr.args)
        return f"{a} mod {b}"

    def _print_IndexedBase(self, expr: Any) -> str:
        return self._print(expr.label)

    def _print_Transpose(self, expr: Any) -> str:
        return f"{self.parenthesize(expr.arg, PRECEDENCE['Pow'], strict=True)}^T"

    def _print_Abs(self, expr: Any) -> str:
        return f"|{self._print(expr.args[0])}|"

    def _print_MatrixBase(self, expr: sp.MatrixBase) -> str:
        return (
            "[" + ", ".join("[" + ", ".join(self._print(x) for x in row) + "]" for row in expr.tolist()) + "]"
        )

    _print_ImmutableDenseMatrix = _print_MatrixBase
    _print_MutableDenseMatrix = _print_MatrixBase

    def _print_Relational(self, expr: Any) -> str:
        ops = {"==": "=", "!=": "≠", "<=": "≤", ">=": "≥", "<": "<", ">": ">"}
        return f"{self._print(expr.lhs)} {ops.get(expr.rel_op, expr.rel_op)} {self._print(expr.rhs)}"

    def _print_list(self, expr: list) -> str:
        return "[" + ", ".join(self._print(x) for x in expr) + "]"


class _TypedPrinter(_PlainPrinter):
    """Plain math with each fraction that stands for a decimal the learner typed shown as typed."""

    def __init__(self, decimals: dict[Any, str]) -> None:
        super().__init__()
        self.decimals = decimals

    def parenthesize(self, item: Any, level: int, strict: bool = False) -> str:
        if isinstance(item, sp.Rational) and item > 0 and item in self.decimals:
            return self.decimals[item]  # a decimal needs no brackets, as 49/25 does
        return super().parenthesize(item, level, strict)

    def _print_Rational(self, expr: sp.Rational) -> str:
        shown = self.decimals.get(abs(expr))
        if shown is None:
            return super()._print_Rational(expr)
        return f"-{shown}" if expr < 0 else shown


def plain_math(value: Any, decimals: dict[Any, str] | None = None) -> str:
    """``value`` (an expression, a matrix or nested lists) as plain math; "..." past
    :data:`MAX_SHOWN` characters, and a placeholder where the printer cannot print it.

    ``decimals`` maps positive fractions that are not whole numbers to the decimal a learner
    typed for them (49/25: ``1.96``): where the printer meets one as a number of its own, it
    shows the decimal (a fraction SymPy folded into a product, ``e^2/2`` for ``0.5 e^2``, stays).
    """
    try:
        printer = _TypedPrinter(decimals) if decimals else _PlainPrinter()
        if digits_beyond(value) or nesting(value) > MAX_ORDERED_NESTING:
            printer._settings["order"] = "none"  # ordering would evaluate the terms: as written
        text = printer.doprint(value)
    except Exception:  # RecursionError and the like, on a learner's odd expression: a note only
        return "(an expression too large to show)"
    return text if len(text) <= MAX_SHOWN else text[: MAX_SHOWN - 3] + "..."
