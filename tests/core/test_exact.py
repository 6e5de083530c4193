"""Exact and symbolic attention (symattn/core/exact.py), above all the module's section 6.2."""

from __future__ import annotations

from decimal import ROUND_HALF_EVEN, Decimal, localcontext

import mpmath
import pytest
import sympy as sp

from symattn.core.exact import attention, symbolic_attention
from symattn.errors import EmptyRowError, InputError, ShapeError

Q = [[3, -3], [1, 1]]
K = [[-3, 3], [1, 1]]
V = [[0, -1], [1, 2]]
R2 = sp.sqrt(2)
E = sp.exp(R2)
oo = sp.oo


def same(a: sp.Expr, b: sp.Expr) -> bool:
    """Exactly equal: the difference cancels to 0 as a rational function of the exponentials."""
    return sp.cancel(sp.expand(a - b)) == 0 and abs(sp.N(a - b, 50)) < sp.Float("1e-45")


def same_matrix(a: sp.MatrixBase, b: sp.MatrixBase) -> bool:
    return a.shape == b.shape and all(
        (x == y) if sp.S.NegativeInfinity in (x, y) else same(x, y) for x, y in zip(a, b, strict=True)
    )


@pytest.fixture(scope="module")
def causal():
    return attention(Q, K, V, "causal")


def test_section_6_2_scores_and_scaling(causal):
    """Scores -18, 0, 0, 2; scaled -9 sqrt 2, 0, 0, sqrt 2; row 1 masked to [-9 sqrt 2, -oo]."""
    assert causal.stages["scores"] == sp.Matrix([[-18, 0], [0, 2]])
    assert causal.stages["scaled"] == sp.Matrix([[-9 * R2, 0], [0, R2]])
    assert causal.stages["masked"] == sp.Matrix([[-9 * R2, -oo], [0, R2]])


def test_section_6_2_weights_are_the_closed_forms(causal):
    """Causal weights are [1, 0] and [1/(1+e^sqrt2), e^sqrt2/(1+e^sqrt2)] exactly."""
    w = causal.stages["weights"]
    assert w.row(0) == sp.Matrix([[1, 0]])
    assert w[1, 0] == 1 / (1 + E)
    assert w[1, 1] == E / (1 + E)


def test_section_6_2_outputs(causal):
    """Outputs [0, -1] and [e^r/(1+e^r), (2e^r-1)/(1+e^r)] = [0.8044..., 1.4132...], r = sqrt 2."""
    out = causal.output
    assert out.row(0) == sp.Matrix([[0, -1]])
    assert same(out[1, 0], E / (1 + E))
    assert same(out[1, 1], (2 * E - 1) / (1 + E))
    assert causal.decimals("output", 4) == [["0", "-1.000"], ["0.8044", "1.413"]]
    assert causal.decimals("output", 5)[1] == ["0.80443", "1.4133"]


def test_without_the_mask_token_1_looks_at_token_2():
    """Unmasked, token 1 keeps only 1/(1+e^(9 sqrt2)) ~ e^(-9 sqrt2) of its weight on itself."""
    steps = attention(Q, K, V)
    w = steps.weights
    big = sp.exp(9 * R2)
    assert w[0, 0] == 1 / (1 + big)
    assert w[0, 1] == big / (1 + big)
    ratio = w[0, 0] / sp.exp(-9 * R2)  # = e^(9 sqrt2)/(1+e^(9 sqrt2)), within 3e-6 of 1
    assert abs(sp.N(ratio - 1, 30)) < 3e-6
    assert "masked" not in steps.stages
    assert steps.stage("masked") == steps.stages["scaled"]


def test_decimal_inputs_are_exact():
    """0.1 enters as 1/10: the scores are exact rationals."""
    steps = attention([["0.1"]], [["0.3"]], [["1/3"]], scale=False)
    assert steps.stages["scores"][0, 0] == sp.Rational(3, 100)
    assert steps.output[0, 0] == sp.Rational(1, 3)


def test_cross_attention_shapes():
    """N=2 queries, M=3 keys, d_k=2, d_v=4: weights 2x3, output 2x4, rows of weights sum to 1."""
    q = [[1, 0], [0, 1]]
    k = [[1, 1], [0, 2], ["1/2", -1]]
    v = [[1, 0, 0, 1], [0, 1, 0, 2], [0, 0, 1, 3]]
    steps = attention(q, k, v, "causal:bottom-right")
    assert steps.weights.shape == (2, 3)
    assert steps.output.shape == (2, 4)
    for i in range(2):
        assert sp.cancel(sum(steps.weights.row(i)) - 1) == 0
    # bottom-right: query 1 sees keys 1-2, query 2 sees all three
    assert steps.weights[0, 2] == 0
    assert steps.weights[1, 2] != 0


def test_symbolic_entries():
    """With symbols, one query and two keys give the textbook sigmoid form exactly."""
    steps = symbolic_attention(1, 2, 1, 1)
    q, k1, k2, v1, v2 = (sp.Symbol(n, real=True) for n in ("q_{11}", "k_{11}", "k_{21}", "v_{11}", "v_{21}"))
    expected = (v1 * sp.exp(q * k1) + v2 * sp.exp(q * k2)) / (sp.exp(q * k1) + sp.exp(q * k2))
    assert sp.cancel(steps.output[0, 0] - expected) == 0


def test_symbolic_causal_first_row_copies_the_first_value():
    """With a causal mask the first query's output is exactly v_1, whatever the symbols."""
    steps = symbolic_attention(3, 3, 2, 2, "causal")
    assert steps.output.row(0) == steps.v.row(0)
    assert steps.weights[0, :] == sp.Matrix([[1, 0, 0]])


def test_symbolic_weights_substitute_to_the_exact_ones():
    """Substituting the module's numbers into the symbolic result gives the exact result."""
    sym = symbolic_attention(2, 2, 2, 2, "causal")
    values = {}
    for name, m in (("q", Q), ("k", K), ("v", V)):
        for i in range(2):
            for j in range(2):
                values[sp.Symbol(f"{name}_{{{i + 1}{j + 1}}}", real=True)] = m[i][j]
    exact = attention(Q, K, V, "causal")
    assert same_matrix(sym.output.subs(values), exact.output)


def test_errors():
    """Shapes that do not fit, a row with no key and oversized problems are refused."""
    with pytest.raises(ShapeError, match="columns"):
        attention([[1, 2]], [[1, 2, 3]], [[1]])
    with pytest.raises(ShapeError, match="K has 1 row but V has 2"):
        attention([[1, 2]], [[1, 2]], [[1], [2]])
    with pytest.raises(ShapeError, match="Q has 1 column but K has 2"):
        attention([[1]], [[1, 2]], [[1]])
    with pytest.raises(EmptyRowError, match="row 2 "):
        attention(
            [[1], [2]], [[1], [2]], [[1], [2]], "window:1+padding:1"
        )  # query 2 sees only key 2, padding blocks it
    with pytest.raises(InputError, match="too large"):
        symbolic_attention(7, 2, 1, 1)


def _mp_digits(value: mpmath.mpf, digits: int) -> str:
    """Round a positive mpmath value to ``digits`` digits via its log10, with Python's decimal
    module for the mantissa: an independent path that works for exponents beyond Decimal's range."""
    log = mpmath.log10(value)
    e10 = int(mpmath.floor(log))
    mantissa = mpmath.power(10, log - e10)
    with localcontext() as ctx:
        ctx.prec = digits
        ctx.rounding = ROUND_HALF_EVEN
        m = +Decimal(mpmath.nstr(mantissa, digits + 30, strip_zeros=False))
    if m >= 10:  # pragma: no cover - a carry into the next power of ten
        m, e10 = m / 10, e10 + 1
    sign = "+" if e10 >= 0 else "-"
    return f"{m}E{sign}{abs(e10)}"


def test_entries_of_1e300_give_correctly_rounded_digits():
    """2x2 entries of 1e300: every weight and output matches mpmath at 2000 digits, scientific form."""
    x = 10**300
    steps = attention([["1e300", 0], [1, 2]], [[1, 0], [0, 1]], [[1, 0], [2, "1e300"]])
    weights, output = steps.decimals("weights", 15), steps.decimals("output", 15)
    with mpmath.workdps(2000):
        big = mpmath.exp(mpmath.mpf(x) / mpmath.sqrt(2))  # e^(S/sqrt 2), S = 10^300
        small = mpmath.exp(mpmath.sqrt(2) / 2)
        # hand-written softmax with the row maximum subtracted
        a12 = 1 / (1 + big)
        o12 = mpmath.mpf(x) * a12
        o22 = mpmath.mpf(x) * small / (1 + small)
        expected_a12, expected_o12 = _mp_digits(a12, 15), _mp_digits(o12, 15)
        expected_o22 = _mp_digits(o22, 15)
    assert weights[0][1] == expected_a12
    assert output[0][1] == expected_o12
    assert output[1][1] == expected_o22
    assert weights[0][0] == "1.00000000000000"
    assert expected_a12.startswith("1.91760011908756E-3070925731856877137427554914320883465925328")


def test_exact_integers_beyond_the_digit_limit_are_refused():
    """Scores whose exact fractions would need more than MAX_EXACT_DIGITS digits: exit-2 error."""
    primes = [int(sp.prime(i)) for i in range(200, 264)]
    q = [[f"1/{p ** 120}" for p in primes]]
    k = [[f"1/{p ** 119}" for p in primes[::-1]]]
    with pytest.raises(InputError, match="more than 3000 digits"):
        attention(q, k, [[1]])
