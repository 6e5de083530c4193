"""Attention steps as text, Markdown, LaTeX and JSON.

Presentation only: these functions read an :class:`~symattn.core.exact.AttentionSteps` and never
compute attention themselves. Every decimal shown comes from :mod:`symattn.core.digits`, so it is
correctly rounded; a decimal that is the exact value (``0.5`` for 1/2) is shown with ``=`` and
without padding, and only an approximation gets ``≈``. Labels follow what was computed: without
a scale the formula reads ``Z = S``, without a mask no step names ``Z~``. Long integers ending
in zeros print exactly as ``5*10**299`` (LaTeX ``5 \\cdot 10^{299}``).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

import sympy as sp
from sympy.printing.latex import LatexPrinter
from sympy.printing.precedence import PRECEDENCE
from sympy.printing.str import StrPrinter

from .._text import count
from ..core.digits import decimal_string, exact_decimal
from ..core.exact import AttentionSteps

#: Integers from this size on with at least _MIN_ZEROS trailing zeros print as m*10**k.
_COMPACT_FROM = 10**15
_MIN_ZEROS = 6


def _split_tens(n: int) -> tuple[int, int] | None:
    """(m, k) with n = m * 10**k when n is large and ends in many zeros, else None."""
    if abs(n) < _COMPACT_FROM or n % 10**_MIN_ZEROS:
        return None
    k = _MIN_ZEROS
    while n % 10 ** (k + 1) == 0:
        k += 1
    return n // 10**k, k


class _TextPrinter(StrPrinter):
    def _print_Integer(self, expr: sp.Integer) -> str:
        split = _split_tens(int(expr))
        if split is None:
            return str(expr.p)
        m, k = split
        return f"10**{k}" if m == 1 else (f"-10**{k}" if m == -1 else f"{m}*10**{k}")

    def _print_Rational(self, expr: sp.Rational) -> str:
        if expr.q == 1:
            return self._print_Integer(sp.Integer(expr.p))
        q = self._print_Integer(sp.Integer(expr.q))
        return f"{self._print_Integer(sp.Integer(expr.p))}/{q if '*' not in q else '(' + q + ')'}"

    def _print_Mul(self, expr: sp.Mul) -> str:
        c, rest = expr.as_coeff_Mul()
        if c.is_Rational and c.q != 1 and "*" in self._print_Integer(sp.Integer(c.q)):
            # StrPrinter would write x/5*10**299; the denominator needs its parentheses.
            return f"{self._print(sp.Integer(c.p) * rest)}/({self._print_Integer(sp.Integer(c.q))})"
        return super()._print_Mul(expr)

    def parenthesize(self, item: object, level: int, strict: bool = False) -> str:
        text = super().parenthesize(item, level, strict)
        if isinstance(item, sp.Rational) and "*" in text and level > PRECEDENCE["Mul"]:
            return f"({text})"  # 10**300 as the base of a power
        return text


class _LatexPrinter(LatexPrinter):
    def _print_Integer(self, expr: sp.Integer) -> str:
        split = _split_tens(int(expr))
        if split is None:
            return str(expr.p)
        m, k = split
        return f"10^{{{k}}}" if m == 1 else (f"-10^{{{k}}}" if m == -1 else rf"{m} \cdot 10^{{{k}}}")

    def _print_Rational(self, expr: sp.Rational) -> str:
        if expr.q == 1:
            return self._print_Integer(sp.Integer(expr.p))
        sign = "- " if expr.p < 0 else ""
        p, q = self._print_Integer(sp.Integer(abs(expr.p))), self._print_Integer(sp.Integer(expr.q))
        return rf"{sign}\frac{{{p}}}{{{q}}}"

    def parenthesize(self, item: object, level: int, is_neg: bool = False, strict: bool = False) -> str:
        text = super().parenthesize(item, level, is_neg, strict)
        if isinstance(item, sp.Rational) and "10^" in text and level >= PRECEDENCE["Pow"]:
            return rf"\left({text}\right)"
        return text


def text_entry(x: sp.Expr) -> str:
    """One entry as text (SymPy's str form, long round integers as m*10**k)."""
    return _TextPrinter().doprint(x)


def latex_entry(x: sp.Expr) -> str:
    """One entry as LaTeX; a blocked entry is ``-\\infty``."""
    return _LatexPrinter().doprint(x)


@dataclass(frozen=True)
class _Labels:
    """What the steps computed, in words: the formula and each stage's title and equation."""

    formula_text: str
    formula_latex: str
    scale_text: str
    scale_latex: str
    stages: dict[str, tuple[str, str, str]]


def _labels(steps: AttentionSteps) -> _Labels:
    d_k = steps.shape.d_k
    masked = "masked" in steps.stages
    if steps.scale == 1 / sp.sqrt(d_k):
        scale_text, zt, zl = "1/sqrt(d_k)", "Z = S / sqrt(d_k)", r"Z = \frac{S}{\sqrt{d_k}}"
        scale_latex = r"$1/\sqrt{d_k}$"
        inner_t, inner_l = "Q K^T / sqrt(d_k)", r"\frac{QK^\top}{\sqrt{d_k}}"
        scaled_title = "Scaled scores"
    elif steps.scale == 1:
        scale_text, zt, zl = "none", "Z = S", "Z = S"
        scale_latex = "none"
        inner_t, inner_l = "Q K^T", r"QK^\top"
        scaled_title = "Scores, not scaled"
    else:
        c_t, c_l = text_entry(steps.scale), latex_entry(steps.scale)
        scale_latex = f"${c_l}$"
        scale_text, zt, zl = c_t, f"Z = ({c_t}) S", rf"Z = {c_l}\, S"
        inner_t, inner_l = f"({c_t}) Q K^T", rf"{c_l}\, QK^\top"
        scaled_title = "Scaled scores"
    last_t, last_l = ("Z~", r"\tilde{Z}") if masked else ("Z", "Z")
    plus_t, plus_l = (" + M", " + M") if masked else ("", "")
    return _Labels(
        formula_text=f"Attention(Q, K, V) = softmax({inner_t}{plus_t}) V",
        formula_latex=(
            r"\operatorname{Attention}(Q, K, V)"
            rf" = \operatorname{{softmax}}\left({inner_l}{plus_l}\right) V"
        ),
        scale_text=scale_text,
        scale_latex=scale_latex,
        stages={
            "scores": ("Scores", "S = Q K^T", r"S = QK^\top"),
            "scaled": (scaled_title, zt, zl),
            "masked": ("Masked scores", "Z~ = Z + M", r"\tilde{Z} = Z + M"),
            "weights": (
                "Weights (softmax of each row)",
                f"A = softmax({last_t})",
                rf"A = \operatorname{{softmax}}({last_l})",
            ),
            "output": ("Output", "O = A V", r"O = AV"),
        },
    )


def latex_matrix(entries: list[list[str]]) -> str:
    body = r" \\ ".join(" & ".join(row) for row in entries)
    return r"\begin{bmatrix} " + body + r" \end{bmatrix}"


def _exact_latex(m: sp.MatrixBase) -> list[list[str]]:
    return [[latex_entry(m[i, j]) for j in range(m.cols)] for i in range(m.rows)]


def _sci_latex(v: str) -> str:
    if v == "-inf":
        return r"-\infty"
    if "E" in v:
        mant, exp = v.split("E")
        return rf"{mant} \times 10^{{{int(exp)}}}"
    return v


def _header(steps: AttentionSteps, labels: _Labels) -> str:
    s = steps.shape
    return (
        f"N = {count(s.n, 'query', 'queries')}, M = {count(s.m, 'key')}, d_k = {s.d_k}, "
        f"d_v = {s.d_v}; mask: {steps.mask.spec()}; scale: {labels.scale_text}"
    )


def _header_markdown(steps: AttentionSteps, labels: _Labels) -> str:
    """The sizes and settings in words, their math typeset."""
    s = steps.shape
    return (
        f"$N = {s.n}$ {'query' if s.n == 1 else 'queries'}, $M = {s.m}$ {'key' if s.m == 1 else 'keys'}, "
        f"$d_k = {s.d_k}$, $d_v = {s.d_v}$; "
        f"mask: `{steps.mask.spec()}`; scale: {labels.scale_latex}"
    )


def _is_plain(x: sp.Expr) -> bool:
    """True when the exact form already is its decimal (an integer, or blocked)."""
    return bool(x.is_Integer) or x == sp.S.NegativeInfinity


def _value(x: sp.Expr, digits: int) -> tuple[str, bool]:
    """The decimal shown for ``x`` and whether it is exact (no padding, no ≈)."""
    if x == sp.S.NegativeInfinity:
        return "-inf", True
    exact = exact_decimal(x, digits)
    return (exact, True) if exact is not None else (decimal_string(x, digits), False)


def _values(m: sp.MatrixBase, digits: int) -> list[list[tuple[str, bool]]]:
    return [[_value(m[i, j], digits) for j in range(m.cols)] for i in range(m.rows)]


def to_text(steps: AttentionSteps, digits: int = 15) -> str:
    """Plain text: inputs, then each stage entry by entry, exact form and decimal."""
    labels = _labels(steps)
    lines = [labels.formula_text, _header(steps, labels), ""]
    lines.append("Inputs")
    for name, m in (("Q", steps.q), ("K", steps.k), ("V", steps.v)):
        lines.append(f"  {name} = {_text_rows(m)}")
    if steps.mask_matrix is not None:
        lines.append(f"  M = {_text_rows(steps.mask_matrix)}")
    for number, name in enumerate(steps.stages, start=1):
        title, formula, _ = labels.stages[name]
        m = steps.stages[name]
        values = _values(m, digits)
        lines += ["", f"Step {number}. {title}: {formula}"]
        letter = formula.split(" = ")[0]
        for i in range(m.rows):
            for j in range(m.cols):
                x = m[i, j]
                full = text_entry(x)
                shown = short_numbers(full)
                if not _is_plain(x) or shown != full:  # a shortened integer: its decimal too
                    value, exact = values[i][j]
                    shown += f" = {value}" if exact else f" ≈ {value}"
                lines.append(f"  {letter}[{i + 1},{j + 1}] = {shown}")
    return "\n".join(lines) + "\n"


#: Digits of a whole number printed in full in text output; a longer one is shortened.
SHOWN_DIGITS = 40


def short_numbers(text: str) -> str:
    """``text`` with every run of more than :data:`SHOWN_DIGITS` digits shortened to its first
    and last ten digits and its length: ``1000000000...0000000001 (401 digits)``."""
    return re.sub(
        rf"\d{{{SHOWN_DIGITS + 1},}}", lambda m: f"{m[0][:10]}...{m[0][-10:]} ({len(m[0])} digits)", text
    )


def _text_rows(m: sp.MatrixBase) -> str:
    rows = (", ".join(short_numbers(text_entry(x)) for x in m.row(i)) for i in range(m.rows))
    return "[" + ", ".join(f"[{r}]" for r in rows) + "]"


def to_markdown(steps: AttentionSteps, digits: int = 15) -> str:
    """Markdown: a table per stage, each cell the exact form in math and its decimal."""
    labels = _labels(steps)
    out = ["## Attention, step by step", "", _header_markdown(steps, labels), ""]
    out += ["$$", labels.formula_latex, "$$", ""]
    out += ["### Inputs", ""]
    inputs = [("Q", steps.q), ("K", steps.k), ("V", steps.v)]
    if steps.mask_matrix is not None:
        inputs.append(("M", steps.mask_matrix))
    out += [
        "$$",
        r",\quad ".join(f"{n} = {latex_matrix(_exact_latex(m))}" for n, m in inputs),
        "$$",
        "",
    ]
    for number, name in enumerate(steps.stages, start=1):
        title, _, formula = labels.stages[name]
        m = steps.stages[name]
        values = _values(m, digits)
        out += [f"### Step {number}. {title}: ${formula}$", ""]
        column = "value feature" if name == "output" else "key"
        out.append("| | " + " | ".join(f"{column} {j + 1}" for j in range(m.cols)) + " |")
        out.append("|---|" + "---|" * m.cols)
        for i in range(m.rows):
            cells = []
            for j in range(m.cols):
                x = m[i, j]
                cell = f"${latex_entry(x)}$"
                if not _is_plain(x):
                    value, exact = values[i][j]
                    cell += f" = {value}" if exact else f" ≈ {value}"
                cells.append(cell)
            out.append(f"| query {i + 1} | " + " | ".join(cells) + " |")
        out.append("")
    return "\n".join(out)


def to_latex(steps: AttentionSteps, digits: int = 15) -> str:
    """A LaTeX ``align*`` block: inputs, then each stage exactly and approximately."""
    labels = _labels(steps)
    rows = []
    inputs = [("Q", steps.q), ("K", steps.k), ("V", steps.v)]
    if steps.mask_matrix is not None:
        inputs.append(("M", steps.mask_matrix))
    rows.append(
        r",\quad ".join(
            f"{n} &= {latex_matrix(_exact_latex(m))}" if k == 0 else f"{n} = {latex_matrix(_exact_latex(m))}"
            for k, (n, m) in enumerate(inputs)
        )
    )
    for name in steps.stages:
        _, _, formula = labels.stages[name]
        m = steps.stages[name]
        row = f"{formula} &= {latex_matrix(_exact_latex(m))}"
        if not all(_is_plain(x) for x in m):
            values = _values(m, digits)
            relation = "=" if all(exact for r in values for _, exact in r) else r"\approx"
            decimals = [[_sci_latex(v) for v, _ in r] for r in values]
            row += f" {relation} " + latex_matrix(decimals)
        rows.append(row)
    return "\\begin{align*}\n" + " \\\\\n".join(rows) + "\n\\end{align*}\n"


def to_json(steps: AttentionSteps, digits: int = 15) -> str:
    """JSON with keys scores, scaled, masked, weights, output; entries {latex, value, exact}.

    ``value`` is the exact decimal when there is one with at most ``digits`` digits (``exact``
    true), else the correctly rounded decimal; a blocked entry is ``"-inf"``.
    """
    doc = {}
    for name in ("scores", "scaled", "masked", "weights", "output"):
        m = steps.stage(name)
        values = _values(m, digits)
        doc[name] = [
            [
                {"latex": latex_entry(m[i, j]), "value": values[i][j][0], "exact": values[i][j][1]}
                for j in range(m.cols)
            ]
            for i in range(m.rows)
        ]
    return json.dumps(doc, indent=2) + "\n"


FORMATS = {"text": to_text, "markdown": to_markdown, "latex": to_latex, "json": to_json}
