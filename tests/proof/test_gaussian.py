"""symattn/proof/gaussian.py: sympy.stats's integrals over normal variables, evaluated exactly.

The evaluator stands in for ``sympy.stats.E`` in the lemmas, so it is checked against three
references: ``sympy.stats.E`` (the same integrals, set up by sympy.stats, but its own
evaluation), and two that share no code with either: the closed-form moments of a normal variable
written out here, and mpmath quadrature at 30 digits. What it must refuse, it is shown refusing.
"""

from __future__ import annotations

import random
from math import comb

import mpmath
import pytest
import sympy as sp
from sympy import stats

from symattn.proof import gaussian
from symattn.proof.gaussian import NotGaussian, check_square, complete_square, evaluate, joint

m_q, m_k = sp.symbols("m_q m_k", real=True)
s_q, s_k, r, s = sp.symbols("s_q s_k r s", positive=True)
t, a = sp.symbols("t a", real=True)


def _double_factorial(n: int) -> int:
    return 1 if n <= 0 else n * _double_factorial(n - 2)


def _normal_moment(n: int, m: sp.Expr, sd: sp.Expr) -> sp.Expr:
    """E[X^n] for X ~ N(m, sd^2): sum over even k of C(n, k) m^(n-k) sd^k (k-1)!!."""
    return sp.Add(*(comb(n, k) * m ** (n - k) * sd**k * _double_factorial(k - 1) for k in range(0, n + 1, 2)))


@pytest.mark.parametrize("j", range(11))
def test_standard_moments_are_the_known_ones(j):
    """The integral of u^j e^{-u^2/2}: sqrt(2 pi) (j-1)!! for even j, 0 for odd j."""
    expected = sp.sqrt(2 * sp.pi) * _double_factorial(j - 1) if j % 2 == 0 else 0
    assert sp.simplify(gaussian._moment(j) - expected) == 0


@pytest.mark.parametrize("j", range(13))
def test_standard_moments_are_sympys_integrals(j):
    """The closed form the evaluator uses, against SymPy's own integral and mpmath quadrature."""
    u = sp.Symbol("u", real=True)
    integral = sp.integrate(u**j * sp.exp(-(u**2) / 2), (u, -sp.oo, sp.oo))
    assert sp.expand(gaussian._moment(j) - integral) == 0
    quad = mpmath.quad(lambda x: x**j * mpmath.exp(-(x**2) / 2), [-mpmath.inf, 0, mpmath.inf])
    assert abs(sp.N(gaussian._moment(j), 30) - sp.Float(quad, 30)) <= 1e-12 * max(1, abs(quad))


@pytest.mark.parametrize("j", range(13, 41))
def test_higher_standard_moments_are_the_gamma_integral(j):
    """Beyond SymPy's integrals above (review finding: a closed form wrong only from j = 14 on
    passed), against another closed form: the integral is 2^((j+1)/2) Gamma((j+1)/2) for even j."""
    with mpmath.workdps(50):
        if j % 2:
            assert gaussian._moment(j) == 0
            return
        expected = mpmath.mpf(2) ** (mpmath.mpf(j + 1) / 2) * mpmath.gamma(mpmath.mpf(j + 1) / 2)
        assert abs(sp.N(gaussian._moment(j), 50) - sp.Float(expected, 50)) <= sp.Float(10) ** -40 * expected


def test_no_moment_of_negative_order():
    with pytest.raises(ValueError):
        gaussian._moment(-2)


def _cases():
    q = stats.Normal("q", m_q, s_q)
    k = stats.Normal("k", m_k, s_k)
    K = stats.Normal("K", 0, 1)
    Z = stats.Normal("Z", 0, r)
    x = [stats.Normal(f"x{n}", 0, 1) for n in range(2)]
    y = [stats.Normal(f"y{n}", 0, 1) for n in range(2)]
    return {
        "E[q k]": ("E", q * k),
        "Var(q k)": ("variance", q * k),
        "E[q^2 k]": ("E", q**2 * k),
        "E[(q - k)^2]": ("E", (q - k) ** 2),
        "Var(a q^2)": ("variance", a * q**2),
        "E[q^3]": ("E", q**3),
        "Var(x0 y0 + x1 y1)": ("variance", x[0] * y[0] + x[1] * y[1]),
        "E[e^(t a K)]": ("E", sp.exp(t * a * K)),
        "E[e^(t Z)]": ("E", sp.exp(t * Z)),
        "E[e^(-s K^2)]": ("E", sp.exp(-s * K**2)),
        "E[K e^(t K)]": ("E", K * sp.exp(t * K)),
        "E[e^(t (a x0 + a x1))]": ("E", sp.exp(t * (a * x[0] + a * x[1]))),
        "E[e^(t K) + K^2]": ("E", sp.exp(t * K) + K**2),
    }


@pytest.mark.parametrize("name", list(_cases()))
def test_agrees_with_sympy_stats(name):
    """Each case, evaluated here and by sympy.stats (Meijer G integration): the same, exactly."""
    kind, expr = _cases()[name]
    ours = getattr(gaussian, kind)(expr)
    theirs = getattr(stats, kind)(expr)
    assert sp.simplify(ours - theirs) == 0, (ours, theirs)


def test_polynomial_moments_against_the_closed_form():
    """Random polynomials in two independent normals with symbolic means and deviations, against
    the closed-form moments E[X^a Y^b] = E[X^a] E[Y^b] written out independently above."""
    q = stats.Normal("q", m_q, s_q)
    k = stats.Normal("k", m_k, s_k)
    rng = random.Random(3)
    for _ in range(6):
        terms = [(rng.randint(-4, 4), rng.randint(0, 4), rng.randint(0, 3)) for _ in range(4)]
        poly = sum(c * q**e1 * k**e2 for c, e1, e2 in terms)
        expected = sum(c * _normal_moment(e1, m_q, s_q) * _normal_moment(e2, m_k, s_k) for c, e1, e2 in terms)
        assert sp.expand(gaussian.E(poly) - expected) == 0


def test_exponential_case_against_quadrature():
    """E[(1 + X + X^2) e^{X/3 - X^2/5}] for X ~ N(7/10, (3/2)^2), against mpmath at 30 digits."""
    m, sd = sp.Rational(7, 10), sp.Rational(3, 2)
    X = stats.Normal("X", m, sd)
    value = gaussian.E((1 + X + X**2) * sp.exp(X / 3 - X**2 / 5))
    mpmath.mp.dps = 30
    try:
        mf, sf = mpmath.mpf(7) / 10, mpmath.mpf(3) / 2

        def integrand(x):
            density = mpmath.exp(-((x - mf) ** 2) / (2 * sf**2)) / (sf * mpmath.sqrt(2 * mpmath.pi))
            return (1 + x + x**2) * mpmath.exp(x / 3 - x**2 / 5) * density

        reference = mpmath.quad(integrand, [-mpmath.inf, mf, mpmath.inf])
        assert abs(mpmath.mpf(str(sp.N(value, 30))) - reference) < mpmath.mpf(10) ** -25
    finally:
        mpmath.mp.dps = 15


def test_variance_is_the_central_second_moment():
    X = stats.Normal("X", m_q, s_q)
    assert gaussian.variance(3 * X + 1) == 9 * s_q**2
    second, fourth = _normal_moment(2, m_q, s_q), _normal_moment(4, m_q, s_q)
    assert gaussian.variance(X**2) == sp.expand(fourth - second**2)


def test_deviations_given_as_expressions():
    """A standard deviation 2s, s^2 or sqrt(s) (known positive) is integrated like any other."""
    for sd in (2 * s_q, s_q**2, sp.sqrt(s_q)):
        X = stats.Normal("X", m_q, sd)
        assert sp.expand(gaussian.E(X**2) - (m_q**2 + sd**2)) == 0


@pytest.mark.parametrize(
    "name", ["E[q k]", "Var(q k)", "E[e^(t a K)]", "E[e^(t (a x0 + a x1))]", "E[e^(t K) + K^2]"]
)
def test_the_joint_integral_gives_the_same_values(name):
    """joint(): the whole expression against the joint density of all its variables, one integral."""
    kind, expr = _cases()[name]
    if kind == "variance":
        expr = (expr - gaussian.E(expr)) ** 2
    integral = joint(expr)
    assert len(integral.limits) == len(stats.random_symbols(expr))
    assert sp.simplify(evaluate(integral) - gaussian.E(expr)) == 0


def test_joint_refuses_two_variables_of_one_name():
    """joint() would integrate both over one symbol: E[X1 X2] = 1 + 4 for X1, X2 both named X."""
    with pytest.raises(NotGaussian, match="share a name"):
        joint(stats.Normal("X", 1, 1) * stats.Normal("X", 2, 1))


def test_joint_integrates_every_term_over_every_variable():
    """E[X + Y] by joint() integrates X over Y's line too: a density that did not integrate to 1
    would show. Planted: Y's density doubled."""
    X, Y = stats.Normal("X", 1, 1), stats.Normal("Y", 2, 1)
    integral = joint(X + Y)
    assert evaluate(integral) == 3
    doubled = integral.function * 2
    assert evaluate(sp.Integral(doubled, *integral.limits)) == 6  # 2 (1 + 2): both terms


@pytest.mark.parametrize(
    "build, why",
    [
        (lambda X: stats.Exponential("L", 1) * X, "not a normal random variable"),
        (lambda X: sp.exp(X**2), "does not converge"),
        (lambda X: sp.exp(sp.Symbol("c", real=True) * X**2), "does not converge"),  # sign unknown
        (lambda X: sp.exp(X**3), "not the exponential of a quadratic"),
        (lambda X: sp.Abs(X), "not a polynomial"),
        (lambda X: 1 / (1 + X**2), "not a polynomial"),
        (lambda X: X > 0, "not covered"),
        (lambda X: sp.Matrix([X, X**2]), "not covered"),
        (lambda X: "X**2", "not an expression"),
        (lambda X: X * stats.Normal("X", 2, 1), "share a name"),
        (lambda X: X * sp.Symbol("X"), "named like a random variable"),
        (lambda X: X * stats.Normal("B", sp.Symbol("X"), 1), "named like a random variable"),
        (lambda X: stats.Normal("B", X, 1), "B is not a normal random variable"),  # its mean is random
        (lambda X: stats.Normal("B", 0, sp.Symbol("r", real=True, nonzero=True)), "not known positive"),
    ],
)
def test_refuses_what_it_cannot_integrate(build, why):
    """Anything but P(x) e^{quadratic} over independent normal variables is refused, never
    guessed. sympy.stats integrates over a plain symbol named like each variable, so a symbol of
    that name in the expression or a parameter would be captured: sympy.stats.E says
    E[X x] = 1 for X ~ N(0, 1) named "x" (the truth is x E[X] = 0)."""
    X = stats.Normal("X", 0, 1)
    with pytest.raises(NotGaussian, match=why) as caught:
        gaussian.E(build(X))
    assert "\n" not in str(caught.value)


def test_only_integrals_over_the_real_line():
    u = sp.Symbol("u", real=True)
    with pytest.raises(NotGaussian, match="not over the real line"):
        evaluate(sp.Integral(sp.exp(-(u**2)), (u, 0, sp.oo)))
    assert evaluate(sp.Integral(sp.exp(-(u**2)), (u, -sp.oo, sp.oo))) == sp.sqrt(sp.pi)


def test_completing_the_square_is_checked():
    """complete_square gives mu, sigma, c with a (mu + sigma u)^2 + b (mu + sigma u) = -u^2/2 + c;
    the check refuses each of them planted wrong."""
    A, B = -1 / (2 * s_q**2) - s, m_q / s_q**2 + t
    mu, sigma, shift = complete_square(A, B)
    check_square(A, B, mu, sigma, shift)
    for wrong in [
        (mu + 1, sigma, shift),
        (mu, 2 * sigma, shift),
        (mu, sigma, shift + t),
        (mu, -sigma, shift),
    ]:
        with pytest.raises(NotGaussian, match="completing the square"):
            check_square(A, B, *wrong)
