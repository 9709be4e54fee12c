"""The tiles of tiled attention: which ones a causal mask skips, and the bytes each way moves.

Tiled attention cuts the n × m score grid into tiles of block_q query rows × block_k key rows.
Two counts explain why GPU kernels work this way (notebook 14):

* **Skipped tiles.** With the causal mask (query i sees keys j ≤ i) every tile above the
  diagonal holds only blocked scores; tiled attention never computes it, forward or
  backward. About half the tiles go when n = m (:func:`causal_tiles`).
* **Memory traffic.** A GPU computes in a small fast memory (registers, shared memory) and
  keeps its arrays in a large slow one (HBM). The plain formula writes the whole grid S to slow
  memory, reads it back for the softmax, writes A, reads A again: about 4·n·m numbers moved
  forward, 7·n·m backward. Tiled attention keeps each tile in fast memory and moves only Q,
  K, V, the output and two numbers per row (:func:`memory_traffic`). This is the argument of
  Dao et al. 2022 (FlashAttention) and Dao 2023 (FlashAttention-2), who built on the online
  softmax of Milakov & Gimelshein 2018 and the O(n) memory attention of Rabe & Staats 2021.
"""

from typing import NamedTuple

import numpy as np

from .tiled_memory import check_block_size
from .validation import check_count

__all__ = ["DIAGONAL", "FULL", "SKIPPED", "CausalTiles", "Traffic", "causal_tiles",
           "memory_traffic"]

SKIPPED, DIAGONAL, FULL = 0, 1, 2  # a tile's state under the causal mask


class CausalTiles(NamedTuple):
    """The causal mask seen tile by tile."""

    states: np.ndarray  # (query blocks, key blocks): SKIPPED, DIAGONAL (masked inside) or FULL
    skipped_share: float  # the share of tiles never computed
    row_starts: np.ndarray  # first query row of each query block
    col_starts: np.ndarray  # first key of each key block


def causal_tiles(n, m, block_size):
    """Which block_q × block_k tiles of the n × m grid a top-left causal mask leaves to compute.

    A tile of query rows i0 … i1 − 1 and keys j0 … j1 − 1 is SKIPPED when its first key comes
    after its last query row (j0 > i1 − 1: every score in it is blocked), FULL when its last key
    comes no later than its first query row (j1 − 1 ≤ i0: nothing in it is blocked), and
    DIAGONAL otherwise (the mask cuts through it). The same rule decides which tiles
    :func:`course_lib.tiled_backward.tiled_attention_gradients` visits.

    Parameters
    ----------
    n, m : numbers of queries and keys.
    block_size : one int or a pair (block_q, block_k).

    >>> tiles = causal_tiles(4, 4, 2)
    >>> tiles.states.tolist(), tiles.skipped_share
    ([[1, 0], [2, 1]], 0.25)
    """
    n, m = check_count(n, "n"), check_count(m, "m")
    block_q, block_k = check_block_size(block_size)
    row_starts, col_starts = np.arange(0, n, block_q), np.arange(0, m, block_k)
    last_row = np.minimum(row_starts + block_q, n)[:, None] - 1  # (query blocks, 1)
    last_col = np.minimum(col_starts + block_k, m)[None, :] - 1  # (1, key blocks)
    states = np.where(col_starts[None, :] > last_row, SKIPPED,
                      np.where(last_col <= row_starts[:, None], FULL, DIAGONAL))
    return CausalTiles(states, float(np.mean(states == SKIPPED)), row_starts, col_starts)


class Traffic(NamedTuple):
    """Bytes moved between slow and fast memory, for the whole-grid formula and tiled."""

    forward_grid: int
    forward_tiled: int
    backward_grid: int
    backward_tiled: int


def memory_traffic(n, m, d_k, d_v, block_size=128, itemsize=2, is_causal=False):
    """Bytes read from and written to slow memory (a GPU's HBM): whole grid vs tiled.

    The whole-grid formula (the "standard attention" of Dao et al. 2022) writes S, reads it,
    writes A, reads it: 4·n·m numbers forward besides Q, K, V, O. Its backward reads A twice
    (for ∂L/∂V = Aᵀ G and for the softmax backward), writes ∂L/∂A = G Vᵀ and reads it back,
    writes ∂L/∂S and reads it twice (for ∂L/∂Q and ∂L/∂K): 7·n·m numbers besides Q, K, V,
    G = ∂L/∂O and the three gradients.
    Tiled attention (FlashAttention-2, Dao 2023) reads each query block once and, for every
    tile it computes, the key block and value block again; it writes O and the logsumexp L.
    Its backward reads O and G once for D = rowsum(G ⊙ O), then per key block K and V once
    and, per tile, the query block, its G, L, D and the float32 ∂L/∂Q (read and written back).
    Counted as if every read came from slow memory: a GPU's cache (50 MB of L2 on an H100)
    serves many of tiled attention's re-reads of K and V, so it moves less still.

    Parameters
    ----------
    n, m, d_k, d_v : numbers of queries and keys, and the widths of their rows.
    block_size : one int or (block_q, block_k): rows per tile (128 is typical on a GPU).
    itemsize : bytes per number of Q, K, V, O and the gradients: 2 for float16 and bfloat16.
        L, D and the ∂L/∂Q accumulator are float32 (4 bytes).
    is_causal : count only the tiles a causal mask leaves (:func:`causal_tiles`).

    >>> t = memory_traffic(4096, 4096, 64, 64)
    >>> round(t.forward_grid / 2**20), round(t.forward_tiled / 2**20)   # MiB
    (130, 33)
    """
    sizes = {"n": n, "m": m, "d_k": d_k, "d_v": d_v, "itemsize": itemsize}
    n, m, d_k, d_v, itemsize = (check_count(v, k) for k, v in sizes.items())
    block_q, block_k = check_block_size(block_size)
    if is_causal:
        tiles = causal_tiles(n, m, (block_q, block_k))
        computed = tiles.states != SKIPPED  # (query blocks, key blocks)
    else:
        computed = np.ones((-(-n // block_q), -(-m // block_k)), dtype=bool)
    rows = np.minimum(block_q, n - np.arange(0, n, block_q))[:, None]  # (query blocks, 1)
    cols = np.minimum(block_k, m - np.arange(0, m, block_k))[None, :]  # (1, key blocks)
    tile_keys = int((computed * cols).sum())  # key rows read, summed over computed tiles
    tile_queries = int((computed * rows).sum())  # query rows read, summed over computed tiles
    forward_grid = itemsize * (n * d_k + m * d_k + m * d_v + n * d_v + 4 * n * m)
    forward_tiled = itemsize * (n * d_k + tile_keys * (d_k + d_v) + n * d_v) + 4 * n
    backward_grid = itemsize * (7 * n * m + 2 * n * d_v + 2 * m * d_v + 2 * m * d_k + 2 * n * d_k)
    backward_tiled = (itemsize * (2 * n * d_v + 2 * m * (d_k + d_v)) + 4 * n  # D, K, V, dK, dV
                      + tile_queries * (itemsize * (d_k + d_v) + 4 * (2 + 2 * d_k)))
    return Traffic(forward_grid, forward_tiled, backward_grid, backward_tiled)
