"""Pictures: each draw function returns its artists, draws the numbers the math gives, and
its update moves the same artists in place. Plus the style and the fast PNG path."""

import io
from pathlib import Path

import matplotlib as mpl
import numpy as np
import pytest
from matplotlib.colors import to_rgb
from PIL import Image

from course_lib.plots.course_map import COURSE_EDGES, COURSE_NODES, draw_course_map
from course_lib.plots.render import FastRenderer, encode_png, figure_png
from course_lib.plots.style import BACKGROUND, FOREGROUND, PALETTE, course_style, detached_figure
from course_lib.plots.vectors import draw_vector_scene, update_vector_scene


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
