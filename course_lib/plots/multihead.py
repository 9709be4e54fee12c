"""Pictures of multi-head attention: how d_model is cut into heads, and each head's weights."""

import matplotlib.pyplot as plt
from matplotlib.colors import to_rgba
from matplotlib.patches import Rectangle

from .masks import draw_annotated_grid
from .style import FOREGROUND, PALETTE

__all__ = ["HEAD_COLORS", "draw_head_slices", "draw_head_weights", "update_head_slices"]

HEAD_COLORS = [PALETTE[c] for c in ("blue", "vermillion", "green", "orange", "purple",
                                    "sky_blue", "yellow", "black")]


def draw_head_slices(d_model, num_heads, ax=None, highlight=None):
    """One row of d_model cells (the columns of Q), coloured by the head that owns them.

    Head t owns columns t·d_k … (t+1)·d_k − 1 with d_k = d_model / h. ``highlight`` (a head
    index) draws that head's cells solid and the others faded.

    Returns
    -------
    dict of artists (``cells``; ``labels``, one Text per possible head, "" for heads that do
    not exist; ``title``); pass it to :func:`update_head_slices` (which can also change the
    number of heads).
    """
    ax = plt.gca() if ax is None else ax
    cells = [ax.add_patch(Rectangle((c, 0), 1, 1, edgecolor="white", linewidth=2))
             for c in range(d_model)]
    labels = [ax.text(0, -0.3, "", ha="center", va="top") for _ in range(d_model)]  # ≤ 1 a column
    ax.set_xlim(0, d_model)
    ax.set_ylim(-1.3, 1.05)
    ax.set_xticks([c + 0.5 for c in range(d_model)], [str(c) for c in range(d_model)])
    ax.xaxis.set_ticks_position("top")
    ax.set_yticks([])
    ax.grid(False)
    for side in ax.spines.values():
        side.set_visible(False)
    artists = {"cells": cells, "labels": labels, "title": ax.set_title("", pad=22)}
    update_head_slices(artists, num_heads, highlight)
    return artists


def update_head_slices(artists, num_heads, highlight=None):
    """Share the cells out among ``num_heads`` heads; fade every head but ``highlight``."""
    d_model = len(artists["cells"])
    d_k = d_model // num_heads
    for c, cell in enumerate(artists["cells"]):
        head = c // d_k
        cell.set_facecolor(HEAD_COLORS[head % len(HEAD_COLORS)])
        cell.set_alpha(1.0 if highlight is None or head == highlight else 0.2)
    for t, label in enumerate(artists["labels"]):
        label.set_text("" if t >= num_heads else f"head {t}" if d_k < 2
                       else f"head {t}\nd_k = {d_k}")
        label.set_color(to_rgba(FOREGROUND, 1.0 if highlight is None or t == highlight else 0.35))
        label.set_x((t + 0.5) * d_k)
    artists["title"].set_text(f"the {d_model} columns of Q = X W_Q, shared out among "
                              f"{num_heads} head{'s' if num_heads > 1 else ''}")
    return artists


def draw_head_weights(weights, axes, row_labels=None, col_labels=None, number_format="{:.2f}"):
    """One annotated heatmap per head: ``weights`` is (h, n, m), ``axes`` a sequence of h axes.

    Returns the list of artist dicts, one per head (see :func:`draw_annotated_grid`).
    """
    drawn = []
    for t, ax in enumerate(axes):
        artists = draw_annotated_grid(weights[t], ax=ax, row_labels=row_labels,
                                      col_labels=col_labels, number_format=number_format)
        artists["title"] = ax.set_title(f"head {t}", color=HEAD_COLORS[t % len(HEAD_COLORS)],
                                        pad=12)
        drawn.append(artists)
    return drawn
