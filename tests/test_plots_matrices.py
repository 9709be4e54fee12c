"""Pictures of matrices: where Q, K, V come from, their shapes beside S, and the
row-times-column step of QKᵀ; every number drawn is the math's."""

import numpy as np
import pytest
from matplotlib.figure import Figure

from course_lib import score_grid
from course_lib.examples import projection_weights
from course_lib.plots.grid import shown_cells
from course_lib.plots.matrices import (
    draw_product_panels,
    draw_projections,
    draw_shape_panels,
    matrix_labels,
)
from course_lib.plots.notation import row_labels
from course_lib.projections import projections
from course_lib.text import fmt
from course_lib.widgets.matrices import product_example, shapes_example


def _texts(artists):
    shown = shown_cells(artists)
    return [[t.get_text() if shown[i, j] else None for j, t in enumerate(row)]
            for i, row in enumerate(artists["texts"])]


def test_labels_count_from_one_and_rows_are_bold():
    assert matrix_labels("x", 3) == ["x₁", "x₂", "x₃"]  # numbers in slots: plain
    assert row_labels("q", 2) == [r"$\mathbf{q}_{1}$", r"$\mathbf{q}_{2}$"]  # rows of Q: bold


def test_projections_picture_branches_from_x_with_one_colour_per_role():
    x = np.round(np.random.default_rng(5).standard_normal((6, 4)), 1)
    w_q, w_k, w_v = projection_weights()
    artists = draw_projections(x, w_q, w_k, w_v, words=list("abcdef"), fig=Figure((9, 8)))
    for letter, product in zip("QKV", projections(x, w_q, w_k, w_v), strict=True):
        assert np.allclose(artists[letter]["cells"].get_array(), product)
        assert np.allclose(product, x @ {"Q": w_q, "K": w_k, "V": w_v}[letter])
        assert artists[letter]["title"].get_text().startswith(f"= ${letter} = XW_{letter}$")
        assert _texts(artists[letter])[0][0] == fmt(product[0, 0], 1)
        # a weight matrix and the grid it makes share their role's colour
        tint = artists[f"W_{letter}"]["cells"].cmap.colors
        assert tint == artists[letter]["cells"].cmap.colors
    assert _texts(artists["X"])[1] == [fmt(v, 1) for v in x[1]]
    assert artists["Q"]["cells"].axes.get_yticklabels()[0].get_text() == "a"
    assert len(artists["arrows"]) == 3  # three branches from X
    labels = [t.get_text() for t in artists["legend"].get_texts()]
    assert len(labels) == 4 and labels[1].startswith("query")


@pytest.mark.parametrize(("n", "m", "d_k", "d_v"), [(1, 1, 1, 1), (3, 5, 4, 2), (6, 6, 5, 4),
                                                    (2, 6, 1, 3)])
def test_shape_panels_fill_exactly_the_chosen_blocks(n, m, d_k, d_v):
    query, key, value = shapes_example()
    artists = draw_shape_panels(query, key, value, n, m, d_k, d_v, fig=Figure((11, 4)))
    for name, rows, cols in (("Q", n, d_k), ("K", m, d_k), ("V", m, d_v), ("S", n, m)):
        filled = shown_cells(artists[name])
        assert filled.sum() == rows * cols, name
        assert filled[:rows, :cols].all(), name
    scores = score_grid(query[:n, :d_k], key[:m, :d_k])
    assert np.array_equal(artists["S"]["cells"].get_array()[:n, :m], scores)
    # every score is written in its cell (two decimals), so S is read by its numbers ...
    assert [row[:m] for row in _texts(artists["S"])[:n]] == [[fmt(s, 2) for s in row]
                                                             for row in scores]
    # ... and S, which has no role, shares no colour with the role grids Q, K, V
    s_colour = artists["S"]["cells"].cmap.colors
    assert all(s_colour != artists[name]["cells"].cmap.colors for name in "QKV")
    assert _texts(artists["Q"])[n - 1][d_k - 1] == fmt(query[n - 1, d_k - 1], 1)
    for name, shape in (("Q", "n × $d_k$"), ("K", "m × $d_k$"), ("V", "m × $d_v$"),
                        ("S", "n × m")):
        title = artists[name]["title"].get_text()  # each panel names its matrix and its shape
        assert name in title.split() and f"({shape})" in title, title


@pytest.mark.parametrize(("i", "j"), [(0, 0), (1, 2), (2, 3)])
def test_product_panels_frame_row_column_and_cell_and_fill_in_reading_order(i, j):
    query, key = product_example()
    artists = draw_product_panels(query, key, i, j, fig=Figure((11, 4)))
    d_k, m = query.shape[1], key.shape[0]
    assert artists["row"].get_xy() == (-0.5, i - 0.5)
    assert (artists["row"].get_width(), artists["row"].get_height()) == (d_k, 1)
    assert artists["column"].get_xy() == (j - 0.5, -0.5)
    assert (artists["column"].get_width(), artists["column"].get_height()) == (1, d_k)
    assert artists["cell"].get_xy() == (j - 0.5, i - 0.5)
    assert shown_cells(artists["S"]).sum() == i * m + j + 1  # every cell up to (i, j)
    assert _texts(artists["S"])[i][j] == fmt(score_grid(query, key)[i, j], 0)
    assert _texts(artists["KT"]) == [[fmt(x, 0) for x in row] for row in key.T]
