"""Dashboards of notebooks 01–04 driven without a browser: moving a slider runs the callback,
which moves the artists to where the math says and writes the math's numbers in the readout."""

import io
import math

import numpy as np
import pytest
from PIL import Image

from course_lib import dot, norm
from course_lib.geometry import angle_between
from course_lib.summation import partial_sums, sigma
from course_lib.text import fmt
from course_lib.widgets.base import Dashboard
from course_lib.widgets.dot_product import MAX_LENGTH, Q_DIRECTION, dot_dashboard, dot_vectors
from course_lib.widgets.norm import norm_dashboard
from course_lib.widgets.summation import EXAMPLE_SLOTS, summation_dashboard
from course_lib.widgets.vectors import vector_dashboard


def _pixels(dash):
    return np.asarray(Image.open(io.BytesIO(dash.image.value)))


def test_vector_dashboard_moves_the_arrow():
    dash = vector_dashboard(q1=3.0, q2=1.0)
    assert isinstance(dash, Dashboard)
    before = _pixels(dash)
    dash.controls["q1"].value = -2.5
    assert dash.artists["q"]["arrow"].xy == (-2.5, 1.0)
    assert dash.artists["swapped"]["arrow"].xy == (1.0, -2.5)
    assert dash.readout_text().startswith("q = [−2.5, 1.0]: 2.5 steps left, 1.0 step up.")
    assert dash.readout_text().endswith("[1.0, −2.5] is a different arrow.")
    assert not np.array_equal(before, _pixels(dash))  # the picture changed
    dash.controls["q2"].value = -2.5
    assert "2.5 steps down" in dash.readout_text()
    assert dash.readout_text().endswith("[−2.5, −2.5] is the same arrow, because the two "
                                        "slots are equal.")
    dash.controls["q1"].value = dash.controls["q2"].value = 0.0
    assert dash.readout_text() == ("q = [0.0, 0.0]: the zero vector, a point at the origin "
                                   "with no direction.")


def test_norm_dashboard_shows_the_norm_from_the_math():
    dash = norm_dashboard(q1=3.0, q2=4.0)
    assert dash.readout_text().endswith("= 5.000")
    dash.controls["q2"].value = -1.5
    length = float(norm([3.0, -1.5]))
    assert dash.readout_text().endswith(f"= {fmt(length, 3)}")
    assert "(−1.5)²" in dash.readout_text()
    assert dash.artists["circle"].get_radius() == pytest.approx(length)
    assert dash.artists["q"]["arrow"].xy == (3.0, -1.5)
    assert dash.artists["area_q"].get_text() == "∥q∥² = 11.25"  # 9 + 2.25, as the labels add


def test_summation_dashboard_writes_the_sum_out():
    dash = summation_dashboard(count=3)
    dash.controls["count"].value = 5
    total = sigma(EXAMPLE_SLOTS, 1, 5)
    text = dash.readout_text()
    assert text.startswith("Σᵢ₌₁⁵ qᵢ = q₁ + q₂ + q₃ + q₄ + q₅ = ")
    assert text.endswith(f"= {fmt(total, 2)}")
    assert list(dash.artists["running"].get_ydata()) == list(partial_sums(EXAMPLE_SLOTS)[:5])
    greyed = [bar.get_alpha() < 1 for bar in dash.artists["bars"]]
    assert greyed == [False] * 5 + [True] * 3


@pytest.mark.parametrize(("angle", "sign"), [(0.0, 1), (90.0, 0), (180.0, -1), (45.0, 1),
                                             (135.0, -1)])
def test_dot_dashboard_is_a_similarity_meter(angle, sign):
    dash = dot_dashboard()
    dash.controls["length_q"].value = 2.0
    dash.controls["length_k"].value = 1.5
    dash.controls["angle"].value = angle
    q, k = dot_vectors(angle, 2.0, 1.5)
    value = float(dot(q, k))
    assert np.sign(round(value, 9)) == sign
    geometric = 2.0 * 1.5 * math.cos(math.radians(angle))  # from the sliders, not from q·k
    text = dash.readout_text()
    assert text.startswith(f"θ = {angle:.0f}° (slider)")
    assert f"q·k = q₁k₁ + q₂k₂ = {fmt(value, 3)}" in text
    cosine = fmt(math.cos(math.radians(angle)), 3)
    shown = f"({cosine})" if cosine.startswith("−") else cosine  # a negative in brackets
    assert f"× {shown} =" in text
    assert text.endswith(f"= {fmt(geometric, 3)}")
    assert fmt(value, 3) == fmt(geometric, 3)  # the two ways agree
    assert dash.artists["meter"]["marker"].get_xdata()[0] == pytest.approx(value)
    heights = [b.get_height() for b in dash.artists["products"]["bars"]]
    assert heights[-1] == pytest.approx(value)
    assert sum(heights[:-1]) == pytest.approx(value)


def test_the_length_sliders_move_the_meter():
    dash = dot_dashboard(angle=60.0, length_q=1.0, length_k=2.0)
    marker = dash.artists["meter"]["marker"]
    before = marker.get_xdata()[0]
    dash.controls["length_q"].value = 3.0  # the same angle, three times as long
    assert marker.get_xdata()[0] == pytest.approx(3 * before)
    assert list(dash.artists["meter"]["reach"].get_xdata()) == pytest.approx([-6.0, 6.0])
    meter_axes = marker.axes
    assert meter_axes.get_xlim()[1] >= MAX_LENGTH ** 2  # the fixed scale holds the largest


def test_the_readout_checks_q_dot_k_against_the_sliders_own_angle():
    dash = dot_dashboard(angle=75.0, length_q=1.25, length_k=3.5)
    q, k = dot_vectors(75.0, 1.25, 3.5)
    assert float(angle_between(q, k)) == pytest.approx(75.0)
    text = dash.readout_text()
    assert "1.25 × 3.50 × 0.259" in text  # the slider's lengths and cos 75°


def test_dot_vectors_have_the_requested_angle_and_lengths():
    q, k = dot_vectors(70.0, 1.5, 2.5)
    assert float(norm(q)) == pytest.approx(1.5)
    assert float(norm(k)) == pytest.approx(2.5)
    assert float(angle_between(q, k)) == pytest.approx(70.0)
    assert math.degrees(math.atan2(q[1], q[0])) == pytest.approx(Q_DIRECTION)
