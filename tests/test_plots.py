"""Pictures: each draw function returns its artists, draws the numbers the math gives, and
its update moves the same artists in place. Plus the style and the fast PNG path."""

import io
from pathlib import Path

import matplotlib as mpl
import numpy as np
import pytest
from matplotlib.colors import to_rgb
from PIL import Image

from course_lib import dot, norm
from course_lib.geometry import angle_between, from_polar
from course_lib.plots.course_map import COURSE_EDGES, COURSE_NODES, draw_course_map
from course_lib.plots.dot_product import (
    draw_dot_scene,
    draw_similarity_meter,
    draw_slot_products,
    update_dot_scene,
    update_similarity_meter,
    update_slot_products,
)
from course_lib.plots.norm import draw_pythagoras, update_pythagoras
from course_lib.plots.notation import fmt
from course_lib.plots.render import FastRenderer, encode_png, figure_png
from course_lib.plots.style import BACKGROUND, FOREGROUND, PALETTE, course_style, detached_figure
from course_lib.plots.summation import draw_sum_terms, sum_written_out, update_sum_terms
from course_lib.plots.vectors import draw_embedding_table, draw_vector_scene, update_vector_scene
from course_lib.summation import partial_sums


@pytest.fixture
def ax():
    with course_style():
        fig = detached_figure((5, 4))
        yield fig.add_subplot()


def _luminance(color):
    r, g, b = to_rgb(color)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def test_course_style_is_opaque_light_and_restored_afterwards():
    before = dict(mpl.rcParams)
    with course_style():
        fig = detached_figure((2, 2))
        ax = fig.add_subplot()
        assert to_rgb(fig.get_facecolor()) == to_rgb(BACKGROUND)
        assert fig.get_facecolor()[3] == 1.0  # opaque: a dark theme cannot show through
        assert to_rgb(ax.get_facecolor()) == to_rgb(BACKGROUND)
        assert to_rgb(ax.xaxis.label.get_color()) == to_rgb(FOREGROUND)
    # readable: strong contrast between text and background
    assert _luminance(BACKGROUND) - _luminance(FOREGROUND) > 0.8
    assert dict(mpl.rcParams) == before


def test_palette_is_okabe_ito():
    assert len(PALETTE) == 8
    assert PALETTE["blue"] == "#0072B2" and PALETTE["vermillion"] == "#D55E00"


def test_png_encoders_round_trip():
    rng = np.random.default_rng(0)
    for channels in (3, 4):
        pixels = rng.integers(0, 256, size=(7, 5, channels), dtype=np.uint8)
        decoded = np.asarray(Image.open(io.BytesIO(encode_png(pixels))))
        assert np.array_equal(decoded, pixels)
    with course_style():
        fig = detached_figure((1.5, 1.0))
    image = Image.open(io.BytesIO(figure_png(fig)))
    assert image.size == (150, 100)


def test_fast_renderer_matches_a_full_draw(ax):
    artists = draw_vector_scene([2.0, 1.0], ax=ax)
    renderer = FastRenderer(ax.figure, artists)
    update_vector_scene(artists, [-3.0, 2.5])
    fast = np.asarray(Image.open(io.BytesIO(renderer.render())))[..., :3]
    for artist in renderer.moving:
        artist.set_animated(False)
    ax.figure.canvas.draw()
    full = np.asarray(ax.figure.canvas.buffer_rgba())[..., :3]
    assert fast.shape == full.shape
    assert np.mean(fast != full) < 0.002  # the same picture, up to antialiasing at edges


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
    assert artists["area_x"].get_text() == "q₁² = 1.0"
    square = artists["square_y"].get_xy()
    assert np.ptp(square[:, 0]) == pytest.approx(2.0) and np.ptp(square[:, 1]) == pytest.approx(2.0)


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
    assert sum_written_out([2.0, -1.0, 7.0], 1) == "Σᵢ₌₁¹ qᵢ = q₁ = 2.00 = 2.00"


def test_dot_scene_arc_spans_the_angle(ax):
    q, k = from_polar(2.0, 20.0), from_polar(3.0, 110.0)
    artists = draw_dot_scene(q, k, ax=ax)
    arc = artists["arc"]
    assert (arc.theta2 - arc.theta1) % 360 == pytest.approx(float(angle_between(q, k)))
    assert f"q·k = {fmt(dot(q, k), 2)}" in artists["title"].get_text()
    q2, k2 = from_polar(1.0, 170.0), from_polar(1.0, -170.0)  # across the ±180° line
    update_dot_scene(artists, q2, k2)
    assert (arc.theta2 - arc.theta1) % 360 == pytest.approx(20.0)


def test_similarity_meter_and_slot_products(ax):
    q, k = [1.0, 2.0], [3.0, -1.0]
    meter = draw_similarity_meter(float(dot(q, k)), float(norm(q) * norm(k)), ax=ax)
    expected = float(dot(q, k)) / (float(norm(q)) * float(norm(k)))
    assert meter["marker"].get_xdata()[0] == pytest.approx(expected)
    update_similarity_meter(meter, -2.0, 4.0)
    assert meter["marker"].get_xdata()[0] == pytest.approx(-0.5)
    products = draw_slot_products(q, k, ax=ax)
    assert [b.get_height() for b in products["bars"]] == pytest.approx([3.0, -2.0, 1.0])
    update_slot_products(products, [0.5, 0.5], [2.0, 4.0])
    assert [b.get_height() for b in products["bars"]] == pytest.approx([1.0, 2.0, 3.0])


def test_embedding_table_prints_every_number(ax):
    table = np.array([[0.5, -1.0], [2.0, 1.5]])
    artists = draw_embedding_table(["the", "cat"], table, ax=ax)
    assert [t.get_text() for t in artists["texts"]] == ["0.5", "−1.0", "2.0", "1.5"]
    assert np.array_equal(artists["image"].get_array(), table)


def test_course_map_names_its_notebooks(ax):
    artists = draw_course_map(ax=ax)
    assert set(artists["boxes"]) == set(COURSE_NODES)
    assert len(artists["arrows"]) == len(COURSE_EDGES)
    numbers = sorted(number for _, number, _ in COURSE_NODES.values())
    assert numbers == list(range(1, 10))
    texts = {t.get_text() for t in ax.texts}
    for number in numbers:
        assert f"{number:02d}" in texts
    # the graph flows one way: every arrow goes to a later notebook, ending at attention
    for tail, head in COURSE_EDGES:
        assert COURSE_NODES[tail][1] < COURSE_NODES[head][1]
    assert {head for _, head in COURSE_EDGES} >= {"dot", "attention"}
    assert not [key for key in COURSE_NODES if key != "attention"
                and key not in {tail for tail, _ in COURSE_EDGES}]


def test_plot_modules_do_not_import_ipywidgets():
    import course_lib.plots as plots

    for name in ("course_map", "dot_product", "norm", "notation", "render", "style",
                 "summation", "vectors"):
        source = Path(plots.__path__[0], f"{name}.py").read_text(encoding="utf-8")
        assert "ipywidgets" not in source, name
