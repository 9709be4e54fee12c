"""Pictures of notebook 17: one block of the real model, and one head's weight grid over a
sentence.

Row i is query i (the token looking), column j key j (the token looked at); a cell's colour
is the weight A_ij, from white (0) to dark blue (1). Above the diagonal the causal mask
blocks the future: those cells are grey. The grid can be drawn larger than the sentence
(``size``): a dashboard then changes the sentence in place, the unused cells left empty.
"""

import matplotlib.pyplot as plt
import numpy as np

from ..backend import to_numpy
from ..masks import causal_mask
from .grid import draw_grid, update_grid

__all__ = ["draw_block", "draw_head_grid", "token_label", "update_head_grid",
           "update_head_labels"]

LABEL_CHARS = 10  # a longer token is cut, with "…"


# one block, bottom to top: (label, the shape it gives, drawn as the course's attention?)
_BLOCK_STEPS = [
    ("x: one row per token", "(n, 576)", False),
    ("RMSNorm", "(n, 576)", False),
    ("Q = x W_Q, K = x W_K, V = x W_V;  RoPE turns Q and K", "9 + 3 + 3 heads of 64", False),
    ("softmax(QKᵀ/√d_k + causal mask) V\n9 query heads over 3 key/value heads (GQA)",
     "(9, n, 64)", True),
    ("heads side by side, times W_O;  add to x", "(n, 576)", False),
    ("RMSNorm, then a feed-forward network (SwiGLU);  add to x", "(n, 576)", False),
]


def draw_block(ax=None, fontsize=10):
    """One of the model's 30 blocks as a column of boxes, the input at the bottom; the box of
    the course's attention is drawn dark. Returns the list of box patches, bottom first."""
    ax = plt.gca() if ax is None else ax
    boxes = []
    for row, (text, shape, attention) in enumerate(_BLOCK_STEPS):
        y = 1.3 * row
        box = ax.text(0.0, y, text, ha="center", va="center", fontsize=fontsize,
                      color="white" if attention else "black",
                      bbox={"boxstyle": "round,pad=0.5", "linewidth": 1.2,
                            "facecolor": "#1f4e9c" if attention else "#eef2f8",
                            "edgecolor": "#1f4e9c"})
        ax.text(3.6, y, shape, ha="left", va="center", fontsize=fontsize - 1, color="#555555")
        if row:
            ax.annotate("", xy=(0.0, y - 0.45), xytext=(0.0, y - 0.85),
                        arrowprops={"arrowstyle": "->", "color": "#555555"})
        boxes.append(box)
    ax.text(0.0, 1.3 * len(_BLOCK_STEPS) - 0.4, "to the next block (30 in all)", ha="center",
            va="center", fontsize=fontsize - 1, color="#555555")
    ax.set_xlim(-4.2, 5.2)
    ax.set_ylim(-0.8, 1.3 * len(_BLOCK_STEPS))
    ax.axis("off")
    return boxes


def token_label(token):
    """A token's text as a tick label: its leading space dropped, a newline shown as ↵.

    >>> token_label(" cat"), token_label("\\n"), token_label(" ")
    ('cat', '↵', '␣')
    """
    text = token.replace("\n", "↵").replace("\t", "⇥")
    text = text[1:] if text.startswith(" ") and text.strip() else text
    text = text.replace(" ", "␣") if not text.strip() else text
    return text if len(text) <= LABEL_CHARS else text[:LABEL_CHARS - 1] + "…"


def draw_head_grid(weights, tokens, ax=None, size=None, title="", annotate=False,
                   colorbar=True, fontsize=10):
    """One head's weights A (n × n) over the sentence's n tokens, as a heatmap.

    Parameters
    ----------
    weights : (n, n) one head's weights, e.g. ``lm.attention_weights(ids)[layer, head]``.
    tokens : the n tokens' texts (``lm.token_strings(ids)``), the row and column labels.
    size : draw room for this many tokens (default n); :func:`update_head_grid` can then show
        any sentence of at most ``size`` tokens.
    annotate : write each weight in its cell (readable up to about 12 tokens).
    colorbar : add a colour bar saying what the colours mean.

    Returns
    -------
    dict of artists: those of :func:`course_lib.plots.grid.draw_grid`, plus ``query_labels``
    and ``key_labels`` (one Text per row and column) and ``colorbar``.
    """
    ax = plt.gca() if ax is None else ax
    size = len(tokens) if size is None else size
    artists = draw_grid(np.zeros((size, size)), ax=ax, cmap="Blues", vmin=0.0, vmax=1.0,
                        annotate=annotate, fontsize=max(fontsize - 2, 6), blocked_text="",
                        title=title, row_labels=[""] * size, col_labels=[""] * size)
    ax.set_xticks([])
    ax.set_yticks([])
    # the token labels are Texts, not tick labels, so that a new sentence moves them in place
    artists["query_labels"] = [ax.text(-0.65, i, "", ha="right", va="center",
                                       fontsize=fontsize) for i in range(size)]
    artists["key_labels"] = [ax.text(j, size - 0.35, "", ha="center", va="top", rotation=90,
                                     fontsize=fontsize) for j in range(size)]
    pad = 4 + 0.6 * fontsize * LABEL_CHARS  # points: room for the longest token label
    ax.xaxis.set_label_position("bottom")
    ax.set_ylabel("query i: the token looking", labelpad=pad)
    ax.set_xlabel("key j: the token looked at", labelpad=pad)
    artists["colorbar"] = (ax.figure.colorbar(artists["cells"], ax=ax, shrink=0.8,
                                              label="weight A_ij") if colorbar else None)
    update_head_grid(artists, weights, tokens)
    return artists


def update_head_grid(artists, weights, tokens, title=None):
    """Show another head or sentence in the grid of :func:`draw_head_grid` (in place)."""
    weights = np.asarray(to_numpy(weights), dtype=float)
    n, size = len(tokens), artists["shape"][0]
    if weights.shape != (n, n) or n > size:
        raise ValueError(f"weights of shape {weights.shape} for {n} tokens: expected ({n}, {n})"
                         f" with at most {size} tokens (the grid's size)")
    update_grid(artists, weights, mask=causal_mask(size))  # the future: grey
    update_head_labels(artists, tokens)
    if title is not None:
        artists["title"].set_text(title)
    return artists


def update_head_labels(artists, tokens):
    """Write ``tokens`` as the row and column labels of :func:`draw_head_grid`'s grid."""
    for i, (query, key) in enumerate(zip(artists["query_labels"], artists["key_labels"],
                                         strict=True)):
        label = token_label(tokens[i]) if i < len(tokens) else ""
        query.set_text(label)
        key.set_text(label)
    return artists
