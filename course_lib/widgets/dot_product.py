"""Dashboard of notebook 04: angle and length sliders for two arrows; the similarity meter
and the two ways of computing q·k, shown side by side."""

from .. import cosine_similarity, dot, norm
from ..geometry import angle_between, dot_from_angle, from_polar
from ..plots.dot_product import (
    draw_dot_scene,
    draw_similarity_meter,
    draw_slot_products,
    update_dot_scene,
    update_similarity_meter,
    update_slot_products,
)
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
    update_dot_scene(artists["scene"], q, k)
    update_similarity_meter(artists["meter"], value, q_len * k_len)
    update_slot_products(artists["products"], q, k)
    return (f"θ = {fmt(theta, 0)}°:  q·k = q₁k₁ + q₂k₂ = {fmt(value, 3)}   and   "
            f"∥q∥∥k∥cos θ = {fmt(q_len, 2)} × {fmt(k_len, 2)} × {fmt(cosine, 3)} "
            f"= {fmt(geometric, 3)}")


def dot_figure(angle=60.0, length_q=2.0, length_k=3.0):
    """The dashboard's figure at one setting: ``(figure, artists)``."""
    with course_style():
        fig = detached_figure((9.6, 4.8))
        grid = fig.add_gridspec(2, 2, width_ratios=(1, 1.1), height_ratios=(1.3, 1))
        scene_ax = fig.add_subplot(grid[:, 0])
        products_ax = fig.add_subplot(grid[0, 1])
        meter_ax = fig.add_subplot(grid[1, 1])
        q, k = dot_vectors(angle, length_q, length_k)
        artists = {
            "scene": draw_dot_scene(q, k, ax=scene_ax, limit=4.2),
            "meter": draw_similarity_meter(float(dot(q, k)), float(norm(q) * norm(k)),
                                           ax=meter_ax),
            "products": draw_slot_products(q, k, ax=products_ax, limit=16.5),
        }
        products_ax.set_title("slot by slot: q·k = q₁k₁ + q₂k₂")
        meter_ax.set_title("similarity meter")
        fig.tight_layout()
    return fig, artists


def dot_dashboard(angle=60.0, length_q=2.0, length_k=3.0):
    """Sliders for the angle between q and k and for their lengths, beside the two arrows
    and the similarity meter."""
    fig, artists = dot_figure(angle, length_q, length_k)
    controls = {
        "angle": float_slider("θ: angle from q to k (degrees)", angle, 0.0, 180.0, 5.0, ".0f"),
        "length_q": float_slider("∥q∥: length of q", length_q, 0.5, 4.0, 0.25, ".2f"),
        "length_k": float_slider("∥k∥: length of k", length_k, 0.5, 4.0, 0.25, ".2f"),
    }
    return Dashboard(fig, controls,
                     lambda angle, length_q, length_k: dot_callback(artists, angle, length_q,
                                                                    length_k),
                     description="[Dot-product dashboard: sliders for the angle θ and the "
                     "lengths ∥q∥, ∥k∥ move the arrows and the similarity meter; run the notebook "
                     "to use it. The static picture below shows one setting.]",
                     artists=artists)
