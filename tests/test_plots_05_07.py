"""Pictures of notebooks 05–07: every number a grid shows is the math's number, the filled
block has the chosen shape, the highlight frames sit on the chosen row, column and cell, and
the softmax pictures draw the weights, slopes and Jacobian norm the math gives."""

import numpy as np
import pytest
from matplotlib.figure import Figure

from course_lib import score_grid, softmax, softmax_jacobian
from course_lib.plots.matrices import (
    draw_matrix,
    draw_product_panels,
    draw_shape_panels,
    matrix_labels,
    shown_cells,
    update_matrix,
)
from course_lib.plots.notation import fmt
from course_lib.plots.softmax import (
    draw_saturation_panels,
    draw_slope_picture,
    draw_weights,
    jacobian_norm,
)
from course_lib.widgets.matrices import product_example, shapes_example


def _texts(artists):
    """The numbers written in the cells that are shown (None in an empty cell)."""
    shown = shown_cells(artists)
    return [[t.get_text() if shown[i, j] else None for j, t in enumerate(row)]
            for i, row in enumerate(artists["texts"])]


def _filled(artists):
    return shown_cells(artists)


def test_draw_matrix_writes_every_value_with_a_true_minus_and_no_negative_zero():
    fig = Figure()
    values = np.array([[1.25, -0.04], [-2.0, 0.0]])
    artists = draw_matrix(values, ax=fig.add_subplot(), number_format="{:.1f}")
    assert _texts(artists) == [["1.2", "0.0"], ["−2.0", "0.0"]]
    assert np.array_equal(artists["image"].get_array(), values)


def test_update_matrix_leaves_cells_outside_the_shown_block_empty():
    fig = Figure()
    artists = draw_matrix(np.zeros((3, 4)), ax=fig.add_subplot(), tint="#0072B2")
    assert shown_cells(artists).all()
    shown = np.zeros((3, 4), bool)
    shown[:2, :3] = True
    shown[2, 0] = True  # any pattern, not only blocks
    update_matrix(artists, shown=shown)
    assert np.array_equal(shown_cells(artists), shown)
    assert len(artists["cover"].get_paths()) == (~shown).sum()  # one square per empty cell


def test_a_smaller_grid_of_values_fills_the_top_left_block():
    fig = Figure()
    artists = draw_matrix(np.zeros((3, 3)), ax=fig.add_subplot(), number_format="{:.0f}")
    update_matrix(artists, np.array([[1.0, -2.0]]))
    assert _texts(artists) == [["1", "−2", None], [None] * 3, [None] * 3]


def test_draw_matrix_without_numbers_colours_the_cells_only():
    fig = Figure()
    values = np.array([[0.1, -0.2], [0.0, 0.25]])
    artists = draw_matrix(values, ax=fig.add_subplot(), limit=0.25, annotate=False)
    assert artists["texts"] == []
    assert np.array_equal(artists["image"].get_array(), values)


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
    assert np.array_equal(artists["S"]["image"].get_array()[:n, :m], scores)
    assert _texts(artists["Q"])[n - 1][d_k - 1] == fmt(query[n - 1, d_k - 1], 1)
    titles = [artists[name]["title"].get_text() for name in ("Q", "K", "V", "S")]
    assert titles == ["Q  (n × d_k)", "K  (m × d_k)", "V  (m × d_v)", "score grid S  (n × m)"]


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


# --- notebook 07: softmax pictures --------------------------------------------------------

def test_jacobian_norm_is_the_square_root_of_the_summed_squared_slopes():
    weights = softmax(np.array([2.0, -1.0, 1.0, 0.0]))
    p = [float(w) for w in weights]
    total = sum((p[i] * ((i == j) - p[j])) ** 2 for i in range(4) for j in range(4))
    assert jacobian_norm(weights) == pytest.approx(total ** 0.5, rel=1e-12)
    batch = jacobian_norm(np.stack([weights, np.full(4, 0.25)]))
    assert batch.shape == (2,)
    assert batch[0] == pytest.approx(total ** 0.5, rel=1e-12)


def test_jacobian_norm_of_a_one_hot_row_is_zero():
    assert jacobian_norm(np.array([0.0, 1.0, 0.0])) == 0.0


def test_draw_weights_sets_bar_heights_and_marks_the_largest():
    fig = Figure()
    weights = softmax(np.array([0.5, 2.0, -1.0]))
    artists = draw_weights(weights, ax=fig.add_subplot())
    heights = [bar.get_height() for bar in artists["bars"]]
    assert heights == pytest.approx(list(weights))
    colours = [bar.get_facecolor() for bar in artists["bars"]]
    assert colours[1] != colours[0] and colours[0] == colours[2]
    assert [t.get_text() for t in artists["values"]] == [fmt(w, 2) for w in weights]


def test_slope_picture_draws_the_tangent_with_the_jacobian_diagonal():
    fig = Figure()
    scores = np.array([2.0, -1.0, 1.0, 0.0])
    artists = draw_slope_picture(scores, index=0, nudge=1.0, ax=fig.add_subplot())
    p = softmax(scores)
    assert artists["weight"] == pytest.approx(p[0])
    assert artists["slope"] == pytest.approx(p[0] * (1 - p[0]))
    xs, ys = artists["tangent"].get_data()
    assert (ys[1] - ys[0]) / (xs[1] - xs[0]) == pytest.approx(artists["slope"])
    rise_x, rise_y = artists["rise"].get_data()
    assert rise_y[1] - rise_y[0] == pytest.approx(artists["slope"] * 1.0)
    curve_x, curve_y = artists["curve"].get_data()
    assert np.all(np.diff(curve_y) > 0)  # pᵢ grows with its own score


@pytest.mark.parametrize("factor", [0.0, 1.0, 4.5, 10.0])
def test_saturation_panels_show_the_weights_jacobian_and_norm_of_the_scaled_row(factor):
    scores = np.array([1.0, 2.5, -0.5, 0.3])
    fig = Figure(figsize=(12, 4))
    artists = draw_saturation_panels(scores, factor, 10.0, fig=fig)
    weights = softmax(factor * scores)
    heights = [bar.get_height() for bar in artists["weights"]["bars"]]
    assert heights == pytest.approx(list(weights))
    jacobian = softmax_jacobian(weights)
    assert np.array_equal(artists["jacobian"]["image"].get_array(), jacobian)
    assert artists["marker"] in artists["moving"]
    x, y = artists["marker"].get_data()
    assert (x[0], y[0]) == (factor, pytest.approx(jacobian_norm(weights)))
