"""Exact and symbolic attention, stage by stage.

The stage chain of :mod:`symattn.core.definition` is evaluated on explicit SymPy matrices: each
stage's expression has its inputs and the previous stage's placeholder replaced by explicit
matrices and is then ``doit()``-ed. Rational inputs give closed forms (exponentials of
algebraic numbers); matrices of symbols give symbolic entries. Evaluating stage by stage keeps
the work row by row instead of building one giant expression.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import sympy as sp

from ..display import Shown
from ..errors import InputError
from .definition import STAGES, Shape, check_shapes, define, scale_factor
from .digits import decimal_string
from .inputs import matrix_from_rows
from .masks import Mask

#: Largest N, M, d_k or d_v evaluated exactly (the cost grows like N^2 M d).
MAX_EXACT_SIZE = 64
#: Largest size for symbolic entries (expression size grows like N^3).
MAX_SYMBOLIC_SIZE = 6
#: Most decimal digits in a numerator or denominator of an exact stage entry. Entries with
#: many digits and different denominators can need integers far longer than the input's.
MAX_EXACT_DIGITS = 3000


@dataclass(frozen=True)
class AttentionSteps(Shown):  # Jupyter shows it (symattn.present.jupyter)
    """Every intermediate result of one attention computation, exactly.

    ``stages`` maps each of ``scores``, ``scaled``, ``masked`` (only with a mask), ``weights``
    and ``output`` to an explicit SymPy matrix.
    """

    q: sp.ImmutableMatrix
    k: sp.ImmutableMatrix
    v: sp.ImmutableMatrix
    mask: Mask
    scale: sp.Expr
    stages: dict[str, sp.ImmutableMatrix] = field(default_factory=dict)

    @property
    def shape(self) -> Shape:
        return check_shapes(self.q.shape, self.k.shape, self.v.shape)

    @property
    def mask_matrix(self) -> sp.ImmutableMatrix | None:
        return None if self.mask.is_none else self.mask.exact(self.shape.n, self.shape.m)

    @property
    def output(self) -> sp.ImmutableMatrix:
        return self.stages["output"]

    @property
    def weights(self) -> sp.ImmutableMatrix:
        return self.stages["weights"]

    def stage(self, name: str) -> sp.ImmutableMatrix:
        """One stage; ``masked`` falls back to ``scaled`` when there is no mask."""
        if name == "masked" and name not in self.stages:
            return self.stages["scaled"]
        return self.stages[name]

    def decimals(self, name: str, digits: int = 15) -> list[list[str]]:
        """A stage's entries as correctly rounded decimal strings (``-inf`` when blocked)."""
        m = self.stage(name)
        return [[decimal_string(m[i, j], digits) for j in range(m.cols)] for i in range(m.rows)]


def attention(
    q: object, k: object, v: object, mask: Mask | str | None = None, scale: bool | sp.Expr = True
) -> AttentionSteps:
    """Attention evaluated exactly, keeping every stage.

    Entries may be integers, decimal strings, ``"p/q"`` strings, SymPy numbers or symbols.

    >>> steps = attention([[3, -3], [1, 1]], [[-3, 3], [1, 1]], [[0, -1], [1, 2]], "causal")
    >>> steps.stages["weights"][1, :]
    Matrix([[1/(1 + exp(sqrt(2))), exp(sqrt(2))/(1 + exp(sqrt(2)))]])
    """
    qm, km, vm = (_explicit(a, name) for a, name in ((q, "Q"), (k, "K"), (v, "V")))
    return _evaluate(qm, km, vm, mask, scale, MAX_EXACT_SIZE)


def symbolic_attention(
    n: int,
    m: int,
    d_k: int,
    d_v: int,
    mask: Mask | str | None = None,
    scale: bool | sp.Expr = True,
) -> AttentionSteps:
    """Attention on matrices of real symbols q_ij, k_ij, v_ij (small sizes only)."""
    q = symbol_matrix("q", n, d_k)
    k = symbol_matrix("k", m, d_k)
    v = symbol_matrix("v", m, d_v)
    return _evaluate(q, k, v, mask, scale, MAX_SYMBOLIC_SIZE)


def symbol_matrix(name: str, rows: int, cols: int) -> sp.ImmutableMatrix:
    """A rows x cols matrix of real symbols ``name_{ij}`` (1-based, as the module counts)."""
    return sp.ImmutableMatrix(rows, cols, lambda i, j: sp.Symbol(f"{name}_{{{i + 1}{j + 1}}}", real=True))


def _evaluate(
    q: sp.ImmutableMatrix,
    k: sp.ImmutableMatrix,
    v: sp.ImmutableMatrix,
    mask: Mask | str | None,
    scale: bool | sp.Expr,
    limit: int,
) -> AttentionSteps:
    shape = check_shapes(q.shape, k.shape, v.shape)
    if max(shape.n, shape.m, shape.d_k, shape.d_v) > limit:
        raise InputError(f"too large to evaluate exactly: sizes above {limit} are not accepted")
    mask = mask if isinstance(mask, Mask) else Mask.parse(mask)
    mask.check_table(shape.n, shape.m)
    definition = define(shape, masked=not mask.is_none, scale=scale)

    values: dict[sp.MatrixSymbol, sp.ImmutableMatrix] = dict(
        zip(definition.inputs, (q, k, v, mask.exact(shape.n, shape.m)), strict=False)
    )
    stages: dict[str, sp.ImmutableMatrix] = {}
    for name, expr in definition.stages.items():
        result = sp.ImmutableMatrix(expr.xreplace(values).doit())
        if name == "output":
            # Each output entry is a sum of weights sharing one denominator per row;
            # `together` writes it over that denominator (a rational-function identity).
            result = result.applyfunc(sp.together)
        _check_size(name, result)
        stages[name] = result
        values[definition.placeholders[name]] = result
    assert tuple(stages) == tuple(s for s in STAGES if s in stages)
    return AttentionSteps(q, k, v, mask, scale_factor(shape.d_k, scale), stages)


def _check_size(name: str, m: sp.MatrixBase) -> None:
    bits = int(MAX_EXACT_DIGITS * 3.3219280948873626) + 1
    for entry in m:
        for r in entry.atoms(sp.Rational):
            if max(int(r.p).bit_length(), int(r.q).bit_length()) > bits:
                raise InputError(
                    f"too large to evaluate exactly: the {name} need integers of more than "
                    f"{MAX_EXACT_DIGITS} digits (use fewer digits or a common denominator)"
                )


def _explicit(a: object, name: str) -> sp.ImmutableMatrix:
    if isinstance(a, sp.MatrixBase) and not all(x.is_Rational for x in a):
        return sp.ImmutableMatrix(a)  # symbolic or irrational entries, given by a Python caller
    return matrix_from_rows(a, name)
