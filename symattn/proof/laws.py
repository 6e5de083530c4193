r"""A law stated in prose, ``A \sim L``, is checked like any other relation of a page.

A page says ``$\lVert q \rVert^2 \sim \chi^2_d$`` or ``$K \sim \mathcal{N}(0, 1)$``. Such a
statement holds when

- ``A`` is a ``sympy.stats`` random variable of the derivation (found by its name) whose
  distribution is ``L``, its parameters proved equal; or
- the derivation claims, or a step of it proves, ``A``'s transform: ``E[e^{c A}] = T_L(c)`` for
  some ``c`` free of ``A``'s symbols, where ``T_L`` is the law's moment generating function (a
  distribution with an MGF is determined by it near 0). verify proves the claim or the step.

A new name given its law where it is written (``g_j \sim \mathcal{N}(0, 1)``) is a definition.
The laws read: ``\chi^2_\nu`` (MGF ``(1 - 2c)^{-\nu/2}``) and ``\mathcal{N}(\mu, \sigma^2)``
(MGF ``e^{\mu c + \sigma^2 c^2 / 2}``). Any other law fails, naming it, a new name's too: a law
symattn cannot read is not checked, so it is not shown as checked.
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
    """The law a read right side names, or None."""
    if isinstance(value, sp.Symbol) and (m := _CHI2.match(value.name)):
        try:
            found = [r.value() for r in readings(m.group(1), vocab)]
        except (ReadError, ValueError, TypeError):
            return None
        return Law("chi2", (found[0],)) if found else None
    if isinstance(value, AppliedUndef) and str(value.func) == _NORMAL and len(value.args) == 2:
        return Law("normal", tuple(value.args))
    return None


def law_established(d: Any, lhs: Any, rhs: Any, vocab: Vocabulary, defining: bool = False) -> str:
    """Why ``lhs ~ rhs`` is not established by the derivation; "" where it is. ``defining``: the
    left side is a new name, given its law here (it must be a law symattn reads)."""
    law = law_read(rhs, vocab)
    if law is None:
        return f"the law {sp.sstr(rhs)} is not one symattn reads (chi-square or normal), so it is not checked"
    if defining:
        return ""
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
    """"" if the random variable ``x`` has the law, else why."""
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
    if c == 0 or (symbols and c.has(*symbols)):
        return None
    return c


def _equal(a: Any, b: Any) -> bool:
    try:
        return prove_equal(sp.sympify(a), sp.sympify(b)) is not None
    except Exception:
        return False
