"""Pictures of notebooks 05–07: every number a grid shows is the math's number, the filled
block has the chosen shape, and the highlight frames sit on the chosen row, column and cell."""

import numpy as np
import pytest
from matplotlib.figure import Figure

from course_lib import score_grid
from course_lib.plots.matrices import (
    draw_matrix,
    draw_product_panels,
    draw_shape_panels,
    matrix_labels,
    update_matrix,
)
from course_lib.plots.notation import fmt
from course_lib.widgets.matrices import product_example, shapes_example


def _texts(artists):
    return [[t.get_text() if t.get_visible() else None for t in row] for row in artists["texts"]]


def _filled(artists):
    return np.array([[t.get_visible() for t in row] for row in artists["texts"]])


def test_draw_matrix_writes_every_value_with_a_true_minus_and_no_negative_zero():
    fig = Figure()
    values = np.array([[1.25, -0.04], [-2.0, 0.0]])
    artists = draw_matrix(values, ax=fig.add_subplot(), number_format="{:.1f}")
    assert _texts(artists) == [["1.2", "0.0"], ["−2.0", "0.0"]]
    assert np.array_equal(artists["image"].get_array(), values)


def test_update_matrix_leaves_cells_outside_the_shown_block_empty():
    fig = Figure()
    artists = draw_matrix(np.zeros((3, 4)), ax=fig.add_subplot(), tint="#0072B2")
    shown = np.zeros((3, 4), bool)
    shown[:2, :3] = True
    update_matrix(artists, np.arange(12.0).reshape(3, 4), shown)
    assert np.array_equal(_filled(artists), shown)
    image = np.ma.filled(artists["image"].get_array().astype(float), np.nan)
    assert np.array_equal(np.isfinite(image), shown)


def test_matrix_labels_count_from_one():
    assert matrix_labels("q", 3) == ["q₁", "q₂", "q₃"]


@pytest.mark.parametrize(("n", "m", "d_k", "d_v"), [(1, 1, 1, 1), (3, 5, 4, 2), (6, 6, 5, 4),
                                                    (2, 6, 1, 3)])
def test_shape_panels_fill_exactly_the_chosen_blocks(n, m, d_k, d_v):
    query, key, value = shapes_example()
    fig = Figure(figsize=(11, 4))
    artists = draw_shape_panels(query, key, value, n, m, d_k, d_v, fig=fig)
    for name, rows, cols in (("Q", n, d_k), ("K", m, d_k), ("V", m, d_v), ("S", n, m)):
        filled = _filled(artists[name])
        assert filled.sum() == rows * cols, name
        assert filled[:rows, :cols].all(), name
    scores = score_grid(query[:n, :d_k], key[:m, :d_k])
    shown = _texts(artists["S"])
    assert [row[:m] for row in shown[:n]] == [[fmt(s, 1) for s in row] for row in scores]
    assert artists["S"]["title"].get_text().startswith(f"S = QKᵀ: {n}×{m}")
    assert artists["Q"]["title"].get_text().startswith(f"Q: {n}×{d_k}")
    assert artists["V"]["title"].get_text().startswith(f"V: {m}×{d_v}")


@pytest.mark.parametrize(("i", "j"), [(0, 0), (1, 2), (2, 3)])
def test_product_panels_frame_row_column_and_cell_and_fill_in_reading_order(i, j):
    query, key = product_example()
    fig = Figure(figsize=(11, 4))
    artists = draw_product_panels(query, key, i, j, fig=fig)
    d_k, m = query.shape[1], key.shape[0]
    assert artists["row"].get_xy() == (-0.5, i - 0.5)
    assert (artists["row"].get_width(), artists["row"].get_height()) == (d_k, 1)
    assert artists["column"].get_xy() == (j - 0.5, -0.5)
    assert (artists["column"].get_width(), artists["column"].get_height()) == (1, d_k)
    assert artists["cell"].get_xy() == (j - 0.5, i - 0.5)
    filled = _filled(artists["S"])
    assert filled.sum() == i * m + j + 1  # every cell up to (i, j), row by row
    scores = score_grid(query, key)
    assert _texts(artists["S"])[i][j] == fmt(scores[i, j], 0)
    assert _texts(artists["KT"]) == [[fmt(x, 0) for x in row] for row in key.T]
