"""Pictures of the dot product: two arrows, the angle between them and the shadow of k on
q, the products slot by slot, and a similarity meter of the raw score q·k on a fixed scale."""

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.patches import Arc

from .. import dot, norm
from ..backend import to_numpy
from ..geometry import angle_between, direction, from_polar
from ..shadows import shadow
from ..text import fmt
from .notation import subscript
from .style import MUTED, PALETTE, ROLE_COLORS
from .vectors import draw_vector, set_square_view, update_vector

__all__ = ["draw_dot_panels", "draw_dot_scene", "draw_similarity_meter", "draw_slot_products",
           "update_dot_panels", "update_dot_scene", "update_similarity_meter",
           "update_slot_products"]


def draw_dot_scene(q, k, ax=None, limit=4.0):
    """Arrows q and k from the origin, the angle θ between them marked by an arc, and the
    shadow of k on the line of q (dashed drop line from k's tip, thick shadow along q).

    Returns
    -------
    dict of artists; pass it to :func:`update_dot_scene`.
    """
    ax = plt.gca() if ax is None else ax
    set_square_view(ax, limit)
    ax.set_xlabel("slot 1")
    ax.set_ylabel("slot 2")
    artists = {
        "q_line": ax.plot([], [], ":", color=MUTED, lw=1.5, zorder=1)[0],
        "shadow": ax.plot([], [], color=ROLE_COLORS["highlight"], lw=7, alpha=0.6,
                          solid_capstyle="butt", zorder=2, label="shadow of k on q")[0],
        "drop": ax.plot([], [], "--", color=ROLE_COLORS["highlight"], lw=1.5, zorder=2)[0],
        "arc": ax.add_patch(Arc((0, 0), 1.6, 1.6, theta1=0, theta2=0, color=PALETTE["black"],
                                lw=1.5, zorder=2)),
        "theta": ax.text(0, 0, "θ", fontsize=13, ha="center", va="center"),
        "q": draw_vector(q, ax=ax, color=ROLE_COLORS["query"], label="q"),
        "k": draw_vector(k, ax=ax, color=ROLE_COLORS["key"], label="k"),
        "title": ax.set_title(""),
    }
    ax.legend(loc="lower left", fontsize=10)
    artists["limit"] = limit
    update_dot_scene(artists, q, k)
    return artists


def update_dot_scene(artists, q, k):
    """Move both arrows, the shadow and the angle arc of :func:`draw_dot_scene` (in place)."""
    q, k = to_numpy(q).astype(float), to_numpy(k).astype(float)
    update_vector(artists["q"], q)
    update_vector(artists["k"], k)
    far = to_numpy(from_polar(3 * artists["limit"], direction(q)))  # q's line, past the view
    artists["q_line"].set_data([-far[0], far[0]], [-far[1], far[1]])
    foot = to_numpy(shadow(k, onto=q))  # the point of q's line right below k's tip
    artists["shadow"].set_data([0, foot[0]], [0, foot[1]])
    artists["drop"].set_data([k[0], foot[0]], [k[1], foot[1]])
    start, end = float(direction(q)), float(direction(k))
    theta = float(angle_between(q, k))
    # draw the arc the short way round, from the smaller direction to the larger one
    if (end - start) % 360 > 180:
        start, end = end, start
    artists["arc"].theta1, artists["arc"].theta2 = start, end
    middle = np.deg2rad(start + ((end - start) % 360) / 2)
    artists["theta"].set_position((1.15 * np.cos(middle), 1.15 * np.sin(middle)))
    artists["title"].set_text(f"θ = {fmt(theta, 0)}°,  q·k = {fmt(dot(q, k), 2)}")


def draw_similarity_meter(value, reach, ax=None, scale=16.0):
    """The raw score q·k on a fixed scale from −scale to +scale: a marker at ``value``, and
    a grey bar for the reach −∥q∥∥k∥ … +∥q∥∥k∥ of arrows with these lengths. Longer arrows
    widen the reach and move the marker; the angle decides where inside the reach it sits.

    Returns
    -------
    dict of artists; pass it to :func:`update_similarity_meter`.
    """
    ax = plt.gca() if ax is None else ax
    ax.grid(False)
    ax.set_yticks([])
    ax.set_xlim(-1.05 * scale, 1.05 * scale)
    ax.set_ylim(0, 1)
    ax.axvspan(-scale, 0, color=PALETTE["vermillion"], alpha=0.15)
    ax.axvspan(0, scale, color=PALETTE["green"], alpha=0.15)
    ax.axvline(0, color=MUTED, lw=1)
    for x, text in ((-scale / 2, "negative:\npointing apart"),
                    (scale / 2, "positive:\npointing together")):
        ax.text(x, 0.78, text, ha="center", va="center", fontsize=10)
    ax.set_xticks(np.linspace(-scale, scale, 9))
    ax.set_xlabel("raw score q·k, fixed scale (grey bar: ±∥q∥∥k∥)")
    artists = {
        "reach": ax.plot([], [], color=MUTED, lw=9, alpha=0.6, solid_capstyle="butt")[0],
        "marker": ax.plot([0, 0], [0.05, 0.55], color=PALETTE["black"], lw=4)[0],
        "title": ax.set_title(""),
    }
    update_similarity_meter(artists, value, reach)
    return artists


def update_similarity_meter(artists, value, reach):
    """Move the meter's marker to ``value`` and its reach bar to ±reach (in place)."""
    value, reach = float(value), float(reach)
    artists["marker"].set_xdata([value, value])
    artists["reach"].set_data([-reach, reach], [0.3, 0.3])
    artists["title"].set_text(f"similarity meter: q·k = {fmt(value, 2)}, reach ±{fmt(reach, 1)}")


def _slot_products(q, k):
    # each slot's product qᵢkᵢ is the dot product of two one-slot lists
    return to_numpy(dot(to_numpy(q)[:, None], to_numpy(k)[:, None]))


def draw_slot_products(q, k, ax=None, limit=16.0):
    """Bars for the slot-by-slot products q₁k₁, q₂k₂, … and for their sum q·k.

    Returns
    -------
    dict with ``"bars"`` (one per slot, then the total) and ``"values"`` (each bar's number,
    written just beyond its end); pass it to :func:`update_slot_products`.
    """
    ax = plt.gca() if ax is None else ax
    count = len(to_numpy(q))
    labels = [f"q{subscript(i + 1)}k{subscript(i + 1)}" for i in range(count)] + ["q·k (sum)"]
    colors = [PALETTE["sky_blue"]] * count + [PALETTE["black"]]
    bars = ax.bar(range(count + 1), [0.0] * (count + 1), color=colors, width=0.6)
    ax.set_xticks(range(count + 1), labels=labels)
    ax.axhline(0, color=MUTED, lw=1)
    ax.set_ylim(-limit, limit)
    ax.set_ylabel("product")
    values = [ax.text(i, 0.0, "", ha="center", fontsize=10) for i in range(count + 1)]
    artists = {"bars": bars, "values": values, "pad": 0.04 * limit}
    update_slot_products(artists, q, k)
    return artists


def update_slot_products(artists, q, k):
    """Set the bars of :func:`draw_slot_products` to the products of q and k (in place)."""
    heights = [*_slot_products(q, k).tolist(), float(dot(q, k))]
    for bar, value, height in zip(artists["bars"], artists["values"], heights, strict=True):
        bar.set_height(height)
        # above a bar that rises, below one that falls
        value.set_y(height + artists["pad"] if height >= 0 else height - artists["pad"])
        value.set_va("bottom" if height >= 0 else "top")
        value.set_text(fmt(height, 2))


def draw_dot_panels(q, k, fig=None, limit=4.2, product_limit=16.5, meter_scale=16.0):
    """The dot-product picture in three panels: the two arrows and their angle (left), the
    slot-by-slot products (top right) and the similarity meter (bottom right).

    Returns
    -------
    dict with the artists of each panel (``"scene"``, ``"products"``, ``"meter"``); pass it
    to :func:`update_dot_panels`.
    """
    fig = plt.gcf() if fig is None else fig
    grid = fig.add_gridspec(2, 2, width_ratios=(1, 1.1), height_ratios=(1.3, 1))
    products_ax = fig.add_subplot(grid[0, 1])
    meter_ax = fig.add_subplot(grid[1, 1])
    artists = {
        "scene": draw_dot_scene(q, k, ax=fig.add_subplot(grid[:, 0]), limit=limit),
        "products": draw_slot_products(q, k, ax=products_ax, limit=product_limit),
        "meter": draw_similarity_meter(float(dot(q, k)), float(norm(q) * norm(k)),
                                       ax=meter_ax, scale=meter_scale),
    }
    products_ax.set_title("slot by slot: q·k = q₁k₁ + q₂k₂")
    fig.tight_layout()
    return artists


def update_dot_panels(artists, q, k):
    """Move all three panels of :func:`draw_dot_panels` to new arrows q and k (in place)."""
    update_dot_scene(artists["scene"], q, k)
    update_slot_products(artists["products"], q, k)
    update_similarity_meter(artists["meter"], float(dot(q, k)), float(norm(q) * norm(k)))
