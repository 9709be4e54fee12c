"""Pictures of masks: a grid of numbers (scores or weights) with the blocked cells marked.

A grid is two artists, so that a dashboard can redraw it in a few milliseconds at every
slider move: one :class:`~matplotlib.collections.QuadMesh` for the coloured cells (blocked
cells take the colour map's "bad" colour, grey) and one :class:`CellNumbers` for the numbers
written in the cells (every number's outline in one collection, drawn in one call).
"""

import functools

import matplotlib as mpl
import matplotlib.pyplot as plt
import numpy as np
from matplotlib.collections import PathCollection
from matplotlib.font_manager import FontProperties
from matplotlib.path import Path
from matplotlib.textpath import TextPath
from matplotlib.transforms import Affine2D

from ..backend import to_numpy
from .style import FOREGROUND, GRID

__all__ = [
    "CellNumbers",
    "OutlineTitle",
    "TextOutlines",
    "draw_annotated_grid",
    "draw_mask",
    "update_annotated_grid",
]

_BLOCKED_RGBA = (0.55, 0.55, 0.55, 1.0)  # grey: distinguishable from every Blues shade
_LIGHT_TEXT = "white"


_BLANK = Path(np.zeros((1, 2)))  # the outline of "": nothing to draw


@functools.lru_cache(maxsize=4096)
def _outline(text, fontsize, va):
    """The glyph outline of ``text`` in points, centred horizontally on x = 0; kept per string.

    Lines (split at newlines) are centred one under the other. ``va`` puts y = 0 at the
    middle of the block of lines (``"center"``, digits' height), at the top of its first line
    (``"top"``) or on the first line's baseline (``"baseline"``).
    """
    if not text:
        return _BLANK
    font = FontProperties(size=fontsize)
    step = 1.2 * fontsize  # baseline to baseline
    parts = []
    for k, line in enumerate(text.split("\n")):
        path = TextPath((0, 0), line, prop=font)
        if len(path.vertices):
            left, _, right, _ = path.get_extents().extents
            parts.append(Affine2D().translate(-(left + right) / 2, -k * step).transform_path(path))
    if not parts:
        return _BLANK
    digit = TextPath((0, 0), "0", prop=font).get_extents()
    last = (len(text.split("\n")) - 1) * step
    shift = {"center": -(digit.y1 + digit.y0 - last) / 2,
             "top": -TextPath((0, 0), "lp", prop=font).get_extents().y1,
             "baseline": 0.0}[va]
    return Affine2D().translate(0, shift).transform_path(Path.make_compound_path(*parts))


class TextOutlines(PathCollection):
    """Short texts drawn as the outlines of their glyphs, all in one collection.

    Matplotlib lays out and rasterises every :class:`~matplotlib.text.Text` at each draw,
    about a millisecond each; a dashboard that rewrites many texts at every slider move is
    faster with their outlines (a :class:`~matplotlib.textpath.TextPath`, made once per
    distinct string and kept), which look the same and are drawn in one call.

    Each text is centred horizontally on its position; ``positions`` are in
    ``offset_transform``'s coordinates (data coordinates by default), sizes in points.
    ``texts`` holds the strings shown ("" shows nothing).

    >>> from course_lib.plots.style import detached_figure
    >>> labels = TextOutlines(detached_figure((2, 1)).add_subplot(), [(0, 0), (1, 0)])
    >>> labels.set_texts(["0.25", ""], ["black", "black"])
    >>> labels.get_text(0), len(labels.get_paths()[0].vertices) > 10
    ('0.25', True)
    """

    def __init__(self, ax, positions, fontsize=10, va="center", offset_transform=None,
                 zorder=3):
        self._fontsize, self._va = fontsize, va
        self.texts = [""] * len(positions)
        points = Affine2D().scale(1 / 72) + ax.figure.dpi_scale_trans  # path units: points
        super().__init__([_BLANK] * len(positions), offsets=positions,
                         offset_transform=ax.transData if offset_transform is None
                         else offset_transform,
                         transform=points, edgecolors="none", linewidths=0, zorder=zorder)
        ax.add_collection(self, autolim=False)
        self.set_clip_on(False)  # as a Text: may stand outside the axes (a title)

    def set_texts(self, texts, colors, positions=None):
        """Show ``texts[k]`` in ``colors[k]`` (anything ``to_rgba`` reads) at ``positions[k]``
        (unchanged when None)."""
        self.texts = list(texts)
        self.set_paths([_outline(text, self._fontsize, self._va) for text in self.texts])
        self.set_facecolor(list(colors))
        if positions is not None:
            self.set_offsets(positions)
        self.stale = True

    def get_text(self, k=0):
        """The string shown by text ``k``."""
        return self.texts[k]


class OutlineTitle(TextOutlines):
    """An axes title drawn as glyph outlines, at the place matplotlib gives the real title.

    The axes' own title keeps the same text in a fully transparent colour: it still reserves
    its room in the layout and finds its height above the top tick labels when the still
    background is drawn; this outline is then drawn there, quickly, at every move.
    """

    def __init__(self, ax, text, color=None, pad=12):
        self._title = ax.set_title(text, pad=pad, color=(0, 0, 0, 0))
        super().__init__(ax, [self._title.get_position()], fontsize=self._title.get_fontsize(),
                         va="baseline", offset_transform=self._title.get_transform())
        self._color = mpl.rcParams["axes.titlecolor"] if color is None else color
        if self._color == "auto":
            self._color = mpl.rcParams["text.color"]
        self.set_text(text)

    def set_text(self, text, color=None):
        """Show ``text`` (in ``color``, or the colour it had)."""
        self._color = self._color if color is None else color
        self._title.set_text(text)
        self.set_texts([text], [self._color])

    def draw(self, renderer):
        self.set_offsets([self._title.get_position()])  # placed when the axes were drawn
        super().draw(renderer)


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
