"""Pictures of notebook 08: variance as the spread of darts, and the d_k picture (raw scores
q·k spreading out as d_k grows, scores ÷ √d_k staying at spread ≈ 1, and what that does to
softmax's largest weight and to its slopes)."""

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.patches import Circle

from .. import default_scale, sample_dot_products, softmax, softmax_jacobian
from ..backend import to_numpy
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
    "spread_statistics",
    "update_against_dk",
    "update_dk_panels",
    "update_score_histogram",
]

D_K_CHOICES = tuple(2 ** p for p in range(10))  # 1, 2, 4, …, 512
RAW_COLOR = PALETTE["vermillion"]  # raw scores q·k
SCALED_COLOR = PALETTE["blue"]  # q·k ÷ √d_k
OVER_COLOR = PALETTE["purple"]  # q·k ÷ d_k (over-shrunk)
SCALINGS = ("raw", "scaled", "over")  # × 1, × 1/√d_k, × 1/d_k

_RAW_LIMIT, _SCALED_LIMIT, _BINS = 75.0, 5.0, 60


def spread_statistics(d_k, size=2000, keys=16, seed=8):
    """What the d_k dashboard shows for one d_k: sampled scores and their consequences.

    ``size`` dot products q·k of random vectors with d_k independent N(0, 1) slots are drawn
    with :func:`course_lib.sample_dot_products` (generator seeded with ``seed``), then cut into
    rows of ``keys`` scores, as if one query met ``keys`` keys. For each of three scalings,
    raw (× 1), scaled (× 1/√d_k) and over-shrunk (× 1/d_k), the result holds the variance of
    the scores, the largest softmax weight of a row and the gradient size of a row (the size
    ∥J∥ of softmax's slopes J = diag(p) − ppᵀ, :func:`course_lib.softmax_jacobian`), each
    averaged over the rows.

    Returns
    -------
    dict with ``d_k``, ``multiplier`` (scaling → number), ``samples`` (scaling → (size,)
    array), ``variance``, ``largest_weight``, ``gradient_size`` (scaling → float).

    >>> stats = spread_statistics(64)
    >>> 55 < stats["variance"]["raw"] < 73 and 0.85 < stats["variance"]["scaled"] < 1.15
    True
    """
    raw = to_numpy(sample_dot_products(d_k, size, np.random.default_rng(seed)))
    multiplier = {"raw": 1.0, "scaled": default_scale(d_k), "over": 1.0 / d_k}
    rows = raw[: (size // keys) * keys].reshape(-1, keys)  # (rows, keys): one query each
    stats = {"d_k": d_k, "multiplier": multiplier, "samples": {}, "variance": {},
             "largest_weight": {}, "gradient_size": {}}
    for name, c in multiplier.items():
        weights = to_numpy(softmax(rows * c, axis=-1))  # (rows, keys)
        slopes = to_numpy(softmax_jacobian(weights))  # (rows, keys, keys)
        stats["samples"][name] = raw * c
        stats["variance"][name] = float(np.var(raw * c))
        stats["largest_weight"][name] = float(weights.max(axis=-1).mean())
        stats["gradient_size"][name] = float(np.linalg.norm(slopes, axis=(-2, -1)).mean())
    return stats


def draw_dartboard(throws, ax=None, color=None, title=None, limit=3.5):
    """Darts (2-D points) around a bullseye at the origin, with a dashed circle whose radius
    is the spread: the square root of the average squared distance from the centre.

    Returns
    -------
    dict of artists: ``darts``, ``circle``, ``rings``.
    """
    ax = plt.gca() if ax is None else ax
    throws = np.asarray(to_numpy(throws), dtype=float)
    color = PALETTE["blue"] if color is None else color
    rings = [ax.add_patch(Circle((0, 0), r, fill=False, color=MUTED, lw=1))
             for r in np.arange(1.0, limit + 0.01, 1.0)]
    darts = ax.scatter(throws[:, 0], throws[:, 1], s=22, color=color, zorder=3)
    ax.plot([0], [0], marker="o", color=PALETTE["black"], ms=6, zorder=4)  # the bullseye
    spread = float(np.sqrt(np.mean(np.sum(throws ** 2, axis=1))))
    circle = ax.add_patch(Circle((0, 0), spread, fill=False, color=color, lw=2, ls="--"))
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
                         label="scores"):
    """A histogram (as a density) of scores over the fixed range −limit … +limit, titled
    ``label``. Scores outside the range are left out of the picture.

    Returns
    -------
    dict of artists: ``bars`` (one filled step outline), ``title``, plus ``edges`` (the fixed
    bin edges).
    """
    ax = plt.gca() if ax is None else ax
    edges = np.linspace(-limit, limit, _BINS + 1)
    bars = ax.stairs(np.zeros(_BINS), edges, fill=True, alpha=0.85,
                     color=SCALED_COLOR if color is None else color)
    ax.set_xlim(-limit, limit)
    ax.set_ylim(0, ylim)
    ax.set_ylabel("share per unit")
    artists = {"bars": bars, "title": ax.set_title(label), "edges": edges}
    update_score_histogram(artists, samples)
    return artists


def update_score_histogram(artists, samples):
    """Set the bars of :func:`draw_score_histogram` to new samples (in place)."""
    samples = np.asarray(to_numpy(samples), dtype=float)
    counts, _ = np.histogram(samples, bins=artists["edges"])
    width = artists["edges"][1] - artists["edges"][0]
    density = counts / (len(samples) * width)
    artists["bars"].set_data(density)


def draw_against_dk(d_ks, series, ax=None, current=None, ylabel="", log=False,
                    reference=None):
    """Lines of one quantity against d_k (a log₂ axis), one per scaling, with dots that mark
    the current d_k.

    Parameters
    ----------
    d_ks : the d_k values on the x-axis.
    series : dict scaling name ("raw", "scaled", "over") → values, one per d_k.
    current : the d_k to mark (one of ``d_ks``), or None.
    reference : optional (value, text): a dotted horizontal guide line.

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
        ax.axhline(reference[0], color=MUTED, ls="--", lw=1)
        ax.text(d_ks[0], reference[0], reference[1], color=MUTED, fontsize=9, va="top")
    for name, values in series.items():
        color, style, label = styles[name]
        (lines[name],) = ax.plot(d_ks, values, style, color=color, ms=4, lw=1.5, label=label)
        (dots[name],) = ax.plot([], [], "o", color=color, ms=10, mec=PALETTE["black"])
    marker = ax.axvline(d_ks[0], color=PALETTE["orange"], lw=2, alpha=0.7)
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


def draw_dk_panels(d_k, fig=None, d_ks=D_K_CHOICES, table=None):
    """The whole d_k picture: raw and scaled histograms (top), then variance, largest weight
    and gradient size against d_k (bottom), with ``d_k`` marked.

    ``table`` maps each d_k of ``d_ks`` to its :func:`spread_statistics` (computed when None).

    Returns
    -------
    dict of artists: ``raw``, ``scaled`` (histograms), ``variance``, ``largest_weight``,
    ``gradient_size`` (curves), and ``table``; pass it to :func:`update_dk_panels`.
    """
    fig = plt.gcf() if fig is None else fig
    table = {d: spread_statistics(d) for d in d_ks} if table is None else table
    stats = table[d_k]
    # fixed margins: tight_layout would cost more than the whole drawing
    grid = fig.add_gridspec(2, 6, height_ratios=(1.1, 1), left=0.065, right=0.99, top=0.95,
                            bottom=0.085, hspace=0.42, wspace=1.6)
    raw_ax, scaled_ax = fig.add_subplot(grid[0, :3]), fig.add_subplot(grid[0, 3:])
    artists = {
        "raw": draw_score_histogram(stats["samples"]["raw"], ax=raw_ax, limit=_RAW_LIMIT,
                                    ylim=0.32, color=RAW_COLOR, label="raw scores q·k"),
        "scaled": draw_score_histogram(stats["samples"]["scaled"], ax=scaled_ax,
                                       limit=_SCALED_LIMIT, ylim=0.8, color=SCALED_COLOR,
                                       label="scaled scores q·k ÷ √d_k"),
        "table": table,
    }
    raw_ax.set_xlabel(f"raw score q·k (x-axis −{_RAW_LIMIT:.0f} … {_RAW_LIMIT:.0f})")
    scaled_ax.set_xlabel(f"scaled score q·k ÷ √d_k (x-axis −{_SCALED_LIMIT:.0f} … "
                         f"{_SCALED_LIMIT:.0f})")
    panels = (("variance", "variance of the scores", True, None),
              ("largest_weight", "largest softmax weight", False, (1 / 16, "uniform 1/16")),
              ("gradient_size", "gradient size ∥J∥", False, None))
    for column, (key, ylabel, log, reference) in enumerate(panels):
        ax = fig.add_subplot(grid[1, 2 * column:2 * column + 2])
        series = {name: [table[d][key][name] for d in d_ks] for name in SCALINGS}
        artists[key] = draw_against_dk(d_ks, series, ax=ax, current=d_k, ylabel=ylabel,
                                       log=log, reference=reference)
        if key == "largest_weight":
            ax.set_ylim(0, 1.05)
        elif key == "gradient_size":
            ax.set_ylim(0, None)
    artists["variance"]["lines"]["raw"].axes.legend(loc="upper left", fontsize=8)
    return artists


def update_dk_panels(artists, stats):
    """Move every panel of :func:`draw_dk_panels` to the :func:`spread_statistics` ``stats``."""
    update_score_histogram(artists["raw"], stats["samples"]["raw"])
    update_score_histogram(artists["scaled"], stats["samples"]["scaled"])
    for key in ("variance", "largest_weight", "gradient_size"):
        update_against_dk(artists[key], stats["d_k"])
