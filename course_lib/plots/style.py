"""Colours, fonts and figure helpers shared by every picture in the course.

Nothing here runs at import time: a notebook opts in with ``with course_style(): ...``.
Figures get an opaque light background, so they read the same in JupyterLab's light and
dark themes (a transparent figure would put black axis labels on a dark page).
"""

import io
import struct
import zlib
from contextlib import contextmanager

import matplotlib as mpl
import numpy as np
from matplotlib.artist import Artist
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

__all__ = [
    "BACKGROUND",
    "FOREGROUND",
    "FastRenderer",
    "GRID",
    "MUTED",
    "PALETTE",
    "ROLE_COLORS",
    "course_rc",
    "course_style",
    "detached_figure",
    "encode_png",
    "figure_png",
    "moving_artists",
]

# Okabe & Ito's palette: distinguishable with every common kind of colour blindness.
PALETTE = {
    "black": "#000000",
    "orange": "#E69F00",
    "sky_blue": "#56B4E9",
    "green": "#009E73",
    "yellow": "#F0E442",
    "blue": "#0072B2",
    "vermillion": "#D55E00",
    "purple": "#CC79A7",
}

# One colour per role, the same in every notebook: a query is always blue, a key vermillion.
ROLE_COLORS = {
    "query": PALETTE["blue"],
    "key": PALETTE["vermillion"],
    "value": PALETTE["green"],
    "highlight": PALETTE["orange"],
    "other": PALETTE["purple"],
}

BACKGROUND = "#ffffff"  # opaque, so a dark theme cannot show through
FOREGROUND = "#1b1b1b"  # text, spines and ticks: near-black on white
GRID = "#d9d9d9"
MUTED = "#8c8c8c"  # de-emphasised elements (unused slots, guide lines)


def course_rc():
    """The matplotlib settings of the course's look, as a dict for ``rc_context``.

    >>> course_rc()["figure.facecolor"]
    '#ffffff'
    """
    return {
        "figure.facecolor": BACKGROUND,
        "axes.facecolor": BACKGROUND,
        "savefig.facecolor": BACKGROUND,
        "savefig.transparent": False,
        "text.color": FOREGROUND,
        "axes.labelcolor": FOREGROUND,
        "axes.edgecolor": FOREGROUND,
        "xtick.color": FOREGROUND,
        "ytick.color": FOREGROUND,
        "axes.titlesize": 13,
        "axes.labelsize": 12,
        "xtick.labelsize": 11,
        "ytick.labelsize": 11,
        "legend.fontsize": 11,
        "font.size": 12,
        "axes.grid": True,
        "grid.color": GRID,
        "grid.linewidth": 0.8,
        "axes.axisbelow": True,
        "axes.spines.top": False,
        "axes.spines.right": False,
        "axes.prop_cycle": mpl.cycler(color=[PALETTE[c] for c in (
            "blue", "vermillion", "green", "orange", "purple", "sky_blue", "black")]),
        "figure.dpi": 100,
        "savefig.dpi": 100,
    }


@contextmanager
def course_style():
    """Draw inside this block to get the course's look; settings are restored afterwards.

    >>> import matplotlib as mpl
    >>> with course_style():
    ...     mpl.rcParams["axes.facecolor"]
    '#ffffff'
    """
    with mpl.rc_context(course_rc()):
        yield


def detached_figure(figsize=(6.4, 4.0), **kwargs):
    """A figure that pyplot does not know about, so a notebook never shows it by itself.

    Dashboards draw into such a figure and send it to the browser as a PNG; a figure made
    with ``plt.subplots`` would also be printed below the cell by the inline backend.
    Call it inside ``course_style()`` to get the course's colours.

    >>> fig = detached_figure((2, 1))
    >>> fig.get_size_inches().tolist()
    [2.0, 1.0]
    """
    fig = Figure(figsize=figsize, **kwargs)
    FigureCanvasAgg(fig)
    return fig


def figure_png(fig):
    """Render ``fig`` to PNG bytes, quickly: light zlib compression (level 1) is several times
    faster to encode than the default and only a little larger, which matters at every slider
    move.

    >>> figure_png(detached_figure((1, 1)))[:8]
    b'\\x89PNG\\r\\n\\x1a\\n'
    """
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", facecolor=fig.get_facecolor(),
                pil_kwargs={"compress_level": 1})
    return buffer.getvalue()


def moving_artists(artists):
    """Every matplotlib artist inside a (nested) dict, list or container, in order.

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
