"""Attention steps as text, Markdown, LaTeX and JSON.

Presentation only: these functions read an :class:`~symattn.exact.AttentionSteps` and never
compute attention themselves. Every decimal shown comes from
:func:`~symattn.digits.decimal_string`, so it is correctly rounded.
"""

from __future__ import annotations

import json

import sympy as sp

from .exact import AttentionSteps

#: Stage titles and the formula each stage applies, as text and as LaTeX.
TITLES = {
    "scores": ("Scores", "S = Q K^T", r"S = QK^\top"),
    "scaled": ("Scaled scores", "Z = S / sqrt(d_k)", r"Z = \frac{S}{\sqrt{d_k}}"),
    "masked": ("Masked scores", "Z~ = Z + M", r"\tilde{Z} = Z + M"),
    "weights": (
        "Weights (softmax of each row)",
        "A = softmax(Z~)",
        r"A = \operatorname{softmax}(\tilde{Z})",
    ),
    "output": ("Output", "O = A V", r"O = AV"),
}


FORMULA_LATEX = (
    r"\operatorname{Attention}(Q, K, V)"
    r" = \operatorname{softmax}\left(\frac{QK^\top}{\sqrt{d_k}} + M\right) V"
)


def latex_entry(x: sp.Expr) -> str:
    """One entry as LaTeX; a blocked entry is ``-\\infty``."""
    return sp.latex(x)


def latex_matrix(entries: list[list[str]]) -> str:
    body = r" \\ ".join(" & ".join(row) for row in entries)
    return r"\begin{bmatrix} " + body + r" \end{bmatrix}"


def _exact_latex(m: sp.MatrixBase) -> list[list[str]]:
    return [[latex_entry(m[i, j]) for j in range(m.cols)] for i in range(m.rows)]


def _decimal_latex(values: list[list[str]]) -> list[list[str]]:
    return [[r"-\infty" if v == "-inf" else _sci_latex(v) for v in row] for row in values]


def _sci_latex(v: str) -> str:
    if "E" in v:
        mant, exp = v.split("E")
        return rf"{mant} \times 10^{{{int(exp)}}}"
    return v


def _header(steps: AttentionSteps) -> str:
    s = steps.shape
    scale = "1/sqrt(d_k)" if steps.scale == 1 / sp.sqrt(s.d_k) else sp.sstr(steps.scale)
    return (
        f"N = {s.n} queries, M = {s.m} keys, d_k = {s.d_k}, d_v = {s.d_v}; "
        f"mask: {steps.mask.spec()}; scale: {scale}"
    )


def _is_plain(x: sp.Expr) -> bool:
    """True when the exact form already is its decimal (an integer, or blocked)."""
    return bool(x.is_Integer) or x == sp.S.NegativeInfinity


def to_text(steps: AttentionSteps, digits: int = 15) -> str:
    """Plain text: inputs, then each stage entry by entry, exact form and decimal."""
    lines = ["Attention(Q, K, V) = softmax(Q K^T / sqrt(d_k) + M) V", _header(steps), ""]
    lines.append("Inputs")
    for name, m in (("Q", steps.q), ("K", steps.k), ("V", steps.v)):
        lines.append(f"  {name} = {_text_rows(m)}")
    if steps.mask_matrix is not None:
        lines.append(f"  M = {_text_rows(steps.mask_matrix)}")
    for number, name in enumerate(steps.stages, start=1):
        title, formula, _ = TITLES[name]
        m = steps.stages[name]
        dec = steps.decimals(name, digits)
        lines += ["", f"Step {number}. {title}: {formula}"]
        letter = formula.split(" = ")[0]
        for i in range(m.rows):
            for j in range(m.cols):
                exact = sp.sstr(m[i, j])
                shown = exact if _is_plain(m[i, j]) else f"{exact} ≈ {dec[i][j]}"
                lines.append(f"  {letter}[{i + 1},{j + 1}] = {shown}")
    return "\n".join(lines) + "\n"


def _text_rows(m: sp.MatrixBase) -> str:
    return "[" + ", ".join("[" + ", ".join(sp.sstr(x) for x in m.row(i)) + "]" for i in range(m.rows)) + "]"


def to_markdown(steps: AttentionSteps, digits: int = 15) -> str:
    """Markdown: a table per stage, each cell the exact form in math and its decimal."""
    out = ["## Attention, step by step", "", _header(steps), ""]
    out += [
        "$$",
        FORMULA_LATEX,
        "$$",
        "",
    ]
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
        title, _, formula = TITLES[name]
        m = steps.stages[name]
        dec = steps.decimals(name, digits)
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
                    cell += f" ≈ {dec[i][j]}"
                cells.append(cell)
            out.append(f"| query {i + 1} | " + " | ".join(cells) + " |")
        out.append("")
    return "\n".join(out)


def to_latex(steps: AttentionSteps, digits: int = 15) -> str:
    """A LaTeX ``align*`` block: inputs, then each stage exactly and approximately."""
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
        _, _, formula = TITLES[name]
        m = steps.stages[name]
        exact = latex_matrix(_exact_latex(m))
        row = f"{formula} &= {exact}"
        if not all(_is_plain(x) for x in m):
            row += r" \approx " + latex_matrix(_decimal_latex(steps.decimals(name, digits)))
        rows.append(row)
    return "\\begin{align*}\n" + " \\\\\n".join(rows) + "\n\\end{align*}\n"


def to_json(steps: AttentionSteps, digits: int = 15) -> str:
    """JSON with keys scores, scaled, masked, weights, output; entries {latex, value}."""
    doc = {}
    for name in ("scores", "scaled", "masked", "weights", "output"):
        m = steps.stage(name)
        dec = steps.decimals(name, digits)
        doc[name] = [
            [{"latex": latex_entry(m[i, j]), "value": dec[i][j]} for j in range(m.cols)]
            for i in range(m.rows)
        ]
    return json.dumps(doc, indent=2) + "\n"


FORMATS = {"text": to_text, "markdown": to_markdown, "latex": to_latex, "json": to_json}
