"""Dashboards of notebooks 05–07 driven without a browser: moving a slider runs the callback,
which moves the artists to where the math says and writes the math's numbers in the readout."""

import io
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from course_lib import score_grid
from course_lib.plots.notation import fmt
from course_lib.reference import dot_loop
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
    return [[t.get_text() for t in row if t.get_visible()] for row in grid["texts"]]


def test_shapes_dashboard_resizes_the_grids_and_states_the_shapes():
    dash = shapes_dashboard(n=3, m=5, d_k=4, d_v=2)
    assert isinstance(dash, Dashboard)
    before = _pixels(dash)
    dash.controls["n"].value = 5
    dash.controls["m"].value = 2
    dash.controls["d_k"].value = 1
    dash.controls["d_v"].value = 4
    text = dash.readout_text()
    assert text.startswith("Q is 5×1, K is 2×1, V is 2×4  →  S = QKᵀ is 5×2: 10 dot products "
                           "of 1 slots each")
    query, key, _ = shapes_example()
    scores = score_grid(query[:5, :1], key[:2, :1])
    rows = [row for row in _shown(dash.artists["S"]) if row]
    assert rows == [[fmt(s, 1) for s in row] for row in scores]
    assert sum(len(row) for row in _shown(dash.artists["V"])) == 2 * 4
    assert not np.array_equal(before, _pixels(dash))  # the picture changed


def test_shapes_dashboard_sliders_stop_at_the_largest_grid():
    dash = shapes_dashboard()
    for name, largest in MAX_SIZES.items():
        assert dash.controls[name].min == 1
        assert dash.controls[name].max == largest


@pytest.mark.parametrize(("i", "j"), [(1, 1), (1, 4), (2, 3), (3, 2), (3, 4)])
def test_product_dashboard_writes_out_the_dot_product_of_row_i_and_key_j(i, j):
    dash = product_dashboard()
    dash.controls["i"].value = i
    dash.controls["j"].value = j
    query, key = product_example()
    value = dot_loop(query[i - 1], key[j - 1])  # the independent loop twin
    text = dash.readout_text()
    assert text.startswith(f"S{'₀₁₂₃₄'[i]}{'₀₁₂₃₄'[j]} = q{'₀₁₂₃₄'[i]}·k{'₀₁₂₃₄'[j]} = ")
    assert f"= {fmt(value, 0)}   (row {i} of Q" in text
    assert f"S[{i - 1}, {j - 1}]" in text
    assert text.count("×") == query.shape[1]  # one product per slot
    artists = dash.artists
    assert artists["cell"].get_xy() == (j - 1 - 0.5, i - 1 - 0.5)
    assert artists["row"].get_xy() == (-0.5, i - 1 - 0.5)
    assert artists["column"].get_xy() == (j - 1 - 0.5, -0.5)
    assert artists["S"]["texts"][i - 1][j - 1].get_text() == fmt(value, 0)


@pytest.mark.parametrize("make", [shapes_dashboard, product_dashboard])
def test_every_dashboard_has_labelled_controls_a_png_and_a_plain_text_form(make):
    dash = make()
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

    names = ["matrices"]
    assert names
    for name in names:
        source = Path(widgets_pkg.__path__[0], f"{name}.py").read_text(encoding="utf-8")
        for forbidden in ("np.exp", "np.sum", "np.dot", "@", "np.linalg", ".sum("):
            assert forbidden not in source, (name, forbidden)
