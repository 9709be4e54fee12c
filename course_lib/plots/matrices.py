"""Pictures of matrices: a grid of numbers drawn as a spreadsheet (one row per vector), the
shapes of Q, K, V and S side by side, and the row-times-column step of the product QKᵀ."""

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.collections import PolyCollection
from matplotlib.colors import ListedColormap, to_rgba
from matplotlib.patches import Rectangle

from .. import score_grid
from ..backend import to_numpy
from .notation import subscript
from .style import FOREGROUND, GRID, ROLE_COLORS

__all__ = [
    "draw_matrix",
    "draw_product_panels",
    "draw_shape_panels",
    "matrix_labels",
    "matrix_moving",
    "move_highlight",
    "shown_cells",
    "update_matrix",
    "update_product_panels",
    "update_shape_panels",
]

_TINT_ALPHA = 0.22  # role colours as a light cell tint: black numbers stay readable
_SCORE_COLOUR_LIMIT = 2.5  # scores beyond ±2.5 get the strongest colour (typical |S| ≲ 2.5)
_EMPTY_RGBA = (0.955, 0.955, 0.955, 1.0)  # an empty cell: a flat light grey


def matrix_labels(letter, count):
    """Row or column names ``q₁, q₂, …``.

    >>> matrix_labels("k", 3)
    ['k₁', 'k₂', 'k₃']
    """
    return [f"{letter}{subscript(i + 1)}" for i in range(count)]


def _tint_cmap(color):
    red, green, blue, _ = to_rgba(color)
    mix = [1 - _TINT_ALPHA * (1 - c) for c in (red, green, blue)]  # the colour on white
    return ListedColormap([mix])


def draw_matrix(values, ax=None, tint=None, cmap="PRGn", limit=None, number_format="{:.1f}",
                row_labels=None, col_labels=None, title=None, fontsize=11, annotate=True):
    """An (r, c) grid of numbers, one cell per entry, like a spreadsheet.

    Parameters
    ----------
    values : (r, c) array.
    tint : a colour: every cell gets the same light tint (a matrix of vectors of one role).
        None: cells are coloured by value with ``cmap`` from −limit to +limit.
    limit : colour range when ``tint`` is None (default: the largest |value|).
    row_labels, col_labels : tick labels (default 1, 2, …).
    annotate : write each cell's number in it (False: colour only).

    Returns
    -------
    dict of artists (``image``, ``texts``, ``cover``, ``title``); pass it to
    :func:`update_matrix`. ``cover`` paints over the cells that are not shown (empty
    spreadsheet cells), so a dashboard that only changes which cells are shown redraws the
    cover alone (see :func:`matrix_moving`).
    """
    ax = plt.gca() if ax is None else ax
    values = to_numpy(values).astype(float)
    rows, cols = values.shape
    if tint is not None:
        image = ax.imshow(np.ones((rows, cols)), cmap=_tint_cmap(tint), vmin=0, vmax=1,
                          aspect="equal", interpolation="nearest", zorder=0)
    else:
        if limit is None:
            limit = float(np.abs(values).max()) or 1.0
        image = ax.imshow(values, cmap=cmap, vmin=-float(limit), vmax=float(limit),
                          aspect="equal", interpolation="nearest", zorder=0)
    ax.set_xticks(range(cols), col_labels if col_labels is not None else range(1, cols + 1))
    ax.set_yticks(range(rows), row_labels if row_labels is not None else range(1, rows + 1))
    ax.xaxis.set_ticks_position("top")
    ax.tick_params(length=0)
    ax.grid(False)
    ax.set_xticks(np.arange(-0.5, cols), minor=True)
    ax.set_yticks(np.arange(-0.5, rows), minor=True)
    ax.grid(which="minor", color=GRID if tint is None else "#9a9a9a", linewidth=1.2)
    ax.set_axisbelow(False)  # cell borders over the colours (zorder 2.5) ...
    ax.tick_params(which="minor", length=0)
    for side in ("top", "right", "bottom", "left"):
        ax.spines[side].set_visible(False)
    texts = [[ax.text(j, i, "", ha="center", va="center", fontsize=fontsize, zorder=1.5)
              for j in range(cols)] for i in range(rows)] if annotate else []
    # ... and the cover over both: one flat square per empty cell (cheaper to draw than an
    # image, which matplotlib resamples at every draw)
    cover = ax.add_collection(PolyCollection([], facecolors=[_EMPTY_RGBA], edgecolors="none",
                                             zorder=2.6))
    ax.set_xlim(-0.5, cols - 0.5)
    ax.set_ylim(rows - 0.5, -0.5)
    artists = {"image": image, "texts": texts, "cover": cover, "format": number_format,
               "tinted": tint is not None, "shape": (rows, cols),
               "title": ax.set_title(title or "", fontsize=12, pad=8)}
    update_matrix(artists, values)
    return artists


def matrix_moving(artists, values=True, title=False):
    """The artists of a :func:`draw_matrix` grid that a dashboard must redraw: always the
    cover; the colours and numbers when ``values`` change; the title when it changes."""
    moving = [artists["cover"]]
    if values:
        moving += [artists["image"], *[t for row in artists["texts"] for t in row]]
    if title:
        moving.append(artists["title"])
    return moving


def shown_cells(artists):
    """The (r, c) boolean grid of the cells a :func:`draw_matrix` grid shows (not covered)."""
    rows, cols = artists["shape"]
    shown = np.ones((rows, cols), bool)
    for square in artists["cover"].get_paths():
        left, top = square.vertices.min(axis=0)
        shown[int(round(top + 0.5)), int(round(left + 0.5))] = False
    return shown


def update_matrix(artists, values=None, shown=None):
    """Write new numbers into a grid of :func:`draw_matrix` (``values``, padded with empty
    cells when smaller than the grid) and/or choose the cells it shows (``shown``; the others
    are left empty, like blank spreadsheet cells)."""
    rows, cols = artists["shape"]
    if values is not None:
        values = to_numpy(values).astype(float)
        full = np.zeros((rows, cols))
        full[:values.shape[0], :values.shape[1]] = values
        image = artists["image"]
        if not artists["tinted"]:
            image.set_data(full)
        for i, row in enumerate(artists["texts"]):
            for j, text in enumerate(row):
                number = artists["format"].format(full[i, j] + 0.0)  # + 0.0: −0.0 becomes 0.0
                if float(number) == 0:
                    number = number.lstrip("-")  # −0.04 rounds to "−0.0": show "0.0"
                text.set_text(number.replace("-", "−"))
                red, green, blue, _ = image.cmap(image.norm(image.get_array()[i, j]))
                dark = 0.299 * red + 0.587 * green + 0.114 * blue < 0.5  # perceived brightness
                text.set_color("white" if dark else FOREGROUND)
        if shown is None:
            shown = np.zeros((rows, cols), bool)
            shown[:values.shape[0], :values.shape[1]] = True
    if shown is not None:
        hidden = np.argwhere(~np.asarray(shown, bool))  # (row, column) of every empty cell
        artists["cover"].set_verts([[(j - 0.5, i - 0.5), (j + 0.5, i - 0.5), (j + 0.5, i + 0.5),
                                     (j - 0.5, i + 0.5)] for i, j in hidden])


def _highlight(ax):
    return ax.add_patch(Rectangle((-0.5, -0.5), 1, 1, fill=False, lw=3.5, zorder=5,
                                  edgecolor=ROLE_COLORS["highlight"]))


def move_highlight(rect, row, col, height=1, width=1):
    """Put a highlight frame over ``height × width`` cells starting at (row, col)."""
    rect.set_xy((col - 0.5, row - 0.5))
    rect.set_width(width)
    rect.set_height(height)


# --- notebook 05: Q, K, V and S side by side ---------------------------------------------

def _block(rows, cols, shape):
    shown = np.zeros(shape, bool)
    shown[:rows, :cols] = True
    return shown


def draw_shape_panels(query, key, value, n, m, d_k, d_v, fig=None):
    """Four spreadsheets: Q (n×d_k), K (m×d_k), V (m×d_v) and the score grid S (n×m),
    the last coloured by value (purple negative, green positive) without numbers.

    ``query``, ``key``, ``value`` are the largest grids (their full shapes fix the size of each
    panel); the top-left n×d_k, m×d_k, m×d_v blocks are filled in, the other cells left empty.

    Returns
    -------
    dict with one entry per matrix (``"Q"``, ``"K"``, ``"V"``, ``"S"``) and ``"moving"``, the
    artists a slider move changes; pass it to :func:`update_shape_panels`.
    """
    fig = plt.gcf() if fig is None else fig
    query, key, value = (to_numpy(a).astype(float) for a in (query, key, value))
    axes = fig.subplots(1, 4, gridspec_kw={"width_ratios": (query.shape[1], key.shape[1],
                                                               value.shape[1], key.shape[0])})
    max_n, max_m = query.shape[0], key.shape[0]
    artists = {
        "Q": draw_matrix(query, ax=axes[0], tint=ROLE_COLORS["query"],
                         row_labels=matrix_labels("q", max_n), title="Q  (n × d_k)"),
        "K": draw_matrix(key, ax=axes[1], tint=ROLE_COLORS["key"],
                         row_labels=matrix_labels("k", max_m), title="K  (m × d_k)"),
        "V": draw_matrix(value, ax=axes[2], tint=ROLE_COLORS["value"],
                         row_labels=matrix_labels("v", max_m), title="V  (m × d_v)"),
        "S": draw_matrix(np.zeros((max_n, max_m)), ax=axes[3], limit=_SCORE_COLOUR_LIMIT,
                         row_labels=matrix_labels("q", max_n),
                         col_labels=matrix_labels("k", max_m), annotate=False,
                         title="score grid S  (n × m)"),
        "data": (query, key, value),
    }
    # the titles stay: redrawing text is the slowest part of a move, and the dashboard's
    # readout line states the sizes
    artists["moving"] = [*matrix_moving(artists["Q"], values=False),
                         *matrix_moving(artists["K"], values=False),
                         *matrix_moving(artists["V"], values=False),
                         *matrix_moving(artists["S"], values=True)]
    for ax in axes[:3]:
        ax.set_xlabel("slot")
    update_shape_panels(artists, n, m, d_k, d_v)
    fig.tight_layout()
    return artists


def update_shape_panels(artists, n, m, d_k, d_v):
    """Fill the blocks for new sizes n, m, d_k, d_v (in place)."""
    query, key, value = artists["data"]
    update_matrix(artists["Q"], shown=_block(n, d_k, query.shape))
    update_matrix(artists["K"], shown=_block(m, d_k, key.shape))
    update_matrix(artists["V"], shown=_block(m, d_v, value.shape))
    scores = to_numpy(score_grid(query[:n, :d_k], key[:m, :d_k]))  # (n, m)
    update_matrix(artists["S"], scores)  # the n×m block, the rest left empty


# --- notebook 06: row i of Q times column j of Kᵀ gives S_ij -------------------------------

def draw_product_panels(query, key, i, j, fig=None, number_format="{:.0f}"):
    """Q, Kᵀ and the score grid S = QKᵀ side by side, with row i of Q, column j of Kᵀ and the
    cell S_ij framed (i, j counted from 0). Cells of S after (i, j) in reading order are
    still empty: stepping through (i, j) fills the grid one dot product at a time.

    Returns
    -------
    dict of artists, with ``"moving"`` the ones a step changes (the three frames and the
    cover of S); pass it to :func:`update_product_panels`.
    """
    fig = plt.gcf() if fig is None else fig
    query, key = to_numpy(query).astype(float), to_numpy(key).astype(float)
    (n, d_k), m = query.shape, key.shape[0]
    scores = to_numpy(score_grid(query, key))  # (n, m)
    axes = fig.subplots(1, 3, gridspec_kw={"width_ratios": (d_k, m, m)})
    limit = float(np.abs(scores).max()) or 1.0
    artists = {
        "Q": draw_matrix(query, ax=axes[0], tint=ROLE_COLORS["query"],
                         number_format=number_format, row_labels=matrix_labels("q", n),
                         title=f"Q  ({n}×{d_k}: n × d_k)"),
        "KT": draw_matrix(key.T, ax=axes[1], tint=ROLE_COLORS["key"],
                          number_format=number_format, col_labels=matrix_labels("k", m),
                          title=f"Kᵀ  ({d_k}×{m}: d_k × m)"),
        "S": draw_matrix(scores, ax=axes[2], limit=limit, number_format=number_format,
                         row_labels=matrix_labels("q", n), col_labels=matrix_labels("k", m),
                         title=f"S = QKᵀ  ({n}×{m}: n × m)"),
        "scores": scores,
    }
    artists["row"] = _highlight(axes[0])
    artists["column"] = _highlight(axes[1])
    artists["cell"] = _highlight(axes[2])
    artists["moving"] = [artists["row"], artists["column"], artists["cell"],
                         *matrix_moving(artists["S"], values=False)]
    axes[0].set_ylabel("query rows")
    axes[1].set_ylabel("slot")
    fig.tight_layout()
    update_product_panels(artists, i, j)
    return artists


def update_product_panels(artists, i, j):
    """Frame row i of Q, column j of Kᵀ and cell S_ij; show S up to (i, j) in reading order."""
    scores = artists["scores"]
    n, m = scores.shape
    d_k = artists["Q"]["shape"][1]
    move_highlight(artists["row"], i, 0, height=1, width=d_k)
    move_highlight(artists["column"], 0, j, height=d_k, width=1)
    move_highlight(artists["cell"], i, j)
    done = (np.arange(n)[:, None] * m + np.arange(m)[None, :]) <= i * m + j
    update_matrix(artists["S"], shown=done)
