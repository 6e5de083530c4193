"""Unevaluated expectation and variance, for writing proofs about random variables.

``Ex(x)`` and ``Var(x)`` are SymPy functions that stay unevaluated: a proof manipulates them
by named rules (linearity, independence), and a derivation gives them meaning at concrete
sizes by turning them into ``sympy.stats`` computations. They print as the module writes them:
``\\mathbb{E}[x]`` and ``\\operatorname{Var}(x)``.
"""

from __future__ import annotations

import sympy as sp


class _Operator(sp.Function):
    """An unevaluated operator of one argument, printed as OPEN arg CLOSE."""

    nargs = 1
    latex_open = latex_close = text_open = text_close = ""

    def _latex(self, printer: sp.printing.latex.LatexPrinter, exp: str | None = None) -> str:
        tex = self.latex_open + printer._print(self.args[0]) + self.latex_close
        # (E[x])^2, as the module writes it: E[x]^2 could be read as E[x^2].
        return tex if exp is None else rf"\left({tex}\right)^{{{exp}}}"

    def _sympystr(self, printer: sp.printing.str.StrPrinter) -> str:
        return self.text_open + printer._print(self.args[0]) + self.text_close


class Ex(_Operator):
    """The expectation E[x], unevaluated."""

    latex_open, latex_close = r"\mathbb{E}\left[", r"\right]"
    text_open, text_close = "E[", "]"


class Var(_Operator):
    """The variance Var(x), unevaluated."""

    latex_open, latex_close = r"\operatorname{Var}\left(", r"\right)"
    text_open, text_close = "Var(", ")"
