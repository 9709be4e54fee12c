"""Dashboards of notebooks 05 and 06: choose n, m, d_k, d_v and watch the shapes of Q, K, V
and S; step through (i, j) and watch row i of Q meet column j of Kᵀ in the cell S_ij."""

import numpy as np

from .. import dot, score_grid
from ..plots.matrices import (
    draw_product_panels,
    draw_shape_panels,
    update_product_panels,
    update_shape_panels,
)
from ..plots.notation import bracketed, row_words, subscript
from ..plots.style import course_style, detached_figure
from ..text import fmt
from .base import Dashboard, int_slider

__all__ = [
    "MAX_SIZES",
    "product_callback",
    "product_dashboard",
    "product_example",
    "product_figure",
    "shapes_callback",
    "shapes_dashboard",
    "shapes_example",
    "shapes_figure",
]

MAX_SIZES = {"n": 6, "m": 6, "d_k": 5, "d_v": 4}  # the largest grids the shapes dashboard shows


def shapes_example(seed=50):
    """The largest Q (6×5), K (6×5) and V (6×4) of the shapes dashboard, one decimal each."""
    rng = np.random.default_rng(seed)
    size = MAX_SIZES
    query = np.round(rng.standard_normal((size["n"], size["d_k"])), 1)
    key = np.round(rng.standard_normal((size["m"], size["d_k"])), 1)
    value = np.round(rng.standard_normal((size["m"], size["d_v"])), 1)
    return query, key, value


def _count(number, noun):
    """'1 slot', '4 slots': the noun in the singular for one."""
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


def shapes_callback(artists, n, m, d_k, d_v):
    """Fill the n×d_k, m×d_k, m×d_v and n×m blocks; return the shapes in words."""
    update_shape_panels(artists, n, m, d_k, d_v)
    query, key, _ = artists["data"]
    scores = score_grid(query[:n, :d_k], key[:m, :d_k])  # (n, m)
    rows, cols = scores.shape
    return (f"Q is {n}×{d_k}, K is {m}×{d_k}, V is {m}×{d_v}  →  the score grid S is "
            f"{rows}×{cols}: {_count(rows * cols, 'dot product')} of "
            f"{_count(d_k, 'slot')} each (notebook 06 builds it in one matrix product)")


def shapes_figure(n=3, m=5, d_k=4, d_v=2):
    """The shapes dashboard's figure at one setting: ``(figure, artists)``."""
    with course_style():
        fig = detached_figure((11.0, 3.9))
        artists = draw_shape_panels(*shapes_example(), n, m, d_k, d_v, fig=fig)
    return fig, artists


def shapes_dashboard(n=3, m=5, d_k=4, d_v=2):
    """Sliders for n, m, d_k and d_v beside the four spreadsheets Q, K, V and the score
    grid S (n × m, built in notebook 06)."""
    fig, artists = shapes_figure(n, m, d_k, d_v)
    size = MAX_SIZES
    controls = {
        "n": int_slider("n: number of queries (rows of Q)", n, 1, size["n"]),
        "m": int_slider("m: number of keys (rows of K, V)", m, 1, size["m"]),
        "d_k": int_slider("d_k: slots per query and key", d_k, 1, size["d_k"]),
        "d_v": int_slider("d_v: slots per value", d_v, 1, size["d_v"]),
    }
    dash = Dashboard(fig, controls,
                     lambda n, m, d_k, d_v: shapes_callback(artists, n, m, d_k, d_v),
                     description=("[Shapes dashboard: sliders n, m, d_k, d_v resize Q, K, V "
                                  "and the score grid S. Run the notebook to use it.]"),
                     artists=artists["moving"])
    dash.panels = artists  # every artist of the figure, for tests and the curious
    return dash


def product_example():
    """The small whole-number Q (3×2) and K (4×2) of the product dashboard: n = 3 queries,
    m = 4 keys, d_k = 2 slots, three different sizes so the axes cannot be confused.

    >>> [a.shape for a in product_example()]
    [(3, 2), (4, 2)]
    """
    query = np.array([[1, 2], [2, -1], [0, 1]], dtype=float)  # (n, d_k)
    key = np.array([[1, 0], [-1, 1], [2, 1], [0, -2]], dtype=float)  # (m, d_k)
    return query, key


def product_callback(artists, query, key, i, j):
    """Frame row i of Q, column j of Kᵀ and cell S_ij (i, j counted from 1, as in the maths);
    return the dot product written out."""
    update_product_panels(artists, i - 1, j - 1)
    q, k = query[i - 1], key[j - 1]
    value = float(dot(q, k))  # S_ij = 𝐪ᵢ · 𝐤ⱼ (row i of Q, row j of K)
    terms = " + ".join(f"{bracketed(a, 0)}×{bracketed(b, 0)}" for a, b in zip(q, k, strict=True))
    return (f"S{subscript(i)}{subscript(j)} = {row_words('q', i)} · {row_words('k', j)} = "
            f"{terms} = {fmt(value, 0)}   (row {i} of Q times column {j} of Kᵀ; in Python, "
            f"counting from 0: S[{i - 1}, {j - 1}])")


def product_figure(i=1, j=1):
    """The product dashboard's figure at one setting: ``(figure, artists)``."""
    with course_style():
        fig = detached_figure((11.0, 3.6))
        artists = draw_product_panels(*product_example(), i - 1, j - 1, fig=fig)
    return fig, artists


def product_dashboard(i=1, j=1):
    """Sliders for the query i and the key j; the matching row, column and cell light up."""
    query, key = product_example()
    fig, artists = product_figure(i, j)
    n, m = query.shape[0], key.shape[0]
    controls = {
        "i": int_slider("i: query (row of Q, row of S)", i, 1, n),
        "j": int_slider("j: key (column of Kᵀ, column of S)", j, 1, m),
    }
    dash = Dashboard(fig, controls,
                     lambda i, j: product_callback(artists, query, key, i, j),
                     description=("[Product dashboard: sliders for i and j light up row i of Q, "
                                  "column j of Kᵀ and S_ij. Run the notebook.]"),
                     artists=artists["moving"])
    dash.panels = artists  # every artist of the figure, for tests and the curious
    return dash
