"""Dashboard of notebook 08: a d_k slider; raw scores q·k spread out as d_k grows while the
scores ÷ √d_k keep a spread of about 1; softmax saturates on raw scores, and the gradient that
reaches q starves under ÷ d_k."""

import ipywidgets as widgets

from ..plots.style import course_style, detached_figure
from ..plots.variance import D_K_CHOICES, PANELS, draw_dk_panels, update_dk_panels
from ..saturation import spread_statistics
from ..text import fmt
from .base import Dashboard

__all__ = ["READOUT_CLASS", "dk_callback", "dk_dashboard", "dk_figure", "dk_readout"]

READOUT_CLASS = "course-readout"  # the CSS class a browser test finds the readout by
_SCALINGS = (("raw", "raw"), ("scaled", "÷√d_k"), ("over", "÷d_k"))


def dk_readout(stats):
    """The readout line for one :func:`course_lib.saturation.spread_statistics` result: for
    raw, ÷ √d_k and ÷ d_k scores, the variance, the share of one-hot rows and the median
    gradient reaching q."""
    def three(key, show):
        return ", ".join(f"{label} {show(stats[key][name])}" for name, label in _SCALINGS)

    return (f"d_k = {stats['d_k']} · variance: {three('variance', lambda v: f'{v:.3g}')} · "
            f"one-hot rows: {three('saturated', lambda v: fmt(100 * v, 0) + '%')} · "
            f"gradient to q: {three('gradient', lambda v: fmt(v, 3))}")


def dk_callback(artists, d_k):
    """Look up (or compute) the statistics for ``d_k``, move the panels, return the readout."""
    table = artists["table"]
    if d_k not in table:
        table[d_k] = spread_statistics(d_k)
    stats = table[d_k]
    update_dk_panels(artists, stats)
    return dk_readout(stats)


def dk_figure(d_k=16):
    """The dashboard's figure at one setting: ``(figure, artists)``."""
    with course_style():
        fig = detached_figure((10.4, 8.4))
        artists = draw_dk_panels(d_k, fig=fig)
    return fig, artists


def _moving(artists):
    # only these change at a slider move; the curves and axes stay in the kept background
    moving = {"raw": artists["raw"]["bars"], "scaled": artists["scaled"]["bars"]}
    for key, *_ in PANELS:
        moving[key] = [artists[key]["marker"], *artists[key]["dots"].values()]
    return moving


def dk_dashboard(d_k=16):
    """A d_k slider (1 to 512) above the raw and scaled histograms and the five curves
    against d_k; the readout (CSS class ``course-readout``) gives the numbers."""
    fig, artists = dk_figure(d_k)
    slider = widgets.SelectionSlider(options=D_K_CHOICES, value=d_k,
                                     description="d_k: slots per query and key",
                                     continuous_update=True,
                                     style={"description_width": "14em"},
                                     layout={"width": "34em"})
    dash = Dashboard(fig, {"d_k": slider}, lambda d_k: dk_callback(artists, d_k),
                     description="[d_k dashboard: move d_k (1 to 512), see raw and scaled "
                     "scores spread. Run the notebook to use it.]",
                     artists=_moving(artists), keep_frames=True)  # 10 values of d_k
    dash.readout.add_class(READOUT_CLASS)
    dash.all_artists = artists
    return dash
