"""The fast forward pass: :func:`course_lib.scaled_dot_product_attention`'s numbers, sooner.

Same formula, softmax(QKᵀ · scale + mask) V, in two routes, each here for a measured reason
(``benchmarks/bench_attention.py``):

* **The output alone** goes through :func:`course_lib.fast.tiled_attention`'s tiles of 256
  query rows × 256 keys (``fast.tiled.TILE``): a tile's 256 KiB of scores, with the 64 KiB of
  keys and the 65 KiB of values it meets, stays in a core's 512 KiB L2 cache from the product
  that writes it, through exp, to the product that reads it. A
  whole (n, m) score grid would be fresh memory on each call: on virtual machines its page
  faults alone cost more than the two matrix products. When every score is known to be small
  (Cauchy–Schwarz, :func:`course_lib.fast.tiled.scores_bounded`) no tile needs the running
  max, so the online softmax costs no more than one pass of exp.
* **The weights too** (``return_weights``): the whole (…, n, m) grid is returned anyway, so
  blocks of query rows are written straight into it, exp in place, and one product at the
  end. Each block shifts its rows by their maxima only when a score could leave exp's range.
* **Threads** (:mod:`course_lib.fast.threads`): one per core, each on its own blocks.
"""

import math

import numpy as np

from ..attention import scaled_dot_product_attention
from ..masks import apply_mask, causal_mask
from ..prepare import prepare_attention
from .threads import run_tasks, thread_count
from .tiled import SAFE_EXPONENT, scores_bounded, tiles_forward

__all__ = ["attention"]

BLOCK_BYTES = 2 << 20  # the weights route: a block of rows × m weights
MAX_BLOCK_ROWS = 512  # short keys: more rows per block buy nothing more


def attention(query, key, value, attn_mask=None, is_causal=False, scale=None,
              return_weights=False):
    """:func:`course_lib.scaled_dot_product_attention` in cache-sized tiles, on every core.

    The same arguments and the same numbers (up to float rounding); CuPy inputs go to the
    plain function, which the GPU already runs in parallel.

    >>> import numpy as np
    >>> from course_lib import scaled_dot_product_attention
    >>> rng = np.random.default_rng(0)
    >>> q, k, v = rng.normal(size=(6, 4)), rng.normal(size=(9, 4)), rng.normal(size=(9, 2))
    >>> bool(np.allclose(attention(q, k, v, is_causal=True),
    ...                  scaled_dot_product_attention(q, k, v, is_causal=True)))
    True
    """
    p = prepare_attention(query, key, value, attn_mask, is_causal, scale, causal_as_mask=False)
    if p.xp is not np:
        return scaled_dot_product_attention(query, key, value, attn_mask, is_causal, scale,
                                            return_weights=return_weights)
    if not return_weights:
        output, _ = tiles_forward(p, None, is_causal)  # (..., n, d_v), tiles of TILE
        return output.astype(p.out_dtype, copy=False)
    batch = np.broadcast_shapes(p.query.shape[:-2], p.key.shape[:-2], p.value.shape[:-2])
    weights = _weights(p.query * p.scale, p.key, p.mask, is_causal, batch)  # (..., n, m)
    output = weights @ p.value  # (..., n, d_v)
    return output.astype(p.out_dtype, copy=False), weights.astype(p.out_dtype, copy=False)


def _weights(q, k, mask, is_causal, batch):
    """The weights softmax(q kᵀ + mask) (*batch, n, m) for q already scaled, cast and checked."""
    (n, _), m, dtype = q.shape[-2:], k.shape[-2], q.dtype
    if mask is not None:
        batch = np.broadcast_shapes(batch, mask.shape[:-2])
    weights = (np.zeros if is_causal else np.empty)(batch + (n, m), dtype=dtype)
    q = np.broadcast_to(q, batch + q.shape[-2:])
    k_t = np.broadcast_to(np.swapaxes(k, -1, -2).copy(), batch + (k.shape[-1], m))  # Kᵀ, once
    if mask is not None:
        mask = np.broadcast_to(mask, batch + (n, m))
    safe = scores_bounded(q, k, mask)  # every |score| ≤ SAFE_EXPONENT: exp needs no shift
    threads = thread_count(math.prod(batch) * n * m)
    rows = _block_rows(n, m, dtype, threads)
    tasks = [(b, r0, min(r0 + rows, n)) for b in np.ndindex(*batch) for r0 in range(0, n, rows)]
    if is_causal:
        tasks.reverse()  # the longest causal blocks first; the short ones even out the end

    def work(block, _):  # one block of query rows against the keys they may see
        b, r0, r1 = block
        cols = min(r1, m) if is_causal else m  # the keys these queries may see
        s = weights[b][r0:r1, :cols]  # (rows, cols) scores, written straight into the weights
        np.matmul(q[b][r0:r1], k_t[b][:, :cols], out=s)
        if is_causal and cols > r0:  # query i sees keys 0..i: blocked keys lie in columns r0..
            tail = s[:, r0:]
            apply_mask(tail, causal_mask(r1 - r0, cols - r0, like=s), out=tail)
        elif mask is not None:
            apply_mask(s, mask[b][r0:r1], out=s)  # in place: a blocked score is −∞
        s /= _exp_rows(s, batch + (n, m), safe)  # s was the scores, is E, then the weights

    run_tasks(tasks, work, threads)
    return weights


def _exp_rows(s, grid_shape, safe=False):
    """Overwrite the scores s (rows, cols) with exp(s − shift); return the row sums (rows, 1).

    ``safe``: every finite score is known to lie within ±SAFE_EXPONENT, so no shift is needed.
    Otherwise each row whose maximum lies outside that range is shifted by it. A fully masked
    row (all −∞) becomes zeros, and its sum is reported as 1 so that dividing by it leaves
    zeros instead of 0/0.
    """
    if not safe:
        top = s.max(axis=1, keepdims=True)  # (rows, 1); NaN and +∞ show up in the maximum
        if np.isnan(top).any() or np.isposinf(top).any():
            raise ValueError(f"scores contain NaN or +∞ (shape {grid_shape}); only −∞ (a "
                             "masked score) is allowed")
        if top.max() > SAFE_EXPONENT or top.min() < -SAFE_EXPONENT:  # exp would leave range
            top[np.isneginf(top)] = 0.0  # an all −∞ row: keep exp(−∞) = 0, no −∞ − (−∞)
            s -= top
    np.exp(s, out=s)  # every exponent ≤ 60 (or ≤ 0 after the shift): no overflow
    total = s.sum(axis=1, keepdims=True)  # (rows, 1)
    total[total == 0] = 1.0
    return total


def _block_rows(n, m, dtype, threads):
    """Rows per block: about BLOCK_BYTES of weights, and at least one block per thread."""
    rows = max(16, min(MAX_BLOCK_ROWS, BLOCK_BYTES // (m * np.dtype(dtype).itemsize)))
    return max(1, min(rows, -(-n // threads)))
