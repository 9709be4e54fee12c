"""Pictures of masks: a grid of numbers (scores or weights) with the blocked cells marked."""

import matplotlib.pyplot as plt
import numpy as np

from ..backend import to_numpy
from .style import FOREGROUND, GRID

__all__ = ["draw_annotated_grid", "draw_mask", "update_annotated_grid"]

_BLOCKED_RGBA = (0.55, 0.55, 0.55, 1.0)  # grey: distinguishable from every Blues shade


def _blocked_layer(mask, shape):
    """An RGBA image: opaque grey over blocked cells, transparent elsewhere."""
    layer = np.zeros(shape + (4,))
    if mask is not None:
        layer[~np.broadcast_to(to_numpy(mask), shape)] = _BLOCKED_RGBA
    return layer


def _cell_text(value, blocked, blocked_text, number_format):
    if blocked:
        return blocked_text
    return number_format.format(value)


def draw_annotated_grid(values, mask=None, ax=None, row_labels=None, col_labels=None,
                        number_format="{:.2f}", blocked_text="✕", cmap="Blues", vmin=0.0,
                        vmax=1.0, row_title="query", col_title="key"):
    """An (n, m) grid of numbers as coloured cells with the number written in each cell.

    Cells where ``mask`` is False are painted grey and show ``blocked_text`` instead
    (``"−∞"`` on a grid of scores, ``"0"`` or ``"✕"`` on a grid of weights).

    Returns
    -------
    dict of artists (``image``, ``blocked``, ``texts``); pass it to
    :func:`update_annotated_grid`.
    """
    ax = plt.gca() if ax is None else ax
    values = to_numpy(values)
    n, m = values.shape
    image = ax.imshow(values, cmap=cmap, vmin=vmin, vmax=vmax, aspect="auto",
                      interpolation="nearest")
    blocked = ax.imshow(_blocked_layer(mask, (n, m)), aspect="auto", interpolation="nearest")
    ax.set_xticks(range(m), col_labels if col_labels is not None else range(m))
    ax.set_yticks(range(n), row_labels if row_labels is not None else range(n))
    ax.set_xlabel(f"{col_title} j")
    ax.set_ylabel(f"{row_title} i")
    ax.xaxis.set_ticks_position("top")
    ax.xaxis.set_label_position("top")
    ax.grid(False)
    ax.set_xticks(np.arange(-0.5, m), minor=True)
    ax.set_yticks(np.arange(-0.5, n), minor=True)
    ax.grid(which="minor", color=GRID, linewidth=1.5)
    ax.tick_params(which="minor", length=0)
    texts = [[ax.text(j, i, "", ha="center", va="center", fontsize=10) for j in range(m)]
             for i in range(n)]
    artists = {"image": image, "blocked": blocked, "texts": texts,
               "format": number_format, "blocked_text": blocked_text}
    update_annotated_grid(artists, values, mask)
    return artists


def update_annotated_grid(artists, values, mask=None):
    """Show new numbers (and a new mask) in a grid drawn by :func:`draw_annotated_grid`."""
    values = to_numpy(values)
    n, m = values.shape
    allowed = np.ones((n, m), bool) if mask is None else np.broadcast_to(to_numpy(mask), (n, m))
    image = artists["image"]
    image.set_data(np.where(allowed, values, np.nan))
    artists["blocked"].set_data(_blocked_layer(allowed, (n, m)))
    for i in range(n):
        for j in range(m):
            text = artists["texts"][i][j]
            text.set_text(_cell_text(values[i, j], not allowed[i, j], artists["blocked_text"],
                                     artists["format"]))
            red, green, blue, _ = image.cmap(image.norm(values[i, j]))
            dark = 0.299 * red + 0.587 * green + 0.114 * blue < 0.5  # perceived brightness
            text.set_color("white" if dark or not allowed[i, j] else FOREGROUND)
    return artists


def draw_mask(mask, ax=None, row_labels=None, col_labels=None, title=None):
    """A boolean mask as a grid: ✓ (may attend) on light cells, ✕ (blocked) on grey ones."""
    ax = plt.gca() if ax is None else ax
    mask = to_numpy(mask)
    artists = draw_annotated_grid(np.full(mask.shape, 0.15), mask, ax=ax, row_labels=row_labels,
                                  col_labels=col_labels, number_format="✓")
    if title is not None:
        artists["title"] = ax.set_title(title, pad=28)
    return artists
