"""Exact expectations over independent normal random variables of ``sympy.stats``, made fast.

``sympy.stats`` states E[f(X_1, ..., X_n)] as an integral of f against the joint density
(``Expectation(f).rewrite(Integral)``), then evaluates it with Meijer G-functions: about a
second for Var(q k) with symbolic means and deviations, most of ``verify``'s time. For normal
variables every one of these integrals is Gaussian. After expanding, the integrand is a sum of
terms P(x) e^{A x^2 + B x + C}, with P a polynomial in the variable x of integration and A < 0.
Each such term is integrated exactly:

- **completing the square**: with sigma = sqrt(-1 / (2A)) and mu = -B / (2A), the substitution
  x = mu + sigma u turns A x^2 + B x into -u^2/2 - B^2 / (4A) (:func:`complete_square`; the
  identity is checked by expansion each time, not assumed), so the integral is
  sigma e^{C - B^2/(4A)} times the integral of P(mu + sigma u) e^{-u^2/2};
- **moments**: P(mu + sigma u) is expanded in powers of u, and each integral of
  u^j e^{-u^2/2} over the real line is computed by SymPy's ``integrate``.

The integral is the one ``sympy.stats`` sets up, from its own densities; only its evaluation is
done here, and the tests compare the result with ``sympy.stats.E`` itself
(``tests/proof/test_gaussian.py``). Anything else (a variable that is not normal, an integrand
that is not of this form, a divergent integral) is refused with :class:`NotGaussian`.

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

from ..errors import SymattnError

__all__ = ["E", "NotGaussian", "check_square", "complete_square", "expectation", "variance"]


class NotGaussian(SymattnError):
    """An expectation this evaluator does not cover: use ``sympy.stats.E`` for it."""


_u = sp.Dummy("u", real=True)


def expectation(expr: Any) -> sp.Expr:
    """E[expr], for expr built from independent ``sympy.stats`` normal variables."""
    e = sp.sympify(expr)
    variables = stats.random_symbols(e)
    if not variables:
        return e
    for x in variables:
        if not isinstance(getattr(x.pspace, "distribution", None), NormalDistribution):
            raise NotGaussian(f"{x} is not a normal random variable")
    integral = stats.Expectation(e).rewrite(sp.Integral)
    # replace() works from the inside out: an integral is evaluated after those it holds.
    return sp.expand(integral.replace(lambda y: isinstance(y, sp.Integral), _integral))


#: ``gaussian.E`` and ``gaussian.variance`` stand where ``stats.E`` and ``stats.variance`` would:
#: a check written against an ``oracle`` runs with either module.
E = expectation


def variance(expr: Any) -> sp.Expr:
    """Var(expr) = E[(expr - E[expr])^2], the definition ``sympy.stats.variance`` uses."""
    e = sp.sympify(expr)
    return expectation(sp.expand((e - expectation(e)) ** 2))


def _integral(integral: sp.Integral) -> sp.Expr:
    f = integral.function
    for limit in integral.limits:  # the first limit is the innermost integration
        if len(limit) != 3 or (limit[1], limit[2]) != (-sp.oo, sp.oo):
            raise NotGaussian(f"an integral over {limit}, not over the real line")
        f = _over_line(f, limit[0])
    return f


def _over_line(f: sp.Expr, x: sp.Symbol) -> sp.Expr:
    """The integral of f over the real line in x, for f a sum of P(x) e^{quadratic in x}."""
    groups: dict[tuple[sp.Expr, sp.Expr], sp.Expr] = defaultdict(lambda: sp.S.Zero)
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
        groups[(a, b)] += sp.Mul(*rest) * sp.exp(c)
    return sp.Add(*(_gaussian(_poly(p, x), a, b) for (a, b), p in groups.items()))


def _poly(e: sp.Expr, x: sp.Symbol) -> sp.Poly:
    try:
        p = sp.Poly(e, x)
    except sp.PolynomialError:
        raise NotGaussian(f"{e} is not a polynomial in {x}") from None
    if any(coeff.has(x) for coeff in p.coeffs()):
        raise NotGaussian(f"{e} is not a polynomial in {x}")
    return p


def _gaussian(p: sp.Poly, a: sp.Expr, b: sp.Expr) -> sp.Expr:
    """The integral of p(x) e^{a x^2 + b x} over the real line, for a < 0."""
    if p.is_zero:
        return sp.S.Zero
    if not sp.sympify(a).is_negative:
        raise NotGaussian(f"the integral of e^({a} x^2 + ...) over the real line does not converge")
    mu, sigma, shift = complete_square(a, b)
    shifted = sp.Poly(sp.expand(p.as_expr().subs(p.gen, mu + sigma * _u)), _u)
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
    """The integral of u^j e^{-u^2/2} over the real line, by SymPy."""
    return sp.integrate(_u**j * sp.exp(-(_u**2) / 2), (_u, -sp.oo, sp.oo))
