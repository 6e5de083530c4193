"""LaTeX as Unicode for the terminal, and read back (symattn/unicode_text.py): what
``derive --format text`` prints must read as the object it was printed from."""

from __future__ import annotations

import pytest
import sympy as sp
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from strategies import expressions

from symattn.proof import shown
from symattn.proof.latex import page_latex, side_text
from symattn.proof.reader import read_value, vocabulary
from symattn.unicode_text import UnicodeReadError, from_unicode, to_unicode, visible

d_k = sp.Symbol("d_k", integer=True, positive=True)
d_model = sp.Symbol(r"d_{\text{model}}", positive=True)
i, n = sp.symbols("i n", integer=True, positive=True)
q = sp.IndexedBase("q")
sigma = sp.Symbol(r"\sigma", positive=True)
z_tilde = sp.Symbol(r"\tilde{z}", real=True)
x, y = sp.symbols("x y", real=True)
P = sp.MatrixSymbol("P", 3, 3)
W_q = sp.MatrixSymbol("W^{Q}", 3, 3)
NAMES = [d_k, d_model, i, n, q[i], sigma, z_tilde, x, y, P, W_q, sp.Sum(q[i], (i, 1, d_k))]
VOCAB = vocabulary(NAMES, page_latex)


@pytest.mark.parametrize(
    ("text", "latex"),
    [  # written by hand from what each text means, not from the code
        ("1/√2 Q Kᵀ", r"\frac{1}{\sqrt{2}} Q K^{\top}"),
        ("e^zᵢ e^zⱼ", r"e^{z_{i}} e^{z_{j}}"),
        ("W^(O)₁", r"W^{O}_{1}"),
        ("W^O₁", r"W^{O_{1}}"),
        ("(√x)²", r"\left(\sqrt{x}\right)^{2}"),
        ("√x²", r"\sqrt{x^{2}}"),
        ("N d_model²", r"N d_{\text{model}}^{2}"),
        ("Oₙₒₙₑ", r"O_{none}"),
        ("O_none", r"O_{\text{none}}"),
        ("∑ᵢ₌₁^dₖ 𝔼[qᵢ]", r"\sum _{i=1}^{d_{k}} \mathbb{E}\left[q_{i}\right]"),
        ("[[1, 0], [1/(1 + e^(√2)), 2]]", r"\begin{bmatrix}1 & 0 \\ \frac{1}{1 + e^{\sqrt{2}}} & 2"
                                          r"\end{bmatrix}"),
        ("softmax(X W^Q)", r"\operatorname{softmax}\left(X W^{Q}\right)"),
        ("cost(weighted sum)", r"\operatorname{cost}\left(\text{weighted sum}\right)"),
        ("x̅ ≤ q̃ᵢ", r"\bar{x} \le \tilde{q}_{i}"),
        ("‖q‖² ~ χ", r"\lVert q\rVert ^{2} \sim \chi"),
        # two letters are a product, three a word; a slash with spaces is the author's own
        ("Var(aX)", r"\operatorname{Var}\left(aX\right)"),
        ("a / b", "a / b"),
        ("|x|", r"\lvert x\rvert"),
        ("sin²(x)", r"\sin ^{2}\left(x\right)"),
        ("∛x + x^(1/5) + ⁵√x", r"\sqrt[3]{x} + x^{\frac{1}{5}} + \sqrt[5]{x}"),
        ("Xᵀ x^T ν 𝐱 σ̂", r"X^{\top} x^{T} \nu \mathbf{x} \hat{\sigma}"),
    ],
)
def test_unicode_reads_as_the_latex_it_stands_for(text, latex):
    assert from_unicode(text) == latex


@pytest.mark.parametrize(
    ("latex", "text"),
    [
        # a matrix's cells are written once: e^(√2), not e⁽√2) (found by the read back)
        (r"\begin{bmatrix}\frac{e^{\sqrt{2}}}{2}\end{bmatrix}", "[[e^(√2)/2]]"),
        # a word in a script ends where the reader ends it; an upright word keeps its letters
        (r"W^{O}_{1}", "W^(O)₁"),
        (r"O_{\text{none}}", "O_none"),
        (r"x^{a}b", "x^(a)b"),
        # a fraction or root that takes a script is put in parentheses
        (r"\sqrt{x}^{2}", "(√x)²"),
        (r"\frac{(a)+(b)}{c}", "((a)+(b))/c"),
        # review: what follows a fraction, root or script is set apart; stacked powers grouped
        (r"\frac{1}{2}X", "1/2 X"),
        (r"\sqrt{x}y", "√x y"),
        (r"-3*\sqrt{5}/5", "-3*√5/5"),  # an author's own slash is not set apart
        (r"e^{z}\frac{1}{2}", "e^z 1/2"),
        (r"{x^{2}}^{3}", "(x²)³"),
        # a power T is not a transpose; every Greek letter, bold letters, roots of any degree
        (r"x^{T} + X^{\top}", "x^T + Xᵀ"),
        (r"\nu + \xi + \hat{\sigma}", "ν + ξ + σ̂"),
        (r"\mathbf{x}", "𝐱"),
        (r"\sqrt[5]{x}", "⁵√x"),
        (r"\delta_{i j}", "δᵢⱼ"),
        (r"\operatorname{rank}{\left(J \right)}", "rank(J)"),
    ],
)
def test_what_unicode_would_leave_ambiguous_is_written_so_it_reads_back(latex, text):
    assert to_unicode(latex) == text


@pytest.mark.parametrize("text", ["(a", "a)", "[[1, 2]", "x^", "a @ b", "[[1]; [2]]", "̃x"])
def test_text_it_cannot_read_is_an_error_naming_where(text):
    with pytest.raises(UnicodeReadError, match=r"at character|accent|in '"):
        from_unicode(text)


# -- the pages' printer, in Unicode, read back ------------------------------------------------
_atoms = st.sampled_from(
    [x, y, d_k, d_model, q[i], sigma, z_tilde, sp.Integer(2), sp.Rational(3, 10), sp.Rational(-7, 4)]
)


#: Beyond the shared kinds: a sum over the index, a sine (squared or not), a logarithm.
_MORE = {
    "sum": lambda draw, a: sp.Sum(q[i] * a, (i, 1, d_k)),
    "sin": lambda draw, a: sp.sin(a) ** draw(st.sampled_from([1, 2])),
    "log": lambda draw, a: sp.log(a**2 + 1),
}
_expressions = expressions(_atoms, roots=(sp.S.Half, *(sp.Rational(1, k) for k in (3, 4, 5))), more=_MORE)


@settings(max_examples=80, deadline=None)
@given(_expressions)
def test_what_the_terminal_prints_reads_back_as_itself(e):
    assume(not e.has(sp.zoo, sp.nan))  # 1/(x - x): no side of a proof
    text = side_text(e)
    assert "\\" not in text, text
    assert shown.same_form(from_unicode(text), page_latex(e)), text  # the page's formula, token for token
    assert shown.agree(read_value(from_unicode(text), VOCAB), e), text


@settings(max_examples=30, deadline=None)
@given(st.lists(st.lists(expressions(_atoms, 1), min_size=2, max_size=2), min_size=1, max_size=3))
def test_a_matrix_in_the_terminal_reads_back_cell_by_cell(rows):
    m = sp.Matrix(rows)
    text = side_text(m)
    assert text.startswith("[[") and text.count("], [") == len(rows) - 1, text
    assert shown.same_form(from_unicode(text), page_latex(m)), text
    assert shown.agree(read_value(from_unicode(text), VOCAB), m), text


def test_a_transpose_or_sign_lost_in_unicode_does_not_read_back():
    expr = sp.MatMul(P.T, W_q)
    assert shown.agree(read_value(from_unicode(side_text(expr)), VOCAB), expr)
    assert not shown.agree(read_value(from_unicode("P W^Q"), VOCAB), expr)
    assert not shown.agree(read_value(from_unicode("x + y"), VOCAB), x - y)


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("A = B\x1b[31m", "A = B⟨U+001B⟩[31m"),  # a terminal escape
        ("x\x07", "x⟨U+0007⟩"),  # a bell
        ("a\u202eb", "a⟨U+202E⟩b"),  # a right-to-left override
        ("a\u2028b", "a⟨U+2028⟩b"),  # a line separator
        ("a\tb = ±√2", "a\tb = ±√2"),  # a tab and math stay as they are
    ],
)
def test_what_a_terminal_would_act_on_is_made_visible(text, shown):
    assert visible(text) == shown
