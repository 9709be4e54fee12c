"""Fast rendering for dashboards: the only speed trick of the picture layer, kept here.

A dashboard redraws its figure at every slider move and has about 30 ms to do it. Plot
functions draw with plain matplotlib; :class:`FastRenderer` (the one entry point, used by
:class:`course_lib.widgets.base.Dashboard`) then makes the redraw quick in three ways:

1. blitting: the still parts (axes, ticks, labels) are drawn once and kept as pixels; each
   move pastes them back and draws only the artists that move;
2. text as glyph outlines: matplotlib lays out every Text again at each draw (about half a
   millisecond each, too slow for a grid of fifty numbers); a moving Text is drawn here as the
   outline of its glyphs, made once per string and kept;
3. a small PNG writer (:func:`encode_png`): unfiltered rows at zlib level 1, about twice as
   fast as Pillow for flat-coloured plots, and RGB without the alpha byte when the figure is
   opaque (a tenth fewer bytes, no slower: zlib reads a quarter less). Decode time follows
   the picture's size in pixels first (:class:`course_lib.widgets.base.Dashboard` fits it
   to the notebook's column), then its bytes: a picture drawn ahead of the move (a
   dashboard's kept frames) is sent with a palette of 256 colours instead
   (:func:`palette_png`), half the bytes, for 9 ms more in the kernel while it waits.
   Measured on 14's dashboard in Chromium (``benchmarks/bench_browser.py``, two alternating
   runs each): median 61 and 74 ms instead of 74 and 105, worst 87 and 105 instead of 121
   and 208; the decode alone 29 and 36 ms instead of 38 and 46.
"""

import functools
import io
import struct
import zlib

import numpy as np
from matplotlib.artist import Artist
from matplotlib.colors import to_rgba
from matplotlib.font_manager import FontProperties
from matplotlib.path import Path
from matplotlib.text import Text
from matplotlib.textpath import TextPath, text_to_path
from matplotlib.transforms import Affine2D
from PIL import Image

__all__ = ["FastRenderer", "encode_png", "figure_png", "moving_artists", "palette_png"]


def figure_png(fig):
    """Render the whole of ``fig`` to PNG bytes (zlib level 1: fast, a little larger).

    >>> from course_lib.plots.style import detached_figure
    >>> figure_png(detached_figure((1, 1)))[:8]
    b'\\x89PNG\\r\\n\\x1a\\n'
    """
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", facecolor=fig.get_facecolor(),
                pil_kwargs={"compress_level": 1})
    return buffer.getvalue()


def moving_artists(artists):
    """Every matplotlib artist inside a (nested) dict, list or container, in order.

    >>> from course_lib.plots.style import detached_figure
    >>> line = detached_figure((1, 1)).add_subplot().plot([0, 1])[0]
    >>> moving_artists({"a": {"b": [line]}, "data": [1.0, 2.0]}) == [line]
    True
    """
    if isinstance(artists, Artist):
        return [artists]
    values = artists.values() if isinstance(artists, dict) else (
        artists if isinstance(artists, (list, tuple)) else ())  # a BarContainer is a tuple
    return [found for value in values for found in moving_artists(value)]


class FastRenderer:
    """PNG bytes of a figure in which only ``artists`` move (any nesting of dicts/lists).

    Call :meth:`render` after moving the artists; call :meth:`redraw_background` after
    changing anything else (limits, tick labels). ``palette=True``: an opaque figure is sent
    in 256 colours (:func:`palette_png`).
    """

    def __init__(self, figure, artists, palette=False):
        self.figure, self.palette = figure, palette  # palette: see palette_png
        self.moving = sorted(moving_artists(artists), key=lambda a: a.get_zorder())  # stable
        for artist in self.moving:
            artist.set_animated(True)  # left out of the background, drawn by render()
        self.redraw_background()

    def redraw_background(self):
        """Draw the still parts of the figure and keep their pixels."""
        canvas = self.figure.canvas
        canvas.draw()
        self._background = canvas.copy_from_bbox(self.figure.bbox)
        self._opaque = bool((np.asarray(canvas.buffer_rgba())[..., 3] == 255).all())

    def render(self):
        """PNG bytes of the figure with the moving artists as they are now."""
        canvas = self.figure.canvas
        canvas.restore_region(self._background)
        renderer = canvas.get_renderer()
        for artist in self.moving:
            if not artist.get_visible():
                continue
            if _plain_text(artist):
                _draw_outline(artist, renderer)
            else:
                artist.draw(renderer)
        pixels = np.asarray(canvas.buffer_rgba())  # (height, width, 4)
        # over an opaque background every pixel stays opaque: the alpha byte says nothing
        if not self._opaque:
            return encode_png(pixels)
        rgb = _without_alpha(pixels)
        return palette_png(rgb) if self.palette else encode_png(rgb)


def _without_alpha(pixels):
    """(height, width, 3) copy of (height, width, 4) pixels: Pillow's C loop takes 1.4 ms at
    960 × 344 where NumPy's copy of the strided view ``pixels[..., :3]`` takes 8."""
    height, width, _ = pixels.shape
    image = Image.frombuffer("RGBA", (width, height), pixels, "raw", "RGBA", 0, 1)
    return np.asarray(image.convert("RGB"))


def _plain_text(artist):
    """A Text the outline path can draw: no mathtext, no rotation, no box behind it."""
    return (type(artist) is Text and "$" not in artist.get_text()
            and artist.get_rotation() == 0 and artist.get_bbox_patch() is None)


@functools.lru_cache(maxsize=8192)
def _outline(text, fontsize, ha, va):
    """The glyph outline of ``text`` in points, placed as matplotlib aligns a Text at (0, 0)."""
    font = FontProperties(size=fontsize)
    _, lp_height, lp_descent = text_to_path.get_text_width_height_descent("lp", font, False)
    ascent, step = lp_height - lp_descent, 1.2 * lp_height  # baseline to baseline
    lines = text.split("\n")
    parts = []
    for k, line in enumerate(lines):
        width = text_to_path.get_text_width_height_descent(line, font, False)[0]
        left = {"left": 0.0, "center": -width / 2, "right": -width}[ha]
        path = TextPath((0, 0), line, prop=font) if line.strip() else None
        if path is not None and len(path.vertices):
            parts.append(Affine2D().translate(left, -k * step).transform_path(path))
    if not parts:
        return None
    bottom = -(len(lines) - 1) * step - lp_descent  # the block's bottom edge
    shift = {"baseline": 0.0, "top": -ascent, "bottom": -bottom,
             "center": -(ascent + bottom) / 2, "center_baseline": -(ascent + bottom) / 2}[va]
    return Affine2D().translate(0, shift).transform_path(Path.make_compound_path(*parts))


def _draw_outline(text, renderer):
    """Draw a Text as its glyph outline (same place, size and colour, no layout)."""
    path = _outline(text.get_text(), text.get_fontsize(), text.get_horizontalalignment(),
                    text.get_verticalalignment())
    if path is None:
        return
    x, y = text.get_transform().transform(text.get_unitless_position())
    gc = renderer.new_gc()
    gc.set_linewidth(0)
    gc.set_antialiased(True)
    if text.get_clip_on() and text.get_clip_box() is not None:
        gc.set_clip_rectangle(text.get_clip_box())
    transform = Affine2D().scale(renderer.points_to_pixels(1.0)).translate(x, y)
    renderer.draw_path(gc, path, transform, rgbFace=to_rgba(text.get_color(), text.get_alpha()))
    gc.restore()


def _png_chunk(kind, data):
    return (struct.pack(">I", len(data)) + kind + data
            + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))


def palette_png(pixels):
    """PNG bytes of (height, width, 3) uint8 pixels in at most 256 colours, Pillow's fast
    octree palette: an antialiased plot's few hundred colours become 256, each pixel within
    a few levels of its own (14's dashboard: 322 colours, at most 14 of 255 off, on edges).

    >>> Image.open(io.BytesIO(palette_png(np.zeros((2, 3, 3), np.uint8)))).mode
    'P'
    """
    image = Image.fromarray(pixels).quantize(256, method=Image.Quantize.FASTOCTREE)
    buffer = io.BytesIO()
    image.save(buffer, "PNG", compress_level=1)
    return buffer.getvalue()


def encode_png(pixels, level=1):
    """PNG bytes of an (height, width, 3 or 4) uint8 image: rows unfiltered, zlib at ``level``.

    >>> encode_png(np.zeros((2, 3, 4), np.uint8))[:8]
    b'\\x89PNG\\r\\n\\x1a\\n'
    """
    height, width, channels = pixels.shape
    rows = np.empty((height, 1 + channels * width), np.uint8)
    rows[:, 0] = 0  # filter type 0 ("none") at the start of every row
    rows[:, 1:].reshape(height, width, channels)[...] = pixels  # a view of rows: one copy
    header = struct.pack(">IIBBBBB", width, height, 8, {3: 2, 4: 6}[channels], 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + _png_chunk(b"IHDR", header)
            + _png_chunk(b"IDAT", zlib.compress(memoryview(rows), level))
            + _png_chunk(b"IEND", b""))
