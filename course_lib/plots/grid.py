"""A grid of numbers, drawn like a spreadsheet: one coloured cell per entry with its number
written in it. Every matrix of the course is drawn by :func:`draw_grid` (Q, K, V, the score
grid S, the weights A, a mask, one head's weights), with one rule for the text colour.

A cell can also be *blocked* (a mask said no: grey, with ``blocked_text`` such as "−∞") or
*empty* (not part of the matrix shown: a blank spreadsheet cell, for a grid drawn at its
largest size with a smaller matrix in its top-left corner).
"""

import matplotlib as mpl
import matplotlib.pyplot as plt
import numpy as np
from matplotlib.collections import PolyCollection
from matplotlib.colors import ListedColormap, to_rgba

from ..backend import to_numpy
from .style import FOREGROUND, GRID

__all__ = ["draw_grid", "fmt_cell", "shown_cells", "text_colors", "tint_colormap", "update_grid"]

BLOCKED_RGBA = (0.55, 0.55, 0.55, 1.0)  # grey: distinguishable from every Blues shade
EMPTY_RGBA = (0.955, 0.955, 0.955, 1.0)  # an empty cell: a flat light grey
TINT_ALPHA = 0.22  # a role colour as a light cell tint: near-black numbers stay readable


def tint_colormap(color):
    """A one-colour map: ``color`` mixed into white at 22 %, a light tint for a whole matrix.

    >>> tint_colormap("#000000").colors[0][0] == 1 - TINT_ALPHA
    True
    """
    mix = [1 - TINT_ALPHA * (1 - c) for c in to_rgba(color)[:3]]  # the colour on white
    return ListedColormap([mix])


def text_colors(cells, values, allowed):
    """White on dark and on blocked cells, near-black on light ones (perceived brightness).

    ``cells`` is the grid's QuadMesh (its colour map and norm give each cell's colour).
    """
    red, green, blue, _ = np.moveaxis(cells.cmap(cells.norm(values)), -1, 0)
    dark = 0.299 * red + 0.587 * green + 0.114 * blue < 0.5
    return np.where(dark | ~allowed, "white", FOREGROUND)


def draw_grid(values, ax=None, mask=None, cmap="Blues", vmin=None, vmax=None, tint=None,
              number_format="{:.2f}", blocked_text="✕", row_labels=None, col_labels=None,
              annotate=True, fontsize=10, title=None, aspect="equal", **kwargs):
    """An (r, c) grid of numbers as coloured cells, each number written in its cell.

    Parameters
    ----------
    values : (r, c) array.
    mask : (r, c) booleans or None; False cells are blocked (grey, ``blocked_text``).
    cmap, vmin, vmax : cells coloured by value (default range ±the largest |value|).
    tint : a colour instead: every cell the same light tint (a matrix of one role).
    number_format : how a number is written (a true minus sign, never −0.0).
    row_labels, col_labels : tick labels (default 0, 1, …).
    annotate : write the numbers (False: colours only).
    aspect : "equal" (square cells) or "auto" (cells fill the axes).
    **kwargs : passed on to ``ax.pcolormesh`` (the cells).

    Returns
    -------
    dict of artists: ``cells`` (a QuadMesh; its array holds the values, masked where
    blocked), ``texts`` (r × c nested list of Text), ``cover`` (the empty cells), ``title``;
    pass it to :func:`update_grid`.
    """
    ax = plt.gca() if ax is None else ax
    values = np.asarray(to_numpy(values), dtype=float)
    rows, cols = values.shape
    if tint is not None:
        colormap, vmin, vmax = tint_colormap(tint), 0.0, 1.0
    else:
        limit = float(np.abs(values).max()) or 1.0
        colormap = mpl.colormaps[cmap]
        vmin, vmax = (-limit if vmin is None else vmin), (limit if vmax is None else vmax)
    cells = ax.pcolormesh(np.arange(-0.5, cols), np.arange(-0.5, rows), values,
                          cmap=colormap.with_extremes(bad=BLOCKED_RGBA), vmin=vmin, vmax=vmax,
                          **{"edgecolors": GRID if tint is None else "#9a9a9a", "linewidth": 1.2,
                             **kwargs})
    texts = [[ax.text(j, i, "", ha="center", va="center", fontsize=fontsize)
              for j in range(cols)] for i in range(rows)] if annotate else []
    cover = ax.add_collection(PolyCollection([], facecolors=[EMPTY_RGBA], edgecolors="none",
                                             zorder=3))
    ax.set_xlim(-0.5, cols - 0.5)
    ax.set_ylim(rows - 0.5, -0.5)  # row 0 at the top, as in a matrix
    ax.set_aspect(aspect)
    ax.set_xticks(range(cols), col_labels if col_labels is not None else range(cols))
    ax.set_yticks(range(rows), row_labels if row_labels is not None else range(rows))
    ax.xaxis.set_ticks_position("top")
    ax.xaxis.set_label_position("top")
    ax.tick_params(length=0)
    ax.grid(False)
    for spine in ax.spines.values():
        spine.set_visible(False)
    artists = {"cells": cells, "texts": texts, "cover": cover, "format": number_format,
               "blocked_text": blocked_text, "shape": (rows, cols),
               "title": ax.set_title(title or "", fontsize=12, pad=8)}
    update_grid(artists, values, mask)
    return artists


def update_grid(artists, values=None, mask=None, shown=None):
    """New numbers (padded with empty cells when smaller than the grid), a new mask, and/or
    the cells shown (``shown``; the others are left empty). Moves the artists in place."""
    rows, cols = artists["shape"]
    if values is not None:
        values = np.asarray(to_numpy(values), dtype=float)
        full = np.zeros((rows, cols))
        full[:values.shape[0], :values.shape[1]] = values
        allowed = (np.ones((rows, cols), bool) if mask is None
                   else np.broadcast_to(np.asarray(to_numpy(mask), bool), (rows, cols)))
        artists["cells"].set_array(np.ma.masked_array(full, mask=~allowed))
        colors = text_colors(artists["cells"], full, allowed)
        for i, row in enumerate(artists["texts"]):
            for j, text in enumerate(row):
                text.set_text(fmt_cell(artists["format"], full[i, j]) if allowed[i, j]
                              else artists["blocked_text"])
                text.set_color(colors[i, j])
        if shown is None:
            shown = np.zeros((rows, cols), bool)
            shown[:values.shape[0], :values.shape[1]] = True
    if shown is not None:
        hidden = np.argwhere(~np.asarray(shown, bool))  # (row, column) of every empty cell
        artists["cover"].set_verts([[(j - 0.5, i - 0.5), (j + 0.5, i - 0.5), (j + 0.5, i + 0.5),
                                     (j - 0.5, i + 0.5)] for i, j in hidden])
    return artists


def fmt_cell(number_format, value):
    """``number_format`` applied to ``value`` with a true minus sign and never "−0.0".

    >>> fmt_cell("{:.1f}", -0.04), fmt_cell("{:.0f}", -3), fmt_cell("✓", 1.0)
    ('0.0', '−3', '✓')
    """
    text = number_format.format(value + 0.0)  # + 0.0: −0.0 becomes 0.0
    if text.lstrip("-").replace(".", "", 1).isdigit() and float(text) == 0:
        text = text.lstrip("-")  # −0.04 rounds to "−0.0": show "0.0"
    return text.replace("-", "−")


def shown_cells(artists):
    """The (r, c) boolean grid of the cells a :func:`draw_grid` grid shows (not empty)."""
    rows, cols = artists["shape"]
    shown = np.ones((rows, cols), bool)
    for square in artists["cover"].get_paths():
        left, top = square.vertices.min(axis=0)
        shown[int(round(top + 0.5)), int(round(left + 0.5))] = False
    return shown
