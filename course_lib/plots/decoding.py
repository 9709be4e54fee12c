"""Pictures of decoding (notebook 16): the KV cache growing step by step, query heads sharing
key/value heads, rotary pairs turning with the position, the cache's memory per layout, and a
paged cache's block table. Every number comes from :mod:`course_lib.decoding`,
:mod:`course_lib.kv_memory`, :mod:`course_lib.rotary` and :mod:`course_lib.serving`."""

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.patches import Rectangle

from .. import causal_mask, scaled_dot_product_attention
from ..backend import to_numpy
from ..rotary import rotary_embedding
from ..serving import used_blocks
from ..text import short
from .grid import draw_grid, update_grid
from .style import BACKGROUND, FOREGROUND, MUTED, PALETTE, ROLE_COLORS

__all__ = ["draw_block_table", "draw_cache_memory", "draw_cache_step", "draw_head_groups",
           "draw_rotating_pair", "update_cache_memory", "update_cache_step"]

SEQUENCE_COLORS = [PALETTE[name] for name in ("blue", "vermillion", "green", "orange", "purple",
                                               "sky_blue")]


def draw_cache_step(query, key, value, step, axes, tokens=None):
    """Three grids at decoding step t: the key cache, the weights, the value cache.

    Rows 0 … t are filled (the tokens written so far); the weights row t, the only scores
    computed at this step, is framed in orange. ``axes``: three Axes. Returns the artists for
    :func:`update_cache_step`.
    """
    key, value = np.asarray(to_numpy(key)), np.asarray(to_numpy(value))
    n = key.shape[0]
    tokens = [str(i) for i in range(n)] if tokens is None else list(tokens)
    _, weights = scaled_dot_product_attention(query, key, value, is_causal=True,
                                              return_weights=True)  # (n, n), row t = step t
    allowed = to_numpy(causal_mask(n))  # the causal cells: j ≤ i
    ax_k, ax_w, ax_v = axes
    artists = {
        "key": draw_grid(key, ax=ax_k, tint=ROLE_COLORS["key"], row_labels=tokens,
                         number_format="{:.1f}", fontsize=9, title="key cache K", aspect="auto"),
        "weights": draw_grid(to_numpy(weights), ax=ax_w, mask=allowed, vmin=0.0, vmax=1.0,
                             row_labels=tokens, col_labels=tokens, blocked_text="",
                             fontsize=9, title="weights A (row t: this step)", aspect="auto"),
        "value": draw_grid(value, ax=ax_v, tint=ROLE_COLORS["value"], row_labels=tokens,
                           number_format="{:.1f}", fontsize=9, title="value cache V",
                           aspect="auto"),
        "frame": ax_w.add_patch(Rectangle((-0.5, -0.5), 1, 1, fill=False, lw=3,
                                          edgecolor=PALETTE["orange"], zorder=5)),
        "weights_values": to_numpy(weights), "allowed": allowed,
    }
    ax_k.set_xlabel(r"slot of key row $\mathbf{k}_j$ ($d_k$)")
    ax_w.set_xlabel("key j")
    ax_v.set_xlabel(r"slot of value row $\mathbf{v}_j$ ($d_v$)")
    ax_k.set_ylabel("token (step)")
    return update_cache_step(artists, step)


def update_cache_step(artists, step):
    """Show the grids at step ``step``: rows after it are empty (not written yet)."""
    for name in ("key", "weights", "value"):
        rows, cols = artists[name]["shape"]
        shown = np.zeros((rows, cols), bool)
        shown[:step + 1] = True
        update_grid(artists[name], shown=shown)
    artists["frame"].set_bounds(-0.5, step - 0.5, step + 1, 1)  # row t, keys 0 … t
    return artists


def draw_head_groups(num_heads, num_kv_heads, ax=None):
    """Query heads on top, key/value heads below, a line from each query head to the
    key/value head it shares (h → h // (H / G), as ``enable_gqa`` repeats them)."""
    ax = plt.gca() if ax is None else ax
    group = num_heads // num_kv_heads
    kv_x = [(g + 0.5) * group - 0.5 for g in range(num_kv_heads)]  # centred under its group
    lines = [ax.plot([h, kv_x[h // group]], [1, 0], color=MUTED, lw=1.2, zorder=1)[0]
             for h in range(num_heads)]
    queries = ax.scatter(range(num_heads), [1] * num_heads, s=260, marker="s", zorder=2,
                         color=ROLE_COLORS["query"], label="query head")
    shared = ax.scatter(kv_x, [0] * num_kv_heads, s=260, marker="s", zorder=2,
                        color=ROLE_COLORS["key"], label="key/value head (cached)")
    names = [ax.text(x, -0.3, f"kv {g}", ha="center", va="top", fontsize=10)
             for g, x in enumerate(kv_x)]  # between the query heads' numbers: named
    ax.set_xlim(-1, num_heads)
    ax.set_ylim(-0.7, 1.5)
    ax.set_yticks([0, 1], ["key/value\nheads", "query\nheads"])
    ax.set_xticks(range(num_heads))
    ax.set_xlabel("head number")
    ax.grid(False)
    title = ax.set_title(f"{num_heads} query heads share {num_kv_heads} key/value head"
                         f"{'s' if num_kv_heads > 1 else ''}")
    return {"lines": lines, "queries": queries, "shared": shared, "names": names,
            "title": title}


def draw_rotating_pair(x, positions, pair, ax=None, base=10000.0):
    """Pair t of row x, (x_t, x_{t+d/2}), as an arrow in its plane at each position: rotary
    embedding turns it by p·θ_t. Arrows darken with the position."""
    ax = plt.gca() if ax is None else ax
    x = np.asarray(to_numpy(x), dtype=float)
    half = x.shape[-1] // 2
    turned = to_numpy(rotary_embedding(x, np.asarray(positions), base=base))  # (P, d)
    shades = plt.get_cmap("Blues")(np.linspace(0.35, 1.0, len(positions)))
    limit = 1.3 * float(np.hypot(x[pair], x[pair + half])) or 1.0
    arrows, labels, last = [], [], None
    for p, row, shade in zip(positions, turned, shades, strict=True):
        a, b = row[pair], row[pair + half]
        arrows.append(ax.annotate("", xy=(a, b), xytext=(0, 0),
                                  arrowprops={"arrowstyle": "-|>", "color": shade, "lw": 2}))
        if last is None or np.hypot(a - last[0], b - last[1]) > 0.2 * limit:  # no overlap
            labels.append(ax.text(a * 1.12, b * 1.12, f"p={p}", fontsize=9, ha="center",
                                  va="center"))
            last = (a, b)
    ax.set_xlim(-limit, limit)
    ax.set_ylim(-limit, limit)
    ax.set_aspect("equal")
    ax.set_xlabel(f"slot {pair}")
    ax.set_ylabel(f"slot {pair + half}")
    return {"arrows": arrows, "labels": labels}


def draw_cache_memory(gib_by_layout, budget_gib, ax=None):
    """Horizontal bars: the cache's size in GiB per head layout, and the memory budget as a
    dashed line. Returns the artists for :func:`update_cache_memory`."""
    ax = plt.gca() if ax is None else ax
    names = list(gib_by_layout)
    colors = [ROLE_COLORS["query"], ROLE_COLORS["value"], ROLE_COLORS["other"]]
    bars = ax.barh(names, list(gib_by_layout.values()), color=colors[:len(names)])
    budget = ax.axvline(budget_gib, color=PALETTE["vermillion"], ls="--", lw=2,
                        label="memory budget")
    labels = [ax.text(0, i, "", va="center", ha="left", fontsize=10) for i in range(len(names))]
    ax.invert_yaxis()
    ax.set_xlabel("KV cache size (GiB)")
    ax.legend(loc="lower right")
    artists = {"bars": bars, "budget": budget, "labels": labels}
    return update_cache_memory(artists, gib_by_layout, budget_gib)


def update_cache_memory(artists, gib_by_layout, budget_gib):
    """New sizes and budget; the axis grows to hold the longest bar and the budget."""
    sizes = list(gib_by_layout.values())
    for bar, label, size in zip(artists["bars"], artists["labels"], sizes, strict=True):
        bar.set_width(size)
        label.set_position((size, bar.get_y() + bar.get_height() / 2))
        label.set_text(f"  {short(size)} GiB" + ("" if size <= budget_gib else "  ✕ too big"))
    artists["budget"].set_xdata([budget_gib, budget_gib])
    artists["bars"][0].axes.set_xlim(0, 1.45 * max(max(sizes), budget_gib))
    return artists


def draw_block_table(block_table, lengths, page_size, num_blocks=None, ax=None):
    """A paged KV cache: each sequence's logical blocks (top rows, "→ p": held in physical
    block p) and the pool of physical blocks (bottom row, "s b, i": logical block i of
    sequence b), joined by a line per block-table entry.

    A box's coloured part is its filled slots (the last block of a sequence is partly full);
    physical blocks no sequence uses are drawn empty ("free"). ``num_blocks``: the size of the
    pool (default: the largest block in use + 1). Returns the artists.
    """
    ax = plt.gca() if ax is None else ax
    blocks = used_blocks(block_table, lengths, page_size)  # (sequence, logical, physical, filled)
    num_blocks = max((p for *_, p, _ in blocks), default=-1) + 1 if num_blocks is None else \
        num_blocks
    batch, step, pool_y = len(lengths), 1.25, -1.6  # box pitch; the physical row's height
    artists = {"logical": [], "physical": [], "links": [], "labels": []}

    def box(x, y, color, fraction, label):
        ax.add_patch(Rectangle((x, y), 1, 0.8, facecolor=BACKGROUND, edgecolor=MUTED, lw=1.2,
                               zorder=1))  # opaque: the links pass behind the boxes
        fill = ax.add_patch(Rectangle((x, y), fraction, 0.8, color=color, alpha=0.5, lw=0,
                                      zorder=2))
        artists["labels"].append(ax.text(x + 0.5, y + 0.4, label, ha="center", va="center",
                                         fontsize=9, zorder=3,
                                         color=FOREGROUND if fraction else MUTED))
        return fill

    owner = {}
    for b, i, p, filled in blocks:
        y = batch - 1 - b
        color = SEQUENCE_COLORS[b % len(SEQUENCE_COLORS)]
        artists["logical"].append(box(i * step, y, color, filled / page_size, f"→ {p}"))
        owner[p] = (color, filled / page_size, f"s{b}, {i}")
        artists["links"].append(ax.plot([i * step + 0.5, p * step + 0.5], [y, pool_y + 0.8],
                                        color=color, lw=1.2, alpha=0.7, zorder=0)[0])
    for p in range(num_blocks):
        color, fraction, label = owner.get(p, (MUTED, 0.0, "free"))
        artists["physical"].append(box(p * step, pool_y, color, fraction, label))
        artists["labels"].append(ax.text(p * step + 0.5, pool_y - 0.1, str(p), ha="center",
                                         va="top", fontsize=9))
    logical = max((i for _, i, _, _ in blocks), default=-1) + 1
    artists["labels"] += [ax.text(i * step + 0.5, batch + 0.05, str(i), ha="center",
                                  va="center", fontsize=9) for i in range(logical)]
    ax.set_xlim(-0.2, max(num_blocks, logical, 1) * step)
    ax.set_ylim(pool_y - 0.7, batch + 0.35)
    ax.set_yticks([batch + 0.05] + [batch - 1 - b + 0.4 for b in range(batch)] + [pool_y + 0.4],
                  ["logical block"] + [f"sequence {b} ({int(n)} tokens)"
                                       for b, n in enumerate(lengths)] + ["physical blocks"])
    ax.set_xticks([])
    ax.grid(False)
    for side in ("left", "bottom"):
        ax.spines[side].set_visible(False)
    ax.tick_params(axis="y", length=0)
    artists["title"] = ax.set_title(f"paged KV cache: blocks of {page_size} slots, "
                                    f"{len(blocks)} of {num_blocks} in use")
    return artists
