"""Figures for the labs, drawn with matplotlib (the optional ``plot`` extra).

SVG output is deterministic: no date in the metadata and a fixed hash salt for element ids,
so a regenerated figure is byte-for-byte the same for the same seed.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np

from ..errors import SymattnError
from .simulation import saturation_lab, scores_for_variance

WIDTHS = (16, 32, 64, 128, 256)
FORMATS = (".svg", ".png", ".pdf")


class PlotUnavailable(SymattnError):
    """Raised when a figure is asked for but matplotlib is not installed."""


class FigureError(SymattnError):
    """Raised when a figure's path cannot be written: a missing folder, no permission, a full
    disk, or a file name that does not end in .svg, .png or .pdf."""


def check_target(path: str | Path) -> Path:
    """The path a figure will be written to, checked before any work is done.

    Its folder must exist and be writable, its name must end in .svg, .png or .pdf, and
    matplotlib must be installed.
    """
    path = Path(path)
    if path.suffix.lower() not in FORMATS:
        raise FigureError(f"a figure's file name must end in .svg, .png or .pdf, got {str(path)!r}")
    folder = path.parent
    if not folder.is_dir():
        raise FigureError(f"cannot write {path}: the folder {folder} does not exist")
    if path.is_dir() or not os.access(folder, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise FigureError(f"cannot write {path}: permission denied or not a file")
    _pyplot()
    return path


def _pyplot():
    try:
        import matplotlib
    except ImportError:
        raise PlotUnavailable("figures need matplotlib: pip install 'symattn[plot]'") from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcParams["svg.hashsalt"] = "symattn"
    plt.rcParams["svg.fonttype"] = "path"
    return plt


def _save(fig, path: str | Path) -> Path:
    path = Path(path)
    suffix = path.suffix.lower()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fig.savefig(
            path,
            format=suffix.lstrip(".") or "svg",
            metadata={"Date": None} if suffix in ("", ".svg") else None,
            bbox_inches="tight",
        )
    except OSError as exc:
        raise FigureError(f"cannot write {path}: {exc.strerror or exc}") from None
    finally:
        _pyplot().close(fig)
    return path


def score_histograms(
    path: str | Path, widths: tuple[int, ...] = WIDTHS, draws: int = 50_000, seed: int = 0
) -> Path:
    """Histograms of raw and scaled scores at each width (the module's sqrt-dk-histogram)."""
    plt = _pyplot()
    fig, (raw_ax, scaled_ax) = plt.subplots(1, 2, figsize=(10, 4))
    bins_raw = np.linspace(-50, 50, 101)
    bins_scaled = np.linspace(-5, 5, 101)
    for d in widths:
        rng = np.random.default_rng(np.random.SeedSequence([seed, d]))
        z = scores_for_variance(draws, d, rng, "direct")
        raw_ax.hist(z, bins=bins_raw, histtype="step", density=True, label=f"$d_k = {d}$")
        scaled_ax.hist(z / np.sqrt(d), bins=bins_scaled, histtype="step", density=True, label=f"$d_k = {d}$")
    raw_ax.set_title(r"unscaled scores $q \cdot k$: spread $\sqrt{d_k}$")
    scaled_ax.set_title(r"scaled scores $q \cdot k / \sqrt{d_k}$: spread 1")
    for ax in (raw_ax, scaled_ax):
        ax.set_xlabel("score")
        ax.legend(fontsize="small")
    raw_ax.set_ylabel("density")
    scaled_ax.set_ylabel("density")
    return _save(fig, path)


def saturation_curve(
    path: str | Path,
    widths: tuple[int, ...] = WIDTHS,
    trials: int = 20_000,
    keys: int = 64,
    threshold: float = 0.99,
    seed: int = 0,
) -> Path:
    """The share of saturated trials against d_k, with and without scaling, 95 % intervals."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(6, 4))
    results = [saturation_lab(trials, d, keys, threshold, seed, "reduced", progress=False) for d in widths]
    for name, label in (("unscaled", "unscaled"), ("scaled", r"scaled by $1/\sqrt{d_k}$")):
        shares = np.array([getattr(r, name).share for r in results])
        lo = np.array([getattr(r, name).ci[0] for r in results])
        hi = np.array([getattr(r, name).ci[1] for r in results])
        ax.errorbar(widths, shares, yerr=[shares - lo, hi - shares], marker="o", capsize=3, label=label)
    ax.set_xscale("log", base=2)
    ax.set_xticks(widths, [str(w) for w in widths])
    ax.set_xlabel("$d_k$")
    ax.set_ylabel(rf"share of trials with $p_{{\max}} > {threshold}$")
    ax.set_title(f"Softmax saturation over {keys} keys ({trials:,} trials per width)")
    ax.legend()
    return _save(fig, path)
