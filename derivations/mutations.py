"""Planted errors: each derivation with one deliberate mathematical mistake, which verify must catch.

A checker that cannot fail is worse than none. Each :class:`Mutation` takes a fresh copy of a
derivation and plants one error: a wrong right-hand side, a false lemma body, a misrounded
figure, a theorem claiming more than its proof, a constant off by 10^-20.
``tests/derivations/test_mutations.py`` runs every one and asserts that verification fails at
the step (or claim, or lemma) planted; ``symattn build`` runs them too and prints the count on
the docs' index page.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Iterator, Sequence
from importlib import import_module
from types import FunctionType

import sympy as sp

from symattn._text import exception_line as _why
from symattn.errors import SymattnError
from symattn.proof import Derivation, Lemma, LemmaFailed, RenderingFailed, StatementFailed, StepFailed
from symattn.proof.engine import NO_CLAIMS, DerivationReport, verify_many
from symattn.proof.operators import Ex, Var

from . import NAMES
from .planted import Mutation

TINY = sp.Rational(1, 10**20)


def _find(d: Derivation, text: str) -> int:
    """The index of the only step whose rule contains ``text``."""
    found = [k for k, s in enumerate(d.steps) if text == s.rule] or [
        k for k, s in enumerate(d.steps) if text in s.rule
    ]
    if len(found) != 1:
        raise LookupError(f"{d.name}: {len(found)} steps have {text!r} in their rule")
    return found[0]


Change = Callable[[Derivation, sp.Basic], sp.Basic]


def _side(text: str, side: str, new: Change) -> Callable[[Derivation], int]:
    """Replace the field ``side`` (``rhs``, ``shown_rhs``) of the step whose rule contains ``text``."""

    def plant(d: Derivation) -> int:
        k = _find(d, text)
        d.steps[k] = dataclasses.replace(d.steps[k], **{side: new(d, getattr(d.steps[k], side))})
        return k + 1

    return plant


def _shown(text: str, new: Callable[[Derivation, sp.Basic], sp.Basic]) -> Callable[[Derivation], int]:
    """Change the right-hand side shown (not the one checked) of the step whose rule contains ``text``."""
    return _side(text, "shown_rhs", new)


def _rhs(text: str, new: Callable[[Derivation, sp.Basic], sp.Basic]) -> Callable[[Derivation], int]:
    """Replace the right-hand side of the step whose rule contains ``text``."""
    return _side(text, "rhs", new)


def _figure(text: str, stated: str) -> Callable[[Derivation], int]:
    return _rhs(text, lambda d, old: stated)


def _false_lemma(text: str) -> Callable[[Derivation], str]:
    """Give the step's lemma a body that is false at its first size."""

    def plant(d: Derivation) -> str:
        k = _find(d, text)
        lemma = d.steps[k].lemma
        assert lemma is not None
        _swap_lemma(d, k, dataclasses.replace(lemma, verify=lambda n: False))
        return "lemma"

    return plant


def _lemma_sizes(text: str, sizes: tuple[int, ...], largest: str) -> Callable[[Derivation], int]:
    """Check the step at other sizes, its lemma giving a reason for stopping below 5."""

    def plant(d: Derivation) -> int:
        k = _find(d, text)
        lemma = d.steps[k].lemma
        assert lemma is not None
        _swap_lemma(d, k, dataclasses.replace(lemma, largest=largest))
        d.steps[k] = dataclasses.replace(d.steps[k], sizes=sizes)
        return k + 1

    return plant


def _claim(index: int, new: Callable[[sp.Basic], sp.Basic]) -> Callable[[Derivation], str]:
    def plant(d: Derivation) -> str:
        lhs, rhs = d.claims[index]
        d.claims[index] = (lhs, new(rhs))
        return "claim"

    return plant


def _definition(text: str, new: Callable[[dict], dict]) -> Callable[[Derivation], int]:
    def plant(d: Derivation) -> int:
        k = _find(d, text)
        d.steps[k] = dataclasses.replace(d.steps[k], definition=new(dict(d.steps[k].definition or {})))
        return k + 1

    return plant


def _certificate(text: str, new: sp.Basic) -> Callable[[Derivation], int]:
    def plant(d: Derivation) -> int:
        k = _find(d, text)
        d.steps[k] = dataclasses.replace(d.steps[k], certificate=new)
        return k + 1

    return plant


def _vs():
    from . import variance_scaling

    return variance_scaling


def _sj():
    from . import softmax_jacobian

    return softmax_jacobian


def _pe():
    from . import permutation_equivariance

    return permutation_equivariance


def _mf():
    from . import multihead_flops

    return multihead_flops


def _sr():
    from . import score_reduction

    return score_reduction


def _ah():
    from . import attention_by_hand

    return attention_by_hand


MUTATIONS: list[Mutation] = [
    # -- attention_by_hand ---------------------------------------------------------------
    Mutation(
        "attention_by_hand",
        "a score off by one: S[1,1] = -17",
        _rhs("is query $i$ dotted with key $j$", lambda d, m: m + sp.Matrix([[1, 0], [0, 0]])),
    ),
    Mutation("attention_by_hand", "a swapped digit: sqrt(2) ≈ 1.441", _figure("and $[0, 1.414]$", "1.441")),
    Mutation(
        "attention_by_hand",
        "e^sqrt(2) ≈ 4.131 (digits swapped)",
        _figure("module's row $[1, 4.113]$", "4.131"),
    ),
    Mutation(
        "attention_by_hand",
        "a weight off by 10^-20",
        _rhs("row 1 keeps its only key", lambda d, m: m + sp.Matrix([[0, 0], [TINY, 0]])),
    ),
    Mutation(
        "attention_by_hand",
        "the mask said to change nothing: both sides causal",
        _rhs("the mask changes the answer", lambda d, m: _ah().attention(*_ah_inputs(), "causal").output),
    ),
    Mutation("attention_by_hand", "the output figure 1.413 → 1.414", _figure("second entry", "1.414")),
    # -- variance_scaling ----------------------------------------------------------------
    Mutation(
        "variance_scaling",
        "Var(z) = d_k + (d_k-1)(d_k-2)(d_k-3): true at d_k = 1, 2, 3 only",
        _rhs("a sum of $d_k$ ones", lambda d, old: old + (old - 1) * (old - 2) * (old - 3)),
    ),
    Mutation("variance_scaling", "E[z] = 1", _rhs(r"$\mathbb{E}[q_i] = 0$", lambda d, old: sp.S.One)),
    Mutation(
        "variance_scaling",
        "the wrong scaling rule Var(aX) = a Var(X)",
        _rhs("scaling rule", lambda d, old: Var(_vs().z) / sp.sqrt(_vs().d_k)),
    ),
    Mutation(
        "variance_scaling",
        "E[q]^2 for E[q^2]",
        _rhs(
            r"independence, and $\mathbb{E}[q_i k_i] = 0$",
            lambda d, old: Ex(_vs().q[_vs().i]) ** 2 * Ex(_vs().k[_vs().i]) ** 2,
        ),
    ),
    Mutation(
        "variance_scaling",
        "a mean dropped from the general formula: m_q s_k^2 for m_q^2 s_k^2",
        _rhs("the $d^2$ terms cancel", lambda d, old: old.subs(_vs().m_q ** 2, _vs().m_q)),
    ),
    Mutation("variance_scaling", "sqrt(128) ≈ 11.4", _figure("at $d_k = 128$", "11.4")),
    Mutation("variance_scaling", "e^20 ≈ 4.85e9: a wrong power of ten", _figure("a gap of 20", "4.85E+9")),
    Mutation(
        "variance_scaling", "the theorem claims Var(z / sqrt(d_k)) = d_k", _claim(2, lambda r: _vs().d_k)
    ),
    Mutation(
        "variance_scaling",
        "the gap defined as z_i + z_j",
        _definition("for the gap", lambda m: {k: v.args[0] - v.args[1] for k, v in m.items()}),
    ),
    Mutation(
        "variance_scaling", "a false independence lemma", _false_lemma("$q_i$ and $k_i$ are independent")
    ),
    Mutation(
        "variance_scaling", "Var(z) = d_k + 10^-20", _rhs("a sum of $d_k$ ones", lambda d, old: old + TINY)
    ),
    Mutation(
        "variance_scaling",
        "the general result shown as 2 d (s_q^2 s_k^2 + ...) where d (...) is checked",
        _shown("the $d^2$ terms cancel", lambda d, old: 2 * old),
    ),
    # -- softmax_jacobian ----------------------------------------------------------------
    Mutation(
        "softmax_jacobian",
        "J = diag(p) + p p^T",
        _rhs("the entries, as a matrix", lambda d, old: _sj_plus()),
    ),
    Mutation(
        "softmax_jacobian",
        "J = diag(p) - p^T p (a 1 x 1 matrix)",
        _rhs("the entries, as a matrix", lambda d, o: _sj_inner()),
    ),
    Mutation("softmax_jacobian", "rank J = n", _rhs("nonzero $(n-1)$-minor", lambda d, old: _sj().n)),
    Mutation(
        "softmax_jacobian",
        "rows sum to (n-2)(n-3)(n-4): zero at the sizes 2, 3, 4 only",
        _rhs("the weights sum to 1", lambda d, old: (_sj().n - 2) * (_sj().n - 3) * (_sj().n - 4)),
    ),
    Mutation(
        "softmax_jacobian",
        "dp_i/dz_j = p_i (delta_ij + p_j)",
        _rhs("factor out $p_i$", lambda d, old: _sj_plus_entry()),
    ),
    Mutation(
        "softmax_jacobian",
        "p(1-p) <= 1/4 with the certificate (p - 1/3)^2",
        _certificate(r"$\tfrac14 - p(1-p)", (sp.Symbol("p", positive=True) - sp.Rational(1, 3)) ** 2),
    ),
    Mutation(
        "softmax_jacobian",
        "p(1-p) at 0.99 = 0.0098",
        _rhs("at $p = 0.99$", lambda d, o: sp.Rational(98, 10_000)),
    ),
    Mutation("softmax_jacobian", "a false rank lemma", _false_lemma("nonzero $(n-1)$-minor")),
    Mutation(
        "softmax_jacobian",
        "shown as p_i delta_ij + p_i p_j where p_i delta_ij - p_i p_j is checked",
        _shown("split the fraction", lambda d, old: old.args[0].args[0] - old.args[0].args[1]),
    ),
    Mutation(
        "softmax_jacobian",
        "J 1 = 1 (ones, not zeros)",
        _rhs(r"null vector of $J$", lambda d, old: sp.MatrixSymbol(r"\mathbf{1}", _sj().n, 1)),
    ),
    # -- permutation_equivariance --------------------------------------------------------
    Mutation(
        "permutation_equivariance",
        "P and P^T swapped: softmax(P S P^T) = P^T softmax(S) P",
        _rhs("commutes with reordering", lambda d, old: _pe_swapped()),
    ),
    Mutation(
        "permutation_equivariance",
        "P dropped: the output is Attention(X), unpermuted",
        _rhs(r"$P^\top P = I$", lambda d, old: _pe().attention_of(_pe().Xm)),
    ),
    Mutation(
        "permutation_equivariance",
        "P^T dropped from the transpose: (P X W^K)^T = W^K^T X^T",
        _rhs("the transpose of a product reverses it", lambda d, old: _pe_unreversed()),
    ),
    Mutation(
        "permutation_equivariance",
        "the values multiplied entrywise by themselves: P softmax(S) P^T P (V o V)",
        _rhs("commutes with reordering", lambda d, old: _pe_squared_values()),
    ),
    Mutation(
        "permutation_equivariance",
        "the theorem claims Attention(PX) = Attention(X)",
        _claim(0, lambda r: _pe().attention_of(_pe().Xm)),
    ),
    Mutation(
        "permutation_equivariance",
        "the causal counterexample made no counterexample (the same side twice)",
        _rhs("a causal mask", lambda d, old: _pe_unmasked_reversed()),
    ),
    Mutation(
        "permutation_equivariance",
        "P^T P = I checked at sizes 1, 2, 1, 2 (two sizes, not four)",
        _side(r"$P^\top P = I$", "sizes", lambda d, o: (1, 2, 1, 2)),
    ),
    Mutation(
        "permutation_equivariance",
        "softmax commuting with reordering checked to size 4, excused by a free-text reason",
        _lemma_sizes("softmax works row by row", (1, 2, 3, 4), "size 5 felt slow"),
    ),
    # -- multihead_flops -----------------------------------------------------------------
    Mutation(
        "multihead_flops",
        "cost(projections) = 2 N d^2",
        _rhs("projections: $h$ heads", lambda d, old: 2 * _mf().N * _mf().d_model ** 2),
    ),
    Mutation(
        "multihead_flops",
        "cost(scores) = N^2 d / h",
        _rhs("scores: $h$ products", lambda d, old: _mf().N ** 2 * _mf().d_model / _mf().h),
    ),
    Mutation(
        "multihead_flops",
        "the crossover at 4096 for d_model = 4096",
        _rhs("at $d_{", lambda d, o: sp.Integer(4096)),
    ),
    Mutation(
        "multihead_flops",
        "the total collected as 4 N d^2 + N^2 d",
        _rhs("collect", lambda d, o: 4 * _mf().N * _mf().d_model ** 2 + _mf().N ** 2 * _mf().d_model),
    ),
    Mutation(
        "multihead_flops",
        "counting FLOPs doubles only one term",
        _rhs(
            "both terms double",
            lambda d, o: 8 * _mf().N * _mf().d_model ** 2 + 2 * _mf().N ** 2 * _mf().d_model,
        ),
    ),
    Mutation("multihead_flops", "512 / 8 = 32", _rhs("the paper", lambda d, o: sp.Integer(32))),
    Mutation(
        "multihead_flops",
        "the total shown in the module's order as 4 N d^2 + 3 N^2 d where 4 N d^2 + 2 N^2 d is checked",
        _shown("collect", lambda d, o: o + _mf().N ** 2 * _mf().d_model),
    ),
    Mutation(
        "multihead_flops",
        "the crossover's rule says d_model = 2048 where the step puts in 4096",
        _side("at $d_{", "rule", lambda d, o: o.replace("4096", "2048")),
    ),
    Mutation(
        "multihead_flops",
        "the crossover puts in d_model = 2048 where its rule says 4096",
        _side("at $d_{", "given", lambda d, o: {_mf().d_model: 2048}),
    ),
    Mutation(
        "multihead_flops",
        "512 / 8 off by 1e-30, written as a Python float (already 64.0)",
        _rhs("the paper", lambda d, o: o + 1e-30),
    ),
    Mutation(
        "multihead_flops",
        "the crossover solved as N > d_model",
        _rhs("solve for $N$", lambda d, o: _mf().d_model < _mf().N),
    ),
    # -- score_reduction -----------------------------------------------------------------
    Mutation(
        "score_reduction",
        "the normal MGF without its 1/2",
        _rhs("the MGF of $a k_i$", lambda d, old: old.func(old.function**2, *old.limits)),
    ),
    Mutation(
        "score_reduction",
        "the chi-square Laplace transform (1 + s)^(-d/2)",
        _rhs("independent coordinates; $\\mathbb{E}[e^{-s", lambda d, old: (1 + _sr().s) ** (-_sr().d / 2)),
    ),
    Mutation(
        "score_reduction",
        "scores of two keys correlated: E[z z'] = 1",
        _rhs("uncorrelated", lambda d, o: sp.S.One),
    ),
    Mutation(
        "score_reduction",
        "the MGF of N(0, r^2) taken given Z > 0 (a half-normal)",
        _side("the MGF of $\\mathcal{N}(0, r^2)$", "lhs", lambda d, old: _conditioned(old)),
    ),
    Mutation(
        "score_reduction",
        "the MGF of N(0, r^2) as e^(r t^2 / 2): r for r^2",
        _rhs("the MGF of $\\mathcal{N}(0, r^2)$", lambda d, old: sp.exp(_sr().r * _sr().t ** 2 / 2)),
    ),
]


# -- round two (issue 26): models, random families, sizes, labels, lemmas and theorems ----------
def _step(text: str, **fields: object) -> Callable[[Derivation], int]:
    """Replace fields of the step whose rule contains ``text`` (a value may be a Python function
    of the derivation and the old value)."""

    def plant(d: Derivation) -> int:
        k = _find(d, text)
        old = d.steps[k]
        new = {f: v(d, getattr(old, f)) if isinstance(v, FunctionType) else v for f, v in fields.items()}
        d.steps[k] = dataclasses.replace(old, **new)
        return k + 1

    return plant


def _lemma_of(text: str, **fields: object) -> Callable[[Derivation], str]:
    """Change the lemma of the step whose rule contains ``text`` (its sizes, say)."""

    def plant(d: Derivation) -> str:
        k = _find(d, text)
        lemma = d.steps[k].lemma
        assert lemma is not None
        _swap_lemma(d, k, dataclasses.replace(lemma, **fields))
        return "lemma"

    return plant


def _swap_lemma(d: Derivation, k: int, new: Lemma) -> None:
    """Put ``new`` in place of step k's lemma, on every step and among the declared lemmas."""
    old = d.steps[k].lemma
    d.steps = [dataclasses.replace(s, lemma=new) if s.lemma is old else s for s in d.steps]
    d.declared_lemmas = tuple(new if x is old else x for x in d.declared_lemmas)


def _detached(text: str) -> Callable[[Derivation], str]:
    """The step whose rule contains ``text`` no longer names its lemma (which stays declared)."""

    def plant(d: Derivation) -> str:
        k = _find(d, text)
        d.steps[k] = dataclasses.replace(d.steps[k], lemma=None)
        return "lemma"

    return plant


def _no_claims(d: Derivation) -> str:
    d.claims = []
    return "claim"


def _stored_rank(expr: sp.Basic, size: int) -> sp.Basic:
    """The old rank model: n - 1 whatever matrix it is given."""
    m = _sj()
    return (
        sp.sympify(expr)
        .subs(m.n, size)
        .replace(lambda x: isinstance(x, m.rank), lambda x: sp.Integer(size - 1))
    )


def _stored_rank_model(d: Derivation) -> int:
    k = _find(d, "nonzero $(n-1)$-minor")
    m = _sj()
    d.steps[k] = dataclasses.replace(d.steps[k], lhs=m.rank(_sj_plus()), concrete=_stored_rank)
    return k + 1


def _equal_scores(d: Derivation) -> int:
    """Every score equal (all 0) in the derivation's model, and a false step the model then passes:
    the P in front of softmax(S) dropped."""
    m = _pe()

    def model(expr: sp.Basic, n: int) -> sp.Basic:
        return m.concrete(expr, n).subs({s: 0 for s in m.symbol_matrix("s", n, n)})

    d.concrete = model
    k = _find(d, "softmax works row by row")
    d.steps[k] = dataclasses.replace(d.steps[k], rhs=m._mul(m.RowSoftmax(m.S_X), m.Pm.T, m.Pm, m.V_X))
    return k + 1


def _stored_end_to_end(d: Derivation) -> int:
    m = _pe()
    k = _find(d, "all $N!$ permutations")
    right = d.steps[k].rhs
    d.steps[k] = dataclasses.replace(d.steps[k], concrete=lambda expr, n: m.end_to_end(right, n))
    return k + 1


def _sr_other_key(d: Derivation) -> int:
    """E[exp(t q . k')] = prod_i exp(t^2 k'_i^2 / 2): the result still depends on k'."""
    m = _sr()
    k = _find(d, "the MGF of $a k_i$")
    score = sp.Sum(sp.Mul(m.q[m.i], m.k2[m.i], evaluate=False), (m.i, 1, m.d))
    d.steps[k] = dataclasses.replace(
        d.steps[k],
        lhs=Ex(sp.exp(m.t * score)),
        rhs=sp.Product(sp.exp(m.t**2 * m.k2[m.i] ** 2 / 2), (m.i, 1, m.d)),
    )
    return k + 1


def _sr_chi2_2d(d: Derivation) -> int:
    """A true step about chi2_{2d} in place of the one about chi2_d: the claim is then unproved."""
    from sympy import stats

    m = _sr()
    k = _find(d, "the Laplace transform")
    x = stats.ChiSquared("X", 2 * m.d)
    d.steps[k] = dataclasses.replace(
        d.steps[k], lhs=stats.E(sp.exp(-m.s * x), evaluate=False), rhs=(1 + 2 * m.s) ** (-m.d), shown_rhs=None
    )
    return "claim"


def _ah_unmasked_weights(d: Derivation) -> str:
    """The softmax step taken without the mask: a true step, but not the theorem's weights."""
    k, u = _find(d, r"$e^{-\infty} = 0$"), _find(d, "softmax of the unmasked rows")
    d.steps[k] = dataclasses.replace(d.steps[k], lhs=d.steps[u].lhs, rhs=d.steps[u].rhs, shown_lhs=None)
    return "claim"


def _ah_names() -> tuple[sp.MatrixSymbol, sp.MatrixSymbol]:
    return sp.MatrixSymbol("Q", 2, 2), sp.MatrixSymbol("K", 2, 2)


def _pe_dog(d: Derivation) -> sp.MatrixSymbol:
    return next(s for s in d.abbreviations if "A}" in str(s) and "dog" in str(s))


def _sj_quad_index(d: Derivation) -> sp.Basic:
    m = _sj()
    j_ij = next(s for s in d.abbreviations if str(s) == "J_{ij}")
    return sp.Sum(sp.Sum(m.x[m.i] * j_ij * m.x[m.i], (m.j, 1, m.n)), (m.i, 1, m.n))


def _vs_second_width(d: Derivation, old: sp.Basic) -> sp.Basic:
    """The step's right side with d_k replaced by another symbol printed d_k."""
    m = _vs()
    return old.xreplace({m.d_k: sp.Symbol("d_k", real=True)})


def _sr_plain_q(d: Derivation) -> int:
    """E[q_1^2] = q_1^2 for a q_1 that is no declared family: treated as a constant."""
    k = _find(d, "uncorrelated")
    q1 = sp.Symbol("q_1", real=True)
    d.steps[k] = dataclasses.replace(d.steps[k], lhs=Ex(q1**2), rhs=q1**2, shown_lhs=None)
    return k + 1


def _mf_blind_check(d: Derivation) -> int:
    """The crossover solved as N > d_model, by a procedure that looks at neither side."""
    m = _mf()
    k = _find(d, "solve for $N$")
    d.steps[k] = dataclasses.replace(d.steps[k], rhs=m.d_model < m.N, check=lambda lhs, rhs: "solved")
    return k + 1


def _pe_right_from_left(d: Derivation) -> int:
    """Invariance claimed (no P on the right), with a model that answers the right side with the
    left side's value and evaluates every other side honestly."""
    m = _pe()
    k = _find(d, "all $N!$ permutations")
    left, right = d.lhs_of(k), m.attention_of(m.Xm)
    model = lambda expr, n: m.end_to_end(left if expr == right else expr, n)  # noqa: E731
    d.steps[k] = dataclasses.replace(d.steps[k], rhs=right, concrete=model)
    return k + 1


def _mf_substitution_claimed(d: Derivation) -> str:
    m = _mf()
    d.claim(2 * m.d_model, sp.Integer(8192))  # true at d_model = 4096 only
    return "claim"


ROUND_TWO: list[Mutation] = [
    # Models: each must tell wrong versions of its side from the right side.
    Mutation(
        "softmax_jacobian",
        "rank(diag(p) + p p^T) claimed n - 1: another matrix",
        _side("nonzero $(n-1)$-minor", "lhs", lambda d, old: _sj().rank(_sj_plus())),
    ),
    Mutation(
        "softmax_jacobian",
        "a rank model that answers n - 1 for any matrix",
        _stored_rank_model,
        why="cannot tell",
    ),
    Mutation(
        "permutation_equivariance",
        "a model with every score equal, and the P dropped",
        _equal_scores,
        why="cannot tell",
    ),
    Mutation(
        "permutation_equivariance",
        "an end-to-end model that returns its stored answer",
        _stored_end_to_end,
        why="does not evaluate the side it is given",
    ),
    # Random families are declared, not chosen by letter.
    Mutation(
        "score_reduction",
        "E[exp(t q . k')] = exp(t^2 |k'|^2 / 2): k' left in",
        _sr_other_key,
        why="still depends on k'",
    ),
    Mutation(
        "score_reduction",
        "the chi-square step taken over the keys, q held fixed",
        _step(r"independent coordinates; $\mathbb{E}[e^{-s", expectation=lambda d, old: _sr()._Rules()),
    ),
    Mutation(
        "score_reduction",
        "the uncorrelated scores integrated over q instead of the keys",
        _step("uncorrelated", expectation=lambda d, old: _sr()._Rules(random=(_sr().q,))),
    ),
    # Sizes: a size where a lemma's false twin passes is a vacuous size.
    Mutation(
        "permutation_equivariance",
        "P^T P = I checked at N = 1..4 (P P = I holds at 1 and 2)",
        _lemma_of(r"$P^\top P = I$", sizes=(1, 2, 3, 4)),
        why="vacuous at size 1",
    ),
    Mutation(
        "softmax_jacobian",
        "the square of a sum checked at n = 1 only",
        _lemma_of("square of a sum", sizes=(1,)),
        why="vacuous at size 1",
    ),
    Mutation(
        "score_reduction",
        "independence checked at d = 1, 2",
        _lemma_of("the MGF of $a k_i$", sizes=(1, 2)),
        why="vacuous at size 1",
    ),
    Mutation(
        "permutation_equivariance",
        "equivariance at N = 1..4 with the old waiver",
        _lemma_of("all $N!$ permutations", sizes=(1, 2, 3, 4), largest="permutations"),
        why="vacuous at size 1",
    ),
    Mutation("softmax_jacobian", "the rank at three sizes", _step("nonzero $(n-1)$-minor", sizes=(2, 3, 4))),
    Mutation(
        "variance_scaling",
        "linearity checked at width 1 only",
        _lemma_of("linearity of expectation", sizes=(1,)),
        why="vacuous at size 1",
    ),
    # Labels are names; a formula shown is a checked side.
    Mutation(
        "attention_by_hand",
        "a label holding an equation: S = QK^T",
        _step("is query $i$ dotted with key $j$", shown_lhs=sp.Symbol(r"S = QK^\top")),
    ),
    Mutation(
        "score_reduction",
        "a label holding a distribution: Z ~ N(0, r^2)",
        _step("the MGF of $\\mathcal{N}(0, r^2)$", shown_lhs=sp.Symbol(r"Z \sim N(0, r^2)")),
    ),
    Mutation(
        "multihead_flops",
        "a label holding a product: head_1 W^O_1 + head_2 W^O_2",
        _step(
            "its own rows of $W^O$",
            shown_rhs=sp.Symbol(r"\operatorname{head}_1 W^O_1 + \operatorname{head}_2 W^O_2"),
        ),
    ),
    Mutation(
        "attention_by_hand",
        "both outputs shown by the one name O_none (the mask dropped from a label)",
        _step("the mask changes the answer", shown_lhs=sp.Symbol(r"O_{\text{none}}")),
    ),
    Mutation(
        "attention_by_hand",
        "the scores shown as Q^T K",
        _step(
            "is query $i$ dotted with key $j$",
            shown_lhs=lambda d, old: sp.MatMul(_ah_names()[0].T, _ah_names()[1]),
        ),
    ),
    Mutation(
        "permutation_equivariance",
        "dog's output difference shown as o^A alone",
        _step('"dog" gets the same output', shown_lhs=lambda d, old: _pe_dog(d)),
    ),
    Mutation(
        "softmax_jacobian",
        "the quadratic form shown as sum x_i J_ij x_i: an index changed",
        _step("square of a sum", shown_lhs=lambda d, old: _sj_quad_index(d)),
    ),
    # Lemmas are used; theorems are stated and tied to the chains.
    Mutation(
        "softmax_jacobian",
        "the square-of-a-sum lemma used by no step",
        _detached("square of a sum"),
        why="used by no step",
    ),
    Mutation("score_reduction", "no theorem: the claims dropped", _no_claims, why="states no claims"),
    Mutation(
        "score_reduction",
        "the chi-square step about chi2_{2d}, true but not the claim",
        _sr_chi2_2d,
        why="no chain",
    ),
    Mutation(
        "attention_by_hand",
        "the weights taken without the mask, true but not the claim",
        _ah_unmasked_weights,
        why="no chain",
    ),
    # The review of round two: definitions, names, undeclared randomness, blind procedures.
    Mutation(
        "variance_scaling",
        "Var(2z) := 7: a definition of a formula",
        _definition("square root of the variance", lambda old: {Var(2 * _vs().z): 7}),
        why="a definition introduces a name",
    ),
    Mutation(
        "variance_scaling",
        "a second d_k, with other assumptions",
        _rhs("linearity of expectation", _vs_second_width),
        why="printed as d_k",
    ),
    Mutation(
        "score_reduction", "E[q_1^2] = q_1^2 for an undeclared q_1", _sr_plain_q, why="none of the declared"
    ),
    Mutation(
        "multihead_flops", "a crossover procedure that looks at neither side", _mf_blind_check, why="accepts"
    ),
    Mutation(
        "softmax_jacobian",
        "rank J = n - 1 + (n - 2)(n - 3)(n - 4)(n - 5): true at the author's sizes",
        _rhs("nonzero $(n-1)$-minor", lambda d, old: old + sp.prod(_sj().n - c for c in (2, 3, 4, 5))),
        why="at size 1",
    ),
    Mutation(
        "permutation_equivariance",
        "invariance, by a model that answers the right side with the left's value",
        _pe_right_from_left,
        why="does not evaluate the side it is given",
    ),
    Mutation(
        "multihead_flops", "2 d_model = 8192 claimed in general", _mf_substitution_claimed, why="no chain"
    ),
    # Floats only in certified steps.
    Mutation(
        "variance_scaling",
        "a float 1.0 in a symbolic step",
        _rhs("linearity of expectation", lambda d, old: sp.Float(1.0) * old),
    ),
]
MUTATIONS += ROUND_TWO


def _conditioned(e: sp.Basic) -> sp.Basic:
    """The unevaluated expectation ``e`` of sympy.stats, given that its variable is positive."""
    from sympy import stats

    (variable,) = stats.random_symbols(e.args[0])
    return stats.E(e.args[0], variable > 0, evaluate=False)


def _ah_inputs() -> tuple[list, list, list]:
    m = _ah()
    return m.Q.tolist(), m.K.tolist(), m.V.tolist()


def _sj_plus() -> sp.MatrixExpr:
    from sympy.matrices.expressions.diagonal import DiagMatrix

    p = _sj().pvec
    return DiagMatrix(p) + p * p.T


def _sj_inner() -> sp.MatrixExpr:
    from sympy.matrices.expressions.diagonal import DiagMatrix

    p = _sj().pvec
    return DiagMatrix(p) - p.T * p


def _sj_plus_entry() -> sp.Expr:
    m = _sj()
    return m.p(m.i) * (sp.KroneckerDelta(m.i, m.j) + m.p(m.j))


def _pe_swapped() -> sp.MatrixExpr:
    m = _pe()
    return m._mul(m.Pm.T, m.RowSoftmax(m.S_X), m.Pm, m.Pm, m.V_X)


def _pe_squared_values() -> sp.MatrixExpr:
    m = _pe()
    return m._mul(m.Pm, m.RowSoftmax(m.S_X), m.Pm.T, m.Pm, sp.HadamardProduct(m.V_X, m.V_X))


def _pe_unreversed() -> sp.MatrixExpr:
    m = _pe()
    wrong = sp.MatMul(1 / sp.sqrt(m.d_k), m.Pm, m.Xm, m.Wq, m.Wk.T, m.Xm.T, evaluate=False)
    return m._mul(m.RowSoftmax(wrong), m.Pm, m.V_X)


def _pe_unmasked_reversed() -> sp.Matrix:
    m = _pe()
    x = m.symbol_matrix("x", 3, m.WIDTH).subs(
        {s: v for s, v in zip(m.symbol_matrix("x", 3, m.WIDTH), [1, 0, 0, 1, 1, 1], strict=True)}
    )
    reverse = m.permutation_matrix((2, 1, 0))
    eye = sp.eye(m.WIDTH)
    return m.self_attention(reverse * x, eye, eye, eye, "causal")


def catalogue(names: Iterable[str] | None = None) -> list[Mutation]:
    """The planted errors of ``names`` (default: every derivation): this module's, then those
    each built-in derivation module carries (its ``MUTATIONS``: its prose and its printing), then
    those registered derivations bring (see :mod:`symattn.grading.plugins`)."""
    from . import REGISTERED

    modules = [m for name in NAMES for m in getattr(import_module(f"derivations.{name}"), "MUTATIONS", [])]
    every = MUTATIONS + modules + [m for plugin in REGISTERED.values() for m in plugin.mutations]
    wanted = None if names is None else set(names)
    return [m for m in every if wanted is None or m.derivation in wanted]


def outcome(mutation: Mutation) -> tuple[bool, str]:
    """Plant ``mutation`` and verify: (caught where planted, one line saying so)."""
    return next(outcomes([mutation]))


def outcomes(mutations: Sequence[Mutation], jobs: int = 1) -> Iterator[tuple[bool, str]]:
    """:func:`outcome` of each mutation, in order, each as soon as it is known; the verifying
    is shared as in :func:`run_all`."""
    wants: list[tuple[bool, str]] = []  # (planted, what must fail or why it was not planted)
    for mutation in mutations:
        try:
            wants.append((True, str(expected(mutation))))
        except KeyboardInterrupt:
            raise
        except BaseException as exc:  # an author's plant that fails (or calls sys.exit) plants nothing
            wants.append((False, _why(exc)))
    ran = run_all([m for m, (planted, _) in zip(mutations, wants, strict=True) if planted], jobs)
    for mutation, (planted, want) in zip(mutations, wants, strict=True):
        if not planted:
            yield False, f"{mutation.derivation}: {mutation.description}: NOT planted ({want})"
            continue
        got, message = next(ran)
        where = f"step {want}" if want.isdigit() else f"the {want}"
        caught = got == want and mutation.why in message
        said = f"caught at {where}" if caught else f"NOT caught at {where} ({got}: {message})"
        if got == want and not caught:
            said = f"NOT caught for its reason ({mutation.why!r}) at {where}: {message}"
        yield caught, f"{mutation.derivation}: {mutation.description}: {said}"


def run(mutation: Mutation) -> tuple[str, str]:
    """Plant the error in a fresh copy and verify up to it; return (what failed, the message).

    Steps after the planted one, and the numeric checks, are not run (they cannot hide the
    error, and the catalogue stays fast); a planted claim keeps every step.
    """
    return next(run_all([mutation]))


def run_all(mutations: Sequence[Mutation], jobs: int = 1) -> Iterator[tuple[str, str]]:
    """:func:`run` of each mutation, in order, each as soon as it is known. The verifying is
    shared among ``jobs`` forked workers that serve the whole list (a planted check may end
    its process: that task alone is run again in a process of its own, and fails), so what
    SymPy caches for one planted error serves the next."""
    planted: list[tuple[Derivation, int | str] | str] = []
    for mutation in mutations:
        try:
            d = mutation.fresh()
            target = mutation.plant(d)
        except KeyboardInterrupt:
            raise
        except BaseException as exc:  # an author's plant that fails (or calls sys.exit) plants nothing
            planted.append(f"the error could not be planted ({_why(exc)})")
            continue
        d.checks = []
        if isinstance(target, int):
            d.steps = d.steps[:target]
            d.claims, d.words = [], []
        planted.append((d, target))
    reports = verify_many([p[0] for p in planted if not isinstance(p, str)], jobs)
    for p in planted:
        yield ("error", p) if isinstance(p, str) else _reported(*p, next(reports))


def _reported(d: Derivation, target: int | str, result: DerivationReport | SymattnError) -> tuple[str, str]:
    """(what failed, the message) of a planted derivation's verification."""
    if isinstance(result, (StepFailed, LemmaFailed)):
        if isinstance(target, int) and str(result).startswith(f"{d.name}: {NO_CLAIMS}"):
            return "nothing", ""  # every step up to the planted one passed; the claims were dropped
        return _what_failed(str(result), result), str(result)
    if isinstance(result, SymattnError):
        return "error", str(result)
    return "nothing", ""


def expected(mutation: Mutation) -> int | str:
    """What the mutation must make fail (planting it again on a fresh copy)."""
    return mutation.plant(mutation.fresh())


def _what_failed(message: str, exc: Exception) -> str:
    if isinstance(exc, LemmaFailed):
        return "lemma"
    if isinstance(exc, StatementFailed):
        return "statement"
    if isinstance(exc, RenderingFailed):
        return "rendering"
    if "the theorem claims" in message or NO_CLAIMS in message:
        return "claim"
    head = message.split(": ", 1)[0]
    return head.split("step ", 1)[1].split(" ", 1)[0] if "step " in head else "error"
