"""Confidence intervals for the labs.

- :func:`wilson`: the Wilson score interval for a proportion (good at 0 % and near 100 %,
  where the normal-approximation interval fails).
- :func:`variance_interval`: an asymptotic interval for a variance from streamed power sums,
  se(s^2) = sqrt((m4 - s^4) / n). Scores q.k are not normal (their kurtosis is 3 + 6/d), so
  the chi-square interval that assumes normality would be too narrow; this one uses the
  sample fourth moment instead.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

Z95 = 1.959963984540054  # the 97.5 % point of the standard normal


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for successes / n.

    >>> [round(x, 4) for x in wilson(175, 500)]
    [0.3095, 0.3928]
    """
    if n <= 0:
        raise ValueError("n must be positive")
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == n else min(1.0, centre + half)
    return low, high


@dataclass
class PowerSums:
    """Streaming sums of x, x^2, x^3, x^4 (shifted by a known centre for accuracy)."""

    n: int = 0
    s1: float = 0.0
    s2: float = 0.0
    s3: float = 0.0
    s4: float = 0.0

    def add(self, x) -> None:  # x: a NumPy array
        self.n += int(x.size)
        x2 = x * x
        self.s1 += float(x.sum())
        self.s2 += float(x2.sum())
        self.s3 += float((x2 * x).sum())
        self.s4 += float((x2 * x2).sum())

    def variance(self) -> float:
        mean = self.s1 / self.n
        return (self.s2 / self.n - mean * mean) * self.n / (self.n - 1)

    def fourth_central(self) -> float:
        n = self.n
        m1, m2, m3, m4 = self.s1 / n, self.s2 / n, self.s3 / n, self.s4 / n
        return m4 - 4 * m3 * m1 + 6 * m2 * m1 * m1 - 3 * m1**4


def variance_interval(sums: PowerSums, z: float = Z95) -> tuple[float, float, float]:
    """(s^2, low, high): the sample variance and its asymptotic 95 % interval."""
    v = sums.variance()
    se = math.sqrt(max(sums.fourth_central() - v * v, 0.0) / sums.n)
    return v, v - z * se, v + z * se
