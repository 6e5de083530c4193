"""Exact expectations over independent normal random variables of ``sympy.stats``, made fast.

``sympy.stats`` states E[f(X_1, ..., X_n)] as integrals of f against the variables' densities
(``Expectation(f).rewrite(Integral)``, one integral per term of a sum), then evaluates them;
with several variables, by Meijer G-functions: about a second for Var(q k) with symbolic means
and deviations, which was most of ``verify``'s time (``python bench/gaussian_speed.py`` compares
the two on the lemmas). For normal variables every one of these integrals is Gaussian. After
expanding, the integrand is a sum of terms P(x) e^{A x^2 + B x + C}, with P a polynomial in the
variable x of integration and A < 0. Each such term is integrated exactly:

- **completing the square**: with sigma = sqrt(-1 / (2A)) and mu = -B / (2A), the substitution
  x = mu + sigma u turns A x^2 + B x into -u^2/2 - B^2 / (4A) (:func:`complete_square`; the
  identity is checked by expansion each time, not assumed), so the integral is
  sigma e^{C - B^2/(4A)} times the integral of P(mu + sigma u) e^{-u^2/2};
- **moments**: P(mu + sigma u) is expanded in powers of u, and each integral of
  u^j e^{-u^2/2} over the real line is 0 for odd j and sqrt(2 pi) (j - 1)!! for even j
  (:func:`_moment`, compared with SymPy's ``integrate`` in the tests).

The integrals are the ones ``sympy.stats`` sets up, from its own densities (or, by
:func:`joint`, one integral of the whole expression against the joint density); only their
evaluation is done here. The tests compare the results with ``sympy.stats.E`` (same set-up,
its own evaluation), with closed-form normal moments and with mpmath quadrature
(``tests/proof/test_gaussian.py``). What is not covered is refused with :class:`NotGaussian`,
never guessed: a variable that is not normal, or whose standard deviation is not known to be
positive, a symbol named like a variable (``sympy.stats`` integrates over a plain symbol of that
name, so it would be captured), a condition, an integrand not of this form, a divergent integral.

>>> from sympy import stats
>>> m = sp.Symbol("m", real=True)
>>> s = sp.Symbol("s", positive=True)
>>> X = stats.Normal("X", m, s)
>>> sp.expand(expectation(X**2))
m**2 + s**2
>>> variance(3 * X)
9*s**2
"""

from __future__ import annotations

from collections import defaultdict
from functools import cache
from typing import Any

import sympy as sp
from sympy import stats
from sympy.stats.crv_types import NormalDistribution
from sympy.stats.rv import RandomSymbol

from ..errors import SymattnError

__all__ = [
    "SYMPY_STATS",
    "E",
    "NotGaussian",
    "check_square",
    "complete_square",
    "evaluate",
    "expectation",
    "joint",
    "variance",
]


class NotGaussian(SymattnError):
    """An expectation this evaluator does not cover: use ``sympy.stats.E`` for it."""


_u = sp.Dummy("u", real=True)


def expectation(expr: Any) -> sp.Expr:
    """E[expr], for expr built from independent ``sympy.stats`` normal variables."""
    e = _expression(expr)
    if not _variables(e):
        return e
    try:
        integral = stats.Expectation(e).rewrite(sp.Integral)
    except (ValueError, TypeError) as exc:  # overlapping variables (two named alike), say
        raise NotGaussian(f"sympy.stats cannot state E[{e}] ({exc})") from None
    return evaluate(integral)


#: ``gaussian.E`` and ``gaussian.variance`` stand where ``stats.E`` and ``stats.variance`` would:
#: a check written against an ``oracle`` runs with this module or with :data:`SYMPY_STATS`.
E = expectation


def variance(expr: Any) -> sp.Expr:
    """Var(expr) = E[(expr - E[expr])^2], the definition ``sympy.stats.variance`` uses."""
    e = _expression(expr)
    return expectation(sp.expand((e - expectation(e)) ** 2))


def joint(expr: Any) -> sp.Integral:
    """E[expr] as one integral over every variable of expr against their joint density (the
    product of their ``sympy.stats`` densities: the variables are independent), unevaluated.

    ``sympy.stats`` splits a sum into one integral per term, over that term's variables only;
    here every term is integrated over all of them, so comparing the two tests linearity of E
    (and that each density integrates to 1) rather than repeating the same integrals.
    """
    e = _expression(expr)
    variables = sorted(_variables(e), key=str)
    density = sp.Mul(*(x.pspace.distribution.pdf(x.symbol) for x in variables))
    body = e.xreplace({x: x.symbol for x in variables}) * density
    return sp.Integral(body, *((x.symbol, -sp.oo, sp.oo) for x in variables))


def evaluate(integral: sp.Basic) -> sp.Expr:
    """Every integral in ``integral`` (of the Gaussian form, over the real line) done exactly."""
    # replace() works from the inside out: an integral is evaluated after those it holds.
    try:
        return sp.expand(sp.sympify(integral).replace(lambda y: isinstance(y, sp.Integral), _integral))
    except sp.PolynomialError as exc:
        raise NotGaussian(f"not a Gaussian integral ({exc})") from None


class _SympyStats:
    """The reference oracle: ``sympy.stats``' own evaluation of the same expectations (Meijer
    G-functions), far slower; the tests run the lemmas with it too."""

    E = staticmethod(stats.E)
    variance = staticmethod(stats.variance)

    @staticmethod
    def evaluate(integral: sp.Integral) -> sp.Expr:
        return integral.doit()


SYMPY_STATS = _SympyStats()


def _expression(expr: Any) -> sp.Expr:
    try:
        e = sp.sympify(expr, strict=True)  # never a string
    except sp.SympifyError:
        raise NotGaussian(f"{type(expr).__name__} is not an expression") from None
    if not isinstance(e, sp.Expr) or getattr(e, "is_Matrix", False):
        raise NotGaussian(f"the expectation of {type(e).__name__} {e} is not covered")
    return e


def _variables(e: sp.Expr) -> set[RandomSymbol]:
    """The normal variables of e, after the checks that make their integrals safe to evaluate."""
    variables = stats.random_symbols(e)
    names = {x.symbol.name for x in variables}
    if len(names) < len(variables):  # sympy.stats would integrate both over one symbol
        raise NotGaussian("two random variables share a name")
    for x in variables:
        distribution = getattr(x.pspace, "distribution", None)
        if not isinstance(distribution, NormalDistribution):
            raise NotGaussian(f"{x} is not a normal random variable")
        if not distribution.std.is_positive:
            raise NotGaussian(f"the standard deviation of {x} ({distribution.std}) is not known positive")
        # (a normal variable with a random mean or deviation is a compound one, refused above)
        parameters = distribution.mean.free_symbols | distribution.std.free_symbols
        captured = {p.name for p in parameters | (e.free_symbols - set(variables))} & names
        if captured:
            raise NotGaussian(f"a symbol is named like a random variable ({', '.join(sorted(captured))})")
    return set(variables)


def _integral(integral: sp.Integral) -> sp.Expr:
    f = integral.function
    for limit in integral.limits:  # the first limit is the innermost integration
        if len(limit) != 3 or (limit[1], limit[2]) != (-sp.oo, sp.oo):
            raise NotGaussian(f"an integral over {limit}, not over the real line")
        f = _over_line(f, limit[0])
    return f


@cache
def _over_line(f: sp.Expr, x: sp.Symbol) -> sp.Expr:
    """The integral of f over the real line in x, for f a sum of P(x) e^{quadratic in x} (kept:
    the lemmas and checks ask for the same integrals again and again)."""
    if f == 0:
        return sp.S.Zero
    outside, f = f.as_independent(x, as_Add=False)  # factors free of x stay out of the expansion
    groups: dict[tuple[sp.Expr, sp.Expr], list[sp.Expr]] = defaultdict(list)
    for term in sp.Add.make_args(sp.expand(f)):
        exponent, rest = sp.S.Zero, []
        for factor in sp.Mul.make_args(term):
            if isinstance(factor, sp.exp):  # e^{C} with C free of x joins the exponent too
                exponent += factor.args[0]
            else:
                rest.append(factor)
        quadratic = _poly(exponent, x)
        if quadratic.degree() > 2:
            raise NotGaussian(f"e^({exponent}) is not the exponential of a quadratic in {x}")
        a, b, c = ([sp.S.Zero] * 3 + quadratic.all_coeffs())[-3:]
        groups[(a, b)].append(sp.Mul(*rest) * sp.exp(c))
    return outside * sp.Add(
        *(
            coeff * _power(n, a, b)
            for (a, b), parts in groups.items()
            for (n,), coeff in _poly(sp.Add(*parts), x).terms()
            if coeff != 0
        )
    )


def _poly(e: sp.Expr, x: sp.Symbol) -> sp.Poly:
    try:
        p = sp.Poly(e, x)
    except sp.PolynomialError:
        raise NotGaussian(f"{e} is not a polynomial in {x}") from None
    if any(coeff.has(x) for coeff in p.coeffs()):
        raise NotGaussian(f"{e} is not a polynomial in {x}")
    return p


@cache
def _power(n: int, a: sp.Expr, b: sp.Expr) -> sp.Expr:
    """The integral of x^n e^{a x^2 + b x} over the real line, for a < 0."""
    if not sp.sympify(a).is_negative:
        raise NotGaussian(f"the integral of e^({a} x^2 + ...) over the real line does not converge")
    mu, sigma, shift = complete_square(a, b)
    shifted = sp.Poly(sp.expand((mu + sigma * _u) ** n), _u)
    total = sp.Add(*(coeff * _moment(j) for (j,), coeff in shifted.terms()))
    return sigma * sp.exp(shift) * total


def complete_square(a: sp.Expr, b: sp.Expr) -> tuple[sp.Expr, sp.Expr, sp.Expr]:
    """mu, sigma > 0 and c with a (mu + sigma u)^2 + b (mu + sigma u) = -u^2/2 + c, for a < 0;
    the identity is checked by expanding (:func:`check_square`)."""
    mu, sigma, shift = -b / (2 * a), sp.sqrt(-1 / (2 * a)), -(b**2) / (4 * a)
    check_square(a, b, mu, sigma, shift)
    return mu, sigma, shift


def check_square(a: sp.Expr, b: sp.Expr, mu: sp.Expr, sigma: sp.Expr, shift: sp.Expr) -> None:
    """Raise unless a (mu + sigma u)^2 + b (mu + sigma u) expands to -u^2/2 + shift, sigma > 0."""
    square = sp.Poly(sp.expand(a * (mu + sigma * _u) ** 2 + b * (mu + sigma * _u)), _u)
    coeffs = [sp.cancel(t) for t in ([sp.S.Zero] * 3 + square.all_coeffs())[-3:]]
    if coeffs != [sp.Rational(-1, 2), 0, sp.cancel(shift)] or not sigma.is_positive:
        raise NotGaussian(f"completing the square of ({a}) x^2 + ({b}) x failed")


@cache
def _moment(j: int) -> sp.Expr:
    """The integral of u^j e^{-u^2/2} over the real line: 0 for odd j (the integrand is odd),
    sqrt(2 pi) (j - 1)!! for even j (integrating by parts, the integral for j is j - 1 times
    the one for j - 2). The tests compare it with SymPy's ``integrate`` and mpmath quadrature
    for j up to 12, and with 2^((j+1)/2) Gamma((j+1)/2) up to 40; this closed form spares each
    process SymPy's first Meijer G integral (0.3 s)."""
    if j < 0:
        raise ValueError(f"no moment of order {j}")
    return sp.S.Zero if j % 2 else sp.sqrt(2 * sp.pi) * sp.factorial2(j - 1)
