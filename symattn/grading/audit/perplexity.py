r"""Perplexity: the exponential of the loss is a geometric mean of the probabilities.

A text that writes its loss as a mean of negative log probabilities, ``L = -\frac{1}{BK}
\sum_{b,s} \ln p(\ldots)``, and then the perplexity as ``e^{L} = \left(\prod_{b,s} p(\ldots)
\right)^{-1/BK}`` states an identity a reader checks: e^{c ∑ ln p} = (∏ p)^c for every c and
positive p (SymPy proves it once, below). So the exponent must be the loss's coefficient c and
the product run over the sum's indices; the probabilities' arguments are not compared (the
claim is the exponent's).

Read only where the text wrote the loss so before, the perplexity's formula sets e^L (or
exp(L)) equal to a power of a product, and the loss's coefficient and the exponent are read.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable

import sympy as sp

from .context import AuditContext
from .document import Line
from .match import Claim, inside
from .said import Math, Said

RULE = "perplexity: e^(c ∑ ln p) = (∏ p)^c, so e^L is the product's power by the loss's coefficient"
#: ``L = -((1)/(BK)) sum_(b,s) ln p(...)``: the loss, its coefficient and the sum's indices.
_LOSS = re.compile(r"^\s*(?P<name>[A-Za-z]\w*)\s*=\s*(?P<c>[^=]*?)\s*sum_\((?P<indices>[^()]*)\)\s*ln\s+p\(")
#: ``exp(L) = (prod_(b, s) p(...) )^(...)``: the perplexity as a power of a product.
_POWER = re.compile(
    r"exp\(\s*(?P<name>[A-Za-z]\w*)\s*\)\s*=\s*\(\s*prod_\((?P<indices>[^()]*)\)\s*p\(.*\)\s*\)\s*\^\s*(?P<e>\(.*\))\s*$"
)


def perplexity_claims(au: AuditContext, line: Line, add: Callable, covered: list) -> None:
    for _tex, plain, start, end in line.formulas:
        m = _POWER.search(plain.strip().rstrip(".,;"))
        if m is None or inside(covered, start, end):
            continue
        loss = au.doc.once("losses", _losses).get(m.group("name"))
        if loss is None or loss[0] >= line.number:
            continue
        _, coefficient, indices = loss
        exponent = _read(m.group("e"))
        if exponent is None or _names(m.group("indices")) != indices:
            continue
        _proved()
        ok = sp.simplify(exponent - coefficient) == 0
        said = Said("e^(c ∑ ln p) = (∏ p)^c with c = ", Math(coefficient)) + (
            "" if ok else Said(", not ", Math(exponent))
        )
        add(Claim.judged(line.number, line.text[start:end], ok, said, RULE, [(start, end)]))


def _losses(doc) -> dict[str, tuple[int, sp.Expr, set[str]]]:
    """Each loss written as c ∑ ln p: its line, its coefficient and its sum's indices."""
    out: dict[str, tuple[int, sp.Expr, set[str]]] = {}
    for line in doc.lines:
        for _tex, plain, _s, _e in line.formulas:
            m = _LOSS.match(plain)
            coefficient = _read(m.group("c")) if m else None
            if coefficient is not None and m.group("name") not in out:
                out[m.group("name")] = (line.number, coefficient, _names(m.group("indices")))
    return out


def _names(indices: str) -> set[str]:
    return set(re.findall(r"[a-z]'*", indices))


def _read(text: str) -> sp.Expr | None:
    """A coefficient in the text's letters (``-1/BK`` is -1/(B·K): a run of capitals a product)."""
    from . import letters

    return letters.read(text)


@functools.cache
def _proved() -> None:
    """e^(c (ln p_1 + ln p_2 + ln p_3)) = (p_1 p_2 p_3)^c for positive p and real c, proved two
    ways by SymPy (the difference simplified, and the logarithm of the product expanded)."""
    c = sp.Symbol("c", real=True)
    p = sp.symbols("p1:4", positive=True)
    logs = c * sum(sp.log(x) for x in p)
    right = sp.Mul(*p) ** c
    if sp.simplify(sp.exp(logs) - right) != 0 or sp.simplify(sp.expand_log(sp.log(right)) - logs) != 0:
        raise ArithmeticError("SymPy did not prove e^(c ∑ ln p) = (∏ p)^c")  # never taken on trust
