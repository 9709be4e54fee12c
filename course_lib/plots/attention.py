"""Pictures of notebook 09: the weight grid A of a toy sentence as a heatmap with one query's
row highlighted, that row's weights as bars, and the output row as a blend of the value rows
(the example data live in :mod:`course_lib.examples`)."""

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.patches import Rectangle

from ..backend import to_numpy
from .grid import draw_grid, update_grid
from .notation import subscript
from .style import FOREGROUND, MUTED, PALETTE, ROLE_COLORS

__all__ = [
    "draw_attention_panels",
    "draw_row_weights",
    "draw_value_blend",
    "draw_weight_grid",
    "draw_weight_grids",
    "highlight_row",
    "update_weight_grid",
    "update_attention_panels",
    "update_row_weights",
    "update_value_blend",
]



def _labels(words):
    return [f"{w}{subscript(i + 1)}" for i, w in enumerate(words)]


def draw_weight_grid(weights, words, ax=None, row=0, title="weights A = softmax(S / √d_k)",
                     **kwargs):
    """The weight grid A (n queries × m keys) as a heatmap, every weight written in its cell
    (:func:`course_lib.plots.grid.draw_grid`), and a frame around row ``row`` (0-based).

    Returns
    -------
    the grid's artists, plus ``highlight`` (the frame).
    """
    ax = plt.gca() if ax is None else ax
    labels = _labels(words)
    artists = draw_grid(weights, ax=ax, cmap="Blues", vmin=0.0, vmax=1.0, fontsize=9,
                        row_labels=labels, col_labels=labels, title=title, **kwargs)
    n, m = artists["shape"]
    ax.xaxis.set_ticks_position("bottom")  # the title sits on top
    ax.xaxis.set_label_position("bottom")
    ax.set_xlabel("key j (the word looked at)")
    ax.set_ylabel("query i (the word asking)")
    artists["highlight"] = ax.add_patch(Rectangle((-0.5, row - 0.5), m, 1, fill=False, lw=3,
                                                  color=ROLE_COLORS["highlight"], zorder=4))
    return artists


def draw_weight_grids(grids, words, fig=None):
    """Several weight grids side by side, e.g. the same sentence with scores ÷ √d_k, not
    scaled and ÷ d_k: ``grids`` maps each panel's title to its (n, m) weights.

    Returns a dict title → the artists of :func:`draw_weight_grid` (without the frame).
    """
    fig = plt.gcf() if fig is None else fig
    axes = fig.subplots(1, len(grids))
    drawn = {}
    for ax, (title, weights) in zip(np.atleast_1d(axes), grids.items(), strict=True):
        drawn[title] = draw_weight_grid(weights, words, ax=ax, title=title)
        drawn[title]["highlight"].set_visible(False)
        ax.set_ylabel("query i" if ax is np.atleast_1d(axes)[0] else "")
        ax.set_xlabel("key j")
    return drawn


def highlight_row(artists, row):
    """Move the frame of :func:`draw_weight_grid` to row ``row`` (0-based)."""
    artists["highlight"].set_y(row - 0.5)


def update_weight_grid(artists, weights, row, title=None):
    """New weights in the grid of :func:`draw_weight_grid`, the frame on ``row``, a new title."""
    update_grid(artists, weights)
    highlight_row(artists, row)
    if title is not None:
        artists["title"].set_text(title)


def draw_row_weights(weights_row, words, ax=None, **kwargs):
    """One query's weights A_i1 … A_im as bars, one per key.

    Returns
    -------
    dict with ``bars`` and ``title``; pass it to :func:`update_row_weights`.
    """
    ax = plt.gca() if ax is None else ax
    weights_row = np.asarray(to_numpy(weights_row), dtype=float)
    m = len(weights_row)
    bars = ax.bar(range(m), weights_row, **{"color": ROLE_COLORS["highlight"], "width": 0.6,
                                          **kwargs})
    ax.set_xticks(range(m), labels=_labels(words)[:m])
    ax.set_ylim(0, 1)
    ax.set_ylabel("weight")
    artists = {"bars": bars, "title": ax.set_title("framed row of A: weights add up to 1")}
    return artists


def update_row_weights(artists, weights_row):
    """Set the bars of :func:`draw_row_weights` to another row's weights (in place)."""
    for bar, height in zip(artists["bars"], to_numpy(weights_row), strict=True):
        bar.set_height(float(height))


def draw_value_blend(value, weights_row, output_row, words, ax=None, limit=3.8,
                     slot_names=("value slot 1", "value slot 2")):
    """The value rows 𝐯ⱼ as points of the plane (d_v = 2), each drawn bigger the more weight
    it gets, and the output row Σⱼ A_ij 𝐯ⱼ as a star: a weighted average of the points.
    ``slot_names`` label the two axes (what each value slot means).

    Returns
    -------
    dict of artists: ``points`` (sizes follow the weights), ``output`` (the star), ``lines``
    (from the star to each value, as thick as the weight).
    """
    ax = plt.gca() if ax is None else ax
    value = np.asarray(to_numpy(value), dtype=float)
    lines = [ax.plot([], [], color=ROLE_COLORS["highlight"], lw=0, alpha=0.6, zorder=1)[0]
             for _ in value]
    points = ax.scatter(value[:, 0], value[:, 1], s=40, color=ROLE_COLORS["value"], zorder=3,
                        edgecolors=FOREGROUND, linewidths=0.5)
    seen = set()
    for x, y in value:
        if (x, y) in seen:  # a repeated word: its value sits on the same point
            continue
        same = [_labels(words)[i] for i in range(len(value)) if tuple(value[i]) == (x, y)]
        seen.add((x, y))
        ax.annotate(", ".join(same), (x, y), xytext=(9, 9), textcoords="offset points",
                    fontsize=10, color=ROLE_COLORS["value"], zorder=5)
    (output,) = ax.plot([], [], marker="*", ms=20, color=ROLE_COLORS["highlight"],
                        mec=PALETTE["black"], ls="none", zorder=4, label="output row")
    ax.axhline(0, color=MUTED, lw=0.8)
    ax.axvline(0, color=MUTED, lw=0.8)
    ax.set_xlim(-limit, limit)
    ax.set_ylim(-limit, limit)
    ax.set_aspect("equal")
    ax.set_xlabel(slot_names[0])
    ax.set_ylabel(slot_names[1])
    ax.set_title("output = blend of the value rows")
    artists = {"points": points, "output": output, "lines": lines}
    update_value_blend(artists, value, weights_row, output_row)
    return artists


def update_value_blend(artists, value, weights_row, output_row):
    """Resize the value points and move the star of :func:`draw_value_blend` (in place)."""
    value = np.asarray(to_numpy(value), dtype=float)
    weights_row = np.asarray(to_numpy(weights_row), dtype=float)
    output_row = np.asarray(to_numpy(output_row), dtype=float)
    artists["points"].set_sizes(25 + 300 * weights_row)
    artists["output"].set_data([output_row[0]], [output_row[1]])
    for line, v, w in zip(artists["lines"], value, weights_row, strict=True):
        line.set_data([output_row[0], v[0]], [output_row[1], v[1]])
        line.set_linewidth(8 * float(w))


def draw_attention_panels(words, value, weights, output, row=0, fig=None,
                          slot_names=("value slot 1", "value slot 2")):
    """The attention picture: the weight grid (left), the chosen row's weights (top right) and
    its output as a blend of the values (bottom right, its axes labelled ``slot_names``).

    Returns
    -------
    dict of artists: ``grid``, ``row``, ``blend``; pass it to :func:`update_attention_panels`.
    """
    fig = plt.gcf() if fig is None else fig
    weights, output = to_numpy(weights), to_numpy(output)
    # fixed margins: tight_layout would cost more than the whole drawing
    layout = fig.add_gridspec(2, 2, width_ratios=(1.25, 1), height_ratios=(1, 1.5), left=0.09,
                              right=0.985, top=0.94, bottom=0.1, hspace=0.35, wspace=0.25)
    artists = {
        "grid": draw_weight_grid(weights, words, ax=fig.add_subplot(layout[:, 0]), row=row),
        "row": draw_row_weights(weights[row], words, ax=fig.add_subplot(layout[0, 1])),
        "blend": draw_value_blend(value, weights[row], output[row], words,
                                  ax=fig.add_subplot(layout[1, 1]), slot_names=slot_names),
    }
    update_attention_panels(artists, value, weights, output, row)
    return artists


def update_attention_panels(artists, value, weights, output, row, title=None):
    """Show query ``row`` (0-based) in every panel of :func:`draw_attention_panels` (and new
    weights in the grid, titled ``title`` when given)."""
    weights, output = to_numpy(weights), to_numpy(output)
    update_weight_grid(artists["grid"], weights, row, title)
    update_row_weights(artists["row"], weights[row])
    update_value_blend(artists["blend"], value, weights[row], output[row])
