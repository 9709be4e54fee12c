"""The fast tiled backward: :func:`course_lib.tiled_backward.tiled_attention_gradients` on
every core, in place.

The same tiles and the same formulas, with the speed-only changes of
:mod:`course_lib.fast.tiled`: the forward's query blocks and then the backward's key blocks
are shared out over threads (BLAS held to one thread per product), each thread reuses two
tile buffers, and the tiles are updated in place. A key block's ∂L/∂K and ∂L/∂V belong to the
thread that owns the block; ∂L/∂Q gets contributions from every key block, so each thread adds
into its own copy and the copies are summed at the end (FlashAttention-2 adds them in GPU
memory with atomic additions instead). Extra memory: two tiles and one (n, d_k) copy of
∂L/∂Q per thread, besides O, the logsumexp and the gradients.
"""

import numpy as np

from ..gradients import sum_to_shape
from ..masks import apply_mask, causal_mask
from ..prepare import prepare_attention
from ..tiled_backward import tiled_attention_gradients as plain_gradients
from ..tiled_memory import check_block_size
from ..tiles import SKIPPED, causal_tiles
from .threads import run_tasks, thread_count
from .tiled import tiles_forward

__all__ = ["tiled_attention_gradients"]


def tiled_attention_gradients(query, key, value, grad_output, *, block_size=None,
                              attn_mask=None, is_causal=False, scale=None):
    """:func:`course_lib.tiled_attention_gradients` with its tiles on every core.

    The same arguments and the same numbers (up to float rounding); CuPy inputs go to the
    plain function.

    >>> import numpy as np
    >>> from course_lib import tiled_attention_gradients as plain
    >>> rng = np.random.default_rng(0)
    >>> q, k, v, g = (rng.normal(size=s) for s in [(6, 4), (9, 4), (9, 2), (6, 2)])
    >>> fast = tiled_attention_gradients(q, k, v, g, block_size=4, is_causal=True)
    >>> slow = plain(q, k, v, g, block_size=4, is_causal=True)
    >>> all(np.allclose(a, b) for a, b in zip(fast, slow))
    True
    """
    p = prepare_attention(query, key, value, attn_mask, is_causal, scale,
                          grad_output=grad_output, causal_as_mask=False)
    if p.xp is not np:
        return plain_gradients(query, key, value, grad_output, block_size=block_size,
                               attn_mask=attn_mask, is_causal=is_causal, scale=scale)
    block_q, block_k = check_block_size(block_size)
    n, m, d_k, d_v = p.query.shape[-2], p.key.shape[-2], p.query.shape[-1], p.value.shape[-1]
    batch = p.grad_output.shape[:-2]  # the broadcast batch shape
    qs = np.broadcast_to(p.query * p.scale, batch + (n, d_k))  # scale Q, not each tile
    k, v = (np.broadcast_to(a, batch + a.shape[-2:]) for a in (p.key, p.value))
    g = p.grad_output
    masks = None if p.mask is None else np.broadcast_to(p.mask, batch + (n, m))  # views
    tiles = causal_tiles(n, m, (block_q, block_k)).states if is_causal else None
    tile = (min(block_q, n), min(block_k, m))

    # Forward, query blocks over the threads: O and the logsumexp L (..., n).
    out, logsumexp = tiles_forward(p, (block_q, block_k), is_causal, return_logsumexp=True)
    row_total = np.einsum("...i,...i->...", g, out)  # (..., n): D = rowsum(G ⊙ O)
    out = None  # O was needed for D only
    logsumexp[np.isneginf(logsumexp)] = np.inf  # a row with no key: every weight e^(S − ∞) = 0

    # Backward, key blocks over the threads: each owns its ∂L/∂K, ∂L/∂V rows; ∂L/∂Q per thread.
    grad_k = np.zeros(batch + (m, d_k), dtype=qs.dtype)
    grad_v = np.zeros(batch + (m, d_v), dtype=qs.dtype)
    grad_q_copies = []

    def scratch():
        grad_q_copies.append(np.zeros(batch + (n, d_k), dtype=qs.dtype))
        return grad_q_copies[-1], np.empty(tile, dtype=qs.dtype), np.empty(tile, dtype=qs.dtype)

    def backward(task, buffers):
        b, (key_block, j0) = task
        grad_q, weights_buffer, grad_buffer = buffers
        cols = slice(j0, min(j0 + block_k, m))
        for a, i0 in enumerate(range(0, n, block_q)):
            if is_causal and tiles[a, key_block] == SKIPPED:
                continue
            rows = slice(i0, min(i0 + block_q, n))
            weights = weights_buffer[:rows.stop - i0, :cols.stop - j0]
            grad_scores = grad_buffer[:rows.stop - i0, :cols.stop - j0]
            np.matmul(qs[b][rows], k[b][cols].T, out=weights)  # scores (r, c)
            if is_causal and cols.stop - 1 > i0:  # the tile crosses the diagonal
                tile_mask = causal_mask(*weights.shape, diagonal=i0 - j0, like=weights)
            else:
                tile_mask = None if masks is None else masks[b][rows, cols]
            apply_mask(weights, tile_mask, out=weights)  # in place: a blocked score is −∞
            weights -= logsumexp[b][rows, None]
            np.exp(weights, out=weights)  # A tile = e^(S − L)
            grad_v[b][cols] += weights.T @ g[b][rows]  # (c, d_v)
            np.matmul(g[b][rows], v[b][cols].T, out=grad_scores)  # ∂L/∂A = G Vᵀ (r, c)
            grad_scores -= row_total[b][rows, None]
            grad_scores *= weights  # ∂L/∂S = A ⊙ (∂L/∂A − D)
            grad_q[b][rows] += grad_scores @ k[b][cols]  # (r, d_k), × scale at the end
            grad_k[b][cols] += grad_scores.T @ qs[b][rows]  # (c, d_k)

    key_tasks = [(b, (key_block, j0)) for b in np.ndindex(*batch)
                 for key_block, j0 in enumerate(range(0, m, block_k))]
    run_tasks(key_tasks, backward, thread_count(len(key_tasks) * tile[1] * n), scratch)
    grad_q = grad_q_copies.pop() if grad_q_copies else np.zeros(batch + (n, d_k), qs.dtype)
    for copy in grad_q_copies:  # the other threads' shares, added in place
        grad_q += copy
    grad_q *= p.scale
    return tuple(sum_to_shape(grad, a.shape).astype(p.out_dtype, copy=False)
                 for grad, a in zip((grad_q, grad_k, grad_v), (p.query, p.key, p.value),
                                    strict=True))

