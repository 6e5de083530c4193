"""A claim's true value in words and math (symattn/grading/audit/said.py): the same parts make
the terminal's plain text and the page's LaTeX."""

from __future__ import annotations

import pytest
import sympy as sp

from symattn.grading.audit.match import CERTIFIED, Claim
from symattn.grading.audit.said import Math, Said, Tex


@pytest.mark.parametrize(
    ("value", "plain", "latex"),
    [
        (sp.sqrt(2), "√2 ≈ 1.414214", r"\sqrt{2} \approx 1.414214"),
        (sp.exp(20), "e^20 ≈ 4.851652E+8", r"e^{20} \approx 4.851652 \times 10^{8}"),
        (sp.Rational(1, 8), "0.125", "0.125"),
        (
            sp.Rational(1, 2**100),  # exact: 70 digits, where Decimal's default context keeps 28
            "7.888609052210118054117285652827862296732064351090230047702789306640625E-31",
            None,
        ),
        (sp.Rational(1, 3), "1/3", r"\frac{1}{3}"),
        (sp.S.NegativeInfinity, "-∞", r"-\infty"),
        (sp.nan, "undefined", r"\text{undefined}"),
        (
            sp.Matrix([[0, -sp.oo], [0, 0]]),
            "[[0, -∞], [0, 0]]",
            r"\begin{bmatrix}0 & -\infty \\ 0 & 0\end{bmatrix}",
        ),
        (sp.Matrix([[1, sp.Rational(1, 2)]]), "[1, 0.5]", r"\left[1,\ 0.5\right]"),
    ],
)
def test_a_value_in_plain_text_and_latex(value, plain, latex):
    """Exact when short, correctly rounded digits when not, in both forms alike."""
    assert Math(value).plain() == plain
    if latex is not None:
        assert Math(value).latex() == latex


def test_words_stay_words_and_math_joined_by_equals_is_one_formula():
    s = Said(Tex("√64", r"\sqrt{64}"), " = ", Math(sp.Integer(8)))
    assert s.plain() == "√64 = 8"
    assert s.markdown() == r"$\sqrt{64} = 8$"
    t = Said("the middle term ", Math(1 / sp.sqrt(sp.Symbol("d_k"))), " is not ", Math(sp.Integer(1)))
    assert t.markdown() == r"the middle term $\frac{1}{\sqrt{d_{k}}}$ is not $1$"
    both = Said.join("; ", [t, Said("gap = ", Math(sp.Integer(2)))])
    assert both.plain() == "the middle term 1/√d_k is not 1; gap = 2"
    assert both.markdown().count("$") == 6  # the separator "; " keeps the formulas apart


def test_a_claim_takes_its_value_as_words_and_math_not_as_a_string():
    """A value as a bare string could carry SymPy syntax to the page: it is refused."""
    c = Claim(1, "x", CERTIFIED, Said(Math(sp.sqrt(2))), "rule")
    assert (c.value, c.value_latex) == ("√2 ≈ 1.414214", r"$\sqrt{2} \approx 1.414214$")
    assert c.as_dict()["value_latex"] == c.value_latex
    with pytest.raises(TypeError):
        Claim(1, "x", CERTIFIED, "sqrt(2)", "rule")
