"""The module's measured results, reproduced by simulation with confidence intervals.

Two labs (section 6.3 of the module):

- **variance**: Var(q.k) / d_k for q, k with independent N(0, 1) entries, and the variance of
  the scaled score q.k / sqrt(d_k); both should be 1.
- **saturation**: the share of trials in which one of ``keys`` softmax weights exceeds a
  threshold (0.99), with and without scaling, and the mean of p_max (1 - p_max) in those trials.

Each lab has two methods that check each other:

- ``direct`` draws q and every key, as the module did;
- ``reduced`` uses the checked derivation ``score_reduction``: given q, the scores q.k_j are
  independent N(0, |q|^2) and |q|^2 is chi-square with d degrees of freedom, so a score is
  sqrt(chi2_d) * N(0, 1) and a trial needs 1 + keys numbers instead of d (keys + 1).

Work is done in fixed-size chunks, each with its own seed spawned from the run's seed, so
memory stays bounded at any size and a seed always gives the same result.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from dataclasses import asdict, dataclass

import numpy as np

from .intervals import PowerSums, variance_interval, wilson

METHODS = ("direct", "reduced")
#: Numbers drawn per chunk (8 bytes each): about 32 MB of draws at a time.
CHUNK = 4_000_000


@dataclass(frozen=True)
class VarianceRow:
    d_k: int
    ratio: float
    ratio_ci: tuple[float, float]
    scaled_variance: float
    scaled_variance_ci: tuple[float, float]
    draws: int


@dataclass(frozen=True)
class Share:
    share: float
    ci: tuple[float, float]
    saturated: int
    mean_p_one_minus_p: float | None


@dataclass(frozen=True)
class SaturationResult:
    unscaled: Share
    scaled: Share
    trials: int
    width: int
    keys: int
    threshold: float
    method: str
    seed: int

    def as_dict(self) -> dict:
        return asdict(self)


def _chunks(
    total: int, per_item: int, seed: int, label: str, progress: bool
) -> Iterator[tuple[int, np.random.Generator]]:
    """(size, generator) for each chunk; sizes depend only on the arguments."""
    size = max(1, CHUNK // max(1, per_item))
    count = -(-total // size)
    seeds = np.random.SeedSequence(seed).spawn(count)
    bar = None
    if progress and sys.stderr.isatty() and count > 1:
        from tqdm import tqdm

        bar = tqdm(total=total, desc=label, unit=" draws", file=sys.stderr, leave=False)
    try:
        for k, ss in enumerate(seeds):
            n = min(size, total - k * size)
            yield n, np.random.default_rng(ss)
            if bar is not None:
                bar.update(n)
    finally:
        if bar is not None:
            bar.close()


def _check(method: str, **positive: int) -> None:
    if method not in METHODS:
        raise ValueError(f"method must be one of {', '.join(METHODS)}")
    for name, value in positive.items():
        if value < 1:
            raise ValueError(f"{name} must be positive, got {value}")


# -- variance ---------------------------------------------------------------------------------
def scores_for_variance(n: int, d: int, rng: np.random.Generator, method: str) -> np.ndarray:
    """n independent raw scores q.k at width d."""
    if method == "direct":
        q = rng.standard_normal((n, d))
        k = rng.standard_normal((n, d))
        return np.einsum("ij,ij->i", q, k)
    return np.sqrt(rng.chisquare(d, n)) * rng.standard_normal(n)


def variance_lab(
    widths: list[int],
    draws: int = 200_000,
    seed: int = 0,
    method: str = "direct",
    progress: bool = True,
) -> list[VarianceRow]:
    """Var(q.k)/d_k and Var(q.k/sqrt(d_k)) per width, each with a 95 % interval."""
    _check(method, draws=draws, **{f"width {w}": w for w in widths})
    rows = []
    for i, d in enumerate(widths):
        raw, scaled = PowerSums(), PowerSums()
        per = 2 * d if method == "direct" else 2
        for n, rng in _chunks(draws, per, seed * 1_000_003 + i, f"variance d_k={d}", progress):
            z = scores_for_variance(n, d, rng, method)
            raw.add(z)
            scaled.add(z / np.sqrt(d))
        v, lo, hi = variance_interval(raw)
        sv, slo, shi = variance_interval(scaled)
        rows.append(VarianceRow(d, v / d, (lo / d, hi / d), sv, (slo, shi), draws))
    return rows


# -- saturation -------------------------------------------------------------------------------
def scores_for_saturation(t: int, d: int, keys: int, rng: np.random.Generator, method: str) -> np.ndarray:
    """A t x keys array: each row one query's raw scores against ``keys`` keys."""
    if method == "direct":
        q = rng.standard_normal((t, d, 1))
        k = rng.standard_normal((t, keys, d))
        return (k @ q)[:, :, 0]
    return np.sqrt(rng.chisquare(d, (t, 1))) * rng.standard_normal((t, keys))


def p_max(scores: np.ndarray) -> np.ndarray:
    """The largest softmax weight of each row, computed safely."""
    shifted = scores - scores.max(axis=1, keepdims=True)
    return 1.0 / np.exp(shifted).sum(axis=1)


def saturation_lab(
    trials: int = 500,
    width: int = 128,
    keys: int = 64,
    threshold: float = 0.99,
    seed: int = 0,
    method: str = "direct",
    progress: bool = True,
) -> SaturationResult:
    """The share of trials with p_max > threshold, unscaled and scaled, with Wilson intervals."""
    _check(method, trials=trials, width=width, keys=keys)
    if not 0 < threshold < 1:
        raise ValueError(f"threshold must be between 0 and 1, got {threshold}")
    counts = {"unscaled": 0, "scaled": 0}
    sums = {"unscaled": 0.0, "scaled": 0.0}
    per = (keys + 1) * width if method == "direct" else keys + 1
    for t, rng in _chunks(trials, per, seed, "saturation", progress):
        z = scores_for_saturation(t, width, keys, rng, method)
        for name, s in (("unscaled", z), ("scaled", z / np.sqrt(width))):
            p = p_max(s)
            hit = p > threshold
            counts[name] += int(hit.sum())
            sums[name] += float((p[hit] * (1 - p[hit])).sum())

    def share(name: str) -> Share:
        c = counts[name]
        return Share(c / trials, wilson(c, trials), c, sums[name] / c if c else None)

    return SaturationResult(share("unscaled"), share("scaled"), trials, width, keys, threshold, method, seed)
