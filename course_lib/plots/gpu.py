"""Pictures of notebook 15: whether the score grids fit in a GPU's memory, and a thread
block's shared memory."""

import matplotlib.pyplot as plt
from matplotlib.patches import Rectangle

from ..text import fmt
from .style import FOREGROUND, MUTED, PALETTE, ROLE_COLORS

__all__ = ["draw_block_memory", "draw_memory_fit", "update_memory_fit"]


def draw_memory_fit(grid_gib, tiled_gib, gpu_gib, ax=None):
    """Two horizontal bars, the plain formula's score grids and tiled attention's extra memory,
    against a vertical line at the GPU's memory; GiB on a logarithmic axis.

    Returns
    -------
    dict of artists; pass it to :func:`update_memory_fit`.
    """
    ax = plt.gca() if ax is None else ax
    bars = ax.barh([1, 0], [grid_gib, tiled_gib], color=[ROLE_COLORS["key"],
                                                          ROLE_COLORS["query"]], height=0.5)
    ax.set_yticks([1, 0], labels=["plain formula:\nscore grids", "tiled attention:\nextra"])
    ax.set_xscale("log")
    ax.set_xlim(2.0**-10, 2.0**14)
    ax.set_ylim(-0.6, 1.9)
    ax.set_xlabel("memory (GiB, logarithmic)")
    artists = {
        "bars": bars,
        "gpu": ax.axvline(gpu_gib, color=PALETTE["black"], lw=2),
        "gpu_label": ax.text(gpu_gib, 1.55, "", ha="left", fontsize=10,
                             bbox={"facecolor": "white", "edgecolor": "none", "pad": 1}),
        "labels": [ax.text(0, y, "", va="center", fontsize=10) for y in (1, 0)],
    }
    update_memory_fit(artists, grid_gib, tiled_gib, gpu_gib)
    return artists


def update_memory_fit(artists, grid_gib, tiled_gib, gpu_gib):
    """Set the bars, their labels and the GPU line of :func:`draw_memory_fit` (in place)."""
    for bar, label, gib in zip(artists["bars"], artists["labels"], (grid_gib, tiled_gib),
                               strict=True):
        bar.set_width(gib)
        label.set_x(gib * 1.15)
        label.set_text(f"{fmt(gib, 3)} GiB" if gib < 1 else f"{fmt(gib, 1)} GiB")
    artists["gpu"].set_xdata([gpu_gib, gpu_gib])
    artists["gpu_label"].set_x(gpu_gib * 1.15)  # right of the line, clear of it
    artists["gpu_label"].set_text(f"GPU memory: {gpu_gib:.0f} GiB")


BANKS = 32  # shared memory's banks: word w sits in bank w mod 32 (gpu_kernel.BANKS)
_PART_COLORS = {"q": ROLE_COLORS["query"], "tile": ROLE_COLORS["highlight"], "pad": "#e6e6e6"}
_KEY_SHADES = (ROLE_COLORS["key"], "#f0a878")  # alternate key rows: dark, light


def _word(ax, x, y, part, row, width=1.0):
    """One 4-byte word as a square at (x, y): coloured by its part, a pad word hatched.

    Added with ``add_artist``, not ``add_patch``: the panels set their limits themselves, and
    ``add_patch``'s update of the data limits cost half of the figure's drawing (400 words).
    """
    color = _KEY_SHADES[row % 2] if part == "key" else _PART_COLORS[part]
    return ax.add_artist(Rectangle((x, y), width, 1.0, facecolor=color, edgecolor=FOREGROUND,
                                   lw=0.6, hatch="///" if part == "pad" else None))


def _draw_strip(ax, words):
    d_k = sum(part == "q" for part, _ in words)
    key_block = sum(part == "tile" for part, _ in words)
    row_width = (len(words) - d_k - key_block) // key_block  # d_k and the pad
    for w, (part, row) in enumerate(words):
        _word(ax, w, 0, part, row)
        ax.text(w + 0.5, -0.35, str(w % BANKS), ha="center", va="top", fontsize=8)
    spans = [("q: the query row", 0, d_k),
             *((f"key row {r}", d_k + r * row_width, d_k + (r + 1) * row_width)
               for r in range(key_block)),
             ("tile", len(words) - key_block, len(words))]
    for label, start, stop in spans:
        ax.text((start + stop) / 2, 1.25, label, ha="center", va="bottom", fontsize=9)
    ax.text(-0.6, -0.35, "bank", ha="right", va="top", fontsize=9)
    ax.set_xlim(-4, len(words) + 0.5)
    ax.set_ylim(-1.6, 2.3)
    ax.set_title(f"shared memory of one block, d_k = {d_k}, key_block = {key_block}: one square"
                 " per 4-byte word (hatched: the pad word after each key row)", fontsize=11)


def _draw_banks(ax, words):
    """The layout folded into rows of 32 words, so that a column is a bank; thread t reads
    slot 0 of key row t."""
    depth = -(-len(words) // BANKS)
    banks_hit, starts = [], []
    for w, (part, row) in enumerate(words):
        x, y = w % BANKS, depth - 1 - w // BANKS
        _word(ax, x, y, part, row)
        if part == "key" and row == len(starts):  # the first word of key row `row`: slot 0
            starts.append(w)
            ax.add_patch(Rectangle((x, y), 1, 1, fill=False, edgecolor=FOREGROUND, lw=2.2))
            ax.text(x + 0.5, y + 0.5, str(row), ha="center", va="center", fontsize=9,
                    color=FOREGROUND, fontweight="bold")
            banks_hit.append(x)
    ax.set_xlim(-0.5, BANKS + 0.5)
    ax.set_ylim(-0.3, depth + 0.3)
    ax.set_xticks([0.5, 8.5, 16.5, 24.5, 31.5], labels=["0", "8", "16", "24", "31"])
    ax.set_yticks([])
    ax.grid(False)
    ax.set_xlabel("bank (word mod 32)")
    distinct = len(set(banks_hit))
    verdict = ("all in one bank: they wait in turn" if distinct == 1 else
               f"{distinct} different banks: one read for all")
    ax.set_title(f"key rows {starts[1] - starts[0]} words apart: threads 0–{len(starts) - 1} "
                 f"read slot 0,\n{verdict}", fontsize=11)
    return banks_hit


def _draw_halving(ax, rounds):
    size = len(rounds[0])
    gap = 3.0  # horizontal distance between the tile's states
    for k, tile in enumerate(rounds):
        written = size if k == 0 else size >> k  # slots that round k wrote
        for t, value in enumerate(tile):
            y = size - 1 - t
            live = t < written
            ax.add_patch(Rectangle((k * gap, y), 1.4, 0.8, edgecolor=FOREGROUND, lw=0.8,
                                   facecolor=ROLE_COLORS["highlight"] if live else "#f2f2f2"))
            ax.text(k * gap + 0.7, y + 0.4, f"{value:g}".replace("-", "−"), ha="center",
                    va="center", fontsize=10, color=FOREGROUND if live else MUTED)
        if k == 0:
            ax.text(-0.2, size - 0.6, "tile[0]", ha="right", va="center", fontsize=9)
            continue
        half = size >> k
        for t in range(half):
            for source in (t, t + half):
                ax.annotate("", xy=(k * gap, size - 1 - t + 0.4),
                            xytext=(k * gap - gap + 1.4, size - 1 - source + 0.4),
                            arrowprops={"arrowstyle": "->", "color": FOREGROUND, "lw": 0.9})
        x_barrier = k * gap + 2.2
        ax.plot([x_barrier, x_barrier], [-0.4, size + 0.1], "--", color=PALETTE["blue"], lw=1.5)
        ax.text(x_barrier, size + 0.2, "barrier (d)", ha="center", va="bottom", fontsize=9,
                color=PALETTE["blue"])
        ax.text(k * gap - gap / 2 + 0.7, -0.9, f"round {k}: half = {half}", ha="center",
                fontsize=10)
    ax.set_xlim(-1.6, len(rounds) * gap)
    ax.set_ylim(-1.2, size + 0.9)
    ax.set_title(f"step 3: the tile's maximum in {len(rounds) - 1} rounds; thread t < half "
                 "keeps max(tile[t], tile[t + half])", fontsize=11)


def draw_block_memory(words, unpadded, padded, rounds, fig=None):
    """The kernel's shared memory in three panels, from :mod:`course_lib.fast.gpu_kernel`'s
    numbers.

    Parameters
    ----------
    words : ``shared_words(d_k, key_block)``, drawn as one strip with each word's bank below.
    unpadded, padded : ``shared_words(d, readers, pad)`` with pad 0 and 1, folded into rows
        of 32 words (a column is a bank): thread t reads slot 0 of key row t.
    rounds : ``halving_rounds(scores)``, step 3's tile after each round, with barrier (d)
        after each.

    Returns
    -------
    dict: the axes (``"strip"``, ``"unpadded"``, ``"padded"``, ``"halving"``) and the banks the
    reading threads hit in each middle panel (``"banks_unpadded"``, ``"banks_padded"``).
    """
    fig = plt.figure(figsize=(11.0, 6.6)) if fig is None else fig
    grid = fig.add_gridspec(3, 2, height_ratios=[0.7, 1.1, 1.5])
    axes = {"strip": fig.add_subplot(grid[0, :]), "unpadded": fig.add_subplot(grid[1, 0]),
            "padded": fig.add_subplot(grid[1, 1]), "halving": fig.add_subplot(grid[2, :])}
    for name in ("strip", "halving"):
        axes[name].set_axis_off()
    _draw_strip(axes["strip"], words)
    _draw_halving(axes["halving"], rounds)
    result = {"axes": axes, "banks_unpadded": _draw_banks(axes["unpadded"], unpadded),
              "banks_padded": _draw_banks(axes["padded"], padded)}
    for name in ("unpadded", "padded"):
        axes[name].set_aspect("equal")
        for side in ("left", "bottom"):
            axes[name].spines[side].set_visible(False)
    fig.tight_layout()
    return result
