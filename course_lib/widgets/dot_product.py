"""Dashboard of notebook 04: angle and length sliders for two arrows; the shadow of k on q,
the raw score q·k on a fixed meter, and the two ways of computing q·k side by side."""

from .. import dot
from ..geometry import dot_from_angle, from_polar
from ..plots.dot_product import draw_dot_panels, update_dot_panels
from ..plots.notation import bracketed
from ..plots.style import course_style, detached_figure
from ..text import fmt
from .base import Dashboard, float_slider

__all__ = ["MAX_LENGTH", "Q_DIRECTION", "dot_callback", "dot_dashboard", "dot_figure",
           "dot_vectors"]

Q_DIRECTION = 20.0  # degrees: q points a little above "right"; k is θ further round
MAX_LENGTH = 4.0  # the length sliders' top: the meter's fixed scale is MAX_LENGTH² = 16


def dot_vectors(angle, length_q, length_k):
    """The two arrows the dashboard shows: q along Q_DIRECTION, k at ``angle`` degrees from q."""
    q = from_polar(length_q, Q_DIRECTION)
    k = from_polar(length_k, Q_DIRECTION + angle)
    return q, k


def dot_callback(artists, angle, length_q, length_k):
    """Move both arrows, the shadow and the meter; return q·k added up slot by slot next to
    ∥q∥∥k∥cos θ computed from the sliders' own lengths and angle (an independent check)."""
    q, k = dot_vectors(angle, length_q, length_k)
    value = float(dot(q, k))  # Σ qᵢkᵢ, slot by slot
    cosine = float(from_polar(1.0, angle)[0])  # cos θ: across-distance of θ on the unit circle
    geometric = float(dot_from_angle(length_q, length_k, angle))  # ∥q∥∥k∥cos θ
    update_dot_panels(artists, q, k)
    return (f"θ = {fmt(angle, 0)}° (slider):  q·k = q₁k₁ + q₂k₂ = {fmt(value, 3)}   and   "
            f"∥q∥∥k∥cos θ = {fmt(length_q, 2)} × {fmt(length_k, 2)} × {bracketed(cosine, 3)} "
            f"= {fmt(geometric, 3)}")


def dot_figure(angle=60.0, length_q=2.0, length_k=3.0):
    """The dashboard's figure at one setting: ``(figure, artists)``."""
    with course_style():
        fig = detached_figure((9.6, 4.8))
        artists = draw_dot_panels(*dot_vectors(angle, length_q, length_k), fig=fig,
                                  meter_scale=MAX_LENGTH * MAX_LENGTH)
    return fig, artists


def dot_dashboard(angle=60.0, length_q=2.0, length_k=3.0):
    """Sliders for the angle between q and k and for their lengths, beside the two arrows
    and the similarity meter."""
    fig, artists = dot_figure(angle, length_q, length_k)
    controls = {
        "angle": float_slider("θ: angle from q to k (degrees)", angle, 0.0, 180.0, 5.0, ".0f"),
        "length_q": float_slider("∥q∥: length of q (grid steps)", length_q, 0.5, MAX_LENGTH, 0.25,
                                 ".2f"),
        "length_k": float_slider("∥k∥: length of k (grid steps)", length_k, 0.5, MAX_LENGTH, 0.25,
                                 ".2f"),
    }
    return Dashboard(fig, controls,
                     lambda angle, length_q, length_k: dot_callback(artists, angle, length_q,
                                                                    length_k),
                     description=("[Dot-product dashboard: angle and length sliders move q and k. "
                                  "Run the notebook to use it.]"),
                     artists=artists)
