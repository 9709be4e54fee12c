"""Text drawn as glyph outlines: many labels in one artist, redrawn in one call.

matplotlib lays out every :class:`~matplotlib.text.Text` again each time it is drawn, about a
millisecond apiece; a dashboard grid with fifty numbers would spend most of a slider move on
that. Here each string's outline is made once (and cached), and all of them are drawn as one
:class:`~matplotlib.collections.PathCollection`.
"""

import functools

import matplotlib as mpl
import numpy as np
from matplotlib.collections import PathCollection
from matplotlib.font_manager import FontProperties
from matplotlib.path import Path
from matplotlib.textpath import TextPath
from matplotlib.transforms import Affine2D

__all__ = ["OutlineTitle", "TextOutlines"]


_BLANK = Path(np.zeros((1, 2)))  # the outline of "": nothing to draw


@functools.lru_cache(maxsize=4096)
def _outline(text, fontsize, va):
    """The glyph outline of ``text`` in points, centred horizontally on x = 0; kept per string.

    Lines (split at newlines) are centred one under the other. ``va`` puts y = 0 at the
    middle of the block of lines (``"center"``, digits' height), at the top of its first line
    (``"top"``) or on the first line's baseline (``"baseline"``).
    """
    if not text:
        return _BLANK
    font = FontProperties(size=fontsize)
    step = 1.2 * fontsize  # baseline to baseline
    parts = []
    for k, line in enumerate(text.split("\n")):
        path = TextPath((0, 0), line, prop=font)
        if len(path.vertices):
            left, _, right, _ = path.get_extents().extents
            parts.append(Affine2D().translate(-(left + right) / 2, -k * step).transform_path(path))
    if not parts:
        return _BLANK
    digit = TextPath((0, 0), "0", prop=font).get_extents()
    last = (len(text.split("\n")) - 1) * step
    shift = {"center": -(digit.y1 + digit.y0 - last) / 2,
             "top": -TextPath((0, 0), "lp", prop=font).get_extents().y1,
             "baseline": 0.0}[va]
    return Affine2D().translate(0, shift).transform_path(Path.make_compound_path(*parts))


class TextOutlines(PathCollection):
    """Short texts drawn as the outlines of their glyphs, all in one collection.

    Matplotlib lays out and rasterises every :class:`~matplotlib.text.Text` at each draw,
    about a millisecond each; a dashboard that rewrites many texts at every slider move is
    faster with their outlines (a :class:`~matplotlib.textpath.TextPath`, made once per
    distinct string and kept), which look the same and are drawn in one call.

    Each text is centred horizontally on its position; ``positions`` are in
    ``offset_transform``'s coordinates (data coordinates by default), sizes in points.
    ``texts`` holds the strings shown ("" shows nothing).

    >>> from course_lib.plots.style import detached_figure
    >>> labels = TextOutlines(detached_figure((2, 1)).add_subplot(), [(0, 0), (1, 0)])
    >>> labels.set_texts(["0.25", ""], ["black", "black"])
    >>> labels.get_text(0), len(labels.get_paths()[0].vertices) > 10
    ('0.25', True)
    """

    def __init__(self, ax, positions, fontsize=10, va="center", offset_transform=None,
                 zorder=3):
        self._fontsize, self._va = fontsize, va
        self.texts = [""] * len(positions)
        points = Affine2D().scale(1 / 72) + ax.figure.dpi_scale_trans  # path units: points
        super().__init__([_BLANK] * len(positions), offsets=positions,
                         offset_transform=ax.transData if offset_transform is None
                         else offset_transform,
                         transform=points, edgecolors="none", linewidths=0, zorder=zorder)
        ax.add_collection(self, autolim=False)
        self.set_clip_on(False)  # as a Text: may stand outside the axes (a title)

    def set_texts(self, texts, colors, positions=None):
        """Show ``texts[k]`` in ``colors[k]`` (anything ``to_rgba`` reads) at ``positions[k]``
        (unchanged when None)."""
        self.texts = list(texts)
        self.set_paths([_outline(text, self._fontsize, self._va) for text in self.texts])
        self.set_facecolor(list(colors))
        if positions is not None:
            self.set_offsets(positions)
        self.stale = True

    def get_text(self, k=0):
        """The string shown by text ``k``."""
        return self.texts[k]


class OutlineTitle(TextOutlines):
    """An axes title drawn as glyph outlines, at the place matplotlib gives the real title.

    The axes' own title keeps the same text in a fully transparent colour: it still reserves
    its room in the layout and finds its height above the top tick labels when the still
    background is drawn; this outline is then drawn there, quickly, at every move.
    """

    def __init__(self, ax, text, color=None, pad=12):
        self._title = ax.set_title(text, pad=pad, color=(0, 0, 0, 0))
        super().__init__(ax, [self._title.get_position()], fontsize=self._title.get_fontsize(),
                         va="baseline", offset_transform=self._title.get_transform())
        self._color = mpl.rcParams["axes.titlecolor"] if color is None else color
        if self._color == "auto":
            self._color = mpl.rcParams["text.color"]
        self.set_text(text)

    def set_text(self, text, color=None):
        """Show ``text`` (in ``color``, or the colour it had)."""
        self._color = self._color if color is None else color
        self._title.set_text(text)
        self.set_texts([text], [self._color])

    def draw(self, renderer):
        self.set_offsets([self._title.get_position()])  # placed when the axes were drawn
        super().draw(renderer)
