"""Pictures of notebook 08: variance as the spread of darts, and the d_k picture (raw scores
q·k spreading out as d_k grows, scores ÷ √d_k staying at spread ≈ 1, and what that does to
softmax's sensitivity and to the gradient that reaches q and k). The numbers come from
:mod:`course_lib.saturation`."""

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.patches import Circle

from ..backend import to_numpy
from ..saturation import SATURATED, SCALINGS, dart_spread, density, spread_statistics
from .style import MUTED, PALETTE

__all__ = [
    "D_K_CHOICES",
    "OVER_COLOR",
    "RAW_COLOR",
    "SCALED_COLOR",
    "draw_against_dk",
    "draw_dartboard",
    "draw_dk_panels",
    "draw_score_histogram",
    "update_against_dk",
    "update_dk_panels",
    "update_score_histogram",
]

D_K_CHOICES = tuple(2 ** p for p in range(10))  # 1, 2, 4, …, 512
RAW_COLOR = PALETTE["vermillion"]  # raw scores q·k
SCALED_COLOR = PALETTE["blue"]  # q·k ÷ √d_k
OVER_COLOR = PALETTE["purple"]  # q·k ÷ d_k (over-shrunk)

# fixed axes for every d_k (a slider move redraws only the bars); the d_k picture draws raw
# and scaled scores on the SAME axes, bins one unit wide (the tallest bar, 0.39, is at
# d_k = 1 to 4, where the two histograms are alike)
_RAW_LIMIT, _BINS, _SHARED_BINS, _SHARED_YLIM = 75.0, 60, 150, 0.42


def draw_dartboard(throws, ax=None, color=None, title=None, limit=3.5, **kwargs):
    """Darts (2-D points) around a bullseye at the origin, with a dashed circle around where
    they land on average whose radius is their spread √Var (one coordinate's standard
    deviation, pooled over both; :func:`course_lib.saturation.dart_spread`).

    Returns
    -------
    dict of artists: ``darts``, ``circle``, ``rings``.
    """
    ax = plt.gca() if ax is None else ax
    throws = np.asarray(to_numpy(throws), dtype=float)
    color = PALETTE["blue"] if color is None else color
    rings = [ax.add_patch(Circle((0, 0), r, fill=False, color=MUTED, lw=1))
             for r in np.arange(1.0, limit + 0.01, 1.0)]
    darts = ax.scatter(throws[:, 0], throws[:, 1], **{"s": 22, "zorder": 3, **kwargs},
                       color=color)
    ax.plot([0], [0], marker="o", color=PALETTE["black"], ms=6, zorder=4)  # the bullseye
    centre, spread = dart_spread(throws)
    circle = ax.add_patch(Circle(tuple(centre), spread, fill=False, color=color, lw=2, ls="--"))
    ax.set_xlim(-limit, limit)
    ax.set_ylim(-limit, limit)
    ax.set_aspect("equal")
    ax.grid(False)
    ax.set_xticks([])
    ax.set_yticks([])
    for spine in ax.spines.values():
        spine.set_visible(False)
    if title is not None:
        ax.set_title(title)
    return {"darts": darts, "circle": circle, "rings": rings}


def draw_score_histogram(samples, ax=None, limit=_RAW_LIMIT, ylim=0.32, color=None,
                         label="scores", bins=_BINS):
    """A histogram (as a density) of scores over the fixed range −limit … +limit in ``bins``
    bins, titled ``label``. Scores outside the range are left out of the picture.

    Returns
    -------
    dict of artists: ``bars`` (one filled step outline), ``title``, plus ``edges`` (the fixed
    bin edges).
    """
    ax = plt.gca() if ax is None else ax
    edges = np.linspace(-limit, limit, bins + 1)
    bars = ax.stairs(np.zeros(bins), edges, fill=True, alpha=0.85,
                     color=SCALED_COLOR if color is None else color)
    ax.set_xlim(-limit, limit)
    ax.set_ylim(0, ylim)
    ax.set_ylabel("density (share per unit)")
    artists = {"bars": bars, "title": ax.set_title(label), "edges": edges}
    update_score_histogram(artists, samples)
    return artists


def update_score_histogram(artists, samples):
    """Set the bars of :func:`draw_score_histogram` to new samples (in place)."""
    artists["bars"].set_data(density(samples, artists["edges"]))


def draw_against_dk(d_ks, series, ax=None, current=None, ylabel="", log=False,
                    reference=None):
    """Lines of one quantity against d_k (a log₂ axis), one per scaling ("raw", "scaled",
    "over" in ``series``), dots marking ``current`` d_k, and an optional dotted
    ``reference`` line (value, text).

    Returns
    -------
    dict of artists: ``lines`` and ``dots`` (scaling → Line2D), ``marker`` (vertical line),
    plus ``d_ks`` and ``series`` (the data, so :func:`update_against_dk` can move the dots).
    """
    ax = plt.gca() if ax is None else ax
    styles = {"raw": (RAW_COLOR, "s-", "raw q·k"), "scaled": (SCALED_COLOR, "o-", "q·k ÷ √d_k"),
              "over": (OVER_COLOR, "^:", "q·k ÷ d_k")}
    d_ks = [int(d) for d in d_ks]
    lines, dots = {}, {}
    if reference is not None:
        line = ax.axhline(reference[0], color=MUTED, ls="--", lw=1, label=reference[1])
        # named in a legend at the top left, where no curve goes (a label on the line would
        # sit on the ÷d_k curve, which falls towards it)
        ax.legend(handles=[line], loc="upper left", fontsize=8, frameon=False)
    for name, values in series.items():
        color, style, label = styles[name]
        (lines[name],) = ax.plot(d_ks, values, style, color=color, ms=4, lw=1.5, label=label)
        (dots[name],) = ax.plot([], [], "o", color=color, ms=10, mec=PALETTE["black"])
    marker = ax.axvline(d_ks[0], color=MUTED, lw=2, zorder=0)  # grey: not a scaling's colour
    ax.set_xscale("log", base=2)
    if log:
        ax.set_yscale("log", base=2)
    ax.set_xticks(d_ks[::3], [str(d) for d in d_ks[::3]])
    ax.minorticks_off()
    ax.set_xlabel("d_k")
    ax.set_ylabel(ylabel)
    artists = {"lines": lines, "dots": dots, "marker": marker, "d_ks": d_ks,
               "series": {k: list(v) for k, v in series.items()}}
    if current is not None:
        update_against_dk(artists, current)
    return artists


def update_against_dk(artists, d_k):
    """Move the vertical marker and the dots of :func:`draw_against_dk` to ``d_k``."""
    index = artists["d_ks"].index(int(d_k))
    artists["marker"].set_xdata([d_k, d_k])
    for name, dot in artists["dots"].items():
        dot.set_data([d_k], [artists["series"][name][index]])


PANELS = (  # key of spread_statistics, y label, log y-axis, reference line, title
    ("variance", "variance of the scores", True, None, "variance (the spread squared)"),
    ("largest_weight", "largest weight (mean row)", False, (1 / 16, "uniform 1/16"),
     "how peaked softmax is"),
    ("saturated", "share of one-hot rows", False, None, f"rows with a weight ≥ {SATURATED}"),
    ("sensitivity", "softmax sensitivity ∥J∥", False, None,
     "median row: how far softmax can move"),
    ("gradient", "gradient reaching q", True, None,
     "median row: gradient reaching q (∥cJK∥)"),
)


def draw_dk_panels(d_k, fig=None, d_ks=D_K_CHOICES, table=None):
    """The whole d_k picture: raw and scaled histograms on the same axes (top), then, against
    d_k, the
    variance, the largest weight, the share of saturated rows (middle), softmax's sensitivity
    ∥J∥ and the gradient that reaches q by the chain rule (bottom), with ``d_k`` marked.

    ``table`` maps each d_k of ``d_ks`` to its :func:`course_lib.saturation.spread_statistics`
    (computed when None).

    Returns
    -------
    dict of artists: ``raw``, ``scaled`` (histograms), one curve panel per key of ``PANELS``,
    and ``table``; pass it to :func:`update_dk_panels`.
    """
    fig = plt.gcf() if fig is None else fig
    table = {d: spread_statistics(d) for d in d_ks} if table is None else table
    stats = table[d_k]
    # fixed margins: tight_layout would cost more than the whole drawing
    grid = fig.add_gridspec(3, 6, height_ratios=(1.1, 1, 1), left=0.07, right=0.99, top=0.96,
                            bottom=0.12, hspace=0.75, wspace=1.6)
    raw_ax, scaled_ax = fig.add_subplot(grid[0, :3]), fig.add_subplot(grid[0, 3:])
    artists = {
        name: draw_score_histogram(stats["samples"][name], ax=ax, limit=_RAW_LIMIT,
                                   ylim=_SHARED_YLIM, color=color, label=label,
                                   bins=_SHARED_BINS)
        for name, ax, color, label in (("raw", raw_ax, RAW_COLOR, "raw scores q·k"),
                                       ("scaled", scaled_ax, SCALED_COLOR,
                                        "scaled scores q·k ÷ √d_k"))
    }
    artists["table"] = table
    raw_ax.set_xlabel("raw score q·k")
    scaled_ax.set_xlabel("scaled score q·k ÷ √d_k (the same axes)")
    places = (grid[1, 0:2], grid[1, 2:4], grid[1, 4:6], grid[2, 0:3], grid[2, 3:6])
    for place, (key, ylabel, log, reference, title) in zip(places, PANELS, strict=True):
        ax = fig.add_subplot(place)
        series = {name: [table[d][key][name] for d in d_ks] for name in SCALINGS}
        artists[key] = draw_against_dk(d_ks, series, ax=ax, current=d_k, ylabel=ylabel,
                                       log=log, reference=reference)
        if not log:
            ax.set_ylim(0, 1.05 if key != "sensitivity" else None)
        ax.yaxis.label.set_fontsize(10)
        ax.set_title(title, fontsize=10)
    handles = list(artists["variance"]["lines"].values())
    fig.legend(handles=handles, labels=[h.get_label() for h in handles], loc="lower center",
               ncol=3, fontsize=9, frameon=False)  # below the panels, off the curves
    return artists


def update_dk_panels(artists, stats):
    """Move every panel of :func:`draw_dk_panels` to the statistics ``stats`` of one d_k."""
    update_score_histogram(artists["raw"], stats["samples"]["raw"])
    update_score_histogram(artists["scaled"], stats["samples"]["scaled"])
    for key, *_ in PANELS:
        update_against_dk(artists[key], stats["d_k"])
