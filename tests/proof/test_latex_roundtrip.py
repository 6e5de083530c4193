"""Emitted LaTeX read back by latex2sympy2 and compared with the expression it came from.

Every side of every derivation step that symattn prints as a formula is parsed back. Where
latex2sympy2 reads it, the result must equal the source (matched by symbol name). The formulas it
cannot read (UNREADABLE) or reads as something else (MISREAD) are listed one by one, by their id
(derivation:step:side), each with the construct responsible, which must occur in that formula and
whose reason is in CANNOT_READ or READ_OTHERWISE. The lists are exactly the formulas that fail:
a formula that starts to fail, or one that reads back again, fails a test, so neither list can
excuse a new error nor go stale.
"""

from __future__ import annotations

import re

import pytest
import sympy as sp

import derivations
from symattn.grading.answers.parsing import LatexError, read_latex
from symattn.proof.equivalence import prove_zero
from symattn.proof.latex import latex

#: One worker runs this module, so its costly module fixture (every formula printed and read
#: back, some 15 s) is computed once, not once per worker (CI runs with --dist loadgroup).
pytestmark = pytest.mark.xdist_group("latex_roundtrip")

#: Constructs latex2sympy2 1.9.1 cannot read, and why.
CANNOT_READ = {
    r"\mathbb{E}": "expectation: no grammar rule for \\mathbb",
    r"\operatorname{Var}": "\\operatorname is not in its grammar",
    r"\operatorname{softmax}": "\\operatorname is not in its grammar",
    r"\operatorname{rank}": "\\operatorname is not in its grammar",
    r"\operatorname{diag}": "\\operatorname is not in its grammar",
    r"\operatorname{cost}": "\\operatorname is not in its grammar",
    r"\partial": "partial derivatives are not in its grammar",
    r"\lim_{p \to 1^-}": "one-sided limits are not in its grammar",
    r",\text{pos}}": "a comma inside a superscript",
    "d m_{q}": "d followed by a letter is read as a differential (d m), leaving junk",
    "d \\left(": "d followed by a bracket is read as a differential",
}

#: Constructs it reads, but as something else, and why: compared only for parsing, not for value.
READ_OTHERWISE = {
    "^{A}": "a label superscript is read as a power",
    r"^{\text{rev}}": "a label superscript is read as a power",
    r"Q K^{\top}": "a product of named matrices is read as commuting scalars (and K^\\top as K)",
    "A V": "a product of named matrices is read as commuting scalars",
    r"\text{head}": "named matrices read as commuting scalars, and W^O as a power",
    r"P_{\text{rev}} O": "a product of named matrices is read as commuting scalars",
    r"\mathbf{1}": "bold one is read as a symbol",
}

#: Each formula latex2sympy2 cannot read, by id, and the construct of CANNOT_READ responsible.
UNREADABLE = {
    "attention_by_hand:6:lhs": r"\operatorname{softmax}",
    "attention_by_hand:14:lhs": r"\operatorname{softmax}",
    "variance_scaling:1:lhs": r"\mathbb{E}",
    "variance_scaling:1:rhs": r"\mathbb{E}",
    "variance_scaling:2:lhs": r"\mathbb{E}",
    "variance_scaling:2:rhs": r"\mathbb{E}",
    "variance_scaling:3:lhs": r"\mathbb{E}",
    "variance_scaling:4:lhs": r"\operatorname{Var}",
    "variance_scaling:4:rhs": r"\mathbb{E}",
    "variance_scaling:5:lhs": r"\mathbb{E}",
    "variance_scaling:5:rhs": r"\mathbb{E}",
    "variance_scaling:6:lhs": r"\mathbb{E}",
    "variance_scaling:8:lhs": r"\operatorname{Var}",
    "variance_scaling:8:rhs": r"\operatorname{Var}",
    "variance_scaling:9:lhs": r"\operatorname{Var}",
    "variance_scaling:11:rhs": r"\operatorname{Var}",
    "variance_scaling:12:lhs": r"\operatorname{Var}",
    "variance_scaling:15:lhs": r"\operatorname{Var}",
    "variance_scaling:15:rhs": r"\operatorname{Var}",
    "variance_scaling:16:lhs": r"\operatorname{Var}",
    "variance_scaling:18:lhs": r"\mathbb{E}",
    "variance_scaling:18:rhs": r"\mathbb{E}",
    "variance_scaling:19:lhs": r"\mathbb{E}",
    "variance_scaling:19:rhs": "d m_{q}",
    "variance_scaling:20:lhs": r"\mathbb{E}",
    "variance_scaling:20:rhs": r"\mathbb{E}",
    "variance_scaling:21:lhs": r"\mathbb{E}",
    "variance_scaling:22:rhs": r"d \left(",
    "variance_scaling:23:lhs": r"\operatorname{Var}",
    "variance_scaling:23:rhs": r"\mathbb{E}",
    "variance_scaling:24:lhs": r"\mathbb{E}",
    "variance_scaling:24:rhs": "d m_{q}",
    "variance_scaling:25:lhs": r"d \left(",
    "variance_scaling:25:rhs": r"d \left(",
    "score_reduction:1:lhs": r"\mathbb{E}",
    "score_reduction:3:lhs": r"\mathbb{E}",
    "score_reduction:4:lhs": r"\mathbb{E}",
    "score_reduction:5:lhs": r"\mathbb{E}",
    "score_reduction:6:lhs": r"\mathbb{E}",
    "score_reduction:7:lhs": r"\mathbb{E}",
    "softmax_jacobian:1:lhs": r"\partial",
    "softmax_jacobian:4:rhs": r"\operatorname{diag}",
    "softmax_jacobian:13:lhs": r"\operatorname{rank}",
    "softmax_jacobian:16:lhs": r"\lim_{p \to 1^-}",
    "permutation_equivariance:1:lhs": r"\operatorname{softmax}",
    "permutation_equivariance:1:rhs": r"\operatorname{softmax}",
    "permutation_equivariance:2:lhs": r"\operatorname{softmax}",
    "permutation_equivariance:2:rhs": r"\operatorname{softmax}",
    "permutation_equivariance:3:lhs": r"\operatorname{softmax}",
    "permutation_equivariance:3:rhs": r"\operatorname{softmax}",
    "permutation_equivariance:4:lhs": r"\operatorname{softmax}",
    "permutation_equivariance:4:rhs": r"\operatorname{softmax}",
    "permutation_equivariance:7:lhs": r",\text{pos}}",
    "permutation_equivariance:7:rhs": r",\text{pos}}",
    "multihead_flops:4:lhs": r"\operatorname{cost}",
    "multihead_flops:5:lhs": r"\operatorname{cost}",
    "multihead_flops:6:lhs": r"\operatorname{cost}",
    "multihead_flops:7:lhs": r"\operatorname{cost}",
    "multihead_flops:8:lhs": r"\operatorname{cost}",
}

#: Each formula it reads as something else, by id, and the construct of READ_OTHERWISE responsible.
MISREAD = {
    "attention_by_hand:1:lhs": r"Q K^{\top}",
    "attention_by_hand:2:lhs": r"Q K^{\top}",
    "attention_by_hand:5:lhs": r"Q K^{\top}",
    "attention_by_hand:11:lhs": "A V",
    "softmax_jacobian:7:lhs": r"\mathbf{1}",
    "permutation_equivariance:5:lhs": r"^{\text{rev}}",
    "permutation_equivariance:5:rhs": r"P_{\text{rev}} O",
    "permutation_equivariance:6:lhs": "^{A}",
    "multihead_flops:1:lhs": r"\text{head}",
    "multihead_flops:1:rhs": r"\text{head}",
}

def _sides():
    for name in derivations.NAMES:
        d = derivations.load(name)
        for index, step in enumerate(d.steps):
            lhs = step.shown_lhs if step.shown_lhs is not None else d.lhs_of(index)
            rhs = step.shown_rhs if step.shown_rhs is not None else step.rhs
            for side, value in (("lhs", lhs), ("rhs", rhs)):
                if not isinstance(value, str):
                    yield f"{name}:{index + 1}:{side}", value


SIDES = list(_sides())


def _comparable(e):
    """Write the source the way latex2sympy2 reads it: x_{i} and delta_{ij} become symbols."""
    e = sp.sympify(e)
    e = e.replace(
        lambda a: isinstance(a, sp.Indexed),
        lambda a: sp.Symbol(f"{a.base.label}_{''.join(map(str, a.indices))}"),
    )
    e = e.replace(
        lambda a: isinstance(a, sp.KroneckerDelta),
        lambda a: sp.Symbol(f"delta_{{{a.args[0]}{a.args[1]}}}"),
    )
    return e.replace(lambda a: isinstance(a, sp.UnevaluatedExpr), lambda a: a.args[0])  # a display wrapper


def _by_name(parsed, source):
    """The parsed symbols renamed to the source's of the same name, a sum's index included."""
    symbols = source.atoms(sp.Symbol)
    names = {str(s): s for s in symbols}
    names.update({sp.latex(s): s for s in symbols})
    names.update({latex(s): s for s in symbols})  # d_{\text{model}}, as emitted
    return parsed.xreplace({s: names[str(s)] for s in parsed.atoms(sp.Symbol) if str(s) in names})


def _equal(parsed, source) -> bool:
    try:
        return _compare(parsed, source)
    except (TypeError, ValueError, AttributeError):  # e.g. a matrix product read as scalars
        return False


def _compare(parsed, source) -> bool:
    if isinstance(source, sp.ZeroMatrix):
        return parsed == 0  # the zero matrix prints, and reads, as 0
    if isinstance(source, sp.MatrixSymbol):
        return str(parsed) == str(source)
    if isinstance(source, sp.MatrixExpr) and not isinstance(source, sp.MatrixBase):
        return False  # a symbolic matrix product: latex2sympy2 reads it as commuting scalars
    if isinstance(source, sp.MatrixBase):
        parsed = sp.Matrix(parsed)
        return parsed.shape == source.shape and all(
            (a == b) if sp.oo in (abs(a), abs(b)) else prove_zero(a - b) is not None
            for a, b in zip(parsed, source, strict=True)
        )
    if isinstance(source, sp.Rel):
        return (
            type(parsed) is type(source)
            and prove_zero((parsed.lhs - parsed.rhs) - (source.lhs - source.rhs)) is not None
        )
    return prove_zero(parsed - source) is not None


@pytest.fixture(scope="module")
def outcomes():
    result = {}
    for key, value in SIDES:
        tex = latex(value)
        try:
            parsed = read_latex(tex)
        except LatexError as exc:
            result[key] = ("unreadable", tex, str(exc))
            continue
        source = _comparable(value)
        parsed = _by_name(parsed, source) if hasattr(parsed, "free_symbols") else parsed
        result[key] = ("equal" if _equal(parsed, source) else "differs", tex, str(parsed))
    return result


def _ids(outcomes, kind: str) -> set[str]:
    return {k for k, (got, _, _) in outcomes.items() if got == kind}


def test_the_formulas_read_back(outcomes):
    """Every emitted formula not listed below parses and compares equal (a formula that stops
    reading back fails, whatever the count), and every derivation emits formulas that do."""
    assert set(UNREADABLE) | set(MISREAD) <= set(outcomes)
    assert _ids(outcomes, "equal") == set(outcomes) - set(UNREADABLE) - set(MISREAD)
    assert {key.split(":")[0] for key in _ids(outcomes, "equal")} == set(derivations.NAMES)


def test_the_unreadable_formulas_are_exactly_those_listed(outcomes):
    """The formulas latex2sympy2 cannot read are those of UNREADABLE, each holding its construct."""
    assert _ids(outcomes, "unreadable") == set(UNREADABLE)
    assert [k for k, c in UNREADABLE.items() if c not in outcomes[k][1]] == []


def test_the_misread_formulas_are_exactly_those_listed(outcomes):
    """The formulas read back as something else are those of MISREAD, each holding its construct."""
    assert _ids(outcomes, "differs") == set(MISREAD)
    assert [k for k, c in MISREAD.items() if c not in outcomes[k][1]] == []


def test_each_listed_construct_is_a_reason_given():
    """Each formula's construct has its reason, and every reason given is used (none stale)."""
    assert set(UNREADABLE.values()) == set(CANNOT_READ)
    assert set(MISREAD.values()) == set(READ_OTHERWISE)


def test_key_results_read_back_exactly():
    """Headline results parse back to themselves: a weight, the cost, the crossover."""
    e2 = sp.exp(sp.sqrt(2))
    assert prove_zero(read_latex(latex(e2 / (1 + e2))) - e2 / (1 + e2)) is not None
    n, d = sp.symbols("N d_{model}")
    cost = read_latex(r"4 N d_{model}^{2} + 2 N^{2} d_{model}")
    assert sp.expand(cost - (4 * n * d**2 + 2 * n**2 * d)) == 0
    assert re.fullmatch(
        r"2 d_\{\\text\{model\}\} < N",
        latex(2 * sp.Symbol("d_model", positive=True) < sp.Symbol("N", positive=True)),
    )
