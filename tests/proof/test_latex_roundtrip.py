"""Emitted LaTeX read back by latex2sympy2 and compared with the expression it came from.

Every side of every derivation step that symattn prints as a formula is parsed back. Where
latex2sympy2 reads it, the result must equal the source (matched by symbol name). Where it
cannot, the construct responsible must be one of the forms listed in UNREADABLE, each with the
reason; and every listed form must still occur, so the list cannot go stale.
"""

from __future__ import annotations

import re

import pytest
import sympy as sp

import derivations
from symattn.grading.answers.parsing import LatexError, read_latex
from symattn.proof.equivalence import prove_zero
from symattn.proof.latex import latex

#: Constructs latex2sympy2 1.9.1 cannot read, and why.
UNREADABLE = {
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
    "d^{2} m_{k}": "d followed by a letter is read as a differential",
}

#: Forms it reads, but as something else: compared only for parsing, not for value.
MISREAD = {
    "=": "an equation with a label on the left (S = QK^T) is read as an assignment",
    "^{A}": "a label superscript is read as a power",
    "^{B}": "a label superscript is read as a power",
    r"^{\text{rev}}": "a label superscript is read as a power",
    r"Q K^{\top}": "a product of named matrices is read as commuting scalars (and K^\\top as K)",
    "A V": "a product of named matrices is read as commuting scalars",
    r"\mathrm{head}": "named matrices read as commuting scalars, and W^O as a power",
    r"P_{\text{rev}} O": "a product of named matrices is read as commuting scalars",
    r"\mathbf{1}": "bold one is read as a symbol",
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
    return e


def _by_name(parsed, source):
    names = {str(s): s for s in source.free_symbols}
    names.update({sp.latex(s): s for s in source.free_symbols})
    names.update({latex(s): s for s in source.free_symbols})  # d_{\text{model}}, as emitted
    return parsed.xreplace({s: names[str(s)] for s in parsed.free_symbols if str(s) in names})


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


def test_most_formulas_read_back(outcomes):
    """A good share of the emitted formulas parse and compare equal."""
    equal = [k for k, v in outcomes.items() if v[0] == "equal"]
    assert len(equal) >= 60, len(equal)


def test_every_unreadable_form_is_a_listed_construct(outcomes):
    """Each formula latex2sympy2 cannot read contains a construct from UNREADABLE."""
    unexplained = [
        (k, tex)
        for k, (kind, tex, _) in outcomes.items()
        if kind == "unreadable" and not any(c in tex for c in UNREADABLE)
    ]
    assert unexplained == []


def test_every_differing_form_is_a_listed_misreading(outcomes):
    """Each formula read back as something else contains a construct from MISREAD."""
    unexplained = [
        (k, tex, got)
        for k, (kind, tex, got) in outcomes.items()
        if kind == "differs" and not any(c in tex for c in MISREAD)
    ]
    assert unexplained == []


def test_the_lists_are_current(outcomes):
    """Every listed construct still occurs in some formula that fails for that reason."""
    unreadable = [tex for kind, tex, _ in outcomes.values() if kind == "unreadable"]
    differing = [tex for kind, tex, _ in outcomes.values() if kind == "differs"]
    assert [c for c in UNREADABLE if not any(c in t for t in unreadable)] == []
    assert [c for c in MISREAD if not any(c in t for t in differing)] == []


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
