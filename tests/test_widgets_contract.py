"""The contract every dashboard keeps, checked on all of them: labelled controls, a PNG
picture, a readout, a short plain-text form for readers without a live kernel, only the
moving artists redrawn, and no maths computed in the widget modules themselves."""

import ast
import io
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

import course_lib.widgets as widgets_pkg
from course_lib.widgets.attention import attention_dashboard
from course_lib.widgets.base import COLUMN_PX, Dashboard
from course_lib.widgets.dot_product import dot_dashboard
from course_lib.widgets.gpu import fit_dashboard
from course_lib.widgets.gradients import gradient_dashboard
from course_lib.widgets.masks import mask_dashboard
from course_lib.widgets.matrices import product_dashboard, shapes_dashboard
from course_lib.widgets.multihead import heads_dashboard
from course_lib.widgets.norm import norm_dashboard
from course_lib.widgets.softmax import saturation_dashboard
from course_lib.widgets.summation import summation_dashboard
from course_lib.widgets.tiled import tiled_dashboard
from course_lib.widgets.variance import dk_dashboard
from course_lib.widgets.vectors import vector_dashboard

DASHBOARDS = [vector_dashboard, norm_dashboard, summation_dashboard, dot_dashboard,
              shapes_dashboard, product_dashboard, saturation_dashboard, dk_dashboard,
              attention_dashboard, mask_dashboard, heads_dashboard, gradient_dashboard,
              tiled_dashboard, fit_dashboard]


def _pixels(dash):
    return np.asarray(Image.open(io.BytesIO(dash.image.value)))


def _next_value(control):
    if hasattr(control, "options") and control.options:  # dropdowns, selection sliders
        values = [option[1] if isinstance(option, tuple) else option
                  for option in control.options]
        return values[(values.index(control.value) + 1) % len(values)]
    if isinstance(control.value, bool):  # toggle buttons
        return not control.value
    return control.max if control.value != control.max else control.min


@pytest.mark.parametrize("make", DASHBOARDS, ids=lambda make: make.__name__)
def test_every_dashboard_keeps_the_contract(make):
    dash = make()
    assert isinstance(dash, Dashboard)
    assert dash.controls
    for control in dash.controls.values():
        if not isinstance(control.value, bool):  # the mask's ✓/✕ toggles name themselves
            assert ":" in control.description, control.description  # "symbol: what it does"
    on_screen = [*dash.children, *(c for box in dash.children for c in getattr(box, "children",
                                                                               ()))]
    assert all(control in on_screen for control in dash.controls.values())
    assert dash.image in dash.children and dash.readout in dash.children
    assert dash.image.value[:8] == b"\x89PNG\r\n\x1a\n"
    assert dash.readout_text()
    assert repr(dash).startswith("[") and "run the notebook" in repr(dash).lower()
    assert len(repr(dash)) <= 110  # ipywidgets cuts the plain-text form after 110 characters
    assert "Figure" not in repr(dash)
    assert dash.renderer.moving  # only these are redrawn at a move
    # sent at the figure's size, or shrunk to the notebook's column: never wider
    width = Image.open(io.BytesIO(dash.image.value)).size[0]
    assert width == min(round(100 * dash.figure.get_figwidth()), COLUMN_PX)
    assert dash.image.layout.align_self == "flex-start"  # not stretched to the column


@pytest.mark.parametrize("make", DASHBOARDS, ids=lambda make: make.__name__)
def test_moving_the_first_control_changes_the_picture_and_the_readout(make):
    dash = make()
    name, control = next(iter(dash.controls.items()))
    before_pixels, before_text = _pixels(dash), dash.readout_text()
    control.value = _next_value(control)
    assert dash.values()[name] == control.value
    assert not np.array_equal(before_pixels, _pixels(dash)), name
    assert dash.readout_text() != before_text, name
    # the readout is a polite live region: a screen reader reads the new numbers out
    assert "role='status'" in dash.readout.value and "aria-live='polite'" in dash.readout.value


MATH_CALLS = {"sqrt", "exp", "log", "dot", "sum", "mean", "var", "linalg", "cumsum", "einsum",
              "matmul", "cos", "sin", "tanh", "histogram"}


def test_widget_modules_compute_no_maths_themselves():
    """No NumPy or math-module arithmetic (np.exp, math.sqrt, …) and no matrix product @ in
    a widget module: the numbers come from course_lib's math, the pictures from plots."""
    modules = sorted(Path(widgets_pkg.__path__[0]).glob("*.py"))
    assert len(modules) >= 14
    for path in modules:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.BinOp):
                assert not isinstance(node.op, ast.MatMult), (path.name, node.lineno)
            if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                    and node.value.id in {"np", "numpy", "math"}):
                assert node.attr not in MATH_CALLS, (path.name, node.lineno, node.attr)


def test_a_kept_frame_is_the_picture_a_fresh_render_draws():
    dash = tiled_dashboard()
    dash.controls["query_index"].value = 2
    dash.controls["blocks_seen"].value = 3
    first = dash.image.value
    dash.controls["blocks_seen"].value = 5
    assert dash.image.value != first
    dash.controls["blocks_seen"].value = 3  # back: the kept frame is sent
    assert dash.image.value == first == dash.renderer.render()
    assert dash.readout_text().startswith("query 2, block 3 of")


def test_kept_frames_drawn_ahead_are_the_pictures_a_move_draws():
    """draw_ahead (run by a kernel's event loop while it waits) keeps, nearest values first,
    the very picture a move to those values draws, and leaves the artists as shown."""
    dash = tiled_dashboard()
    shown = dash.image.value
    assert dash.draw_ahead()
    assert len(dash._frames) == 2  # the picture shown and its nearest neighbour
    assert dash.renderer.render() == shown  # the artists are back where the picture says
    while dash.draw_ahead():
        pass
    assert len(dash._frames) == 4 * 6  # every query × every number of blocks
    ahead = dict(dash._frames)
    dash._frames.clear()
    for key in [(("blocks_seen", 3), ("query_index", 2)), (("blocks_seen", 6), ("query_index", 0))]:
        for name, value in key:
            dash.controls[name].value = value  # each move draws its picture afresh
        assert dash.image.value == ahead[key]
