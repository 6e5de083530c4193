"""The proof engine (symattn/proof.py): true steps pass, honestly labelled; false ones fail."""

from __future__ import annotations

import pytest
import sympy as sp

import symattn.equivalence as equivalence
from symattn.proof import Derivation, Lemma, LemmaFailed, StepFailed

x, y = sp.symbols("x y", real=True)
n = sp.Symbol("n", integer=True, positive=True)
i = sp.Symbol("i", integer=True, positive=True)


def test_true_chain_is_exact():
    """An algebraic chain is proved exactly, each step naming the normal form used."""
    d = Derivation("demo", "demo", "(x + y)^2 expands")
    d.step((x + y) ** 2, x**2 + 2 * x * y + y**2, "expand the square")
    d.then((x + y) * (x + y), "factor again")
    report = d.verify()
    assert [r.method for r in report.steps] == ["exact", "exact"]
    assert report.steps[0].detail == "expand"
    assert report.numeric_steps == 0


def test_wrong_step_is_caught_with_a_counterexample():
    """A deliberately wrong step raises StepFailed naming the step and a point where it fails."""
    d = Derivation("demo", "demo", "a wrong claim")
    d.step((x + y) ** 2, x**2 + y**2, "expand the square")
    d.then(x**2 + y**2 + 0, "nothing")
    with pytest.raises(StepFailed) as info:
        d.verify()
    message = str(info.value)
    assert message.startswith("demo, step 1 (expand the square): the two sides differ")
    assert "x=" in message and "y=" in message
    assert "left = " in message and "right = " in message


def test_wrong_step_later_in_a_chain_is_named():
    """The failing step is the one named, not its neighbours."""
    d = Derivation("demo", "demo", "chain")
    d.step(x * (x + 1), x**2 + x, "distribute")
    d.then(x**2 + 2 * x, "a slip")
    with pytest.raises(StepFailed, match=r"step 2 \(a slip\)"):
        d.verify()


def test_a_wrong_simplification_is_not_trusted(monkeypatch):
    """If a normal form wrongly returns 0 (as SymPy has), the numeric cross-check catches it."""
    monkeypatch.setattr(equivalence, "LADDER", [("broken", lambda e: sp.S.Zero)])
    d = Derivation("demo", "demo", "false")
    d.step(sp.sin(x), sp.cos(x), "a broken simplifier says equal")
    with pytest.raises(StepFailed, match="differ"):
        d.verify()


def test_unprovable_but_true_step_is_labelled_numeric(monkeypatch):
    """A true step no normal form proves is checked at random points and labelled numeric."""
    monkeypatch.setattr(equivalence, "LADDER", [])
    d = Derivation("demo", "demo", "true")
    d.step(sp.sin(x) ** 2 + sp.cos(x) ** 2, sp.S.One, "Pythagoras")
    report = d.verify()
    assert report.steps[0].method == "numeric"
    assert report.steps[0].exact is False
    assert report.numeric_steps == 1 and report.exact_steps == 0


def test_lemma_steps_are_proved_at_sizes():
    """A step about a symbolic n, proved through a concrete interpretation at each size."""
    f = sp.IndexedBase("f")
    total = sp.Sum(2 * f[i], (i, 1, n))

    def concrete(e, size):
        return sp.sympify(e).subs(n, size).doit()

    calls = []
    lemma = Lemma("linearity", "sum 2 f_i = 2 sum f_i", lambda s: calls.append(s) or True, sizes=(1, 2, 3))
    d = Derivation("demo", "demo", "linearity", concrete=concrete, sizes=(1, 2, 3))
    d.step(total, sp.Sum(f[i], (i, 1, n)) * 2, "pull out the 2", lemma=lemma)
    report = d.verify()
    assert report.steps[0].method in ("exact", "exact at sizes")
    assert calls == [1, 2, 3]  # the lemma itself was checked at every size


def test_false_lemma_step_fails_at_a_concrete_size():
    """A wrong step about a symbolic n fails with the size at which it is false."""

    def concrete(e, size):
        return sp.sympify(e).subs(n, size).doit()

    d = Derivation("demo", "demo", "wrong", concrete=concrete, sizes=(1, 2, 3))
    d.step(sp.Sum(1, (i, 1, n)), 2 * n, "a sum of n ones (wrongly doubled)")
    with pytest.raises(StepFailed, match="differ"):
        d.verify()


def test_failing_lemma_is_reported():
    """A lemma false at some size raises LemmaFailed naming it and the size."""
    bad = Lemma("bad lemma", "false at 2", lambda s: s != 2, sizes=(1, 2))
    d = Derivation("demo", "demo", "uses a bad lemma")
    d.step(x, x, "trivial", lemma=bad)
    with pytest.raises(LemmaFailed, match="'bad lemma' is false at size 2"):
        d.verify()


def test_inequality_needs_a_true_certificate():
    """x(1 - x) <= 1/4 passes with certificate (x - 1/2)^2 and fails with a wrong one."""
    good = Derivation("demo", "demo", "bound")
    good.step(
        x * (1 - x),
        sp.Rational(1, 4),
        "complete the square",
        relation="<=",
        certificate=(x - sp.Rational(1, 2)) ** 2,
    )
    assert good.verify().steps[0].method == "exact"
    bad = Derivation("demo", "demo", "bound")
    bad.step(x * (1 - x), sp.Rational(1, 4), "wrong square", relation="<=", certificate=(x - 1) ** 2)
    with pytest.raises(StepFailed, match="certificate"):
        bad.verify()
    unsigned = Derivation("demo", "demo", "bound")
    unsigned.step(x, x + y, "y is not known to be >= 0", relation="<=", certificate=y)
    with pytest.raises(StepFailed, match="right sign"):
        unsigned.verify()


def test_figures_must_be_correctly_rounded():
    """A stated figure passes only if it is the correctly rounded value."""
    d = Derivation("demo", "demo", "figures")
    d.approx(sp.exp(20), "4.85E+8", "e^20", digits=3)
    assert d.verify().steps[0].method == "certified"
    wrong = Derivation("demo", "demo", "figures")
    wrong.approx(sp.exp(20), "4.86E+8", "e^20", digits=3)
    with pytest.raises(StepFailed, match=r"correctly rounded, 4\.85E"):
        wrong.verify()


def test_counterexample_step_needs_a_certified_difference():
    """A ≠ step passes when an entry certifiably differs and fails when the sides are equal."""
    d = Derivation("demo", "demo", "differs")
    d.step(
        sp.Matrix([[sp.sqrt(2)]]),
        sp.Matrix([[sp.Rational(141421, 100000)]]),
        "close but not equal",
        relation="≠",
    )
    assert d.verify().steps[0].method == "certified"
    same = Derivation("demo", "demo", "equal")
    same.step(sp.Matrix([[sp.sqrt(8)]]), sp.Matrix([[2 * sp.sqrt(2)]]), "equal after all", relation="≠")
    with pytest.raises(StepFailed, match="may be equal"):
        same.verify()


def test_numeric_check_failure_is_reported():
    """A numeric check over its tolerance makes the report not ok."""
    d = Derivation("demo", "demo", "checks")
    d.step(x, x, "trivial")
    d.numeric_check("too large", lambda: (1e-3, 1e-6))
    report = d.verify()
    assert report.ok is False
    assert report.max_error == 1e-3
