"""Pictures of a vector's length: the Pythagoras triangle and the squares on its three sides."""

import matplotlib.pyplot as plt
from matplotlib.patches import Circle, Polygon

from .. import norm
from ..backend import to_numpy
from ..text import fmt, short
from .notation import bracketed
from .style import MUTED, PALETTE, ROLE_COLORS
from .vectors import draw_vector, set_square_view, update_vector

__all__ = ["draw_pythagoras", "update_pythagoras"]


def _square_on_x(q1, q2):
    # the square on the horizontal leg, on the side of the x-axis away from the triangle
    side = -abs(q1) if q2 >= 0 else abs(q1)
    return [(0, 0), (q1, 0), (q1, side), (0, side)]


def _square_on_y(q1, q2):
    # the square on the vertical leg, on the far side of the leg from the origin
    out = abs(q2) if q1 >= 0 else -abs(q2)
    return [(q1, 0), (q1, q2), (q1 + out, q2), (q1 + out, 0)]


def _square_on_q(q1, q2):
    # the square on the long side (the arrow q), on the side of q away from the right angle
    n1, n2 = (-q2, q1) if q1 * q2 >= 0 else (q2, -q1)  # q turned a quarter turn
    return [(0, 0), (q1, q2), (q1 + n1, q2 + n2), (n1, n2)]


def draw_pythagoras(q, ax=None, limit=6.0):
    """The length of q = [q₁, q₂] as the long side of a right triangle.

    The legs are q₁ (across) and q₂ (up); the squares on them have areas q₁² and q₂²;
    the square on the long side, the arrow itself, has area ∥q∥² = q₁² + q₂² (Pythagoras),
    so the arrow's length is ∥q∥ = √(q₁² + q₂²), computed by :func:`course_lib.norm`. A
    dashed circle marks every arrow with that same length.

    Returns
    -------
    dict of artists; pass it to :func:`update_pythagoras`.
    """
    ax = plt.gca() if ax is None else ax
    set_square_view(ax, limit)
    ax.set_xlabel("q₁ (steps right)")
    ax.set_ylabel("q₂ (steps up)")
    q1, q2 = (float(v) for v in to_numpy(q))
    artists = {
        "square_x": ax.add_patch(Polygon(_square_on_x(q1, q2), closed=True, alpha=0.25,
                                         color=PALETTE["sky_blue"], zorder=2)),
        "square_y": ax.add_patch(Polygon(_square_on_y(q1, q2), closed=True, alpha=0.25,
                                         color=PALETTE["orange"], zorder=2)),
        "square_q": ax.add_patch(Polygon(_square_on_q(q1, q2), closed=True, alpha=0.2,
                                         color=PALETTE["purple"], zorder=2)),
        "circle": ax.add_patch(Circle((0, 0), 1.0, fill=False, ls="--", color=MUTED, zorder=2)),
    }
    (artists["leg_x"],) = ax.plot([0, q1], [0, 0], color=PALETTE["sky_blue"], lw=3, zorder=3)
    (artists["leg_y"],) = ax.plot([q1, q1], [0, q2], color=PALETTE["orange"], lw=3, zorder=3)
    artists["q"] = draw_vector((q1, q2), ax=ax, color=ROLE_COLORS["query"], label="q")
    artists["area_x"] = ax.text(0, 0, "", ha="center", va="center", fontsize=11)
    artists["area_y"] = ax.text(0, 0, "", ha="center", va="center", fontsize=11)
    artists["area_q"] = ax.text(0, 0, "", ha="center", va="center", fontsize=11)
    artists["title"] = ax.set_title("")
    update_pythagoras(artists, (q1, q2))
    return artists


def update_pythagoras(artists, q):
    """Move the triangle, squares, circle and labels of :func:`draw_pythagoras` to a new q."""
    q1, q2 = (float(v) for v in to_numpy(q))
    length = float(norm([q1, q2]))
    artists["square_x"].set_xy(_square_on_x(q1, q2))
    artists["square_y"].set_xy(_square_on_y(q1, q2))
    artists["square_q"].set_xy(_square_on_q(q1, q2))
    artists["circle"].set_radius(max(length, 1e-9))
    artists["leg_x"].set_data([0, q1], [0, 0])
    artists["leg_y"].set_data([q1, q1], [0, q2])
    update_vector(artists["q"], (q1, q2))
    side_x = _square_on_x(q1, q2)[2][1]
    out_y = _square_on_y(q1, q2)[2][0]
    artists["area_x"].set_position((q1 / 2, side_x / 2))
    artists["area_x"].set_text(f"q₁² = {short(q1 * q1)}" if abs(q1) > 1e-9 else "")
    artists["area_y"].set_position(((q1 + out_y) / 2, q2 / 2))
    artists["area_y"].set_text(f"q₂² = {short(q2 * q2)}" if abs(q2) > 1e-9 else "")
    far_corner = _square_on_q(q1, q2)[2]
    artists["area_q"].set_position((far_corner[0] / 2, far_corner[1] / 2))  # the centre
    artists["area_q"].set_text(f"∥q∥² = {short(length * length)}" if length > 1e-9 else "")
    artists["title"].set_text(
        f"∥q∥ = √({bracketed(q1, 1)}² + {bracketed(q2, 1)}²) = {fmt(length, 3)}")
