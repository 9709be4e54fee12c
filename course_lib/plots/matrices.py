"""Pictures of matrices: a matrix as a spreadsheet (one row per vector), their shapes beside
the score grid S, the row-times-column step of the product QKᵀ, and where Q, K and V come
from (three branches from X: Q = XW_Q, K = XW_K, V = XW_V)."""

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.patches import ConnectionPatch, Patch, Rectangle

from .. import score_grid
from ..backend import to_numpy
from ..projections import projections
from .grid import draw_grid, shown_cells, tint_colormap, update_grid
from .notation import row_labels, subscript
from .style import MUTED, ROLE_COLORS

__all__ = [
    "draw_matrix",
    "draw_product_panels",
    "draw_projections",
    "draw_shape_panels",
    "bold_names",
    "matrix_labels",
    "matrix_moving",
    "move_highlight",
    "shown_cells",
    "update_matrix",
    "update_product_panels",
    "update_shape_panels",
]

SCORE_TINT = "#ffffff"  # the score grid S has no role: white cells, its numbers carry it


def bold_names(letter, count):
    """Names of rows 1 … count in bold Unicode, ``𝐪₁, 𝐪₂, …``, for printed text where
    LaTeX is not available (a row is a vector; plain q₁ is a number).

    >>> bold_names("k", 3)
    ['𝐤₁', '𝐤₂', '𝐤₃']
    """
    bold = chr(ord("𝐚") + ord(letter) - ord("a"))  # mathematical bold small letter
    return [f"{bold}{subscript(i + 1)}" for i in range(count)]


def matrix_labels(letter, count):
    """Names ``x₁, x₂, …`` for the numbers in slots 1 … count (plain: numbers, not rows).

    >>> matrix_labels("x", 3)
    ['x₁', 'x₂', 'x₃']
    """
    return [f"{letter}{subscript(i + 1)}" for i in range(count)]


def draw_matrix(values, ax=None, tint=None, cmap="PRGn", limit=None, number_format="{:.1f}",
                row_labels=None, col_labels=None, title=None, fontsize=11, annotate=True,
                **kwargs):
    """An (r, c) matrix as a spreadsheet: :func:`course_lib.plots.grid.draw_grid` with the
    rows and columns counted from 1, coloured by value from −limit to +limit with ``cmap``
    (or one light ``tint`` for a matrix of one role); ``kwargs`` go to ``ax.pcolormesh``.
    Returns the grid's artists."""
    rows, cols = np.shape(values)
    return draw_grid(values, ax=ax, cmap=cmap, vmin=None if limit is None else -limit,
                     vmax=limit, tint=tint, number_format=number_format,
                     row_labels=range(1, rows + 1) if row_labels is None else row_labels,
                     col_labels=range(1, cols + 1) if col_labels is None else col_labels,
                     annotate=annotate, fontsize=fontsize, title=title, **kwargs)


update_matrix = update_grid  # new numbers and/or the cells shown, in place


def matrix_moving(artists, values=True, title=False):
    """The artists of a :func:`draw_matrix` grid a dashboard redraws: always the empty cells;
    the colours and numbers when ``values`` change; the title when it changes."""
    moving = [artists["cover"]]
    if values:
        moving += [artists["cells"], *[t for row in artists["texts"] for t in row]]
    return moving + ([artists["title"]] if title else [])


def move_highlight(rect, row, col, height=1, width=1):
    """Put a highlight frame over ``height × width`` cells starting at (row, col)."""
    rect.set_bounds(col - 0.5, row - 0.5, width, height)


def _highlight(ax):
    return ax.add_patch(Rectangle((-0.5, -0.5), 1, 1, fill=False, lw=3.5, zorder=5,
                                  edgecolor=ROLE_COLORS["highlight"]))


def _block(rows, cols, shape):
    shown = np.zeros(shape, bool)
    shown[:rows, :cols] = True
    return shown


def draw_projections(x, w_q, w_k, w_v, words=None, fig=None, number_format="{:.1f}"):
    """Where Q, K and V come from: three branches from the sentence grid X, each X times its
    weight matrix, Q = XW_Q, K = XW_K and V = XW_V, with numbers in every cell. Colour means
    role in every grid (a legend says which); the numbers carry the values.

    Returns
    -------
    dict of grid artists (``"X"``, ``"W_Q"``, ``"Q"``, ``"W_K"``, ``"K"``, ``"W_V"``, ``"V"``),
    ``"arrows"`` (X to each branch) and ``"legend"``.
    """
    fig = plt.gcf() if fig is None else fig
    x = np.asarray(to_numpy(x), dtype=float)
    n, d_model = x.shape
    words = [f"word {i + 1}" for i in range(n)] if words is None else list(words)
    products = projections(x, w_q, w_k, w_v)  # Q, K, V, each (n, ·)
    weights = [np.asarray(to_numpy(w), dtype=float) for w in (w_q, w_k, w_v)]
    # X on the left; one row per branch: the weight matrix, then the grid it makes from X
    widest = max(w.shape[1] for w in weights)
    grid = fig.add_gridspec(3, 3, width_ratios=(d_model, widest, widest), wspace=0.6,
                            hspace=0.55)
    ax_x = fig.add_subplot(grid[:, 0])
    artists = {"X": draw_matrix(x, ax=ax_x, tint=ROLE_COLORS["other"], row_labels=words,
                                number_format=number_format, title=f"X  ({n} × {d_model})"),
               "arrows": []}
    roles = ("query", "key", "value")
    for k, (letter, role, weight, product) in enumerate(zip("QKV", roles, weights, products,
                                                            strict=True)):
        ax_w, ax_p = fig.add_subplot(grid[k, 1]), fig.add_subplot(grid[k, 2])
        rows, cols = weight.shape
        artists[f"W_{letter}"] = draw_matrix(weight, ax=ax_w, tint=ROLE_COLORS[role],
                                             number_format=number_format,
                                             title=f"× $W_{letter}$  ({rows} × {cols})")
        artists[letter] = draw_matrix(product, ax=ax_p, tint=ROLE_COLORS[role],
                                      row_labels=words, number_format=number_format,
                                      title=f"= ${letter} = XW_{letter}$  ({n} × {cols})")
        arrow = ConnectionPatch((1.02, 0.5), (-0.3, 0.5), "axes fraction", "axes fraction",
                                axesA=ax_x, axesB=ax_w, arrowstyle="-|>", lw=1.4,
                                color=MUTED, mutation_scale=14)
        artists["arrows"].append(fig.add_artist(arrow))
    names = ("X: one row per word", "query: $W_Q$ and Q", "key: $W_K$ and K",
             "value: $W_V$ and V")
    handles = [Patch(facecolor=tint_colormap(ROLE_COLORS[r]).colors[0], edgecolor="#9a9a9a",
                     label=label) for r, label in zip(("other", *roles), names, strict=True)]
    artists["legend"] = fig.legend(handles=handles, loc="lower center", ncol=4,
                                   frameon=False, title="colour: the role of a grid; the "
                                   "small numbers 1, 2, … above and beside a grid count its "
                                   "slots")
    return artists


def draw_shape_panels(query, key, value, n, m, d_k, d_v, fig=None):
    """Four spreadsheets: Q (n×d_k), K (m×d_k), V (m×d_v) and the score grid S (n×m), the
    last in white cells (no role colour) with each score written to two decimals.

    ``query``, ``key``, ``value`` are the largest grids (their full shapes fix each panel's
    size); the top-left n×d_k, m×d_k, m×d_v blocks are filled in, the other cells left empty.

    Returns
    -------
    dict with one grid per matrix (``"Q"``, ``"K"``, ``"V"``, ``"S"``) and ``"moving"``, the
    artists a slider move changes; pass it to :func:`update_shape_panels`.
    """
    fig = plt.gcf() if fig is None else fig
    query, key, value = (np.asarray(to_numpy(a), dtype=float) for a in (query, key, value))
    axes = fig.subplots(1, 4, gridspec_kw={"width_ratios": (query.shape[1], key.shape[1],
                                                               value.shape[1], key.shape[0])})
    max_n, max_m = query.shape[0], key.shape[0]
    artists = {
        "Q": draw_matrix(query, ax=axes[0], tint=ROLE_COLORS["query"],
                         row_labels=row_labels("q", max_n), title="Q  (n × $d_k$)"),
        "K": draw_matrix(key, ax=axes[1], tint=ROLE_COLORS["key"],
                         row_labels=row_labels("k", max_m), title="K  (m × $d_k$)"),
        "V": draw_matrix(value, ax=axes[2], tint=ROLE_COLORS["value"],
                         row_labels=row_labels("v", max_m), title="V  (m × $d_v$)"),
        "S": draw_matrix(np.zeros((max_n, max_m)), ax=axes[3], tint=SCORE_TINT,
                         number_format="{:.2f}", fontsize=9, row_labels=row_labels("q", max_n),
                         col_labels=row_labels("k", max_m), title="score grid S  (n × m)"),
        "data": (query, key, value),
    }
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
    update_matrix(artists["S"], score_grid(query[:n, :d_k], key[:m, :d_k]))  # (n, m) block


def draw_product_panels(query, key, i, j, fig=None, number_format="{:.0f}"):
    """Q, Kᵀ and the score grid S = QKᵀ side by side, with row i of Q, column j of Kᵀ and the
    cell S_ij framed (i, j counted from 0). Cells of S after (i, j) in reading order are
    still empty: stepping through (i, j) fills the grid one dot product at a time.

    Returns
    -------
    dict of artists, with ``"moving"`` the ones a step changes (the three frames and the
    empty cells of S); pass it to :func:`update_product_panels`.
    """
    fig = plt.gcf() if fig is None else fig
    query, key = (np.asarray(to_numpy(a), dtype=float) for a in (query, key))
    (n, d_k), m = query.shape, key.shape[0]
    scores = to_numpy(score_grid(query, key))  # (n, m)
    axes = fig.subplots(1, 3, gridspec_kw={"width_ratios": (d_k, m, m)})
    artists = {
        "Q": draw_matrix(query, ax=axes[0], tint=ROLE_COLORS["query"],
                         number_format=number_format, row_labels=row_labels("q", n),
                         title=f"Q  ({n}×{d_k}: $n \\times d_k$)"),
        "KT": draw_matrix(key.T, ax=axes[1], tint=ROLE_COLORS["key"],
                          number_format=number_format, col_labels=row_labels("k", m),
                          title=f"Kᵀ  ({d_k}×{m}: $d_k \\times m$)"),
        "S": draw_matrix(scores, ax=axes[2], number_format=number_format,
                         row_labels=row_labels("q", n), col_labels=row_labels("k", m),
                         title=f"S = QKᵀ  ({n}×{m}: $n \\times m$)"),
        "scores": scores,
        "row": _highlight(axes[0]), "column": _highlight(axes[1]), "cell": _highlight(axes[2]),
    }
    artists["moving"] = [artists["row"], artists["column"], artists["cell"],
                         *matrix_moving(artists["S"], values=False)]
    axes[0].set_ylabel("query rows")
    axes[0].set_xlabel("slot")  # Q's columns are the slots, as Kᵀ's rows
    axes[1].set_ylabel("slot")
    fig.tight_layout()
    update_product_panels(artists, i, j)
    return artists


def update_product_panels(artists, i, j):
    """Frame row i of Q, column j of Kᵀ and cell S_ij; show S up to (i, j) in reading order."""
    n, m = artists["scores"].shape
    d_k = artists["Q"]["shape"][1]
    move_highlight(artists["row"], i, 0, height=1, width=d_k)
    move_highlight(artists["column"], 0, j, height=d_k, width=1)
    move_highlight(artists["cell"], i, j)
    done = (np.arange(n)[:, None] * m + np.arange(m)[None, :]) <= i * m + j
    update_matrix(artists["S"], shown=done)
