"""Pictures of notebooks 01–04: each draw function returns its artists, draws the numbers the
math gives, and its update moves the same artists in place."""

import math

import numpy as np
import pytest

from course_lib import dot, norm, shadow_length
from course_lib.geometry import angle_between, from_polar
from course_lib.plots.dot_product import (
    draw_dot_scene,
    draw_similarity_meter,
    draw_slot_products,
    update_dot_scene,
    update_similarity_meter,
    update_slot_products,
)
from course_lib.plots.norm import draw_pythagoras, update_pythagoras
from course_lib.plots.shadows import draw_shadow, draw_unit_circle, update_shadow
from course_lib.plots.style import course_style, detached_figure
from course_lib.plots.summation import (
    draw_sum_terms,
    products_written_out,
    sum_written_out,
    update_sum_terms,
)
from course_lib.plots.vectors import draw_embedding_table, draw_vector_scene, update_vector_scene
from course_lib.summation import partial_sums
from course_lib.text import fmt, short


@pytest.fixture
def ax():
    with course_style():
        fig = detached_figure((5, 4))
        yield fig.add_subplot()


def _area(corners):
    # the shoelace formula, to check a drawn square's area independently of the plot code
    xs, ys = np.asarray(corners, dtype=float).T
    return 0.5 * abs(np.dot(xs, np.roll(ys, -1)) - np.dot(ys, np.roll(xs, -1)))


def _turn(a, b):
    # which side of the line through a the point b lies on (the 2-D cross product)
    return a[0] * b[1] - a[1] * b[0]


def test_vector_scene_draws_q_and_its_swap(ax):
    artists = draw_vector_scene([3.0, 1.0], ax=ax)
    assert artists["q"]["arrow"].xy == (3.0, 1.0)
    assert artists["swapped"]["arrow"].xy == (1.0, 3.0)
    update_vector_scene(artists, [-2.0, 0.5])
    assert artists["q"]["arrow"].xy == (-2.0, 0.5)
    assert artists["swapped"]["arrow"].xy == (0.5, -2.0)
    assert list(artists["step_up"].get_xdata()) == [-2.0, -2.0]
    assert artists["title"].get_text() == "q = [−2.0, 0.5]"


def test_pythagoras_shows_the_norm(ax):
    artists = draw_pythagoras([3.0, 4.0], ax=ax)
    assert artists["title"].get_text().endswith(f"= {fmt(norm([3.0, 4.0]), 3)}")
    assert artists["circle"].get_radius() == pytest.approx(5.0)
    update_pythagoras(artists, [-1.0, 2.0])
    assert artists["circle"].get_radius() == pytest.approx(float(norm([-1.0, 2.0])))
    assert "(−1.0)²" in artists["title"].get_text()
    assert artists["area_x"].get_text() == "q₁² = 1"
    square = artists["square_y"].get_xy()
    assert np.ptp(square[:, 0]) == pytest.approx(2.0) and np.ptp(square[:, 1]) == pytest.approx(2.0)


@pytest.mark.parametrize("q", [(3.0, 4.0), (-2.5, 3.5), (4.0, -1.0), (-3.0, -3.0), (2.0, 0.0)])
def test_the_square_on_the_long_side_is_the_sum_of_the_other_two(ax, q):
    artists = draw_pythagoras(q, ax=ax)
    legs = _area(artists["square_x"].get_xy()) + _area(artists["square_y"].get_xy())
    long_side = _area(artists["square_q"].get_xy())
    assert long_side == pytest.approx(legs) and long_side == pytest.approx(float(norm(q)) ** 2)
    corners = np.asarray(artists["square_q"].get_xy())[:4]
    assert corners[1] == pytest.approx(q)  # one side of the square is the arrow q itself
    # the square lies on the far side of q from the right angle at (q₁, 0)
    right_angle_side = np.sign(_turn(q, (q[0], 0.0)))
    square_side = np.sign(_turn(q, corners[2]))
    assert right_angle_side == 0 or square_side == -right_angle_side
    assert artists["area_q"].get_text() == f"∥q∥² = {short(float(norm(q)) ** 2)}"


@pytest.mark.parametrize("q", [(1.5, 2.5), (-0.5, 3.5), (2.5, -2.5)])
def test_the_area_labels_add_up_as_printed(ax, q):
    # half-steps square to quarters: labels rounded to one decimal would not add up
    artists = draw_pythagoras(q, ax=ax)
    value = [float(artists[k].get_text().split("= ")[1].replace("−", "-"))
             for k in ("area_x", "area_y", "area_q")]
    assert value[0] + value[1] == pytest.approx(value[2])


def test_sum_terms_marks_the_added_slots_and_the_running_total(ax):
    q = [1.5, -0.5, 2.0, 1.0]
    artists = draw_sum_terms(q, 2, ax=ax)
    assert [b.get_height() for b in artists["bars"]] == q
    assert list(artists["running"].get_ydata()) == [1.5, 1.0]
    update_sum_terms(artists, 4)
    assert list(artists["running"].get_ydata()) == list(partial_sums(q))
    assert artists["total_line"].get_ydata()[0] == pytest.approx(4.0)
    assert artists["title"].get_text() == "Σᵢ₌₁⁴ qᵢ = q₁ + q₂ + q₃ + q₄ = 4.00"


def test_sum_written_out():
    assert sum_written_out([2.0, -1.0], 2) == "Σᵢ₌₁² qᵢ = q₁ + q₂ = 2.00 + (−1.00) = 1.00"
    assert sum_written_out([2.0, -1.0, 7.0], 1) == "Σᵢ₌₁¹ qᵢ = q₁ = 2.00"


def test_products_written_out():
    assert products_written_out([1.0, 2.0, 3.0], [4.0, 5.0, 6.0]) == (
        "Σᵢ₌₁³ qᵢkᵢ = q₁k₁ + q₂k₂ + q₃k₃ = 1×4 + 2×5 + 3×6")
    assert products_written_out([-1.0], [2.0]) == "Σᵢ₌₁¹ qᵢkᵢ = q₁k₁ = (−1)×2"
    with pytest.raises(ValueError):
        products_written_out([1.0, 2.0], [3.0])


def test_dot_scene_arc_spans_the_angle_and_draws_the_shadow(ax):
    q, k = from_polar(2.0, 20.0), from_polar(3.0, 110.0)
    artists = draw_dot_scene(q, k, ax=ax)
    arc = artists["arc"]
    assert (arc.theta2 - arc.theta1) % 360 == pytest.approx(float(angle_between(q, k)))
    assert f"q·k = {fmt(dot(q, k), 2)}" in artists["title"].get_text()
    q2, k2 = from_polar(1.0, 170.0), from_polar(1.0, -170.0)  # across the ±180° line
    update_dot_scene(artists, q2, k2)
    assert (arc.theta2 - arc.theta1) % 360 == pytest.approx(20.0)
    q3, k3 = np.array([2.0, 0.0]), np.array([-1.0, 3.0])  # an obtuse angle: shadow behind
    update_dot_scene(artists, q3, k3)
    assert list(artists["shadow"].get_xdata()) == pytest.approx([0.0, -1.0])
    assert list(artists["shadow"].get_ydata()) == pytest.approx([0.0, 0.0])
    assert list(artists["drop"].get_xdata()) == pytest.approx([-1.0, -1.0])


def test_similarity_meter_shows_the_raw_score_on_a_fixed_scale(ax):
    q, k = [1.0, 2.0], [3.0, -1.0]
    meter = draw_similarity_meter(float(dot(q, k)), float(norm(q) * norm(k)), ax=ax, scale=16)
    assert meter["marker"].get_xdata()[0] == pytest.approx(float(dot(q, k)))
    limits = ax.get_xlim()
    update_similarity_meter(meter, -6.0, 12.0)  # longer arrows: a bigger score, a wider reach
    assert meter["marker"].get_xdata()[0] == pytest.approx(-6.0)
    assert list(meter["reach"].get_xdata()) == pytest.approx([-12.0, 12.0])
    assert ax.get_xlim() == limits  # the scale stays put
    assert "q·k = −6.00" in meter["title"].get_text()


def test_slot_products(ax):
    products = draw_slot_products([1.0, 2.0], [3.0, -1.0], ax=ax)
    assert [b.get_height() for b in products["bars"]] == pytest.approx([3.0, -2.0, 1.0])
    update_slot_products(products, [0.5, 0.5], [2.0, 4.0])
    assert [b.get_height() for b in products["bars"]] == pytest.approx([1.0, 2.0, 3.0])
    assert [t.get_text() for t in products["values"]] == ["1.00", "2.00", "3.00"]
    update_slot_products(products, [1.0, 2.0], [-3.0, 1.0])  # a falling bar: its number below
    assert [t.get_text() for t in products["values"]] == ["−3.00", "2.00", "−1.00"]
    first, second = (t.get_position()[1] for t in products["values"][:2])
    assert first < -3.0 < 2.0 < second


@pytest.mark.parametrize("angle", [0.0, 60.0, 90.0, 130.0, 180.0])
def test_unit_circle_and_shadow_with_q_on_the_x_axis(ax, angle):
    circle = draw_unit_circle(angle, ax=ax)
    cos = math.cos(math.radians(angle))
    assert circle["arrow"]["arrow"].xy == pytest.approx((cos, math.sin(math.radians(angle))))
    assert list(circle["across"].get_xdata()) == pytest.approx([0.0, cos])
    assert circle["cos_label"].get_text() == f"cos θ = {fmt(cos, 2)}"
    with course_style():
        other = detached_figure((5, 4)).add_subplot()
    artists = draw_shadow(3.0, 2.0, 30.0, ax=other)
    update_shadow(artists, 3.0, 2.0, angle)
    assert list(artists["shadow"].get_xdata()) == pytest.approx([0.0, 2.0 * cos])
    q, k = from_polar(3.0, 0.0), from_polar(2.0, angle)
    assert float(shadow_length(k, onto=q)) == pytest.approx(2.0 * cos)
    assert artists["title"].get_text().endswith(f"= {fmt(dot(q, k), 2)}")
    assert fmt(dot(q, k), 2) == fmt(3.0 * 2.0 * cos, 2)  # q·k = ∥q∥ × shadow


def test_embedding_table_prints_every_number(ax):
    table = np.array([[0.5, -1.0], [2.0, 1.5]])
    artists = draw_embedding_table(["the", "cat"], table, ax=ax)
    assert [t.get_text() for t in artists["texts"]] == ["0.5", "−1.0", "2.0", "1.5"]
    assert np.array_equal(artists["image"].get_array(), table)
    assert [t.get_text() for t in ax.get_xticklabels()] == ["slot 1", "slot 2"]  # as 05 writes
