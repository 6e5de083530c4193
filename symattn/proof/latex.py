"""LaTeX as the module writes it: q_{i} for indexed entries, factors in the order built.

SymPy's own printer writes ``{q}_{i}`` for an indexed entry (which latex2sympy2 cannot read
back) and sorts products alphabetically (``k_i q_i``); this printer keeps ``q_{i} k_{i}`` when
the product was built unevaluated in that order, and writes diag(p) for a diagonal matrix.
"""

from __future__ import annotations

from typing import Any

import sympy as sp
from sympy.printing.latex import LatexPrinter


class SymattnLatexPrinter(LatexPrinter):
    def _print_Mul(self, expr: sp.Mul) -> str:
        if expr.args != sp.Mul(*expr.args).args:
            # Built unevaluated: keep the factors in the order they were written.
            saved = self._settings["order"]
            self._settings["order"] = "none"
            try:
                return super()._print_Mul(expr)
            finally:
                self._settings["order"] = saved
        return super()._print_Mul(expr)

    def _print_DiagMatrix(self, expr: sp.Basic) -> str:
        return r"\operatorname{diag}\left(" + self._print(expr.args[0]) + r"\right)"

    def _print_Indexed(self, expr: sp.Indexed) -> str:
        base = self._print(expr.base.label)
        index = " ".join(self._print(i) for i in expr.indices)
        return f"{base}_{{{index}}}"


def latex(expr: Any, **settings: Any) -> str:
    """LaTeX of ``expr`` with symattn's conventions (bmatrix matrices, unsorted terms)."""
    options = {"mat_str": "bmatrix", "mat_delim": ""}
    options.update(settings)
    return SymattnLatexPrinter(options).doprint(expr)
