"""Pictures of the dot product: two arrows and the angle between them, and a similarity
meter that shows where q·k sits between "opposite" and "same way"."""

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.patches import Arc

from .. import dot, norm
from ..backend import to_numpy
from ..geometry import angle_between, direction
from .notation import fmt, subscript
from .style import MUTED, PALETTE, ROLE_COLORS
from .vectors import draw_vector, set_square_view, update_vector

__all__ = ["draw_dot_panels", "draw_dot_scene", "draw_similarity_meter", "draw_slot_products",
           "update_dot_panels", "update_dot_scene", "update_similarity_meter",
           "update_slot_products"]


def draw_dot_scene(q, k, ax=None, limit=4.0):
    """Arrows q and k from the origin, with the angle θ between them marked by an arc.

    Returns
    -------
    dict of artists; pass it to :func:`update_dot_scene`.
    """
    ax = plt.gca() if ax is None else ax
    set_square_view(ax, limit)
    ax.set_xlabel("slot 1")
    ax.set_ylabel("slot 2")
    artists = {
        "arc": ax.add_patch(Arc((0, 0), 1.6, 1.6, theta1=0, theta2=0, color=PALETTE["black"],
                                lw=1.5, zorder=2)),
        "theta": ax.text(0, 0, "θ", fontsize=13, ha="center", va="center"),
        "q": draw_vector(q, ax=ax, color=ROLE_COLORS["query"], label="q"),
        "k": draw_vector(k, ax=ax, color=ROLE_COLORS["key"], label="k"),
        "title": ax.set_title(""),
    }
    update_dot_scene(artists, q, k)
    return artists


def update_dot_scene(artists, q, k):
    """Move both arrows and the angle arc of :func:`draw_dot_scene` (in place)."""
    q, k = to_numpy(q).astype(float), to_numpy(k).astype(float)
    update_vector(artists["q"], q)
    update_vector(artists["k"], k)
    start, end = float(direction(q)), float(direction(k))
    theta = float(angle_between(q, k))
    # draw the arc the short way round, from the smaller direction to the larger one
    if (end - start) % 360 > 180:
        start, end = end, start
    artists["arc"].theta1, artists["arc"].theta2 = start, end
    middle = np.deg2rad(start + ((end - start) % 360) / 2)
    artists["theta"].set_position((1.15 * np.cos(middle), 1.15 * np.sin(middle)))
    artists["title"].set_text(f"θ = {fmt(theta, 0)}°,  q·k = {fmt(dot(q, k), 2)}")


def draw_similarity_meter(value, bound, ax=None):
    """A horizontal meter from −bound (opposite) through 0 (right angle) to +bound (same
    way), with a marker at ``value``; for two arrows, bound = ∥q∥∥k∥.

    Returns
    -------
    dict of artists; pass it to :func:`update_similarity_meter`.
    """
    ax = plt.gca() if ax is None else ax
    ax.grid(False)
    ax.set_yticks([])
    ax.set_xlim(-1.05, 1.05)
    ax.set_ylim(0, 1)
    ax.axvspan(-1, -1 / 3, color=PALETTE["vermillion"], alpha=0.18)
    ax.axvspan(-1 / 3, 1 / 3, color=MUTED, alpha=0.15)
    ax.axvspan(1 / 3, 1, color=PALETTE["green"], alpha=0.18)
    for x, text in ((-2 / 3, "opposite\n(negative)"), (0, "right angle\n(near 0)"),
                    (2 / 3, "same way\n(positive)")):
        ax.text(x, 0.72, text, ha="center", va="center", fontsize=10)
    ax.set_xticks([-1, 0, 1], labels=["−∥q∥∥k∥", "0", "+∥q∥∥k∥"])
    (marker,) = ax.plot([0, 0], [0.05, 0.45], color=PALETTE["black"], lw=4)
    ax.set_xlabel("q·k, on a scale from −∥q∥∥k∥ to +∥q∥∥k∥")
    artists = {"marker": marker}
    update_similarity_meter(artists, value, bound)
    return artists


def update_similarity_meter(artists, value, bound):
    """Move the meter's marker to ``value`` on the scale −bound … +bound (in place)."""
    position = float(value) / float(bound) if bound > 0 else 0.0
    artists["marker"].set_xdata([position, position])



def _slot_products(q, k):
    # each slot's product qᵢkᵢ is the dot product of two one-slot lists
    return to_numpy(dot(to_numpy(q)[:, None], to_numpy(k)[:, None]))


def draw_slot_products(q, k, ax=None, limit=16.0):
    """Bars for the slot-by-slot products q₁k₁, q₂k₂, … and for their sum q·k.

    Returns
    -------
    dict with ``"bars"`` (one per slot, then the total); pass it to
    :func:`update_slot_products`.
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
    artists = {"bars": bars}
    update_slot_products(artists, q, k)
    return artists


def update_slot_products(artists, q, k):
    """Set the bars of :func:`draw_slot_products` to the products of q and k (in place)."""
    heights = [*_slot_products(q, k).tolist(), float(dot(q, k))]
    for bar, height in zip(artists["bars"], heights, strict=True):
        bar.set_height(height)


def draw_dot_panels(q, k, fig=None, limit=4.2, product_limit=16.5):
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
                                       ax=meter_ax),
    }
    products_ax.set_title("slot by slot: q·k = q₁k₁ + q₂k₂")
    meter_ax.set_title("similarity meter")
    fig.tight_layout()
    return artists


def update_dot_panels(artists, q, k):
    """Move all three panels of :func:`draw_dot_panels` to new arrows q and k (in place)."""
    update_dot_scene(artists["scene"], q, k)
    update_slot_products(artists["products"], q, k)
    update_similarity_meter(artists["meter"], float(dot(q, k)), float(norm(q) * norm(k)))
