"""Dashboard of notebook 07, the saturation dashboard: a slider multiplies a row of attention
scores by a factor; the weights go one-hot and softmax's sensitivity ∥J∥ collapses to zero."""

from ..plots.softmax import draw_saturation_panels, update_saturation_panels
from ..plots.style import course_style, detached_figure
from ..saturation import softmax_sensitivity
from ..text import fmt
from .base import Dashboard, float_slider

__all__ = [
    "MAX_FACTOR",
    "SATURATION_SCORES",
    "readout_text",
    "saturation_callback",
    "saturation_dashboard",
    "saturation_figure",
]

SATURATION_SCORES = (1.0, 2.5, -0.5, 0.3, 1.8, -1.2)  # one query's scores against m = 6 keys
MAX_FACTOR = 10.0


def readout_text(factor, max_weight, size):
    """The readout line, e.g. 'factor 2.00 × scores: max weight = 0.818 · softmax sensitivity
    ∥J∥ = 0.3165'. A browser test reads these three numbers back."""
    return (f"factor {fmt(factor, 2)} × scores: max weight = {fmt(max_weight, 3)} · "
            f"softmax sensitivity ∥J∥ = {fmt(size, 4)}")


def saturation_callback(artists, factor):
    """Softmax of factor × scores, its Jacobian J and the sensitivity ∥J∥ from the math
    (:func:`course_lib.saturation.softmax_sensitivity`); move the three panels and return the
    readout."""
    weights, jacobian, size = softmax_sensitivity(artists["scores"], factor)
    update_saturation_panels(artists, factor, weights, jacobian, size)
    return readout_text(factor, float(weights.max()), size)


def saturation_figure(factor=1.0):
    """The dashboard's figure at one setting: ``(figure, artists)``."""
    with course_style():
        fig = detached_figure((12.0, 4.3))
        artists = draw_saturation_panels(SATURATION_SCORES, factor, MAX_FACTOR, fig=fig)
    return fig, artists


def saturation_dashboard(factor=1.0):
    """A factor slider (the first control) over the weights, the Jacobian grid and the
    Jacobian norm against the factor. The readout widget carries the CSS class
    ``course-readout`` so that a browser test can find it."""
    fig, artists = saturation_figure(factor)
    controls = {
        "factor": float_slider("factor: multiplies every score (×)", factor, 0.0, MAX_FACTOR,
                               0.25, ".2f"),
    }
    dash = Dashboard(fig, controls, lambda factor: saturation_callback(artists, factor),
                     description=("[Saturation dashboard: a factor slider scales the scores; "
                                  "weights go one-hot. Run the notebook to use it.]"),
                     artists=artists["moving"], keep_frames=True)  # 41 factors, ~50 kB each
    dash.panels = artists  # every artist of the figure, for tests and the curious
    dash.readout.add_class("course-readout")
    return dash
