"""Figures as stated (symattn/grading/audit/stated.py) and the formula reader
(symattn/grading/audit/calc.py)."""

from __future__ import annotations

from fractions import Fraction

import mpmath
import pytest
import sympy as sp

from symattn.grading.audit.calc import exact, latex_to_plain, parse_chain
from symattn.grading.audit.stated import Stated, Unreadable, rounds_to


@pytest.mark.parametrize(
    ("text", "scale", "percent", "digits", "low", "high"),
    [
        ("4.113", None, False, 4, "4.1125", "4.1135"),
        ("330,000", None, False, 2, "325000", "335000"),  # trailing zeros are not significant
        ("500", "million", False, 1, "450000000", "550000000"),
        ("0.0020", None, False, 2, "0.00195", "0.00205"),  # a trailing zero after the point is
        ("35", None, True, 2, "0.345", "0.355"),
        ("0", None, True, 1, "-0.005", "0.005"),
        ("-12.73", None, False, 4, "-12.735", "-12.725"),
        ("8192", None, False, 4, "8191.5", "8192.5"),
    ],
)
def test_precision_of_a_stated_figure(text, scale, percent, digits, low, high):
    """Significant digits and the rounding interval a figure's wording implies."""
    s = Stated.read(text, scale, percent)
    assert s.digits == digits
    assert (s.low, s.high) == (Fraction(low), Fraction(high))


@pytest.mark.parametrize(
    ("value", "text", "exact_whole", "expected"),
    [
        (sp.sqrt(2), "1.414", False, True),
        (sp.sqrt(2), "1.415", False, False),
        (sp.exp(20), "500000000", False, True),  # 4.85e8 to one digit
        (sp.exp(20), "5000000000", False, False),  # a power of ten off
        (sp.exp(sp.Rational(127, 10)), "330000", False, True),
        (sp.Rational(19585, 10000), "1.959", False, True),  # a tie rounds either way
        (sp.Rational(19585, 10000), "1.958", False, True),
        (sp.Integer(8), "8", True, True),
        (sp.sqrt(64) + sp.Rational(1, 10**9), "8", True, False),  # "= 8" means exactly 8
        (sp.exp(-9 * sp.sqrt(2)), "0", False, True),  # about 3e-6 rounds to 0
    ],
)
def test_rounds_to(value, text, exact_whole, expected):
    """A value is a stated figure when it rounds to it (or equals it, for "= 8")."""
    assert rounds_to(value, Stated.read(text), exact_whole) is expected


def test_reference_digits_agree_with_mpmath():
    """The stated figures of the two-token example, checked against mpmath at 30 digits."""
    mpmath.mp.dps = 30
    e = mpmath.e ** mpmath.sqrt(2)
    for value, text in ((sp.exp(sp.sqrt(2)), "4.113"), (1 / (1 + sp.exp(sp.sqrt(2))), "0.196")):
        assert rounds_to(value, Stated.read(text), False)
    assert mpmath.nstr(e, 4) == "4.113" and mpmath.nstr(1 / (1 + e), 3) == "0.196"


@pytest.mark.parametrize(
    ("tex", "plain"),
    [
        (r"\sqrt{d_k} = \sqrt{2} \approx 1.414", "sqrt(d_k) = sqrt(2) ≈ 1.414"),
        (r"e^{12.7} \approx 330{,}000", "exp(12.7) ≈ 330,000"),
        (r"\mathbf{q}_1 \cdot \mathbf{k}_1", "q_1 * k_1"),
        (r"3 \cdot N \cdot d_{\text{model}}^2", "3 * N * d_model^(2)"),
        (r"\frac{d_k}{d_k} = 1", "((d_k)/(d_k)) = 1"),
        # a subscript takes one token: W_q times q, not a name W_(qq)
        (r"\mathbf W_q\mathbf q + \mathbf W_k \mathbf k", "W_q q + W_k k"),
        (r"x_1x_2 = x_{12}", "x_1 x_2 = x_12"),
        # a letter set in a style of its own is a factor: W times x, not a name Wx
        (r"\mathbf{W}\mathbf{x} + \mathbf{b}", "W x + b"),
        (r"\mathbf{q}\mathbf{k}^\top", "q k^(T)"),
        (r"\mathbf{QK}^\top = \mathrm{softmax}", "QK^(T) = softmax"),
        # a command word after a letter is a factor of its own: d times sigma, not a name dsigma
        (r"d\sigma^4", "d sigma^(4)"),
        (r"n\log n", "n log n"),
        (r"2\pi", "2 pi"),
        (r"\sigma^2", "sigma^(2)"),
    ],
)
def test_latex_to_plain(tex, plain):
    assert latex_to_plain(tex) == plain


def test_chain_is_evaluated_exactly_as_written():
    """e^{1.414} read exactly is 4.1124, not 4.113 (a figure stands for √2 only where the text
    certified it so: tests/grading/audit/test_audit.py)."""
    members, relations = parse_chain(latex_to_plain(r"e^{1.414} = 4.113"))
    assert relations == ["="]
    value = exact(members[0], {})
    assert value == sp.exp(sp.Rational(1414, 1000))
    assert not rounds_to(value, Stated.read("4.113"), False)
    assert rounds_to(value, Stated.read("4.112"), False)


@pytest.mark.parametrize(
    "text",
    [
        "__import__('os').system('true')",
        "10^(10^(10))",
        "exp(exp(exp(50)))",
        "(" * 600 + "1" + ")" * 600,
        "2^(1000)",
    ],
)
def test_hostile_formulas_are_refused_not_run(text):
    """Nothing is evaluated as code; huge or deeply nested formulas are refused quickly."""
    with pytest.raises(Unreadable):
        members, _ = parse_chain(text)
        exact(members[0], {})


def test_exponent_notation_is_a_number_bounded_before_it_is_computed():
    """``4e3`` is 4000 (issue 47: authors write 16e9); ``1e999999999`` is refused at once, never
    computed nor a float that overflows."""
    members, _ = parse_chain("4e3 = 4000")
    assert exact(members[0], {}) == 4000
    members, _ = parse_chain("1e999999999")
    with pytest.raises(Unreadable):
        exact(members[0], {})
    with pytest.raises(Unreadable):
        Stated.read("1e999999999")
