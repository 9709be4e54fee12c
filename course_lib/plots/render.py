"""Turning a figure into PNG bytes quickly, for dashboards that redraw at every slider move.

:func:`figure_png` renders a whole figure; :class:`FastRenderer` keeps the still parts as
pixels and redraws only the artists that move (blitting), encoding with :func:`encode_png`,
a small PNG writer faster than Pillow for plots.
"""

import io
import struct
import zlib

import numpy as np
from matplotlib.artist import Artist

__all__ = ["FastRenderer", "encode_png", "figure_png", "moving_artists"]


def figure_png(fig):
    """Render the whole of ``fig`` to PNG bytes, with light zlib compression (level 1):
    several times faster to encode than the default and only a little larger.

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
    >>> fig = detached_figure((1, 1))
    >>> line = fig.add_subplot().plot([0, 1])[0]
    >>> moving_artists({"a": {"b": [line]}, "data": [1.0, 2.0]}) == [line]
    True
    """
    found = []
    if isinstance(artists, Artist):
        found.append(artists)
    elif isinstance(artists, dict):
        for value in artists.values():
            found.extend(moving_artists(value))
    elif isinstance(artists, (list, tuple)):  # BarContainer is a tuple of patches
        for value in artists:
            found.extend(moving_artists(value))
    return found


class FastRenderer:
    """Render a figure to PNG quickly when only a few artists move (blitting).

    The still parts (axes, ticks, grid, labels) are drawn once and kept as a pixel buffer;
    each :meth:`render` pastes that buffer back, draws only the moving artists on top and
    encodes the pixels. Drawing the ticks and labels is most of matplotlib's time, so this
    is several times faster than a full redraw. Call :meth:`redraw_background` after
    changing anything that is not a moving artist (limits, tick labels).

    Parameters
    ----------
    figure : a figure with an Agg canvas (see :func:`detached_figure`).
    artists : the artists that move (any nesting of dicts/lists, see :func:`moving_artists`).
    """

    def __init__(self, figure, artists):
        self.figure = figure
        self.moving = moving_artists(artists)
        for artist in self.moving:
            artist.set_animated(True)  # left out of the background, drawn by render()
        self.redraw_background()

    def redraw_background(self):
        """Draw the still parts of the figure and keep their pixels."""
        canvas = self.figure.canvas
        canvas.draw()
        self._background = canvas.copy_from_bbox(self.figure.bbox)

    def render(self):
        """PNG bytes of the figure with the moving artists as they are now."""
        canvas = self.figure.canvas
        canvas.restore_region(self._background)
        renderer = canvas.get_renderer()
        for artist in self.moving:
            if artist.get_visible():
                artist.draw(renderer)
        return encode_png(np.asarray(canvas.buffer_rgba()))


def _png_chunk(kind, data):
    return (struct.pack(">I", len(data)) + kind + data
            + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))


def encode_png(pixels, level=1):
    """PNG bytes of an (height, width, 3 or 4) uint8 image (RGB or RGBA): every row
    unfiltered, then zlib at ``level``.

    Pillow tries a filter per row before compressing, which costs more than the compression
    itself; a plot is mostly flat colour, so unfiltered rows at zlib level 1 are about as
    small and twice as fast to make, which matters at every slider move. RGBA goes straight
    from matplotlib's buffer (one contiguous copy), faster than dropping the alpha channel.

    >>> import numpy as np
    >>> encode_png(np.zeros((2, 3, 4), np.uint8))[:8]
    b'\\x89PNG\\r\\n\\x1a\\n'
    """
    height, width, channels = pixels.shape
    rows = np.empty((height, 1 + channels * width), np.uint8)
    rows[:, 0] = 0  # filter type 0 ("none") at the start of every row
    rows[:, 1:] = pixels.reshape(height, channels * width)
    color_type = {3: 2, 4: 6}[channels]  # PNG's codes for RGB and RGBA
    header = struct.pack(">IIBBBBB", width, height, 8, color_type, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + _png_chunk(b"IHDR", header)
            + _png_chunk(b"IDAT", zlib.compress(memoryview(rows), level))
            + _png_chunk(b"IEND", b""))
