"""The cost of multi-head attention, counted in multiply-adds, as symbolic expressions.

For N tokens, model width d = d_model and h heads of width d/h:

=====================  ======================================  ==========
term                   what is multiplied                       cost
=====================  ======================================  ==========
``projections``        three (N x d) by (d x d) products        3 N d^2
``scores``             h products (N x d/h) by (d/h x N)        N^2 d
``weighted_sum``       h products (N x N) by (N x d/h)          N^2 d
``output_projection``  (N x d) by (d x d)                       N d^2
=====================  ======================================  ==========

The softmax is small and left out, as in the module. A product of an (a x b) and a (b x c)
matrix costs a b c multiply-adds.
"""

from __future__ import annotations

from functools import cache

import sympy as sp

N = sp.Symbol("N", positive=True, integer=True)
d_model = sp.Symbol("d_model", positive=True, integer=True)
h = sp.Symbol("h", positive=True, integer=True)
d_head = d_model / h

TERMS = ("projections", "scores", "weighted_sum", "output_projection")


def matmul_cost(a: sp.Expr, b: sp.Expr, c: sp.Expr) -> sp.Expr:
    """Multiply-adds in an (a x b) by (b x c) product."""
    return a * b * c


def cost_terms() -> dict[str, sp.Expr]:
    """Each term of the cost as a product count, before simplification."""
    return {
        "projections": 3 * matmul_cost(N, d_model, d_model),
        "scores": h * matmul_cost(N, d_head, N),
        "weighted_sum": h * matmul_cost(N, N, d_head),
        "output_projection": matmul_cost(N, d_model, d_model),
    }


def total_cost() -> sp.Expr:
    """4 N d^2 + 2 N^2 d, the sum of the terms."""
    return sp.expand(sum(cost_terms().values()))


@cache
def crossover() -> sp.Rel:
    """Where the quadratic terms overtake the linear ones, solved for N: N > 2 d_model (solved
    once per process: SymPy's inequality solver takes a few tenths of a second)."""
    terms = cost_terms()
    quadratic = sp.expand(terms["scores"] + terms["weighted_sum"])
    linear = sp.expand(terms["projections"] + terms["output_projection"])
    return sp.reduce_inequalities(quadratic > linear, N)


def crossover_n(d: int) -> int:
    """The sequence length past which the N^2 terms are larger: 2 d_model.

    >>> crossover_n(4096)
    8192
    """
    rel = crossover()
    limit = rel.lhs if rel.rhs == N else rel.rhs
    return int(limit.subs(d_model, d))


def breakdown(n: int, d: int, heads: int = 1) -> dict[str, int]:
    """The cost terms, their total and the crossover at concrete sizes, as integers."""
    if n < 1 or d < 1 or heads < 1:
        raise ValueError("N, d_model and h must be positive")
    if d % heads:
        raise ValueError(f"d_model = {d} is not divisible by h = {heads}")
    values = {N: n, d_model: d, h: heads}
    out = {name: int(expr.subs(values)) for name, expr in cost_terms().items()}
    out["total"] = int(total_cost().subs(values))
    out["crossover_n"] = crossover_n(d)
    return out
