"""Pictures of the tiles (notebook 14): which tiles a causal mask skips, and the bytes moved
through a GPU's slow memory by the whole-grid formula and by tiled attention."""

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.patches import Patch, Rectangle

from ..tiles import DIAGONAL, FULL, SKIPPED, causal_tiles, memory_traffic
from .style import MUTED, PALETTE, ROLE_COLORS

__all__ = ["draw_causal_tiles", "draw_memory_traffic"]

TILE_STYLE = {  # state → (face colour, hatch, legend text)
    FULL: (PALETTE["sky_blue"], "", "computed, no mask needed"),
    DIAGONAL: (PALETTE["orange"], "..", "computed with the mask"),
    SKIPPED: ("#eeeeee", "//", "skipped: all scores blocked"),
}


def draw_causal_tiles(n, m, block_size, ax=None):
    """The n × m score grid cut into tiles, coloured by what a causal mask leaves to compute.

    Query rows run down, keys across (as the grid S is written). The black staircase is the
    mask's edge: query i sees keys 0 … i. The title gives the share of tiles skipped
    (:func:`course_lib.tiles.causal_tiles`).

    Returns
    -------
    dict with ``"tiles"`` (one Rectangle per tile), ``"edge"`` (the staircase line) and
    ``"legend"``.
    """
    ax = plt.gca() if ax is None else ax
    tiles = causal_tiles(n, m, block_size)
    block_q, block_k = (block_size, block_size) if np.ndim(block_size) == 0 else block_size
    rectangles = []
    for a, i0 in enumerate(tiles.row_starts):
        for b, j0 in enumerate(tiles.col_starts):
            face, hatch, _ = TILE_STYLE[int(tiles.states[a, b])]
            rect = Rectangle((j0, i0), min(block_k, m - j0), min(block_q, n - i0),
                             facecolor=face, hatch=hatch, edgecolor=PALETTE["black"], lw=0.8)
            rectangles.append(ax.add_patch(rect))
    rows = np.arange(n + 1)
    (edge,) = ax.step(np.minimum(rows + 1, m), rows, where="pre", color=PALETTE["black"], lw=2)
    ax.set_xlim(0, m)
    ax.set_ylim(n, 0)  # query 0 at the top, as the grid is written
    ax.set_aspect("equal")
    ax.grid(False)
    ax.set_xlabel(f"key j (blocks of {block_k})")
    ax.set_ylabel(f"query i (blocks of {block_q})")
    skipped = int(np.sum(tiles.states == SKIPPED))
    ax.set_title(f"causal mask, {tiles.states.size} tiles: {skipped} skipped "
                 f"({100 * tiles.skipped_share:.0f}%)")
    handles = [Patch(facecolor=face, hatch=hatch, edgecolor=PALETTE["black"], label=text)
               for face, hatch, text in TILE_STYLE.values()]
    legend = ax.legend(handles=handles, loc="upper center", bbox_to_anchor=(0.5, -0.2),
                       ncol=3, fontsize=10, frameon=False)  # below the keys' axis label
    return {"tiles": rectangles, "edge": edge, "legend": legend}


def draw_memory_traffic(n, d=64, block_size=128, itemsize=2, is_causal=False, ax=None):
    """Bars of the bytes moved through slow memory at n = m, forward and backward, in MiB.

    The numbers are :func:`course_lib.tiles.memory_traffic`'s count.

    Returns
    -------
    dict with ``"grid"`` and ``"tiled"`` (the two bar containers) and ``"labels"``.
    """
    ax = plt.gca() if ax is None else ax
    traffic = memory_traffic(n, n, d, d, block_size, itemsize, is_causal)
    mib = 2.0**20
    grid = [traffic.forward_grid / mib, traffic.backward_grid / mib]
    tiled = [traffic.forward_tiled / mib, traffic.backward_tiled / mib]
    where = np.arange(2)
    grid_bars = ax.bar(where - 0.2, grid, 0.4, color=ROLE_COLORS["key"],
                       label="whole grid: S and A stored")
    tiled_bars = ax.bar(where + 0.2, tiled, 0.4, color=ROLE_COLORS["query"],
                        label=f"tiled, tiles of {block_size} rows")
    labels = [ax.bar_label(bars, fmt="%.0f MiB", fontsize=10) for bars in (grid_bars, tiled_bars)]
    ax.set_xticks(where, labels=["forward", "backward"])
    ax.set_ylabel("bytes moved through slow memory (MiB)")
    ax.set_ylim(0, 1.35 * max(grid + tiled))  # room for the legend
    causal = ", causal" if is_causal else ""
    ax.set_title(f"n = m = {n}, d = {d}, {8 * itemsize}-bit numbers{causal}")
    ax.legend(loc="upper left", fontsize=10, labelcolor=PALETTE["black"], edgecolor=MUTED)
    return {"grid": grid_bars, "tiled": tiled_bars, "labels": labels}
