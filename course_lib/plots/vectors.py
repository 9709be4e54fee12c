"""Pictures of vectors: arrows from the origin, and a small embedding table."""

import matplotlib.pyplot as plt
import numpy as np

from ..backend import to_numpy
from ..text import fmt
from .style import MUTED, ROLE_COLORS

__all__ = [
    "draw_embedding_table",
    "draw_vector",
    "draw_vector_scene",
    "set_square_view",
    "update_vector",
    "update_vector_scene",
]


def _axes(ax):
    return plt.gca() if ax is None else ax


def set_square_view(ax, limit):
    """Equal scales on both axes, from −limit to limit, with the two axes lines drawn."""
    ax.set_xlim(-limit, limit)
    ax.set_ylim(-limit, limit)
    ax.set_aspect("equal")
    ax.axhline(0, color=MUTED, lw=1, zorder=1)
    ax.axvline(0, color=MUTED, lw=1, zorder=1)


def draw_vector(q, ax=None, color=None, label=None, origin=(0.0, 0.0), lw=2.5, ls="-"):
    """An arrow from ``origin`` to ``origin + q`` for a 2-D vector q, with an optional label
    near its tip.

    Returns
    -------
    dict with ``"arrow"`` (an Annotation whose ``xy`` is the tip) and ``"label"`` (a Text or
    None).
    """
    ax = _axes(ax)
    color = ROLE_COLORS["query"] if color is None else color
    q = to_numpy(q).astype(float)
    tip = (origin[0] + q[0], origin[1] + q[1])
    # annotation_clip=False: skip the "is the point inside the axes?" test at every redraw
    arrow = ax.annotate("", xy=tip, xytext=origin, zorder=3, annotation_clip=False, arrowprops={
        "arrowstyle": "-|>", "color": color, "lw": lw, "ls": ls, "mutation_scale": 20,
        "shrinkA": 0, "shrinkB": 0})
    text = None
    if label is not None:
        text = ax.annotate(label, xy=tip, xytext=(6, 6), textcoords="offset points",
                           color=color, fontsize=13, fontweight="bold", zorder=4,
                           annotation_clip=False)
    return {"arrow": arrow, "label": text}


def update_vector(artists, q, origin=(0.0, 0.0)):
    """Move an arrow drawn by :func:`draw_vector` to the new vector q (in place)."""
    tip = (origin[0] + float(q[0]), origin[1] + float(q[1]))
    artists["arrow"].xy = tip
    artists["arrow"].set_position(origin)
    if artists["label"] is not None:
        artists["label"].xy = tip


def draw_vector_scene(q, ax=None, limit=5.0, show_swapped=True):
    """The arrow picture of a 2-D vector q = [q₁, q₂]: q₁ steps right, q₂ steps up.

    Dotted guides show the two steps; a faint dashed arrow shows the same two numbers in the
    other order, [q₂, q₁], a different arrow, because position matters.

    Returns
    -------
    dict of artists: ``"q"``, ``"swapped"`` (or None), ``"step_right"``, ``"step_up"``,
    ``"title"``; pass it to :func:`update_vector_scene`.
    """
    ax = _axes(ax)
    set_square_view(ax, limit)
    ax.set_xlabel("first slot q₁ (steps right)")
    ax.set_ylabel("second slot q₂ (steps up)")
    q = to_numpy(q).astype(float)
    artists = {"swapped": None}
    if show_swapped:
        artists["swapped"] = draw_vector(q[::-1], ax=ax, color=ROLE_COLORS["other"],
                                         label="[q₂, q₁]", lw=1.8, ls="--")
    (artists["step_right"],) = ax.plot([0, q[0]], [0, 0], ":", color=MUTED, lw=2)
    (artists["step_up"],) = ax.plot([q[0], q[0]], [0, q[1]], ":", color=MUTED, lw=2)
    artists["q"] = draw_vector(q, ax=ax, label="q")
    artists["title"] = ax.set_title("")
    update_vector_scene(artists, q)
    return artists


def update_vector_scene(artists, q):
    """Redraw the scene of :func:`draw_vector_scene` for a new q, changing artists in place."""
    q1, q2 = (float(v) for v in to_numpy(q))
    update_vector(artists["q"], (q1, q2))
    if artists["swapped"] is not None:
        update_vector(artists["swapped"], (q2, q1))
    artists["step_right"].set_data([0, q1], [0, 0])
    artists["step_up"].set_data([q1, q1], [0, q2])
    artists["title"].set_text(f"q = [{fmt(q1, 1)}, {fmt(q2, 1)}]")


def draw_embedding_table(words, table, ax=None, digits=1):
    """A made-up embedding table as a coloured grid: one row per word, one column per slot,
    each cell printed with its number.

    Returns
    -------
    dict with ``"image"`` (the AxesImage) and ``"texts"`` (one Text per cell, row by row).
    """
    ax = _axes(ax)
    table = to_numpy(table).astype(float)
    bound = float(np.abs(table).max()) or 1.0
    image = ax.imshow(table, cmap="PuOr", vmin=-bound, vmax=bound, aspect="auto")
    ax.grid(False)
    ax.set_yticks(range(len(words)), labels=list(words))
    ax.set_xticks(range(table.shape[1]),
                  labels=[f"slot {i + 1}" for i in range(table.shape[1])])
    ax.tick_params(top=True, labeltop=True, bottom=False, labelbottom=False)
    texts = []
    for r in range(table.shape[0]):
        for c in range(table.shape[1]):
            dark = abs(table[r, c]) > 0.6 * bound
            texts.append(ax.text(c, r, fmt(table[r, c], digits), ha="center", va="center",
                                 color="white" if dark else "black", fontsize=12))
    return {"image": image, "texts": texts}
