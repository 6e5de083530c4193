"""symattn's own LaTeX reader (symattn/proof/reader.py): names resolved against a derivation's
objects, exact numbers, the module's operators, and a round trip of the pages' printer."""

from __future__ import annotations

import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import expressions

from symattn.proof import shown
from symattn.proof.latex import page_latex
from symattn.proof.operators import Ex, Var
from symattn.proof.reader import MAX_CHARS, ReadError, read, read_value, readings, vocabulary

d_k = sp.Symbol("d_k", integer=True, positive=True)
d_model = sp.Symbol("d_model", positive=True)
i, j, n = sp.symbols("i j n", integer=True, positive=True)
q = sp.IndexedBase("q")
P = sp.MatrixSymbol("P", n, n)
X = sp.MatrixSymbol("X", n, 3)
x, y = sp.symbols("x y", real=True)
VOCAB = vocabulary([d_k, d_model, i, j, n, q[i], P, X, x, y, sp.Sum(q[i], (i, 1, d_k))], page_latex)


def test_decimals_and_scientific_notation_are_read_exactly():
    assert read_value("0.99", VOCAB) == sp.Rational(99, 100)
    assert read_value(r"4.85 \times 10^{8}", VOCAB) == 485_000_000
    assert read_value(r"\tfrac14", VOCAB) == sp.Rational(1, 4)
    assert read_value(r"- 9 \sqrt{2}", VOCAB) == -9 * sp.sqrt(2)


def test_a_name_is_the_object_it_was_printed_from_however_it_is_braced():
    # Equal symbols have the same name and the same assumptions; the very instance is not asked
    # for (SymPy may hold two equal ones, after its cache was cleared by another test).
    for text, symbol in (("d_k", d_k), ("d_{k}", d_k), (r"d_{\text{model}}", d_model)):
        got = read_value(text, VOCAB)
        assert got == symbol and got.assumptions0 == symbol.assumptions0
    assert read_value("q_{i}", VOCAB) == q[i]
    assert read_value(r"\delta_{ij}", VOCAB) == sp.KroneckerDelta(i, j)
    unknown = read(r"\chi^2_d + z_i", VOCAB)
    assert {str(s) for s in unknown.unknown} == {r"\chi_{d}^{2}", "z_{i}"}


def test_matrices_transposes_and_shapes():
    assert read_value(r"P^{\top} X", VOCAB) == sp.MatMul(P.T, X)
    assert read_value(r"X^\top P", VOCAB) == sp.MatMul(X.T, P)
    m = read_value(r"\begin{bmatrix}0 & -\infty\\\frac{1}{2} & 1\end{bmatrix}", VOCAB)
    assert m.shape == (2, 2) and m[0, 1] == -sp.oo and m[1, 0] == sp.Rational(1, 2)
    with pytest.raises(ReadError):
        read_value(r"x^{\top}", VOCAB)  # a transpose of a number
    with pytest.raises(ReadError):
        read_value(r"\begin{bmatrix}1 & 2\\3\end{bmatrix}", VOCAB)  # ragged rows


def test_sums_expectations_and_variances():
    assert read_value(r"\sum_{i=1}^{d_k} q_i", VOCAB) == sp.Sum(q[i], (i, 1, d_k))
    # Without limits, the range the vocabulary's objects sum i over.
    assert read_value(r"\sum_i q_i", VOCAB) == sp.Sum(q[i], (i, 1, d_k))
    assert read_value(r"\mathbb{E}[q_i^2]", VOCAB) == Ex(q[i] ** 2)
    assert read_value(r"\operatorname{Var}\left(x\right)", VOCAB) == Var(x)


def test_relations_chains_and_lists():
    r = read(r"1 \le i, j \le n", VOCAB)
    assert r.relations() == [(1, "<=", i), (j, "<=", n)]
    assert read(r"x, y > 0", VOCAB).relations() == [(y, ">", 0), (x, ">", 0)]
    assert read(r"x = y = 1", VOCAB).relations() == [(x, "=", y), (y, "=", 1)]
    assert read(r"n = 2, 3, 4", VOCAB).listing and read(r"n = 1, \dots, 8", VOCAB).listing
    assert not read("n = 2", VOCAB).listing


def test_an_ambiguous_name_is_read_every_way():
    """A derivation may print a vector p and a number p alike: both readings are offered."""
    p_vec, p_num = sp.MatrixSymbol("p", n, 1), sp.Symbol("p", positive=True)
    vocab = vocabulary([p_vec, p_num], page_latex)
    values = [r.value() for r in readings(r"p p^{\top}", vocab)]
    assert sp.MatMul(p_vec, p_vec.T) in values
    assert [r.value() for r in readings("p (1 - p)", vocab)][-1] == p_num * (1 - p_num)


def test_unreadable_text_is_a_read_error_naming_where():
    for text, words in [
        (r"\frac{1}{", "ends too early"),
        ("x +", "ends too early"),
        ("x )", "unexpected"),
        (r"x^23", "several digits"),
        ("x" * (MAX_CHARS + 1), "longer than"),
    ]:
        with pytest.raises(ReadError, match=words):
            read(text, VOCAB)


# -- the pages' printer, read back ----------------------------------------------------------------
_atoms = st.sampled_from([x, y, d_k, d_model, q[i], sp.Integer(2), sp.Rational(3, 10), sp.Rational(-7, 4)])


@settings(max_examples=60, deadline=None)
@given(expressions(_atoms))
def test_what_the_pages_print_reads_back_as_itself(e):
    tex = page_latex(e)
    assert shown.agree(read_value(tex, VOCAB), e), tex


def test_a_lost_transpose_or_sign_does_not_read_back_as_the_object():
    """The comparison is strict where a printer error would show: a transpose, a sign, a digit."""
    assert not shown.agree(read_value("P X", VOCAB), sp.MatMul(P.T, X))
    assert not shown.agree(read_value("x + y", VOCAB), x - y)
    assert not shown.agree(read_value("0.9", VOCAB), sp.Rational(99, 100))
    assert shown.agree(read_value("P^{\\top} X", VOCAB), sp.MatMul(P.T, X))
