"""Dashboard of notebook 04: angle and length sliders for two arrows; the similarity meter
and the two ways of computing q·k, shown side by side."""

from .. import cosine_similarity, dot, norm
from ..geometry import angle_between, dot_from_angle, from_polar
from ..plots.dot_product import draw_dot_panels, update_dot_panels
from ..plots.notation import fmt
from ..plots.style import course_style, detached_figure
from .base import Dashboard, float_slider

__all__ = ["Q_DIRECTION", "dot_callback", "dot_dashboard", "dot_figure", "dot_vectors"]

Q_DIRECTION = 20.0  # degrees: q points a little above "right"; k is θ further round


def dot_vectors(angle, length_q, length_k):
    """The two arrows the dashboard shows: q along Q_DIRECTION, k at ``angle`` degrees from q."""
    q = from_polar(length_q, Q_DIRECTION)
    k = from_polar(length_k, Q_DIRECTION + angle)
    return q, k


def dot_callback(artists, angle, length_q, length_k):
    """Move both arrows and the meter; return q·k next to ∥q∥∥k∥cos θ."""
    q, k = dot_vectors(angle, length_q, length_k)
    value = float(dot(q, k))  # Σ qᵢkᵢ, slot by slot
    q_len, k_len = float(norm(q)), float(norm(k))
    theta = float(angle_between(q, k))
    geometric = float(dot_from_angle(q_len, k_len, theta))  # ∥q∥∥k∥cos θ
    cosine = float(cosine_similarity(q, k))
    update_dot_panels(artists, q, k)
    return (f"θ = {fmt(theta, 0)}°:  q·k = q₁k₁ + q₂k₂ = {fmt(value, 3)}   and   "
            f"∥q∥∥k∥cos θ = {fmt(q_len, 2)} × {fmt(k_len, 2)} × {fmt(cosine, 3)} "
            f"= {fmt(geometric, 3)}")


def dot_figure(angle=60.0, length_q=2.0, length_k=3.0):
    """The dashboard's figure at one setting: ``(figure, artists)``."""
    with course_style():
        fig = detached_figure((9.6, 4.8))
        artists = draw_dot_panels(*dot_vectors(angle, length_q, length_k), fig=fig)
    return fig, artists


def dot_dashboard(angle=60.0, length_q=2.0, length_k=3.0):
    """Sliders for the angle between q and k and for their lengths, beside the two arrows
    and the similarity meter."""
    fig, artists = dot_figure(angle, length_q, length_k)
    controls = {
        "angle": float_slider("θ: angle from q to k (degrees)", angle, 0.0, 180.0, 5.0, ".0f"),
        "length_q": float_slider("∥q∥: length of q (grid steps)", length_q, 0.5, 4.0, 0.25, ".2f"),
        "length_k": float_slider("∥k∥: length of k (grid steps)", length_k, 0.5, 4.0, 0.25, ".2f"),
    }
    return Dashboard(fig, controls,
                     lambda angle, length_q, length_k: dot_callback(artists, angle, length_q,
                                                                    length_k),
                     description=("[Dot-product dashboard: angle and length sliders move q and k. "
                                  "Run the notebook to use it.]"),
                     artists=artists)
