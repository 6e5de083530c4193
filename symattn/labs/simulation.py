"""The module's measured results, reproduced by simulation with confidence intervals.

Two labs (section 6.3 of the module):

- **variance**: Var(q.k) / d_k for q, k with independent N(0, 1) entries, which is also the
  variance of the scaled score q.k / sqrt(d_k); it should be 1.
- **saturation**: the share of trials in which one of ``keys`` softmax weights exceeds a
  threshold (0.99), with and without scaling, and the mean of p_max (1 - p_max) in those trials.

Each lab has two methods that check each other:

- ``direct`` draws q and every key, as the module did;
- ``reduced`` uses the checked derivation ``score_reduction``: given q, the scores q.k_j are
  independent N(0, |q|^2) and |q|^2 is chi-square with d degrees of freedom, so a score is
  sqrt(chi2_d) * N(0, 1) and a trial needs 1 + keys numbers instead of d (keys + 1).

Work is done in fixed-size chunks, each with its own seed spawned (lazily) from the run's seed,
so memory stays bounded at any size and a seed always gives the same result. Sizes are capped
by :mod:`symattn.limits` (the same caps in both labs): at most 10^9 draws or trials, widths and
keys up to 10^6, and 2 x 10^9 random numbers per run, which bounds the time too; the variance lab
needs at least 1,000 draws for its interval to be calibrated.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from dataclasses import asdict, dataclass

import numpy as np

from ..errors import InputError
from ..limits import MAX_COUNT, MAX_KEYS, MAX_NUMBERS, MAX_NUMBERS_TEXT, MAX_WIDTH, MAX_WIDTHS, MIN_DRAWS
from .intervals import PowerSums, mean_interval, variance_interval, wilson

METHODS = ("direct", "reduced")
#: Numbers drawn per chunk (8 bytes each): about 32 MB of draws at a time.
CHUNK = 4_000_000


@dataclass(frozen=True)
class VarianceRow:
    """Var(q.k)/d_k at one width; it is also Var(q.k/sqrt(d_k)), the scaled scores' variance."""

    d_k: int
    ratio: float
    ratio_ci: tuple[float, float]
    draws: int


@dataclass(frozen=True)
class Share:
    share: float
    ci: tuple[float, float]
    saturated: int
    mean_p_one_minus_p: float | None
    mean_p_one_minus_p_ci: tuple[float, float] | None


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
    """(size, generator) for each chunk; sizes depend only on the arguments.

    Chunk seeds are spawned one at a time, as they are needed: the k-th is the same as the
    k-th of ``SeedSequence(seed).spawn(count)``, without holding ``count`` seeds at once.
    """
    size = max(1, CHUNK // max(1, per_item))
    count = -(-total // size)
    root = np.random.SeedSequence(seed)
    bar = None
    if progress and sys.stderr.isatty() and count > 1:
        from tqdm import tqdm

        bar = tqdm(total=total, desc=label, unit=" draws", file=sys.stderr, leave=False)
    try:
        for k in range(count):
            n = min(size, total - k * size)
            yield n, np.random.default_rng(root.spawn(1)[0])
            if bar is not None:
                bar.update(n)
    finally:
        if bar is not None:
            bar.close()


def _check(method: str, count_name: str, count: int, minimum: int, width: int, keys: int = 1) -> None:
    """Refuse a method, count or size the labs cannot run in bounded memory and time."""
    if method not in METHODS:
        raise InputError(f"method must be one of {', '.join(METHODS)}, got {method!r}")
    if not minimum <= count <= MAX_COUNT:
        raise InputError(f"{count_name} must be from {minimum:,} to 10^9, got {count:,}")
    if not 1 <= width <= MAX_WIDTH:
        raise InputError(f"width must be from 1 to 10^6, got {width:,}")
    if not 1 <= keys <= MAX_KEYS:
        raise InputError(f"keys must be from 1 to 10^6, got {keys:,}")


def _check_work(numbers: int, hint: str) -> None:
    if numbers > MAX_NUMBERS:
        raise InputError(
            f"this run would draw {numbers:.3g} random numbers, more than the limit of "
            f"{MAX_NUMBERS_TEXT}; {hint}"
        )


# -- variance ---------------------------------------------------------------------------------
def variance_numbers(widths: list[int], draws: int, method: str) -> int:
    """How many random numbers :func:`variance_lab` draws."""
    return sum(draws * (2 * d if method == "direct" else 2) for d in widths)


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
    """Var(q.k)/d_k per width, with a 95 % interval; it equals Var(q.k/sqrt(d_k)).

    Refuses (InputError) fewer than 1,000 draws, where the interval is not calibrated, and
    sizes beyond :mod:`symattn.limits`.
    """
    if not 1 <= len(widths) <= MAX_WIDTHS:
        raise InputError(f"give from 1 to {MAX_WIDTHS} widths, got {len(widths)}")
    for w in widths:
        _check(method, "draws", draws, MIN_DRAWS, w)
    _check_work(
        variance_numbers(widths, draws, method), "use fewer draws, smaller widths or --method reduced"
    )
    rows = []
    for i, d in enumerate(widths):
        scaled = PowerSums()
        per = 2 * d if method == "direct" else 2
        for n, rng in _chunks(draws, per, seed * 1_000_003 + i, f"variance d_k={d}", progress):
            scaled.add(scores_for_variance(n, d, rng, method) / np.sqrt(d))
        v, lo, hi = variance_interval(scaled)
        rows.append(VarianceRow(d, v, (lo, hi), draws))
    return rows


# -- saturation -------------------------------------------------------------------------------
def saturation_numbers(trials: int, width: int, keys: int, method: str) -> int:
    """How many random numbers :func:`saturation_lab` draws."""
    return trials * ((keys + 1) * width if method == "direct" else keys + 1)


def scores_for_saturation(t: int, d: int, keys: int, rng: np.random.Generator, method: str) -> np.ndarray:
    """A t x keys array: each row one query's raw scores against ``keys`` keys.

    A direct trial too large for one chunk (keys x d > CHUNK) draws its keys in blocks.
    """
    if method == "direct":
        q = rng.standard_normal((t, d, 1))
        if t * keys * d <= CHUNK:
            k = rng.standard_normal((t, keys, d))
            return (k @ q)[:, :, 0]
        rows = max(1, CHUNK // d)
        blocks = [
            (rng.standard_normal((t, min(rows, keys - start), d)) @ q)[:, :, 0]
            for start in range(0, keys, rows)
        ]
        return np.concatenate(blocks, axis=1)
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
    """The share of trials with p_max > threshold, unscaled and scaled, with Wilson intervals,
    and the mean of p_max (1 - p_max) over the saturated trials with its 95 % interval.

    Refuses (InputError) sizes beyond :mod:`symattn.limits`.
    """
    _check(method, "trials", trials, 1, width, keys)
    if not 0 < threshold < 1:
        raise InputError(f"threshold must be strictly between 0 and 1, got {threshold}")
    _check_work(
        saturation_numbers(trials, width, keys, method), "use fewer trials or keys, or --method reduced"
    )
    counts = {"unscaled": 0, "scaled": 0}
    sums = {"unscaled": 0.0, "scaled": 0.0}
    squares = {"unscaled": 0.0, "scaled": 0.0}
    per = (keys + 1) * width if method == "direct" else keys + 1
    for t, rng in _chunks(trials, per, seed, "saturation", progress):
        z = scores_for_saturation(t, width, keys, rng, method)
        for name, s in (("unscaled", z), ("scaled", z / np.sqrt(width))):
            p = p_max(s)
            y = p[p > threshold]
            y = y * (1 - y)
            counts[name] += int(y.size)
            sums[name] += float(y.sum())
            squares[name] += float((y * y).sum())

    def share(name: str) -> Share:
        c = counts[name]
        mean = sums[name] / c if c else None
        # p (1 - p) of any probability lies in [0, 1/4].
        return Share(
            c / trials, wilson(c, trials), c, mean, mean_interval(sums[name], squares[name], c, (0.0, 0.25))
        )

    return SaturationResult(share("unscaled"), share("scaled"), trials, width, keys, threshold, method, seed)
