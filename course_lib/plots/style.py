"""Colours, fonts and figure helpers shared by every picture in the course.

Nothing here runs at import time: a notebook opts in with ``with course_style(): ...``.
Figures get an opaque light background, so they read the same in JupyterLab's light and
dark themes (a transparent figure would put black axis labels on a dark page).
"""

from contextlib import contextmanager

import matplotlib as mpl
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

__all__ = [
    "BACKGROUND",
    "FOREGROUND",
    "GRID",
    "MUTED",
    "PALETTE",
    "ROLE_COLORS",
    "course_rc",
    "course_style",
    "detached_figure",
    "label_point",
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


def label_point(ax, text, xy, offset=(6, 6), **kwargs):
    """Write ``text`` beside the point ``xy``, ``offset`` points away (right and up by
    default); keyword arguments go to ``ax.annotate`` (e.g. ``ha="right"``)."""
    return ax.annotate(text, xy, xytext=offset, textcoords="offset points", **kwargs)
