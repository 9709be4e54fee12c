"""The saturation dashboard (notebook 07) driven without a browser: the readout gives the
largest weight and softmax's sensitivity ∥J∥ of factor × scores, as the loop twin computes."""

import io

import numpy as np
import pytest
from PIL import Image

from course_lib import softmax, softmax_jacobian
from course_lib.reference import softmax_loop
from course_lib.text import fmt
from course_lib.widgets.softmax import (
    MAX_FACTOR,
    SATURATION_SCORES,
    readout_text,
    saturation_dashboard,
)


def _pixels(dash):
    return np.asarray(Image.open(io.BytesIO(dash.image.value)))


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
                    f"softmax sensitivity ∥J∥ = {fmt(size, 4)}")
    weights = softmax(factor * np.array(SATURATION_SCORES))
    heights = [bar.get_height() for bar in dash.panels["weights"]["bars"]]
    assert heights == pytest.approx(list(weights))
    x, y = dash.panels["marker"].get_data()
    assert x[0] == factor and y[0] == pytest.approx(size)
    jacobian = softmax_jacobian(weights)
    assert np.allclose(dash.panels["jacobian"]["cells"].get_array(), jacobian)


def test_saturation_goes_one_hot_and_the_jacobian_norm_collapses():
    dash = saturation_dashboard()
    readings = []
    for factor in (1.0, 3.0, 6.0, MAX_FACTOR):
        dash.controls["factor"].value = factor
        text = dash.readout_text()
        max_weight = float(text.split("max weight = ")[1].split(" ")[0])
        size = float(text.split("∥J∥ = ")[1])
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
