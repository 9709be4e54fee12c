"""Pictures of notebook 15: how the time of attention grows with n on each array library, and
whether the score grids fit in a GPU's memory."""

import matplotlib.pyplot as plt

from ..text import fmt
from .style import MUTED, PALETTE, ROLE_COLORS

__all__ = ["draw_memory_fit", "draw_timings", "update_memory_fit"]

_COLORS = (PALETTE["blue"], PALETTE["vermillion"], PALETTE["green"], PALETTE["orange"])
_MARKERS = ("o", "s", "^", "D")


def draw_timings(sizes, timings, ax=None):
    """Seconds against sequence length n = m, one line per label, on log–log axes.

    Parameters
    ----------
    sizes : the n values (the x axis).
    timings : dict label → list of seconds, one per size (None where not measured).
    ax : where to draw (the current axes if None).

    Returns
    -------
    dict label → line, plus ``"n²"``: a dotted guide line with the slope of n² work,
    through the first label's largest measurement.
    """
    ax = plt.gca() if ax is None else ax
    lines = {}
    for index, (label, seconds) in enumerate(timings.items()):
        points = [(n, t) for n, t in zip(sizes, seconds, strict=True) if t is not None]
        (lines[label],) = ax.plot([n for n, _ in points], [t * 1e3 for _, t in points],
                                  marker=_MARKERS[index % 4], color=_COLORS[index % 4],
                                  label=label)
    first = [(n, t) for n, t in zip(sizes, next(iter(timings.values())), strict=True)
             if t is not None]
    if first:
        n_top, t_top = first[-1]
        guide = [t_top * 1e3 * (n / n_top) ** 2 for n in sizes]
        (lines["n²"],) = ax.plot(sizes, guide, ":", color=MUTED, label="∝ n² (the n×m grid)")
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xticks(list(sizes), labels=[str(n) for n in sizes])
    ax.minorticks_off()
    ax.set_xlabel("sequence length n = m")
    ax.set_ylabel("time per call (ms)")
    ax.legend(fontsize=10)
    return lines


def draw_memory_fit(grid_gib, tiled_gib, gpu_gib, ax=None):
    """Two horizontal bars, the plain formula's score grids and tiled attention's extra memory,
    against a vertical line at the GPU's memory; GiB on a logarithmic axis.

    Returns
    -------
    dict of artists; pass it to :func:`update_memory_fit`.
    """
    ax = plt.gca() if ax is None else ax
    bars = ax.barh([1, 0], [grid_gib, tiled_gib], color=[ROLE_COLORS["key"],
                                                          ROLE_COLORS["query"]], height=0.5)
    ax.set_yticks([1, 0], labels=["plain formula:\nscore grids", "tiled attention:\nextra"])
    ax.set_xscale("log")
    ax.set_xlim(2.0**-10, 2.0**14)
    ax.set_ylim(-0.6, 1.9)
    ax.set_xlabel("memory (GiB, logarithmic)")
    artists = {
        "bars": bars,
        "gpu": ax.axvline(gpu_gib, color=PALETTE["black"], lw=2),
        "gpu_label": ax.text(gpu_gib, 1.55, "", ha="center", fontsize=10,
                             bbox={"facecolor": "white", "edgecolor": "none", "pad": 1}),
        "labels": [ax.text(0, y, "", va="center", fontsize=10) for y in (1, 0)],
    }
    update_memory_fit(artists, grid_gib, tiled_gib, gpu_gib)
    return artists


def update_memory_fit(artists, grid_gib, tiled_gib, gpu_gib):
    """Set the bars, their labels and the GPU line of :func:`draw_memory_fit` (in place)."""
    for bar, label, gib in zip(artists["bars"], artists["labels"], (grid_gib, tiled_gib),
                               strict=True):
        bar.set_width(gib)
        label.set_x(gib * 1.15)
        label.set_text(f"{fmt(gib, 3)} GiB" if gib < 1 else f"{fmt(gib, 1)} GiB")
    artists["gpu"].set_xdata([gpu_gib, gpu_gib])
    artists["gpu_label"].set_x(gpu_gib)
    artists["gpu_label"].set_text(f"GPU memory: {gpu_gib:.0f} GiB")
