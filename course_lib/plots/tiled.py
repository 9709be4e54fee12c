"""Pictures of tiled attention (notebook 14): why the score grid is the memory problem, and
the online softmax walking through the keys one block at a time."""

import matplotlib.pyplot as plt
import numpy as np

from ..text import fmt
from ..tiled_memory import attention_memory
from .style import MUTED, PALETTE, ROLE_COLORS

__all__ = [
    "draw_memory_growth",
    "draw_online_softmax",
    "update_online_softmax",
]

UNSEEN = "#dcdcdc"  # keys not visited yet: pale, so the seen ones stand out


def draw_memory_growth(sizes, d=64, block_size=512, itemsize=4, ax=None):
    """Working memory against sequence length n = m: the score grid versus tiled attention.

    Both axes are logarithmic; a dotted line marks 16 GiB, a laptop's whole memory.

    Returns
    -------
    dict with the two lines, ``"grid"`` and ``"tiled"``.
    """
    ax = plt.gca() if ax is None else ax
    sizes = [int(n) for n in sizes]
    pairs = [attention_memory(n, n, d, d, block_size, itemsize) for n in sizes]
    gib = 2.0**30
    (grid,) = ax.plot(sizes, [g / gib for g, _ in pairs], "o-", color=ROLE_COLORS["key"],
                      label="plain formula: the n×m score grid")
    (tiled,) = ax.plot(sizes, [t / gib for _, t in pairs], "s-", color=ROLE_COLORS["query"],
                       label=f"tiled: one {block_size}×{block_size} block + n·d numbers")
    ax.axhline(16, color=MUTED, ls=":", lw=1.5)
    ax.text(sizes[0], 16 * 1.4, "16 GiB: a laptop's whole memory", color=MUTED, fontsize=10)
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xticks(sizes, labels=[f"{n // 1024}k" if n >= 1024 else str(n) for n in sizes])
    ax.minorticks_off()
    ax.set_xlabel("sequence length n = m (1k = 1024)")
    ax.set_ylabel(f"working memory (GiB, {8 * itemsize}-bit numbers)")
    ax.legend(loc="upper left", bbox_to_anchor=(0.0, 0.84), fontsize=10)  # above both lines
    return {"grid": grid, "tiled": tiled}


def _block_colors(view):
    start, stop = view["step"].start, view["step"].stop
    return [ROLE_COLORS["highlight"] if start <= j < stop else
            ROLE_COLORS["key"] if j < stop else UNSEEN for j in range(len(view["scores"]))]


def draw_online_softmax(view, axes, score_limits=None):
    """Three panels for one step of the online softmax (the numbers of
    :func:`course_lib.online_view.online_softmax_view`).

    ``axes`` = (scores axis, weights axis, output axis). Left top: the query's scores, the
    keys seen so far, the current block and the running max. Left bottom: the weights the
    online softmax gives so far, against the final ones. Right: the partial outputs walking
    to the full output among the values.

    Returns
    -------
    dict of artists; pass it to :func:`update_online_softmax`.
    """
    score_ax, weight_ax, output_ax = axes
    m = len(view["scores"])
    keys = np.arange(m)
    for boundary in range(view["block_size"], m, view["block_size"]):
        for ax in (score_ax, weight_ax):
            ax.axvline(boundary - 0.5, color=MUTED, lw=0.8, ls="--")
    artists = {
        "score_bars": score_ax.bar(keys, view["scores"], color=_block_colors(view), width=0.8),
        "max_line": score_ax.axhline(view["running_max"], color=PALETTE["black"], lw=1.5),
        "max_label": score_ax.text(m - 0.5, view["running_max"], "", ha="right", va="bottom",
                                   fontsize=10),
        "weight_bars": weight_ax.bar(keys, view["weights"], color=ROLE_COLORS["key"],
                                     width=0.8),
        "final_marks": weight_ax.plot(keys, view["final_weights"], "_", color=PALETTE["black"],
                                      ms=9, mew=2, label="final weights")[0],
    }
    low, high = score_limits or (view["scores"].min(), view["scores"].max())
    pad = 0.1 * (high - low + 1e-9)
    score_ax.set_ylim(min(low, 0) - pad, high + 3 * pad)
    score_ax.set_xlim(-0.6, m - 0.4)
    score_ax.set_ylabel("score sⱼ")
    score_ax.set_title("the query's scores: seen, current block, not yet seen")
    weight_ax.set_xlim(-0.6, m - 0.4)
    weight_ax.set_ylim(0, 1.05)
    weight_ax.set_xlabel("key j")
    weight_ax.set_ylabel("weight so far")
    weight_ax.legend(loc="upper right", fontsize=9)

    values = view["values"]
    output_ax.scatter(values[:, 0], values[:, 1], s=22, color=ROLE_COLORS["value"], alpha=0.5,
                      label=r"value rows $\mathbf{v}_j$")
    final = view["final_output"]
    output_ax.plot([final[0]], [final[1]], "*", color=PALETTE["black"], ms=16,
                   label="full output")
    artists["path"] = output_ax.plot([], [], "-", color=ROLE_COLORS["query"], lw=1.5)[0]
    artists["points"] = output_ax.plot([], [], "o", color=ROLE_COLORS["query"], ms=5,
                                       label="partial outputs")[0]
    artists["current"] = output_ax.plot([], [], "o", color=ROLE_COLORS["highlight"], ms=11,
                                        mec=PALETTE["black"], label="after this block")[0]
    output_ax.set_aspect("equal", adjustable="datalim")
    output_ax.set_xlabel("output slot 1")
    output_ax.set_ylabel("output slot 2")
    output_ax.set_title("partial output → full output")
    output_ax.legend(loc="best", fontsize=9)
    update_online_softmax(artists, view)
    return artists


def update_online_softmax(artists, view):
    """Move the artists of :func:`draw_online_softmax` to another step or query (in place)."""
    for bar, height, color in zip(artists["score_bars"], view["scores"], _block_colors(view),
                                  strict=True):
        bar.set_height(height)
        bar.set_facecolor(color)
        bar.set_edgecolor(PALETTE["black"] if color == ROLE_COLORS["highlight"] else color)
    top = view["running_max"]
    artists["max_line"].set_ydata([top, top])
    artists["max_label"].set_y(top)
    artists["max_label"].set_text(f"running max M = {fmt(top, 2)}")
    for bar, height in zip(artists["weight_bars"], view["weights"], strict=True):
        bar.set_height(height)
    artists["final_marks"].set_ydata(view["final_weights"])
    outputs = view["outputs"]
    artists["path"].set_data(outputs[:, 0], outputs[:, 1])
    artists["points"].set_data(outputs[:, 0], outputs[:, 1])
    artists["current"].set_data(outputs[-1:, 0], outputs[-1:, 1])
