"""Dashboards of notebooks 05–07 driven without a browser: moving a slider runs the callback,
which moves the artists to where the math says and writes the math's numbers in the readout."""

import io
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from course_lib import score_grid, softmax, softmax_jacobian
from course_lib.plots.matrices import shown_cells
from course_lib.plots.notation import fmt
from course_lib.reference import dot_loop, softmax_loop
from course_lib.widgets.base import Dashboard
from course_lib.widgets.matrices import (
    MAX_SIZES,
    product_dashboard,
    product_example,
    shapes_dashboard,
    shapes_example,
)
from course_lib.widgets.softmax import (
    MAX_FACTOR,
    SATURATION_SCORES,
    readout_text,
    saturation_dashboard,
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
                           "products of 1 slots each")
    query, key, value = shapes_example()
    scores = score_grid(query[:5, :1], key[:2, :1])
    panels = dash.panels
    assert np.array_equal(panels["S"]["image"].get_array()[:5, :2], scores)
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
    assert text.startswith(f"S{'₀₁₂₃₄'[i]}{'₀₁₂₃₄'[j]} = q{'₀₁₂₃₄'[i]}·k{'₀₁₂₃₄'[j]} = ")
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


def _saturation_math(factor):
    """The numbers the saturation readout must show, from the loop twin (float64, by hand)."""
    weights = softmax_loop([factor * s for s in SATURATION_SCORES])
    m = len(weights)
    slopes = [weights[i] * ((i == j) - weights[j]) for i in range(m) for j in range(m)]
    return max(weights), sum(v * v for v in slopes) ** 0.5


@pytest.mark.parametrize("factor", [0.0, 0.25, 1.0, 2.5, 6.0, MAX_FACTOR])
def test_saturation_readout_gives_the_max_weight_and_jacobian_norm_of_the_math(factor):
    dash = saturation_dashboard(factor=5.0)
    before = _pixels(dash)
    dash.controls["factor"].value = factor
    assert not np.array_equal(before, _pixels(dash))  # the picture follows the slider
    max_weight, size = _saturation_math(factor)
    text = dash.readout_text()
    assert text == readout_text(factor, max_weight, size)
    assert text == (f"factor {fmt(factor, 2)} × scores: max weight = {fmt(max_weight, 3)} · "
                    f"Jacobian norm = {fmt(size, 4)}")
    weights = softmax(factor * np.array(SATURATION_SCORES))
    heights = [bar.get_height() for bar in dash.panels["weights"]["bars"]]
    assert heights == pytest.approx(list(weights))
    x, y = dash.panels["marker"].get_data()
    assert x[0] == factor and y[0] == pytest.approx(size)
    jacobian = softmax_jacobian(weights)
    assert np.allclose(dash.panels["jacobian"]["image"].get_array(), jacobian)


def test_saturation_goes_one_hot_and_the_jacobian_norm_collapses():
    dash = saturation_dashboard()
    readings = []
    for factor in (1.0, 3.0, 6.0, MAX_FACTOR):
        dash.controls["factor"].value = factor
        text = dash.readout_text()
        max_weight = float(text.split("max weight = ")[1].split(" ")[0])
        size = float(text.split("Jacobian norm = ")[1])
        readings.append((max_weight, size))
    assert readings
    weights, sizes = zip(*readings, strict=True)
    assert list(weights) == sorted(weights) and weights[-1] > 0.99
    assert list(sizes) == sorted(sizes, reverse=True) and sizes[-1] < 0.01


def test_saturation_dashboard_is_ready_for_the_browser_test():
    dash = saturation_dashboard()
    sliders = [c for c in dash.children if hasattr(c, "step")]
    assert sliders and sliders[0] is dash.controls["factor"]  # the factor slider comes first
    assert "factor" in sliders[0].description and "multiplies" in sliders[0].description
    assert "course-readout" in dash.readout._dom_classes
    assert sliders[0].min == 0.0 and sliders[0].max == MAX_FACTOR


@pytest.mark.parametrize("make", [shapes_dashboard, product_dashboard, saturation_dashboard])
def test_every_dashboard_has_labelled_controls_a_png_and_a_plain_text_form(make):
    dash = make()
    assert dash.renderer.moving  # only these are redrawn at a move
    assert set(dash.renderer.moving) <= set(dash.panels["moving"])
    assert dash.controls
    for control in dash.controls.values():
        assert ":" in control.description  # "symbol: what it changes"
        assert control in dash.children
    assert dash.image in dash.children and dash.readout in dash.children
    assert dash.image.value[:8] == b"\x89PNG\r\n\x1a\n"
    assert dash.readout_text()
    assert repr(dash).startswith("[") and "Run the notebook" in repr(dash)
    assert len(repr(dash)) <= 110  # ipywidgets cuts the plain-text form after 110 characters


def test_widget_modules_compute_no_math_themselves():
    import course_lib.widgets as widgets_pkg

    names = ["matrices", "softmax"]
    assert names
    for name in names:
        source = Path(widgets_pkg.__path__[0], f"{name}.py").read_text(encoding="utf-8")
        for forbidden in ("np.exp", "np.sum", "np.dot", "@", "np.linalg", ".sum("):
            assert forbidden not in source, (name, forbidden)
