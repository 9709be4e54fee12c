"""Pictures of masks: a grid of numbers (scores or weights) with the blocked cells marked.

A grid is two artists, so that a dashboard can redraw it in a few milliseconds at every
slider move: one :class:`~matplotlib.collections.QuadMesh` for the coloured cells (blocked
cells take the colour map's "bad" colour, grey) and one :class:`CellNumbers` for the numbers
written in the cells (every number's outline in one collection, drawn in one call).
"""

import matplotlib as mpl
import matplotlib.pyplot as plt
import numpy as np

from ..backend import to_numpy
from .outlines import TextOutlines
from .style import FOREGROUND, GRID

__all__ = [
    "CellNumbers",
    "draw_annotated_grid",
    "draw_mask",
    "update_annotated_grid",
]

_BLOCKED_RGBA = (0.55, 0.55, 0.55, 1.0)  # grey: distinguishable from every Blues shade
_LIGHT_TEXT = "white"


class CellNumbers(TextOutlines):
    """The numbers written in the cells of an (n, m) grid (cell (i, j) centred at x = j,
    y = i), drawn as one :class:`TextOutlines`.

    ``texts[i][j]`` is the string shown in cell (i, j); change them with :meth:`set_cells`.
    """

    def __init__(self, ax, n, m, fontsize=10):
        super().__init__(ax, [(j, i) for i in range(n) for j in range(m)], fontsize=fontsize)
        self.texts = [["" for _ in range(m)] for _ in range(n)]

    def set_cells(self, texts, colors):
        """Show ``texts[i][j]`` in colour ``colors[i][j]`` in every cell (i, j)."""
        self.set_texts([text for row in texts for text in row],
                       [color for row in colors for color in row])
        self.texts = [list(row) for row in texts]

    def get_text(self, i=0, j=0):
        """The string shown in cell (i, j)."""
        return self.texts[i][j]


def _cell_colors(image, values, allowed):
    """White on dark cells and on blocked (grey) ones, near-black on light cells."""
    red, green, blue, _ = np.moveaxis(image.cmap(image.norm(values)), -1, 0)
    dark = 0.299 * red + 0.587 * green + 0.114 * blue < 0.5  # perceived brightness
    return np.where(dark | ~allowed, _LIGHT_TEXT, FOREGROUND).tolist()


def draw_annotated_grid(values, mask=None, ax=None, row_labels=None, col_labels=None,
                        number_format="{:.2f}", blocked_text="✕", cmap="Blues", vmin=0.0,
                        vmax=1.0, row_title="query", col_title="key"):
    """An (n, m) grid of numbers as coloured cells with the number written in each cell.

    Cells where ``mask`` is False are painted grey and show ``blocked_text`` instead
    (``"−∞"`` on a grid of scores, ``"0"`` or ``"✕"`` on a grid of weights).

    Returns
    -------
    dict of artists (``cells``, a QuadMesh whose array holds the values, masked where
    blocked; ``numbers``, a :class:`CellNumbers`); pass it to :func:`update_annotated_grid`.
    """
    ax = plt.gca() if ax is None else ax
    values = to_numpy(values)
    n, m = values.shape
    colormap = mpl.colormaps[cmap].with_extremes(bad=_BLOCKED_RGBA)
    cells = ax.pcolormesh(np.arange(-0.5, m), np.arange(-0.5, n), values, cmap=colormap,
                          vmin=vmin, vmax=vmax, edgecolors=GRID, linewidth=1.5)
    ax.set_xlim(-0.5, m - 0.5)
    ax.set_ylim(n - 0.5, -0.5)  # row 0 at the top, as in a matrix
    ax.set_xticks(range(m), col_labels if col_labels is not None else range(m))
    ax.set_yticks(range(n), row_labels if row_labels is not None else range(n))
    ax.set_xlabel(f"{col_title} j")
    ax.set_ylabel(f"{row_title} i")
    ax.xaxis.set_ticks_position("top")
    ax.xaxis.set_label_position("top")
    ax.grid(False)
    artists = {"cells": cells, "numbers": CellNumbers(ax, n, m),
               "format": number_format, "blocked_text": blocked_text}
    update_annotated_grid(artists, values, mask)
    return artists


def update_annotated_grid(artists, values, mask=None):
    """Show new numbers (and a new mask) in a grid drawn by :func:`draw_annotated_grid`."""
    values = to_numpy(values)
    n, m = values.shape
    allowed = np.ones((n, m), bool) if mask is None else np.broadcast_to(to_numpy(mask), (n, m))
    cells = artists["cells"]
    cells.set_array(np.ma.masked_array(values, mask=~allowed))
    number, blocked = artists["format"], artists["blocked_text"]
    texts = [[number.format(values[i, j]) if allowed[i, j] else blocked for j in range(m)]
             for i in range(n)]
    artists["numbers"].set_cells(texts, _cell_colors(cells, values, allowed))
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
