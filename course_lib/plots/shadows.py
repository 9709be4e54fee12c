"""Where cos θ comes from: the unit circle, and the shadow of k on q laid along the x-axis."""

import matplotlib.pyplot as plt
from matplotlib.patches import Arc, Circle

from .. import dot, norm
from ..backend import to_numpy
from ..geometry import from_polar
from ..shadows import shadow, shadow_length
from ..text import fmt
from .style import MUTED, PALETTE, ROLE_COLORS
from .vectors import draw_vector, set_square_view, update_vector

__all__ = ["draw_shadow", "draw_unit_circle", "update_shadow", "update_unit_circle"]


def _arrows_on_x_axis(length_q, length_k, angle):
    # q lies along the x-axis; k is turned `angle` degrees from it
    return to_numpy(from_polar(length_q, 0.0)), to_numpy(from_polar(length_k, angle))


def draw_unit_circle(angle, ax=None):
    """The circle of radius 1 and the arrow at ``angle`` degrees on it: cos θ is how far
    across (along the x-axis) the arrow's tip is.

    Returns
    -------
    dict of artists; pass it to :func:`update_unit_circle`.
    """
    ax = plt.gca() if ax is None else ax
    set_square_view(ax, 1.35)
    ax.add_patch(Circle((0, 0), 1.0, fill=False, color=MUTED, lw=1.5, ls="--"))
    ax.set_xlabel("across (x)")
    ax.set_ylabel("up (y)")
    artists = {
        "across": ax.plot([], [], color=ROLE_COLORS["highlight"], lw=7, alpha=0.7,
                          solid_capstyle="butt")[0],
        "drop": ax.plot([], [], "--", color=ROLE_COLORS["highlight"], lw=1.5)[0],
        "arc": ax.add_patch(Arc((0, 0), 0.5, 0.5, theta1=0, theta2=0, color=PALETTE["black"])),
        "arrow": draw_vector(from_polar(1.0, angle), ax=ax, color=ROLE_COLORS["key"]),
        "theta": ax.text(0, 0, "θ", fontsize=12, ha="center", va="center"),
        "cos_label": ax.text(0, -0.12, "", ha="center", va="top", fontsize=12,
                             color=PALETTE["black"]),
        "title": ax.set_title(""),
    }
    update_unit_circle(artists, angle)
    return artists


def update_unit_circle(artists, angle):
    """Turn the arrow of :func:`draw_unit_circle` to ``angle`` degrees (in place)."""
    tip = to_numpy(from_polar(1.0, angle))  # [cos θ, sin θ]
    update_vector(artists["arrow"], tip)
    artists["across"].set_data([0, tip[0]], [0, 0])
    artists["drop"].set_data([tip[0], tip[0]], [tip[1], 0])
    artists["arc"].theta2 = float(angle)
    artists["theta"].set_position(to_numpy(from_polar(0.38, angle / 2)))  # inside the arc
    artists["cos_label"].set_position((tip[0] / 2, -0.08))
    artists["cos_label"].set_text(f"cos θ = {fmt(tip[0], 2)}")
    artists["title"].set_text(f"radius 1, θ = {fmt(angle, 0)}°: the tip is cos θ across")


def draw_shadow(length_q, length_k, angle, ax=None, limit=4.0):
    """q along the x-axis, k turned ``angle`` degrees from it, the triangle's third side q − k
    (dotted), and k's shadow on q's line: ∥k∥cos θ long, so q·k = ∥q∥ × (∥k∥cos θ).

    Returns
    -------
    dict of artists; pass it to :func:`update_shadow`.
    """
    ax = plt.gca() if ax is None else ax
    set_square_view(ax, limit)
    ax.set_xlabel("slot 1 (q lies along this axis)")
    ax.set_ylabel("slot 2")
    q, k = _arrows_on_x_axis(length_q, length_k, angle)
    artists = {
        "shadow": ax.plot([], [], color=ROLE_COLORS["highlight"], lw=7, alpha=0.7,
                          solid_capstyle="butt", zorder=2)[0],
        "drop": ax.plot([], [], "--", color=ROLE_COLORS["highlight"], lw=1.5)[0],
        "arc": ax.add_patch(Arc((0, 0), 1.2, 1.2, theta1=0, theta2=0, color=PALETTE["black"])),
        "theta": ax.text(0, 0, "θ", fontsize=12, ha="center", va="center"),
        "q": draw_vector(q, ax=ax, color=ROLE_COLORS["query"], label="q"),
        "k": draw_vector(k, ax=ax, color=ROLE_COLORS["key"], label="k"),
        "shadow_label": ax.text(0, -0.25, "", ha="center", va="top", fontsize=12),
        # the triangle's third side, from k's tip to q's tip: the arrow q − k
        "side": ax.plot([], [], ":", color=ROLE_COLORS["other"], lw=2.5, zorder=1)[0],
        "side_label": ax.text(0, 0, "q − k", fontsize=12, ha="left", va="bottom",
                              color=ROLE_COLORS["other"]),
        "title": ax.set_title(""),
    }
    update_shadow(artists, length_q, length_k, angle)
    return artists


def update_shadow(artists, length_q, length_k, angle):
    """Move the arrows and the shadow of :func:`draw_shadow` (in place)."""
    q, k = _arrows_on_x_axis(length_q, length_k, angle)
    foot = to_numpy(shadow(k, onto=q))  # [∥k∥cos θ, 0]
    update_vector(artists["q"], q)
    update_vector(artists["k"], k)
    artists["shadow"].set_data([0, foot[0]], [0, 0])
    artists["arc"].theta2 = float(angle)
    artists["theta"].set_position(to_numpy(from_polar(0.85, angle / 2)))  # inside the arc
    artists["drop"].set_data([k[0], foot[0]], [k[1], 0])
    artists["shadow_label"].set_position((foot[0] / 2, -0.25))
    artists["side"].set_data([k[0], q[0]], [k[1], q[1]])
    artists["side_label"].set_position(((k[0] + q[0]) / 2 + 0.1, (k[1] + q[1]) / 2 + 0.1))
    artists["shadow_label"].set_text(f"shadow ∥k∥cos θ = {fmt(shadow_length(k, onto=q), 2)}")
    artists["title"].set_text(f"q·k = ∥q∥ × shadow = {fmt(norm(q), 2)} × "
                              f"{fmt(shadow_length(k, onto=q), 2)} = {fmt(dot(q, k), 2)}")
