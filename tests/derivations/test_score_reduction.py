"""derivations/score_reduction.py: the reduction the labs rely on is itself checked."""

from __future__ import annotations

import numpy as np


def test_all_steps_verified(verify):
    """Every step is exact (symbolic or at sizes); the methods-agree check passes."""
    _, report = verify("score_reduction")
    assert report.ok and report.numeric_steps == 0


def test_reduced_scores_have_the_right_moments():
    """The labs' reduced scores, sqrt(chi2_d) g, have variance d and kurtosis 3 + 6/d, like q.k."""
    from symattn.labs.simulation import scores_for_saturation

    rng = np.random.default_rng(4)
    d, n = 8, 400_000
    z = scores_for_saturation(n, d, 1, rng, "reduced")[:, 0]  # the labs' reduced draw, one key each
    assert abs(z.var() / d - 1) < 0.01
    kurt = (z**4).mean() / z.var() ** 2
    assert abs(kurt - (3 + 6 / d)) < 0.1


def test_independence_lemma_with_sympy_stats_itself():
    """verify checks the independence lemma at d = 2 and 3 on sympy.stats's integrals, evaluated
    by symattn.proof.gaussian; here d = 2 is evaluated by sympy.stats.E itself (1 s of integrals)."""
    from derivations.score_reduction import INDEPENDENCE, _independent_factors
    from symattn.proof.gaussian import SYMPY_STATS

    assert INDEPENDENCE.sizes == (2, 3)
    assert _independent_factors(2, oracle=SYMPY_STATS) is True


def _wrong_reduction(scale):
    """scores_for_saturation with the reduced method replaced by ``scale(rng, t, d) * g``."""
    from symattn.labs import simulation

    right = simulation.scores_for_saturation

    def scores(t, d, keys, rng, method):
        if method == "direct":
            return right(t, d, keys, rng, method)
        return scale(rng, t, d) * rng.standard_normal((t, keys))

    return scores


def test_the_methods_check_catches_wrong_reductions(monkeypatch):
    """Planted in the lab's reduced method: chi-square with one degree of freedom too many, no
    chi-square at all (every query of norm sqrt(d)), and 4 degrees of freedom whatever d is
    (right at the first width only). The check must fail on each."""
    from derivations.score_reduction import _check_methods
    from symattn.labs import simulation

    err, bar = _check_methods()
    assert err < bar
    wrong = {
        "d + 1 degrees of freedom": lambda rng, t, d: np.sqrt(rng.chisquare(d + 1, (t, 1))),
        "the norm fixed at sqrt(d)": lambda rng, t, d: np.sqrt(d),
        "4 degrees of freedom, right at d = 4 alone": lambda rng, t, d: np.sqrt(rng.chisquare(4, (t, 1))),
    }
    for what, scale in wrong.items():
        monkeypatch.setattr(simulation, "scores_for_saturation", _wrong_reduction(scale))
        err, bar = _check_methods()
        assert err > 2 * bar, what
