"""The one rendering trick: blitting, text drawn as cached glyph outlines and a small PNG
writer give the same picture as matplotlib's full draw, only faster."""

import io

import numpy as np
import pytest
from PIL import Image

from course_lib.plots.fast_render import (
    FastRenderer,
    encode_png,
    figure_png,
    moving_artists,
    palette_png,
)
from course_lib.plots.grid import draw_grid, update_grid
from course_lib.plots.style import course_style, detached_figure
from course_lib.plots.vectors import draw_vector_scene, update_vector_scene


@pytest.fixture
def ax():
    with course_style():
        yield detached_figure((5, 4)).add_subplot()


def _fast_and_full(renderer):
    fast = np.asarray(Image.open(io.BytesIO(renderer.render())))[..., :3].astype(int)
    for artist in renderer.moving:
        artist.set_animated(False)
    renderer.figure.canvas.draw()
    full = np.asarray(renderer.figure.canvas.buffer_rgba())[..., :3].astype(int)
    assert fast.shape == full.shape
    return np.abs(fast - full).max(axis=-1)  # per pixel, the largest channel difference


def test_png_encoders_round_trip():
    rng = np.random.default_rng(0)
    for channels in (3, 4):
        pixels = rng.integers(0, 256, size=(7, 5, channels), dtype=np.uint8)
        decoded = np.asarray(Image.open(io.BytesIO(encode_png(pixels))))
        assert np.array_equal(decoded, pixels)
    with course_style():
        fig = detached_figure((1.5, 1.0))
    assert Image.open(io.BytesIO(figure_png(fig))).size == (150, 100)


def test_fast_renderer_matches_a_full_draw(ax):
    artists = draw_vector_scene([2.0, 1.0], ax=ax)
    renderer = FastRenderer(ax.figure, artists)
    update_vector_scene(artists, [-3.0, 2.5])
    difference = _fast_and_full(renderer)
    assert np.mean(difference > 64) < 0.002  # the same picture, up to antialiasing at edges


def test_moving_texts_drawn_as_outlines_match_matplotlibs_text(ax):
    values = np.random.default_rng(1).random((5, 5))
    grid = draw_grid(values, ax=ax, vmin=0.0, vmax=1.0, title="a title that moves")
    label = ax.text(0, 0, "head 0\nd_k = 4", ha="left", va="top")
    renderer = FastRenderer(ax.figure, [grid["cells"], grid["texts"], grid["title"], label])
    update_grid(grid, values[::-1])
    difference = _fast_and_full(renderer)
    # every glyph sits where matplotlib puts it (antialiasing may differ at the edges) ...
    assert np.mean(difference > 128) < 0.003
    # ... a bound that numbers drawn nowhere would break
    canvas = ax.figure.canvas
    full = np.asarray(canvas.buffer_rgba())[..., :3].astype(int)
    for row in grid["texts"]:
        for text in row:
            text.set_text("")
    canvas.draw()
    without = np.asarray(canvas.buffer_rgba())[..., :3].astype(int)
    assert np.mean(np.abs(full - without).max(axis=-1) > 128) > 0.003


def test_moving_artists_are_found_in_nested_containers_and_drawn_in_zorder(ax):
    (line,) = ax.plot([0, 1])
    text = ax.text(0, 0, "x")
    patch = ax.bar([0], [1])
    found = moving_artists({"a": [text, {"b": line}], "bars": patch, "numbers": [1.0]})
    assert found == [text, line, *patch]
    renderer = FastRenderer(ax.figure, found)
    zorders = [artist.get_zorder() for artist in renderer.moving]
    assert zorders == sorted(zorders)


def test_an_opaque_figure_is_sent_without_alpha_and_a_transparent_one_with_it(ax):
    artists = draw_vector_scene([2.0, 1.0], ax=ax)
    opaque = Image.open(io.BytesIO(FastRenderer(ax.figure, artists).render()))
    assert opaque.mode == "RGB"  # three bytes a pixel: the alpha byte would all be 255
    canvas = np.asarray(ax.figure.canvas.buffer_rgba())
    assert np.array_equal(np.asarray(opaque), canvas[..., :3])
    ax.figure.patch.set_alpha(0.0)
    ax.patch.set_alpha(0.0)
    see_through = Image.open(io.BytesIO(FastRenderer(ax.figure, artists).render()))
    assert see_through.mode == "RGBA"
    assert (np.asarray(see_through)[..., 3] < 255).any()


def test_a_palette_picture_is_the_same_plot_in_fewer_bytes():
    # 14's dashboard sends its kept frames so: every pixel near its own, about half the bytes
    from course_lib.widgets.tiled import tiled_dashboard

    dash = tiled_dashboard()
    assert dash.renderer.palette
    sent = Image.open(io.BytesIO(dash.image.value))
    assert sent.mode == "P" and len(sent.getpalette()) // 3 <= 256
    pixels = np.asarray(dash.figure.canvas.buffer_rgba())[..., :3]
    plain = encode_png(np.ascontiguousarray(pixels))
    off = np.abs(np.asarray(sent.convert("RGB")).astype(int) - pixels.astype(int)).max(axis=-1)
    # octree colours sit within a level or two of the originals; edge pixels farther
    assert off.max() <= 32 and np.mean(off > 2) < 0.1, (off.max(), np.mean(off > 2))
    assert len(dash.image.value) < 0.7 * len(plain), (len(dash.image.value), len(plain))


def test_palette_png_keeps_two_colours_near_their_own():
    pixels = np.zeros((4, 6, 3), np.uint8)
    pixels[1:3, 2:5] = (200, 30, 90)
    decoded = np.asarray(Image.open(io.BytesIO(palette_png(pixels))).convert("RGB"))
    assert np.abs(decoded.astype(int) - pixels).max() <= 2
    assert len(np.unique(decoded.reshape(-1, 3), axis=0)) == 2
