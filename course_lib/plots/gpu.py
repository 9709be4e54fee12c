"""Picture of notebook 15: how the time of attention grows with n, on each array library."""

import matplotlib.pyplot as plt

from .style import MUTED, PALETTE

__all__ = ["draw_timings"]

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
