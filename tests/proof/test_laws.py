r"""A law a page states, ``A \sim L`` (symattn/proof/laws.py): a random variable's declared law,
or a claimed moment generating function; anything else fails, naming the text. (The checks are
called through the module, so that derivations/sabotage.py's edits reach them.)"""

from __future__ import annotations

import pytest
import sympy as sp
from sympy import stats

from derivations import load
from derivations.planted import statement
from symattn.proof import Derivation, StatementFailed, laws
from symattn.proof.laws import Law, law_read
from symattn.proof.operators import Ex
from symattn.proof.reader import readings
from symattn.proof.shown import words_vocabulary

s = sp.Symbol("s", positive=True)
d = sp.Symbol("d", integer=True, positive=True)


def _read(d_: Derivation, tex: str):
    """The one relation of ``tex`` (lhs, rhs), read with the derivation's vocabulary."""
    (lhs, rel, rhs), *_ = next(iter(readings(tex, words_vocabulary(d_)))).relations()
    assert rel == "~"
    return lhs, rhs


@pytest.mark.parametrize(
    ("tex", "law"),
    [
        (r"X \sim \chi^2_d", Law("chi2", (d,))),
        (r"X \sim \chi^2_{2d}", Law("chi2", (2 * d,))),
        (r"X \sim \mathcal{N}(0, 1)", Law("normal", (0, 1))),
        (r"X \sim \mathcal{N}(1, s^2)", Law("normal", (1, s**2))),
    ],
)
def test_the_laws_read(tex, law):
    D = Derivation("laws", "Laws", "$X$.")
    D.claim(Ex(sp.exp(-s * sp.Symbol("x"))), (1 + 2 * s) ** (-d / 2))  # names d and s for the reader
    _, rhs = _read(D, tex)
    got = law_read(rhs, words_vocabulary(D))
    assert got is not None and got.kind == law.kind
    assert all(sp.simplify(a - b) == 0 for a, b in zip(got.parameters, law.parameters, strict=True))


def test_a_law_is_its_moment_generating_function():
    c = sp.Symbol("c")
    assert Law("chi2", (d,)).mgf(c) == (1 - 2 * c) ** (-d / 2)
    # N(mu, sigma^2): e^{mu c + sigma^2 c^2 / 2}, as sympy.stats has it
    mu, var = sp.Rational(1, 3), sp.Rational(5, 2)
    direct = stats.E(sp.exp(c * stats.Normal("Y", mu, sp.sqrt(var))))
    assert sp.simplify(Law("normal", (mu, var)).mgf(c) - direct) == 0


def _with_norm_squared_claim(rhs: sp.Expr) -> Derivation:
    q = sp.IndexedBase("q", real=True)
    i = sp.Symbol("i", integer=True, positive=True)
    D = Derivation("laws", "Laws", "$X$.")
    D.operators = {"norm": lambda v: sp.sqrt(sp.Sum(v[i] ** 2, (i, 1, d)))}
    D.claim(Ex(sp.exp(-s * sp.Sum(q[i] ** 2, (i, 1, d)))), rhs)
    return D


def test_a_law_of_an_expression_stands_on_a_claimed_transform():
    D = _with_norm_squared_claim((1 + 2 * s) ** (-d / 2))
    vocab = words_vocabulary(D)
    assert laws.law_established(D, *_read(D, r"\lVert q \rVert^2 \sim \chi^2_d"), vocab) == ""
    # the wrong degrees of freedom, the wrong law, or a transform of something else
    for wrong in (r"\lVert q \rVert^2 \sim \chi^2_{2d}", r"\lVert q \rVert^2 \sim \mathcal{N}(0, d)"):
        why = laws.law_established(D, *_read(D, wrong), vocab)
        assert "no claim gives its moment generating function" in why
    assert laws.law_established(D, *_read(D, r"\lVert q \rVert \sim \chi^2_d"), vocab) != ""
    # a claimed transform that is not the law's
    D2 = _with_norm_squared_claim((1 + s) ** (-d / 2))
    lhs, rhs = _read(D2, r"\lVert q \rVert^2 \sim \chi^2_d")
    assert laws.law_established(D2, lhs, rhs, words_vocabulary(D2)) != ""


def test_a_random_variable_has_its_declared_law():
    D = Derivation("laws", "Laws", "$X$.")
    X, K = stats.ChiSquared("X", d), stats.Normal("K", 0, 1)
    D.claim(stats.E(sp.exp(-s * X), evaluate=False), (1 + 2 * s) ** (-d / 2))
    D.claim(stats.E(sp.exp(s * K), evaluate=False), sp.exp(s**2 / 2))
    vocab = words_vocabulary(D)
    assert laws.law_established(D, *_read(D, r"X \sim \chi^2_d"), vocab) == ""
    assert laws.law_established(D, *_read(D, r"K \sim \mathcal{N}(0, 1)"), vocab) == ""
    for wrong in (r"X \sim \chi^2_{d + 1}", r"K \sim \mathcal{N}(0, 2)", r"K \sim \chi^2_1"):
        assert "declared with another law" in laws.law_established(D, *_read(D, wrong), vocab)


def test_a_law_symattn_cannot_read_or_of_a_name_the_proof_does_not_know_fails():
    """Review findings: a new name's law passed as a definition (g_j ~ N(0, 7), two laws for one
    name, Q ~ chi2_2d for a Q defined in words); impossible parameters read as laws."""
    D = Derivation("laws", "Laws", "$X$.")
    D.claim(Ex(sp.exp(-s * sp.Symbol("x"))), (1 + 2 * s) ** (-d / 2))  # names d and s for the reader
    vocab = words_vocabulary(D)
    lhs, rhs = _read(D, r"g \sim \mathcal{U}(0, 1)")
    assert "not one symattn reads" in laws.law_established(D, lhs, rhs, vocab, new_name=True)
    lhs, rhs = _read(D, r"g \sim \mathcal{N}(0, 1)")
    assert "no variable or expression of the proof" in laws.law_established(D, lhs, rhs, vocab, new_name=True)
    for impossible in (r"X \sim \mathcal{N}(0, -1)", r"X \sim \chi^2_{-d}", r"X \sim \chi^2_0"):
        assert law_read(_read(D, impossible)[1], vocab) is None, impossible
    assert law_read(_read(D, r"X \sim \chi_d^2")[1], vocab) == Law("chi2", (d,))  # the other order


def test_a_value_of_the_transform_at_one_number_is_no_law():
    """Review finding: E[e^{-2 W}] = 1/9 for W ~ Exp(1/4) made the page's 2W ~ chi2_4 pass (the
    MGF (1 - 2c)^(-2) at c = -1 is 1/9 too); 2W is exponential with mean 8."""
    W = stats.Exponential("W", sp.Rational(1, 4))
    transform = stats.E(sp.exp(-2 * W), evaluate=False)
    D = Derivation("laws", "Laws", r"$2 W \sim \chi^2_4$.")
    D.step(transform, sp.Rational(1, 9), "the exponential's Laplace transform at 2")
    D.claim(transform, sp.Rational(1, 9))
    D.requires_claims = True
    with pytest.raises(StatementFailed, match="no claim gives its moment generating function"):
        D.verify()


@pytest.mark.parametrize(
    ("where", "old", "new"),
    [
        ("theorem", r"\lVert q \rVert^2 \sim \chi^2_d$: a", r"\lVert q \rVert^2 \sim \chi^2_{2d}$: a"),
        ("theorem", r"$X \sim \chi^2_d$", r"$X \sim \chi^2_{d + 1}$"),
        ("theorem", r"$g_j \sim \mathcal{N}(0, 1)$", r"$g_j \sim \mathcal{U}(0, 1)$"),
        ("rules", r"$K \sim \mathcal{N}(0, 1)$", r"$K \sim \mathcal{N}(0, 2)$"),
        # a law is checked whatever else its formula lists (review finding)
        ("theorem", r"\rVert^2 \sim \chi^2_d$: a", r"\rVert^2 \sim \chi^2_{2d}, \; d = 1, \dots, 8$: a"),
        ("theorem", r"$g_j \sim \mathcal{N}(0, 1)$", r"$g_j \sim \mathcal{N}(0, 7)$"),
    ],
)
def test_verify_fails_a_page_whose_law_is_wrong(where, old, new):
    D = load("score_reduction")
    statement(where, old, new)(D)
    with pytest.raises(StatementFailed, match=r"states \$.*\\sim"):
        D.verify()
