r"""A law stated in prose, ``A \sim L``, is checked like any other relation of a page.

A page says ``$\lVert q \rVert^2 \sim \chi^2_d$`` or ``$K \sim \mathcal{N}(0, 1)$``. Such a
statement holds when

- ``A`` is a ``sympy.stats`` random variable of the derivation (found by its name) whose
  distribution is ``L``, its parameters proved equal; or
- the derivation claims, or a step of it proves, ``A``'s transform: ``E[e^{c A}] = T_L(c)`` for
  some ``c`` free of ``A``'s symbols, where ``T_L`` is the law's moment generating function (a
  distribution with an MGF is determined by it near 0). verify proves the claim or the step.

The claim's ``c`` must be a variable (a value of the MGF at one number determines no law). A
law said of a name the proof does not know (``g_j \sim \mathcal{N}(0, 1)``, a name the page
defines in words) is not checked: the derivation lists it among its unchecked formulas, with
why, or verify fails. The laws read: ``\chi^2_\nu`` (MGF ``(1 - 2c)^{-\nu/2}``, ``\nu`` known
positive) and ``\mathcal{N}(\mu, \sigma^2)`` (MGF ``e^{\mu c + \sigma^2 c^2 / 2}``,
``\sigma^2`` known nonnegative). Any other law fails, naming it: a law symattn cannot read is
not checked, so it is not shown as checked.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import sympy as sp
from sympy import stats
from sympy.core.function import AppliedUndef
from sympy.stats.crv_types import ChiSquaredDistribution, NormalDistribution
from sympy.stats.rv import RandomSymbol

from .equivalence import prove_equal
from .operators import Ex
from .reader import ReadError, Vocabulary, readings

#: ``\chi^2_\nu`` as the reader names it: a symbol printed ``\chi_{\nu}^{2}``.
_CHI2 = re.compile(r"^\\chi_\{(.+)\}\^\{2\}$")
_NORMAL = r"\mathcal{N}"


@dataclass(frozen=True)
class Law:
    """A distribution named on a page: its kind and its parameters."""

    kind: str  # "chi2" or "normal"
    parameters: tuple[sp.Expr, ...]

    def __str__(self) -> str:
        if self.kind == "chi2":
            return f"chi2({sp.sstr(self.parameters[0])})"
        return f"N({', '.join(map(sp.sstr, self.parameters))})"

    def mgf(self, c: sp.Expr) -> sp.Expr:
        """E[e^{c X}] for X with this law."""
        if self.kind == "chi2":
            return (1 - 2 * c) ** (-self.parameters[0] / 2)
        mean, var = self.parameters
        return sp.exp(mean * c + var * c**2 / 2)


def law_read(value: Any, vocab: Vocabulary) -> Law | None:
    """The law a read right side names (``\\chi^2_\\nu``, also written ``\\chi_\\nu^2``, or
    ``\\mathcal{N}(\\mu, \\sigma^2)``), or None. A law's parameters must be possible ones:
    degrees of freedom known positive, a variance known nonnegative."""
    name = None
    if isinstance(value, sp.Symbol):
        name = value.name
    elif isinstance(value, sp.Pow) and value.exp == 2 and isinstance(value.base, sp.Symbol):
        name = value.base.name + "^{2}"  # \chi_d^2: the square of a name \chi_{d}
    if name is not None and (m := _CHI2.match(name)):
        try:
            found = [r.value() for r in readings(m.group(1), vocab)]
        except (ReadError, ValueError, TypeError):
            return None
        if found and sp.sympify(found[0]).is_positive:
            return Law("chi2", (found[0],))
        return None
    normal = isinstance(value, AppliedUndef) and str(value.func) == _NORMAL and len(value.args) == 2
    if normal and sp.sympify(value.args[1]).is_nonnegative:
        return Law("normal", tuple(value.args))
    return None


def law_established(d: Any, lhs: Any, rhs: Any, vocab: Vocabulary, new_name: bool = False) -> str:
    """Why ``lhs ~ rhs`` is not established by the derivation; "" where it is. ``new_name``: the
    left side is a name the proof does not know, so nothing can establish its law."""
    law = law_read(rhs, vocab)
    if law is None:
        return (
            f"the law {sp.sstr(rhs)} is not one symattn reads (chi-square with positive degrees of "
            "freedom, or normal with a nonnegative variance), so it is not checked"
        )
    if new_name or isinstance(lhs, sp.Tuple):
        return (
            f"{sp.sstr(lhs)} is no variable or expression of the proof, so its law is not checked "
            "(a law said of a name the page defines in words belongs in the derivation's unchecked "
            "formulas, with why)"
        )
    variables = _random_symbols(d)
    if isinstance(lhs, sp.Symbol) and lhs.name in variables:
        return _declared(variables[lhs.name], law)
    for claimed, value in _equalities(d):
        c = _coefficient(claimed, lhs)
        if c is not None and _equal(value, law.mgf(c)):
            return ""
    return (
        f"no claim gives its moment generating function: claim E[exp(c ({sp.sstr(lhs)}))] = "
        f"{sp.sstr(law.mgf(sp.Symbol('c')))} for it to be checked"
    )


def _equalities(d: Any) -> list[tuple[Any, Any]]:
    """The equalities the derivation states: its claims, then its steps (each step's sides)."""
    pairs = [(c[0], c[1]) for c in getattr(d, "claims", []) if len(c) == 2 or c[2] == "="]
    for k, step in enumerate(getattr(d, "steps", [])):
        if step.relation == "=" and step.given is None:
            pairs.append((d.lhs_of(k), step.rhs))
    return pairs


def _declared(x: RandomSymbol, law: Law) -> str:
    """ "" if the random variable ``x`` has the law, else why."""
    dist = getattr(x.pspace, "distribution", None)
    if law.kind == "chi2" and isinstance(dist, ChiSquaredDistribution) and _equal(dist.k, law.parameters[0]):
        return ""
    if (
        law.kind == "normal"
        and isinstance(dist, NormalDistribution)
        and _equal(dist.mean, law.parameters[0])
        and _equal(dist.std**2, law.parameters[1])
    ):
        return ""
    return f"{x} is declared with another law: {dist}, not {law}"


def _random_symbols(d: Any) -> dict[str, RandomSymbol]:
    """The derivation's sympy.stats variables, by name, in its claims and steps."""
    found: dict[str, RandomSymbol] = {}
    sides = [x for claim in getattr(d, "claims", []) for x in claim[:2]]
    sides += [x for s in getattr(d, "steps", []) for x in (s.lhs, s.rhs)]
    for side in sides:
        if isinstance(side, sp.Basic):
            for x in side.atoms(RandomSymbol):
                found.setdefault(x.symbol.name, x)
    return found


def _coefficient(claimed: Any, variable: Any) -> sp.Expr | None:
    """c where ``claimed`` is E[e^{c variable}] (symattn's Ex or sympy.stats' Expectation), c free
    of the variable's symbols and not 0; else None."""
    if not isinstance(claimed, (Ex, stats.Expectation)) or not claimed.args:
        return None
    inner = claimed.args[0]
    if not isinstance(inner, sp.exp) or not isinstance(variable, sp.Expr):
        return None
    c = sp.simplify(inner.args[0] / variable)
    symbols = variable.free_symbols | set(variable.atoms(sp.Indexed))
    # c must be a variable of the claim (s, t a): a value of the MGF at one number does not
    # determine a law, its values on an interval do.
    if not c.free_symbols or (symbols and c.has(*symbols)):
        return None
    return c


def _equal(a: Any, b: Any) -> bool:
    try:
        return prove_equal(sp.sympify(a), sp.sympify(b)) is not None
    except Exception:
        return False
