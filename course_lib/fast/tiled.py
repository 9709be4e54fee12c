"""The fast tiled attention: :func:`course_lib.tiled.tiled_attention` on every core, in place.

The same online softmax, with speed-only changes, each here for a measured reason
(``benchmarks/bench_attention.py``, ``bench_tiled.py``):

* **Threads** (:mod:`course_lib.fast.threads`): the query blocks are shared out over the
  cores; each thread reuses one score buffer for all its tiles.
* **In place**: the mask, exp and the running numbers are updated inside those buffers.
* **Scale Q, not S**: Q has n·d_k numbers, the scores n·m.
* **Kᵀ laid out once**: a (d_k, m) copy whose columns j0 … j1 are each tile's right-hand side;
  BLAS multiplies by it 11% faster than by the transposed view ``k[j0:j1].T`` (88 against
  99 µs for a 256 × 64 × 256 product on one core here).
* **The running sum rides along with the output**: V gets a column of ones, so one product
  E·[V | 1] gives each row's Σⱼ E_ij V_j and Σⱼ E_ij together, and one multiplication by
  e^(M − M′) rescales both (no separate pass over the tile for the row sums).
* **Shift only when needed**: e^(s − c) / Σ e^(s − c) is the same for every c. When every score
  is known to lie within ±60 (exp then stays far from float32's overflow at 88.7 and its
  underflow at −87.3), exp runs on the scores as they are: no pass for the row maxima, no
  subtraction and no rescaling. The bound is Cauchy–Schwarz, |𝐪ᵢ·𝐤ⱼ| ≤ ∥𝐪ᵢ∥ ∥𝐤ⱼ∥ (plus the
  largest float mask value), computed from the n + m row lengths; when it is larger, each tile
  subtracts the running max, as :func:`course_lib.tiled.online_softmax_update` does.

The extra memory stays one score tile per thread (``attention_memory`` with ``threads``) plus
O((n + m)·d): the scaled queries, Kᵀ, the output and the copy [V | 1] (8.5 MiB in float32 at
m = 32768, d_v = 64).
"""

import numpy as np

from ..masks import apply_mask, causal_mask
from ..prepare import prepare_attention
from ..tiled import tiled_attention as plain_tiled_attention
from ..tiled_memory import check_block_size
from .threads import run_tasks, thread_count

__all__ = ["SAFE_EXPONENT", "TILE", "scores_bounded", "tiled_attention", "tiles_forward"]

SAFE_EXPONENT = 60.0  # |score| below this: exp(s) needs no shift (float32 exp spans ±87)
TILE = (256, 256)  # the default query rows × keys: 256 KiB of float32 scores, with the 64 KiB
# of keys and 65 KiB of values a tile meets, inside one core's 512 KiB L2 cache here


def tiled_attention(query, key, value, *, block_size=None, attn_mask=None, is_causal=False,
                    scale=None, return_logsumexp=False):
    """:func:`course_lib.tiled_attention` with its query blocks on every core.

    The same arguments and the same numbers (up to float rounding); CuPy inputs go to the
    plain function. ``block_size=None`` means :data:`TILE`, 256 × 256, sized for the cache
    (the plain function's 512 × 512 are sized for memory). With ``return_logsumexp`` it also
    returns each row's logsumexp (..., n), in the compute dtype, as the plain function does
    (the fast backward starts from it).

    >>> import numpy as np
    >>> from course_lib import tiled_attention as plain
    >>> rng = np.random.default_rng(0)
    >>> q, k, v = rng.normal(size=(6, 4)), rng.normal(size=(9, 4)), rng.normal(size=(9, 2))
    >>> bool(np.allclose(tiled_attention(q, k, v, block_size=4), plain(q, k, v, block_size=4)))
    True
    """
    p = prepare_attention(query, key, value, attn_mask, is_causal, scale, causal_as_mask=False)
    if p.xp is not np:
        return plain_tiled_attention(query, key, value, block_size=block_size,
                                     attn_mask=attn_mask, is_causal=is_causal, scale=scale,
                                     return_logsumexp=return_logsumexp)
    out, logsumexp = tiles_forward(p, block_size, is_causal, return_logsumexp)
    if return_logsumexp:
        return out.astype(p.out_dtype, copy=False), logsumexp
    return out.astype(p.out_dtype, copy=False)


def tiles_forward(p, block_size, is_causal, return_logsumexp=False):
    """The online softmax over tiles, for NumPy inputs already through the door.

    Parameters
    ----------
    p : a :class:`course_lib.prepare.Prepared` (``causal_as_mask=False``).
    block_size, is_causal : as in :func:`tiled_attention` (None: :data:`TILE`).

    Returns
    -------
    output : (..., n, d_v) in the compute dtype.
    logsumexp : (..., n), or None unless ``return_logsumexp``.
    """
    block_q, block_k = check_block_size(TILE if block_size is None else block_size)
    n, m, d_v = p.query.shape[-2], p.key.shape[-2], p.value.shape[-1]
    batch = np.broadcast_shapes(p.query.shape[:-2], p.key.shape[:-2], p.value.shape[:-2])
    scaled = p.query * p.scale  # (..., n, d_k): scale Q, not S
    qs = np.broadcast_to(scaled, batch + scaled.shape[-2:])
    key_t = np.ascontiguousarray(np.swapaxes(p.key, -1, -2))  # (..., d_k, m): Kᵀ, once
    k_t = np.broadcast_to(key_t, batch + key_t.shape[-2:])
    ones = np.ones(p.value.shape[:-1] + (1,), dtype=p.value.dtype)
    v1 = np.broadcast_to(np.concatenate([p.value, ones], axis=-1), batch + (m, d_v + 1))
    masks = None if p.mask is None else np.broadcast_to(p.mask, batch + (n, m))  # views
    safe = scores_bounded(scaled, p.key, p.mask)  # every |score| ≤ SAFE_EXPONENT
    out = np.empty(batch + (n, d_v), dtype=qs.dtype)
    logsumexp = np.empty(batch + (n,), dtype=qs.dtype) if return_logsumexp else None
    tasks = [(b, i0) for b in np.ndindex(*batch) for i0 in range(0, n, block_q)]
    if is_causal:
        tasks.reverse()  # the longest causal blocks first; the short ones even out the end
    tile = (min(block_q, max(n, 1)), min(block_k, m))

    def scratch():  # each thread's own buffers: a score tile, the accumulator [Σ E V | Σ E]
        return np.empty(tile, dtype=qs.dtype), np.empty((tile[0], d_v + 1), dtype=qs.dtype)

    def work(task, buffers):
        b, i0 = task
        rows = slice(i0, min(i0 + block_q, n))
        _query_block(qs[b][rows], k_t[b], v1[b], None if masks is None else masks[b], is_causal,
                     i0, block_k, safe, out[b][rows], buffers,
                     None if logsumexp is None else logsumexp[b][rows])

    run_tasks(tasks, work, thread_count(len(tasks) * tile[0] * m), scratch)
    return out, logsumexp


def _query_block(qs, k_t, v1, mask, is_causal, i0, block_k, safe, out, buffers, logsumexp=None):
    """Attention for the query rows i0 … i0 + r − 1 of one 2-D problem, one key block at a time.

    ``k_t`` is Kᵀ (d_k, m); ``v1`` is [V | 1] (m, d_v + 1); the accumulator's last column is
    the running sum. With
    ``logsumexp`` (r,), also writes each row's L = M + log l there (−∞: no key seen).
    """
    scores_buffer, acc_buffer = buffers
    r, m = out.shape[0], k_t.shape[1]
    acc = acc_buffer[:r]  # (r, d_v + 1): Σⱼ e^(S_ij − M) [𝐯ⱼ | 1]
    acc[...] = 0.0
    running_max = np.zeros(r, dtype=out.dtype) if safe else np.full(r, -np.inf, dtype=out.dtype)
    last = min(m, i0 + r) if is_causal else m  # causal: keys after the block's last row are unseen
    for j0 in range(0, last, block_k):
        j1 = min(j0 + block_k, last)
        scores = scores_buffer[:r, :j1 - j0]
        np.matmul(qs, k_t[:, j0:j1], out=scores)  # (r, c), in the thread's own buffer
        if is_causal and j1 - 1 > i0:  # the block crosses the diagonal
            block = causal_mask(r, j1 - j0, diagonal=i0 - j0, like=scores)
        else:
            block = None if mask is None else mask[i0:i0 + r, j0:j1]
        if block is not None:
            apply_mask(scores, block, out=scores)  # in place: a blocked score is −∞
        if not safe:  # subtract the running max: every exponent ≤ 0
            new_max = np.maximum(running_max, scores.max(axis=1))  # (r,)
            if np.isnan(new_max).any() or np.isposinf(new_max).any():
                raise ValueError(f"scores contain NaN or +∞ (rows {i0}…{i0 + r - 1}); only −∞ (a "
                                 "masked score) is allowed")
            shift = np.where(np.isneginf(new_max), 0.0, new_max)  # no key yet: the row stays empty
            scores -= shift[:, None]
            acc *= np.exp(running_max - shift)[:, None]  # (r, 1) ≤ 1: e^(M − M′)
            running_max[...] = new_max
        np.exp(scores, out=scores)  # E, every exponent ≤ 60 (or ≤ 0 after the shift)
        acc += scores @ v1[j0:j1]  # (r, d_v + 1): E [V | 1]
    total = acc[:, -1:]  # (r, 1) the running sum l
    np.divide(acc[:, :-1], np.where(total > 0, total, 1.0), out=out)  # empty rows → 0
    if logsumexp is not None:  # what course_lib.fast.tiled_backward starts from
        logsumexp[...] = -np.inf  # a row with no key
        np.log(total[:, 0], out=logsumexp, where=total[:, 0] > 0)
        logsumexp += running_max  # L = M + log l (M = 0 when unshifted)


def scores_bounded(query, key, mask=None):
    """Whether |𝐪ᵢ·𝐤ⱼ + mask| ≤ SAFE_EXPONENT for every score, by Cauchy–Schwarz.

    ``query`` is already scaled. True means exp can take the scores without a shift.

    >>> import numpy as np
    >>> q, k = np.ones((2, 4)), np.ones((3, 4))   # ∥𝐪ᵢ∥ ∥𝐤ⱼ∥ = 2 · 2
    >>> scores_bounded(q, k), scores_bounded(20 * q, k)   # 4 and 80
    (True, False)
    """
    squares = (np.einsum("...i,...i->...", a, a).max(initial=0.0) for a in (query, key))
    largest = float(np.sqrt(next(squares) * next(squares)))  # max ∥𝐪ᵢ∥ · max ∥𝐤ⱼ∥
    if mask is not None and mask.dtype != bool and mask.size:
        finite = mask[np.isfinite(mask)]  # −∞ only blocks; it cannot overflow
        largest += float(np.abs(finite).max(initial=0.0))
    return largest <= SAFE_EXPONENT
