"""The labs' results as text, Markdown and JSON.

Every interval is printed rounded *outward* (the low end down, the high end up), so the printed
interval contains the computed one: a nonzero upper bound never prints as 0. Estimates are
rounded to nearest. Rounding is done on the exact decimal value of each float.
"""

from __future__ import annotations

import json
import math
from decimal import ROUND_CEILING, ROUND_FLOOR, ROUND_HALF_EVEN, Decimal, localcontext

from ..labs.simulation import SaturationResult, Share, VarianceRow

#: Most decimal places used for a tiny interval end (its outward rounding stays nonzero).
MAX_PLACES = 12
VARIANCE_INTERVAL = "chi-square with degrees of freedom matched to the sample kurtosis"
SHARE_INTERVAL = "Wilson"
MEAN_INTERVAL = "normal approximation"


def _fixed(x: float | Decimal, places: int, rounding: str) -> str:
    # A double has at most 767 significant decimal digits: this precision keeps every step exact.
    with localcontext(prec=1000):
        d = Decimal(x).quantize(Decimal(1).scaleb(-places), rounding=rounding)
    return f"{d.copy_abs() if d.is_zero() else d:f}"


def _percent(x: float) -> Decimal:
    """100 x, exactly."""
    with localcontext(prec=1000):
        return Decimal(x).scaleb(2)


def nearest(x: float, places: int) -> str:
    """x correctly rounded to ``places`` decimals."""
    return _fixed(x, places, ROUND_HALF_EVEN)


def outward(low: float | Decimal, high: float | Decimal, places: int) -> tuple[str, str]:
    """[low, high] rounded outward to ``places`` decimals.

    >>> outward(0.30755, 0.39076, 2)
    ('0.30', '0.40')
    >>> outward(0.0, 3.8e-6, 4)
    ('0.0000', '0.0001')
    """
    return _fixed(low, places, ROUND_FLOOR), _fixed(high, places, ROUND_CEILING)


def places_for(x: float, least: int, significant: int) -> int:
    """Decimals that show ``significant`` digits of a positive x, at least ``least``, at most 12."""
    if x <= 0 or not math.isfinite(x):
        return least
    return max(least, min(MAX_PLACES, significant - 1 - math.floor(math.log10(x))))


def percent_texts(share: Share) -> tuple[str, str, str]:
    """(share, low, high) in percent; two decimals, more when the upper end is under 1 %."""
    places = places_for(100 * share.ci[1], 2, 2)
    lo, hi = outward(_percent(share.ci[0]), _percent(share.ci[1]), places)
    return _fixed(_percent(share.share), places, ROUND_HALF_EVEN), lo, hi


def mean_texts(share: Share) -> tuple[str, str, str] | None:
    """(mean, low, high) of p(1 - p) over saturated trials, three significant digits; None if none."""
    if share.mean_p_one_minus_p is None:
        return None
    places = places_for(share.mean_p_one_minus_p, 4, 3)
    mean = nearest(share.mean_p_one_minus_p, places)
    if share.mean_p_one_minus_p_ci is None:
        return mean, "", ""
    return (mean, *outward(*share.mean_p_one_minus_p_ci, places))


# -- variance ---------------------------------------------------------------------------------
def variance_text(rows: list[VarianceRow], seed: int, method: str) -> str:
    draws = rows[0].draws
    lines = [
        f"Var(q.k)/d_k, which is also Var(q.k/sqrt(d_k)), over {draws:,} draws per width "
        f"({method}, seed {seed})",
        f"95% intervals: {VARIANCE_INTERVAL}",
        f"{'d_k':>7}  {'Var(q.k)/d_k':>12}  95% interval",
    ]
    for r in rows:
        lo, hi = outward(*r.ratio_ci, 4)
        lines.append(f"{r.d_k:>7}  {nearest(r.ratio, 4):>12}  [{lo}, {hi}]")
    return "\n".join(lines) + "\n"


def variance_markdown(rows: list[VarianceRow]) -> str:
    lines = [
        r"| $d_k$ | $\operatorname{Var}(q \cdot k) / d_k = \operatorname{Var}(q \cdot k / \sqrt{d_k})$ "
        "| 95 % interval |",
        "|---|---|---|",
    ]
    for r in rows:
        lo, hi = outward(*r.ratio_ci, 4)
        lines.append(f"| {r.d_k} | {nearest(r.ratio, 4)} | [{lo}, {hi}] |")
    return "\n".join(lines) + "\n"


def variance_json(rows: list[VarianceRow], seed: int, method: str) -> str:
    doc = {
        "widths": [{"d_k": r.d_k, "ratio": r.ratio, "ratio_ci": list(r.ratio_ci)} for r in rows],
        "draws": rows[0].draws,
        "seed": seed,
        "method": method,
        "interval": VARIANCE_INTERVAL,
    }
    return json.dumps(doc, indent=2) + "\n"


# -- saturation -------------------------------------------------------------------------------
def saturation_text(r: SaturationResult) -> str:
    lines = [
        f"{r.trials:,} trials, d_k = {r.width:,}, {r.keys:,} keys, p_max > {r.threshold} "
        f"({r.method}, seed {r.seed})",
        f"95% intervals: {SHARE_INTERVAL} for shares, {MEAN_INTERVAL} for the mean p(1-p) "
        "of saturated trials",
    ]
    count_width = len(f"{r.trials:,}")
    for name in ("unscaled", "scaled"):
        s: Share = getattr(r, name)
        share, lo, hi = percent_texts(s)
        m = mean_texts(s)
        if m is None:
            mean = "-"
        elif m[1]:
            mean = f"{m[0]} [{m[1]}, {m[2]}]"
        else:
            mean = f"{m[0]} (one trial: no interval)"
        lines.append(
            f"  {name:<9} {s.saturated:>{count_width},} of {r.trials:,} saturated  {share}%  "
            f"[{lo}%, {hi}%]  mean p(1-p) when saturated: {mean}"
        )
    return "\n".join(lines) + "\n"


def saturation_markdown(r: SaturationResult) -> str:
    lines = [
        "| scores | saturated | share | 95 % interval | mean p(1 − p) when saturated | 95 % interval |",
        "|---|---|---|---|---|---|",
    ]
    for name in ("unscaled", "scaled"):
        s: Share = getattr(r, name)
        share, lo, hi = percent_texts(s)
        m = mean_texts(s)
        mean, mean_ci = ("–", "–") if m is None else (m[0], f"[{m[1]}, {m[2]}]" if m[1] else "–")
        count = f"{s.saturated:,} of {r.trials:,}"
        lines.append(f"| {name} | {count} | {share} % | [{lo} %, {hi} %] | {mean} | {mean_ci} |")
    return "\n".join(lines) + "\n"


def saturation_json(r: SaturationResult) -> str:
    doc = r.as_dict()
    for name in ("unscaled", "scaled"):
        doc[name]["ci"] = list(doc[name]["ci"])
        ci = doc[name]["mean_p_one_minus_p_ci"]
        doc[name]["mean_p_one_minus_p_ci"] = None if ci is None else list(ci)
    doc["intervals"] = {"share": SHARE_INTERVAL, "mean_p_one_minus_p": MEAN_INTERVAL}
    return json.dumps(doc, indent=2) + "\n"
