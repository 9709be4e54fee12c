"""The fast forward pass: :func:`course_lib.scaled_dot_product_attention`'s numbers, sooner.

Same formula, softmax(QKᵀ · scale + mask) V, computed one block of query rows at a time.
Each trick is here for a measured reason (``benchmarks/bench_attention.py``):

* **Blocks of query rows.** The scores of ``rows`` queries against all m keys (about 2 MiB)
  stay in the cache while the softmax passes over them, and one scratch buffer per thread is
  reused for every block. A whole (n, m) score grid would be fresh memory on each call: on
  virtual machines its page faults alone cost more than the two matrix products.
* **In place.** Subtracting the row maximum, exp and the masks write into the scores buffer
  (``np.exp(s, out=s)``): no temporaries the size of the block.
* **Shift only when needed.** exp(s − c) / Σ exp(s − c) is the same for every c. When every
  score is known to lie within ±60 (exp then stays far from float32's overflow at 88.7 and its
  underflow at −87.3), exp runs on the scores as they are: no pass for the row maxima and no
  subtraction. The bound is Cauchy–Schwarz, |𝐪ᵢ·𝐤ⱼ| ≤ ∥𝐪ᵢ∥ ∥𝐤ⱼ∥ (plus the largest float
  mask value), computed from the n + m row lengths; when it is larger, each block checks its
  row maxima and shifts the rows that need it, as :func:`course_lib.softmax` always does.
* **Scale Q, not S.** Q has n·d_k numbers, the scores n·m.
* **Normalise the small side.** Without ``return_weights`` the unnormalised weights E go
  straight into E V, and the (rows, d_v) result is divided by the row sums, instead of
  dividing the (rows, m) weights (d_v is usually much smaller than m).
* **Kᵀ laid out once.** The products q Kᵀ read a contiguous copy of Kᵀ (m·d_k numbers).
* **Causal blocks skip the keys they cannot see.** Queries r0..r1-1 see keys 0..r1-1 only, so
  the later columns are never computed (about half the work).
* **Threads** (:mod:`course_lib.fast.threads`): one per core, each on its own blocks.
"""

import math

import numpy as np

from ..attention import scaled_dot_product_attention
from ..masks import apply_mask, causal_mask
from ..prepare import prepare_attention
from .threads import run_tasks, thread_count

__all__ = ["attention"]

BLOCK_BYTES = 2 << 20  # a block's scores (rows × m) stay in cache; best measured of 0.25-4 MiB
MAX_BLOCK_ROWS = 512  # short keys: more rows per block buy nothing more
SAFE_EXPONENT = 60.0  # |row max| below this: exp(s) needs no shift (float32 exp spans ±87)


def attention(query, key, value, attn_mask=None, is_causal=False, scale=None,
              return_weights=False):
    """:func:`course_lib.scaled_dot_product_attention` by blocks of query rows, on every core.

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
    output, weights = _in_blocks(p.query * p.scale, p.key, p.value, p.mask, is_causal,
                                 return_weights)
    if return_weights:
        return output.astype(p.out_dtype, copy=False), weights.astype(p.out_dtype, copy=False)
    return output.astype(p.out_dtype, copy=False)


def _in_blocks(q, k, v, mask, is_causal, return_weights):
    """softmax(q kᵀ + mask) v for NumPy arrays already scaled, cast and checked."""
    (n, d_k), (m, d_v), dtype = q.shape[-2:], v.shape[-2:], q.dtype
    grid = np.broadcast_shapes(q.shape[:-2], k.shape[:-2], () if mask is None else mask.shape[:-2])
    if return_weights:  # the whole grid is returned anyway: fill it, then one product
        weights = (np.zeros if is_causal else np.empty)(grid + (n, m), dtype=dtype)
        batch = grid
    else:
        batch = np.broadcast_shapes(grid, v.shape[:-2])
        output = np.empty(batch + (n, d_v), dtype=dtype)
        v = np.broadcast_to(v, batch + (m, d_v))
    q = np.broadcast_to(q, batch + (n, d_k))
    k_t = np.broadcast_to(np.swapaxes(k, -1, -2).copy(), batch + (d_k, m))  # Kᵀ laid out once
    if mask is not None:
        mask = np.broadcast_to(mask, batch + (n, m))

    safe = _scores_bounded(q, k, mask)  # every |score| ≤ SAFE_EXPONENT: exp needs no shift
    threads = thread_count(math.prod(batch) * n * m)
    rows = _block_rows(n, m, dtype, threads)
    tasks = [(b, r0, min(r0 + rows, n)) for b in np.ndindex(*batch) for r0 in range(0, n, rows)]
    if is_causal:
        tasks.reverse()  # the longest causal blocks first; the short ones even out the end

    def scratch():  # each thread's own buffer for its blocks' scores
        return None if return_weights else np.empty(rows * m, dtype=dtype)

    def work(block, buffer):  # one block of query rows against the keys they may see
        b, r0, r1 = block
        cols = min(r1, m) if is_causal else m  # the keys these queries may see
        if return_weights:  # (rows, cols) scores, written straight into the weights
            s = weights[b][r0:r1, :cols]
        else:
            s = buffer[:(r1 - r0) * cols].reshape(r1 - r0, cols)
        np.matmul(q[b][r0:r1], k_t[b][:, :cols], out=s)  # (rows, cols) scores
        if is_causal and cols > r0:  # query i sees keys 0..i: blocked keys lie in columns r0..
            tail = s[:, r0:]
            apply_mask(tail, causal_mask(r1 - r0, cols - r0, like=s), out=tail)
        elif mask is not None:
            apply_mask(s, mask[b][r0:r1], out=s)  # in place: a blocked score is −∞
        total = _exp_rows(s, grid + (n, m), safe)  # s is now E = exp(s − shift)
        if return_weights:
            s /= total  # weights, each row sums to 1
        else:
            out = output[b][r0:r1]
            np.matmul(s, v[b][:cols], out=out)  # (rows, d_v), rows of E V
            out /= total  # dividing (rows, d_v) is cheaper than dividing (rows, m)

    run_tasks(tasks, work, threads, scratch)
    if return_weights:
        return weights @ v, weights  # (..., n, d_v)
    return output, None


def _scores_bounded(q, k, mask):
    """Whether |𝐪ᵢ·𝐤ⱼ + mask| ≤ SAFE_EXPONENT for every score, by Cauchy–Schwarz."""
    squares = (np.einsum("...i,...i->...", a, a).max(initial=0.0) for a in (q, k))  # ∥row∥²
    largest = float(np.sqrt(next(squares) * next(squares)))
    if mask is not None and mask.dtype != bool and mask.size:
        finite = mask[np.isfinite(mask)]  # −∞ only blocks; it cannot overflow
        largest += float(np.abs(finite).max(initial=0.0))
    return largest <= SAFE_EXPONENT


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
    """Rows per block: about BLOCK_BYTES of scores, and at least one block per thread."""
    rows = max(16, min(MAX_BLOCK_ROWS, BLOCK_BYTES // (m * np.dtype(dtype).itemsize)))
    return max(1, min(rows, -(-n // threads)))
