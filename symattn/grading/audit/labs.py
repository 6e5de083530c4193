"""Measured figures of a module against the labs: is the figure what a run of its size gives?

A stated measurement comes from one random run; the lab cannot reproduce its digits, only say
which figures a run of the stated size gives. The lab runs (seeded, the ``reduced`` method, a
fixed small size so the audit takes seconds) and computes a 99 % interval for the figure a run
of the stated size reports:

- a variance ratio: the lab's estimate ± z·sqrt(se_lab² + se_n²), se from the lab's own
  interval (:func:`symattn.labs.intervals.variance_interval`, fourth-moment based), se_n at size n;
- a share of trials: the 0.5 % and 99.5 % binomial quantiles of a run of n trials, at the ends
  of the lab's 99 % Wilson interval for the share;
- the mean of p_max (1 - p_max) over saturated trials: the lab's mean ± z·sqrt(s²/k + s²/k_lab),
  with k = n × share the saturated trials of a run of n.

The figure is ``certified`` when its own rounding interval meets that interval, ``wrong``
otherwise (the value reported is the lab's estimate and the interval).
"""

from __future__ import annotations

import math
import re

from .document import Line
from .match import UNCHECKED, Claim
from .said import Said, Tex
from .stated import Stated

Z99 = 2.5758293035489004  # the 99.5 % point of the standard normal
SEED = 0
VARIANCE_DRAWS = 200_000  # per width, reduced method: two normals a draw
SATURATION_TRIALS = 20_000  # reduced method: 1 + keys normals a trial
#: Why a lab figure is unchecked where NumPy cannot be imported.
NO_NUMPY = "a lab's measured figure: the labs draw with NumPy, which this Python lacks"


#: A share as the module may write it: in math (35 %) or in words (35 percent, 35 per cent).
_SHARE = r"(?:⟨\s*([\d.]+)\s*%\s*⟩|\b([\d.]+)\s*(?:%|percent\b|per cent\b))"


def _share(m: re.Match) -> tuple[str, tuple[int, int]]:
    """The figure of a :data:`_SHARE` match and its span."""
    k = 1 if m.group(1) is not None else 2
    return m.group(k), m.span(k)


def lab_claims(line: Line, block: str) -> list:
    """The lab figures stated on ``line``, each rerun by the lab.

    The labs draw with NumPy. Where it cannot be imported (a browser's Python), each figure is
    reported unchecked, saying so, rather than guessed.
    """
    try:
        import numpy  # noqa: F401
    except ImportError:
        labs = False
    else:
        labs = True
    out: list = []
    text = line.text

    def claim(span: tuple[int, int], ok: bool, value: Said, rule: str) -> None:
        out.append(Claim.judged(line.number, text[span[0] : span[1]], ok, value, rule, [span]))

    def unchecked(span: tuple[int, int]) -> None:
        out.append(Claim(line.number, text[span[0] : span[1]], UNCHECKED, None, NO_NUMPY, [span]))

    draws = re.search(r"[Oo]ver ([\d,]+) random draws", block)
    ratios = re.search(
        r"comes out at ((?:⟨[^⟩]*⟩(?:,| and|,? and)?\s*)+)for ⟨\s*d_k\s*=\s*([\d, and]+)⟩", text
    )
    if draws and ratios and re.search(r"Var\(", text):
        n = int(draws.group(1).replace(",", ""))
        figures = [
            (m.group(1), ratios.start(1) + m.start(1), ratios.start(1) + m.end(1))
            for m in re.finditer(r"⟨\s*([\d.]+)\s*⟩", ratios.group(1))
        ]
        widths = [int(w) for w in re.findall(r"\d+", ratios.group(2))]
        scaled = re.search(r"scaled variance is ⟨\s*([\d.]+)\s*⟩", text)
        if not labs:
            for _, a, b in figures:
                unchecked((a, b))
            if scaled:
                unchecked(scaled.span(1))
        elif len(widths) == len(figures):
            rows = _variance_rows(tuple(widths))
            for (fig, a, b), row in zip(figures, rows, strict=True):
                lo, hi = _prediction(row.ratio, row.ratio_ci, n)
                ok = _meets(Stated.read(fig), lo, hi)
                claim(
                    (a, b),
                    ok,
                    Said(_figure(f"{row.ratio:.4f}"), f", 99 % interval for {n:,} draws ", _range(lo, hi, 4)),
                    rf"lab variance at $d_k = {row.d_k}$: $\operatorname{{Var}}(q \cdot k)/d_k$ "
                    "(symattn.labs.variance_lab)",
                )
            if scaled:
                # Var(q.k / sqrt(d_k)) is Var(q.k)/d_k: the same estimate (the lab has one column).
                bounds = [_prediction(r.ratio, r.ratio_ci, n) for r in rows]
                ok = all(_meets(Stated.read(scaled.group(1)), lo, hi) for lo, hi in bounds)
                lo, hi = min(b[0] for b in bounds), max(b[1] for b in bounds)
                claim(
                    scaled.span(1),
                    ok,
                    Said("99 % intervals within ", _range(lo, hi, 4), " at every width"),
                    r"lab variance: $\operatorname{Var}(q \cdot k / \sqrt{d_k})$ (symattn.labs.variance_lab)",
                )

    trials = re.search(
        r"[Oo]ver ([\d,]+) random trials at ⟨\s*d_k\s*=\s*(\d+)\s*⟩ with ⟨?\s*(\d+)\s*⟩? keys", block
    )
    threshold = re.search(r"p_max⟩? above ⟨\s*([\d.]+)\s*⟩", block)
    if trials and threshold and not labs:
        for pattern in (
            _SHARE + r" of the unscaled",
            r"[Ww]ith scaling, " + _SHARE,
            r"p_max\s*\(\s*1\s*-\s*p_max\s*\)⟩ is ⟨\s*([\d.]+)\s*⟩",
        ):
            if m := re.search(pattern, text):
                unchecked(_share(m)[1] if m.re.groups == 2 else m.span(1))
    elif trials and threshold:
        n, width, keys = (int(trials.group(i).replace(",", "")) for i in (1, 2, 3))
        t = float(threshold.group(1))
        result = _saturation(width, keys, t)
        for pattern, name in (
            (_SHARE + r" of the unscaled", "unscaled"),
            (r"[Ww]ith scaling, " + _SHARE, "scaled"),
        ):
            m = re.search(pattern, text)
            if not m:
                continue
            figure, span = _share(m)
            count, total = result[name]["count"], result["trials"]
            lo, hi = _share_prediction(count, total, n)
            ok = _meets(Stated.read(figure, percent=True), lo, hi)
            claim(
                span,
                ok,
                Said(
                    _figure(f"{100 * count / total:.2f} %"),
                    f" over {total:,} trials; 99 % interval for {n:,} trials ",
                    _range(100 * lo, 100 * hi, 2, " %"),
                ),
                rf"lab saturation, {name}: share with $p_{{\max}} > {t}$ (symattn.labs)",
            )
        m = re.search(r"p_max\s*\(\s*1\s*-\s*p_max\s*\)⟩ is ⟨\s*([\d.]+)\s*⟩", text)
        if m:
            values = result["unscaled"]["p_one_minus_p"]
            share = result["unscaled"]["count"] / result["trials"]
            k = max(1.0, n * share)
            mean, sd = float(values.mean()), float(values.std(ddof=1))
            half = Z99 * math.sqrt(sd * sd / k + sd * sd / len(values))
            lo, hi = mean - half, mean + half
            ok = _meets(Stated.read(m.group(1)), lo, hi)
            claim(
                m.span(1),
                ok,
                Said(_figure(f"{mean:.5f}"), f"; 99 % interval for {n:,} trials ", _range(lo, hi, 5)),
                r"lab saturation: mean $p_{\max}(1 - p_{\max})$ when saturated (symattn.labs)",
            )
    return out


def _figure(text: str) -> Tex:
    """A measured figure (``32.89 %``) for the text report and for the page."""
    return Tex(text, text.replace(" %", r"\,\%"))


def _range(lo: float, hi: float, places: int, unit: str = "") -> Tex:
    a, b = f"{lo:.{places}f}{unit}", f"{hi:.{places}f}{unit}"
    return Tex(f"[{a}, {b}]", _figure(f"[{a}, {b}]").tex.replace("[", r"\left[").replace("]", r"\right]"))


def _meets(stated: Stated, lo: float, hi: float) -> bool:
    return float(stated.low) <= hi and lo <= float(stated.high)


def _prediction(estimate: float, ci95: tuple[float, float], n: int) -> tuple[float, float]:
    from ...labs.intervals import Z95

    se_lab = (ci95[1] - ci95[0]) / (2 * Z95)
    se_n = se_lab * math.sqrt(VARIANCE_DRAWS / n)
    half = Z99 * math.sqrt(se_lab**2 + se_n**2)
    return estimate - half, estimate + half


_CACHE: dict = {}


def _variance_rows(widths: tuple[int, ...]):
    from ...labs.simulation import variance_lab

    key = ("variance", widths)
    if key not in _CACHE:
        _CACHE[key] = variance_lab(list(widths), VARIANCE_DRAWS, SEED, "reduced", progress=False)
    return _CACHE[key]


def _saturation(width: int, keys: int, threshold: float) -> dict:
    """Per-trial results of the saturation lab's own functions (reduced method, seeded)."""
    import numpy as np  # the labs' own code: audit imports it only to check a lab's figures

    from ...labs.simulation import p_max, scores_for_saturation

    key = ("saturation", width, keys, threshold)
    if key in _CACHE:
        return _CACHE[key]
    rng = np.random.default_rng(SEED)
    out: dict = {"trials": SATURATION_TRIALS}
    z = scores_for_saturation(SATURATION_TRIALS, width, keys, rng, "reduced")
    for name, s in (("unscaled", z), ("scaled", z / np.sqrt(width))):
        p = p_max(s)
        hit = p > threshold
        out[name] = {"count": int(hit.sum()), "p_one_minus_p": p[hit] * (1 - p[hit])}
    _CACHE[key] = out
    return out


def _share_prediction(count: int, total: int, n: int) -> tuple[float, float]:
    """The 99 % range of the share a run of n trials reports, given the lab's count."""
    from ...labs.intervals import wilson

    p_lo, p_hi = wilson(count, total, Z99)
    return _binomial_quantile(n, p_lo, 0.005) / n, _binomial_quantile(n, p_hi, 0.995) / n


def _binomial_quantile(n: int, p: float, q: float) -> int:
    """The smallest k with P(Binomial(n, p) <= k) >= q."""
    if p <= 0:
        return 0
    if p >= 1:
        return n
    if n > 100_000:  # normal approximation, continuity corrected
        from statistics import NormalDist

        k = NormalDist(n * p, math.sqrt(n * p * (1 - p))).inv_cdf(q)
        return min(n, max(0, math.ceil(k - 0.5)))
    total = 0.0
    log_p, log_q = math.log(p), math.log1p(-p)
    for k in range(n + 1):
        total += math.exp(
            math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1) + k * log_p + (n - k) * log_q
        )
        if total >= q:
            return k
    return n
