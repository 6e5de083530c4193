"""LaTeX as the module writes it: q_{i} for indexed entries, terms and factors in the order built.

SymPy's own printer writes ``{q}_{i}`` for an indexed entry (which latex2sympy2 cannot read
back) and sorts sums and products alphabetically (``-E[q k]^2 + E[k^2 q^2]``, ``k_i q_i``); this
printer keeps ``q_{i} k_{i}`` and ``1 - p - r`` when the product or sum was built unevaluated in
that order, so a derivation shows the form a person writes (and the engine proves that form
equal to SymPy's). It also writes diag(p) for a diagonal matrix, ``p^{\\top}`` for a transpose
(the module's notation), ``\\mathbb{E}`` for every expectation, with ``plus_first`` a sum started
with a term without a minus sign (``2 e^{\\sqrt{2}} - 1``), ``\\frac{\\partial p_i}{\\partial
z_j}``, a double sum as two sums, a word used as a symbol in ``\\text`` (``\\text{projections}``)
and, with ``decimal_rationals``, 127/10 as 12.7 (an exact decimal, as the module writes it).
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

import sympy as sp
from sympy.printing.latex import LatexPrinter
from sympy.printing.precedence import PRECEDENCE

from ..unicode_text import to_unicode

#: A symbol named by a word or words (``projections``, ``weighted_sum``), not a letter with a
#: subscript (``d_k``, ``J_{ij}``): printed upright, in ``\text``.
_WORD_NAME = re.compile(r"[A-Za-z]{3,}(?:_[A-Za-z]{3,})*")
_GREEK = {
    *("alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa", "lambda"),
    *("mu", "nu", "xi", "omicron", "pi", "rho", "sigma", "tau", "upsilon", "phi", "chi", "psi", "omega"),
}


def _unevaluated(expr: sp.Basic) -> bool:
    """Built with ``evaluate=False`` in an order SymPy would not keep."""
    return expr.args != expr.func(*expr.args, evaluate=True).args


def printed_terms(expr: Any, plus_first: bool = True) -> list[sp.Basic] | None:
    """The terms of a sum in the order this printer shows them (with ``plus_first``); None for
    anything but a sum."""
    if isinstance(expr, sp.UnevaluatedExpr) and isinstance(expr.args[0], sp.Add):
        return list(expr.args[0].args)
    if isinstance(expr, sp.Add) and not isinstance(expr, sp.MatrixExpr):
        if _unevaluated(expr):
            return list(expr.args)
        terms = list(expr.as_ordered_terms())
        return _plus_first(terms) if plus_first else terms
    return None


def _plus_first(terms: list[sp.Basic]) -> list[sp.Basic]:
    """A sum as a person starts it: with its first term that has no minus sign (1 - p - r, not
    -p - r + 1), the others in their order."""
    if not terms or not terms[0].could_extract_minus_sign():
        return terms
    first = next((k for k, t in enumerate(terms) if not t.could_extract_minus_sign()), None)
    return terms if first is None else [terms[first], *terms[:first], *terms[first + 1 :]]


def written(expr: Any) -> sp.Expr:
    """``expr`` kept as written: printed with its terms and factors in the order they were built
    (``1 - p``, not SymPy's ``- p + 1``), a form a derivation shows in place of a side (the
    engine proves it equal to the side checked)."""
    return sp.UnevaluatedExpr(expr)


class SymattnLatexPrinter(LatexPrinter):
    _default_settings: ClassVar[dict[str, Any]] = {
        **LatexPrinter._default_settings,
        "decimal_rationals": False,
        "plus_first": False,
    }

    def _print_UnevaluatedExpr(self, expr: sp.UnevaluatedExpr) -> str:
        # written(): its own terms or factors in the order built (what they hold as usual).
        arg = expr.args[0]
        if isinstance(arg, sp.Add):
            return super()._print_Add(arg, order="none")
        if isinstance(arg, sp.Mul):
            return self._kept_mul(arg)
        return self._print(arg)

    def _print_Add(self, expr: sp.Add, order: str | None = None) -> str:
        if _unevaluated(expr):
            return super()._print_Add(expr, order="none")
        if self._settings["plus_first"] and not isinstance(expr, sp.MatrixExpr):
            terms = self._as_ordered_terms(expr, order=order)
            if terms != (ordered := _plus_first(terms)):
                return super()._print_Add(sp.Add(*ordered, evaluate=False), order="none")
        return super()._print_Add(expr, order=order)

    def _print_Mul(self, expr: sp.Basic) -> str:
        if isinstance(expr, sp.Mul) and _unevaluated(expr):
            return self._kept_mul(expr)
        return super()._print_Mul(expr)  # also 1/x, a Pow

    def _kept_mul(self, expr: sp.Mul) -> str:
        """The factors in the order built: a number inside the product, or a product in it, set
        off by a dot (8 \\cdot (N \\cdot 64 \\cdot N), not 8 N 64 N); each of two or more sums in
        brackets; the factors with a negative power under a fraction bar."""
        factors = list(expr.args)
        if factors and factors[0] == -1:
            if len(factors) == 1:
                return "-1"
            rest = factors[1:]  # one factor left is not a product: print it whole, (d m)^2
            if len(rest) == 1:
                return "- " + self.parenthesize(rest[0], PRECEDENCE["Add"])
            return "- " + self._kept_mul(sp.Mul(*rest, evaluate=False))
        under = [f for f in factors if f.is_Pow and f.exp.is_negative]
        over = [f for f in factors if f not in under]
        top = self._join(over) if over else "1"
        if not under:
            return top
        bottom = self._join([sp.Pow(f.base, -f.exp) for f in under])
        return rf"\frac{{{top}}}{{{bottom}}}"

    def _join(self, factors: list[sp.Basic]) -> str:
        if len(factors) == 1:
            return self._print(factors[0])
        dotted = any(f.is_Number for f in factors[1:]) or any(isinstance(f, sp.Mul) for f in factors)
        sums = sum(isinstance(f, sp.Sum) for f in factors) > 1
        parts = []
        for f in factors:
            bracketed = isinstance(f, sp.Mul | sp.Add) or (sums and isinstance(f, sp.Sum))
            if bracketed or (f.is_Number and f.is_negative):
                parts.append(rf"\left({self._print(f)}\right)")
            elif f.is_Number:
                parts.append(self._print(f))
            else:
                parts.append(self.parenthesize(f, PRECEDENCE["Mul"]))
        return (r" \cdot " if dotted else " ").join(parts)

    def _print_Rational(self, expr: sp.Rational) -> str:
        if self._settings["decimal_rationals"]:
            places = _decimal_places(expr.q)
            if places is not None:
                text = f"{abs(expr.p) // expr.q}.{abs(expr.p) % expr.q:0{places}d}"
                return ("-" if expr.p < 0 else "") + text
        return super()._print_Rational(expr)

    def _print_Symbol(self, expr: sp.Symbol, style: str = "plain") -> str:
        if expr in self._settings["symbol_names"]:
            return super()._print_Symbol(expr, style=style)
        if _WORD_NAME.fullmatch(expr.name) and expr.name.split("_")[0].lower() not in _GREEK:
            return r"\text{" + expr.name.replace("_", " ") + "}"
        if "{" in expr.name:
            return super()._print_Symbol(expr, style=style)
        # d_model is d_{\text{model}}: a word in a subscript or superscript is upright.
        name, supers, subs = self._split_super_sub(expr.name)
        supers, subs = ([_word(x) for x in xs] for xs in (supers, subs))
        up = "^{" + " ".join(supers) + "}" if supers else ""
        down = "_{" + " ".join(subs) + "}" if subs else ""
        return name + up + down

    def _print_Transpose(self, expr: sp.Transpose) -> str:
        tex = super()._print_Transpose(expr)
        return tex[: -len("^{T}")] + r"^{\top}" if tex.endswith("^{T}") else tex

    def _print_Sum(self, expr: sp.Sum) -> str:
        if len(expr.limits) == 1:
            return super()._print_Sum(expr)
        # Sum(f, (j, 1, n), (i, 1, n)) is sum_i sum_j f: the last limit outermost.
        inner = sp.Sum(expr.function, *expr.limits[:-1])
        index, low, high = (self._print(x) for x in expr.limits[-1])
        return rf"\sum_{{{index}={low}}}^{{{high}}} " + self._print_Sum(inner)

    def _print_Derivative(self, expr: sp.Derivative) -> str:
        if (
            len(expr.variable_count) == 1
            and expr.variable_count[0][1] == 1
            and (isinstance(expr.expr, sp.Indexed | sp.Symbol))
        ):
            var = expr.variable_count[0][0]
            return rf"\frac{{\partial {self._print(expr.expr)}}}{{\partial {self._print(var)}}}"
        return super()._print_Derivative(expr)

    def _print_Expectation(self, expr: sp.Basic) -> str:
        return r"\mathbb{E}\left[" + self._print(expr.args[0]) + r"\right]"

    def _print_DiagMatrix(self, expr: sp.Basic) -> str:
        return r"\operatorname{diag}\left(" + self._print(expr.args[0]) + r"\right)"

    def _print_Indexed(self, expr: sp.Indexed) -> str:
        base = self._print(expr.base.label)
        index = " ".join(self._print(i) for i in expr.indices)
        return f"{base}_{{{index}}}"


def _word(script: str) -> str:
    return r"\text{" + script + "}" if re.fullmatch(r"[A-Za-z]{3,}", script) else script


def _decimal_places(q: int) -> int | None:
    """k where q = 10^k (k from 1 to 6), else None."""
    for k in range(1, 7):
        if q == 10**k:
            return k
    return None


def latex(expr: Any, **settings: Any) -> str:
    """LaTeX of ``expr`` with symattn's conventions (bmatrix matrices, terms in the order built)."""
    options = {"mat_str": "bmatrix", "mat_delim": ""}
    options.update(settings)
    return SymattnLatexPrinter(options).doprint(expr)


#: How the pages write each relation a step can state (``verify`` reads each back).
RELATIONS_LATEX = {"=": "=", "<=": r"\le", "<": "<", "≈": r"\approx", "≠": r"\neq", "⟺": r"\iff"}
#: How the terminal writes them: the same, in Unicode (``verify`` reads these back too).
RELATIONS_TEXT = {relation: to_unicode(tex) for relation, tex in RELATIONS_LATEX.items()}


def page_latex(expr: Any) -> str:
    """A side as the pages show it: exact decimals (127/10) as decimals (12.7), and each sum
    started with a term without a minus sign, as a person writes it (1 - p, not -p + 1).
    ``verify`` reads what this prints back and compares it with the side (:mod:`.shown`)."""
    return latex(expr, decimal_rationals=True, plus_first=True)


def side_latex(value: Any) -> str:
    """A step's side as the pages show it: a stated figure (a string, ``4.85E+8``) in
    scientific notation, any other side by :func:`page_latex`."""
    if isinstance(value, str):
        if "E" in value:
            mant, exp = value.split("E")
            return rf"{mant} \times 10^{{{int(exp)}}}"
        return value
    return page_latex(value)


def side_text(value: Any, printer: Any = None) -> str:
    """A step's side as the terminal shows it (``derive --format text``): the page's LaTeX
    (``printer``, :func:`side_latex` unless the derivation has its own) in Unicode, on one line
    (``1/√2 Q Kᵀ``; a matrix as ``[[a, b], [c, d]]``). ``verify`` reads it back too."""
    return to_unicode((printer or side_latex)(value))


def step_text(step: Any, printer: Any = None) -> tuple[str | None, str]:
    """A step as the terminal prints it (``derive --format text``): its left side, if it
    states one, and its relation followed by its right side (``= 1/√2 Q Kᵀ``); shown sides
    where the step gives them. ``verify`` reads back exactly these lines."""
    lhs, rhs = shown_values(step)
    return (
        side_text(lhs, printer) if lhs is not None else None,
        f"{RELATIONS_TEXT[step.relation]} {side_text(rhs, printer)}",
    )


def shown_values(step: Any) -> tuple[Any | None, Any]:
    """The sides a step prints: its left side (None where it states none) and its right side,
    each the shown form where the step gives one."""
    lhs = None if step.lhs is None else step.shown_lhs if step.shown_lhs is not None else step.lhs
    return lhs, step.shown_rhs if step.shown_rhs is not None else step.rhs


def term_pieces(value: Any) -> list[str] | None:
    """A sum as the pages split it over rows: each term printed alone, the first as it is,
    the others after their sign (``+ t`` or ``- t``); None for anything but a sum. Joined with
    spaces, the pieces are the sum (``verify`` reads them back so)."""
    terms = printed_terms(value)
    if terms is None:
        return None
    pieces = []
    for k, term in enumerate(terms):
        t = page_latex(term)
        pieces.append(t if k == 0 else (f"- {t[1:].lstrip()}" if t.startswith("-") else f"+ {t}"))
    return pieces
