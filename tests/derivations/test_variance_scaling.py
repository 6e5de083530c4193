"""derivations/variance_scaling.py: Var(q.k) = d_k, checked; its general case; its figures."""

from __future__ import annotations

import dataclasses
import functools

import pytest
import sympy as sp
from sympy import stats

from derivations import variance_scaling as vs
from symattn.proof import StepFailed
from symattn.proof.gaussian import SYMPY_STATS

NAME = "variance_scaling"


def test_every_step_proved_for_symbolic_width(verify):
    """All steps pass; none is numeric or at sizes: E and Var are reduced by the checked rules."""
    _, report = verify(NAME)
    assert report.ok
    assert report.numeric_steps == 0 and report.count("at sizes") == 0
    ruled = [r for r in report.steps if "rules:" in r.detail]
    assert len(ruled) == 17 and all(r.method == "symbolic" for r in ruled)


@pytest.mark.exhaustive  # the lemmas' own sympy.stats tests below sample it (CI's second run leaves it out)
def test_sizes_cross_check_agrees_with_sympy_stats(verify):
    """The extra cross-check: every step with E or Var, evaluated by sympy.stats itself at d = 1, 2."""
    d = vs.derivation()
    d.concrete = functools.partial(vs.concrete, oracle=SYMPY_STATS)
    d.cross_sizes = (1, 2)
    report = d.verify()
    assert report.ok and report.count("symbolic") == 24


@pytest.mark.parametrize(
    "lemma, n",
    [
        (lemma, n)
        for lemma in (vs.LINEARITY, vs.INDEPENDENCE, vs.VARIANCES_ADD, vs.SCALING, vs.MOMENTS)
        for n in lemma.sizes
    ],
    ids=lambda x: x.name if isinstance(x, vs.Lemma) else str(x),
)
def test_lemmas_hold_with_sympy_stats_itself(lemma, n):
    """verify checks each rule on sympy.stats's integrals evaluated by symattn.proof.gaussian; here
    each is run at each of its sizes with sympy.stats.E and sympy.stats.variance instead."""
    assert lemma.verify(n, oracle=SYMPY_STATS) is True


def test_the_delta_sum_is_proved_for_symbolic_d(verify):
    """The general-case double sum is proved exactly for a symbolic d, not only at sizes."""
    _, report = verify(NAME)
    step = next(r for r in report.steps if "removes the delta" in r.step.rule)
    assert step.method == "symbolic"
    assert (
        sp.expand(
            step.step.rhs
            - (
                vs.d**2 * vs.m_q**2 * vs.m_k**2
                + vs.d * (vs.s_q**2 * vs.s_k**2 + vs.m_q**2 * vs.s_k**2 + vs.m_k**2 * vs.s_q**2)
            )
        )
        == 0
    )


def _general_formula() -> sp.Expr:
    """What the derivation concludes Var(q.k) is for means m and deviations s at width d: the
    right side of the last step of its general case, d (s_q^2 s_k^2 + m_q^2 s_k^2 + m_k^2 s_q^2)."""
    steps = [s for s in vs.derivation().steps if s.section.startswith("The general case")]
    return steps[-1].rhs


def _at(formula: sp.Expr, **values) -> sp.Expr:
    return formula.subs({x: values[str(x)] for x in formula.free_symbols})


def test_standard_case_against_sympy_stats_directly():
    """The derivation's conclusion at width 3, means 0 and deviations 1 is what sympy.stats
    finds for the sum of 3 products of standard normals: variance 3, and 1 once scaled."""
    q = [stats.Normal(f"a{t}", 0, 1) for t in range(3)]
    k = [stats.Normal(f"b{t}", 0, 1) for t in range(3)]
    z = sum(a * b for a, b in zip(q, k, strict=True))
    assert stats.E(z) == 0
    concluded = _at(_general_formula(), d=3, m_q=0, m_k=0, s_q=1, s_k=1)
    assert sp.simplify(stats.variance(z)) == concluded == 3
    assert sp.simplify(stats.variance(z / sp.sqrt(3))) == concluded / 3 == 1


def test_general_formula_at_width_two_against_sympy_stats():
    """The derivation's conclusion at d = 2, with means m and deviations s, is what sympy.stats
    finds: 2 (sq^2 sk^2 + mq^2 sk^2 + mk^2 sq^2)."""
    mq, mk = sp.symbols("mq mk", real=True)
    sq, sk = sp.symbols("sq sk", positive=True)
    q = [stats.Normal(f"c{t}", mq, sq) for t in range(2)]
    k = [stats.Normal(f"e{t}", mk, sk) for t in range(2)]
    z = sum(a * b for a, b in zip(q, k, strict=True))
    concluded = _at(_general_formula(), d=2, m_q=mq, m_k=mk, s_q=sq, s_k=sk)
    assert sp.expand(concluded - 2 * (sq**2 * sk**2 + mq**2 * sk**2 + mk**2 * sq**2)) == 0
    assert sp.expand(stats.variance(z) - concluded) == 0


def test_module_figures_are_certified(verify):
    """sqrt(128) ~ 11.3, e^20 ~ 4.85e8 and e^12.7 ~ 3.28e5 appear as certified figures; sqrt(64),
    exactly 8, is an equality proved by SymPy, not a figure."""
    _, report = verify(NAME)
    figures = {r.step.rhs: r.method for r in report.steps if r.step.relation == "≈"}
    assert figures == {
        "11.3": "certified",
        "4.85E+8": "certified",
        "3.28E+5": "certified",
    }
    (exact,) = [r for r in report.steps if r.step.rule == "at $d_k = 64$"]
    assert (exact.step.relation, exact.method, exact.step.rhs) == ("=", "symbolic", 8)


def test_the_forms_shown_are_the_module_s_and_proved(verify):
    """The page shows Var(q_i k_i) = E[(q_i k_i)^2] - (E[q_i k_i])^2 and the general result as
    d (s_q^2 s_k^2 + m_q^2 s_k^2 + m_k^2 s_q^2), in that order of terms; a shown form whose
    coefficient is changed fails verify at its step."""
    from symattn.present.proof_render import to_markdown

    d, report = verify(NAME)
    page = to_markdown(d, report, stable=True)
    square, mean = r"\left(q_{i} k_{i}\right)^{2}", r"\mathbb{E}\left[q_{i} k_{i}\right]"
    assert rf"\mathbb{{E}}\left[{square}\right] - \left({mean}\right)^{{2}}" in page
    general = r"d \left(s_{q}^{2} s_{k}^{2} + m_{q}^{2} s_{k}^{2} + m_{k}^{2} s_{q}^{2}\right)"
    assert general + r" &\qquad& \text{(25)}" in page
    wrong = vs.derivation()
    index = next(k for k, s in enumerate(wrong.steps) if s.rule == "the $d^2$ terms cancel")
    changed = vs._times(2, vs.general_formula())
    wrong.steps[index] = dataclasses.replace(wrong.steps[index], shown_rhs=changed)
    with pytest.raises(StepFailed, match=rf"step {index + 1} .*shown is not the one checked"):
        wrong.verify()


def test_a_wrong_variance_step_is_caught():
    """Claiming the d_k ones sum to 2 d_k fails, naming that step."""
    d = vs.derivation()
    index = next(k for k, s in enumerate(d.steps) if s.rule.startswith("a sum of"))
    d.steps[index] = dataclasses.replace(d.steps[index], rhs=2 * vs.d_k)
    with pytest.raises(StepFailed, match=rf"step {index + 1} \(a sum of"):
        d.verify()
