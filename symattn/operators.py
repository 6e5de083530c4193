"""Unevaluated expectation and variance, for writing proofs about random variables.

``Ex(x)`` and ``Var(x)`` are SymPy functions that stay unevaluated: a proof manipulates them
by named rules (linearity, independence), and a derivation gives them meaning at concrete
sizes by turning them into ``sympy.stats`` computations. They print as the module writes them:
``\\mathbb{E}[x]`` and ``\\operatorname{Var}(x)``.
"""

from __future__ import annotations

import sympy as sp


class Ex(sp.Function):
    """The expectation E[x], unevaluated."""

    nargs = 1

    def _latex(self, printer: sp.printing.latex.LatexPrinter, exp: str | None = None) -> str:
        tex = r"\mathbb{E}\left[" + printer._print(self.args[0]) + r"\right]"
        return tex if exp is None else f"{tex}^{{{exp}}}"

    def _sympystr(self, printer: sp.printing.str.StrPrinter) -> str:
        return f"E[{printer._print(self.args[0])}]"


class Var(sp.Function):
    """The variance Var(x), unevaluated."""

    nargs = 1

    def _latex(self, printer: sp.printing.latex.LatexPrinter, exp: str | None = None) -> str:
        tex = r"\operatorname{Var}\left(" + printer._print(self.args[0]) + r"\right)"
        return tex if exp is None else f"{tex}^{{{exp}}}"

    def _sympystr(self, printer: sp.printing.str.StrPrinter) -> str:
        return f"Var({printer._print(self.args[0])})"
