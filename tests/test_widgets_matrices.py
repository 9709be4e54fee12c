"""The shapes and product dashboards (notebooks 05, 06) driven without a browser: a slider
move runs the callback, which moves the artists to where the math says."""

import io

import numpy as np
import pytest
from PIL import Image

from course_lib import score_grid
from course_lib.plots.grid import shown_cells
from course_lib.reference import dot_loop
from course_lib.text import fmt
from course_lib.widgets.base import Dashboard
from course_lib.widgets.matrices import (
    MAX_SIZES,
    product_dashboard,
    product_example,
    shapes_dashboard,
    shapes_example,
)


def _pixels(dash):
    return np.asarray(Image.open(io.BytesIO(dash.image.value)))


def _shown(grid):
    """The numbers in the cells a grid shows, row by row (empty cells left out)."""
    shown = shown_cells(grid)
    return [[t.get_text() for j, t in enumerate(row) if shown[i, j]]
            for i, row in enumerate(grid["texts"])]


def test_shapes_dashboard_resizes_the_grids_and_states_the_shapes():
    dash = shapes_dashboard(n=3, m=5, d_k=4, d_v=2)
    assert isinstance(dash, Dashboard)
    before = _pixels(dash)
    dash.controls["n"].value = 5
    dash.controls["m"].value = 2
    dash.controls["d_k"].value = 1
    dash.controls["d_v"].value = 4
    text = dash.readout_text()
    assert text.startswith("Q is 5×1, K is 2×1, V is 2×4  →  the score grid S is 5×2: 10 dot "
                           "products of 1 slot each")
    query, key, value = shapes_example()
    scores = score_grid(query[:5, :1], key[:2, :1])
    panels = dash.panels
    assert np.array_equal(panels["S"]["cells"].get_array()[:5, :2], scores)
    assert shown_cells(panels["S"]).sum() == 5 * 2
    assert [row for row in _shown(panels["V"]) if row] == [[fmt(x, 1) for x in row]
                                                          for row in value[:2, :4]]
    assert [row for row in _shown(panels["Q"]) if row] == [[fmt(x, 1)] for x in query[:5, 0]]
    assert shown_cells(panels["K"]).sum() == 2 * 1
    assert not np.array_equal(before, _pixels(dash))  # the picture changed


def test_shapes_dashboard_sliders_stop_at_the_largest_grid():
    dash = shapes_dashboard()
    for name, largest in MAX_SIZES.items():
        assert dash.controls[name].min == 1
        assert dash.controls[name].max == largest


@pytest.mark.parametrize(("i", "j"), [(1, 1), (1, 4), (2, 3), (3, 2), (3, 4)])
def test_product_dashboard_writes_out_the_dot_product_of_row_i_and_key_j(i, j):
    dash = product_dashboard(i=3, j=4)
    before = _pixels(dash)
    dash.controls["i"].value = i
    dash.controls["j"].value = j
    assert (i, j) == (3, 4) or not np.array_equal(before, _pixels(dash))
    query, key = product_example()
    value = dot_loop(query[i - 1], key[j - 1])  # the independent loop twin
    text = dash.readout_text()
    assert text.startswith(f"S{'₀₁₂₃₄'[i]}{'₀₁₂₃₄'[j]} = row q{'₀₁₂₃₄'[i]} of Q · "
                           f"row k{'₀₁₂₃₄'[j]} of K = ")
    assert f"= {fmt(value, 0)}   (row {i} of Q" in text
    assert f"S[{i - 1}, {j - 1}]" in text
    assert text.count("×") == query.shape[1]  # one product per slot
    artists = dash.panels
    assert artists["cell"].get_xy() == (j - 1 - 0.5, i - 1 - 0.5)
    assert artists["row"].get_xy() == (-0.5, i - 1 - 0.5)
    assert artists["column"].get_xy() == (j - 1 - 0.5, -0.5)
    assert artists["S"]["texts"][i - 1][j - 1].get_text() == fmt(value, 0)
    assert shown_cells(artists["S"]).sum() == (i - 1) * key.shape[0] + j  # filled so far
    assert artists["cell"] in dash.renderer.moving  # the frames are redrawn at each step
