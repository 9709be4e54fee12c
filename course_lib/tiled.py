"""Tiled attention with the online softmax: the exact result without the n×m grid.

The plain formula builds every score S_ij at once: at n = m = 32768 that grid alone is
32768² float32 numbers = 4 GiB. Tiled attention visits the keys one block at a time and
keeps, for every query row i, three small running quantities:

* the running max  Mᵢ = the largest score seen so far,
* the running sum  lᵢ = Σⱼ e^(S_ij − Mᵢ) over the keys seen so far,
* the running output accumulator  oᵢ = Σⱼ e^(S_ij − Mᵢ) v_j.

(Capital M, because m is the number of keys.) When a new block raises the max from M to M′,
everything summed before is multiplied by e^(M − M′) ≤ 1 (that is exactly how it would have
looked with M′ subtracted from the start).
After the last block, oᵢ / lᵢ is softmax(Sᵢ) V: the same number as the plain formula, up to
float rounding. The queries are tiled too, so no block ever holds more than
block_q × block_k scores. A multi-threaded version is ``course_lib.fast.tiled_attention``.
"""

from typing import NamedTuple

import numpy as np

from .backend import get_array_module
from .masks import apply_mask, causal_mask
from .prepare import prepare_attention
from .tiled_memory import check_block_size, tile_plan

__all__ = ["OnlineSoftmaxStep", "online_softmax_steps", "online_softmax_update",
           "tiled_attention"]


def tiled_attention(query, key, value, *, block_size=None, attn_mask=None, is_causal=False,
                    scale=None, enable_gqa=False, return_logsumexp=False):
    """softmax(Q Kᵀ · scale) V computed block by block with the online softmax.

    Equal to :func:`scaled_dot_product_attention` up to float rounding, but it never holds
    the n×m scores: the extra memory is one block_q × block_k block of scores (a few copies
    of it) and the output, instead of the whole score grid.

    Parameters
    ----------
    query : (..., n, d_k); key : (..., m, d_k); value : (..., m, d_v). Batch axes broadcast.
    block_size : None, an int, or a pair (block_q, block_k): how many query rows and key rows
        one block holds. None means 512 on NumPy (a 1 MiB float32 block) and 4096 on CuPy.
        It need not divide n or m. Keyword-only, like every argument after value.
    attn_mask : None, boolean (..., n, m) with True = may attend, or float added to the
        scores; it must broadcast to (..., n, m). Not together with ``is_causal``.
    is_causal : query i sees keys 0 … i only (top-left aligned, also when n ≠ m).
    scale : multiplier of the scores; default 1/√d_k.
    enable_gqa : query heads (axis −3) share key/value heads, as in
        :func:`scaled_dot_product_attention`.
    return_logsumexp : also return Lᵢ = Mᵢ + log lᵢ = log Σⱼ e^(scores of row i), the one number
        per row the backward pass needs (:mod:`course_lib.tiled_backward`).

    Returns
    -------
    output : (..., n, d_v). A query whose keys are all masked gets a row of zeros.
    logsumexp : (..., n) in the compute dtype, only if ``return_logsumexp``; −∞ for a query
        whose keys are all masked.

    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> q, k, v = rng.normal(size=(5, 4)), rng.normal(size=(7, 4)), rng.normal(size=(7, 3))
    >>> from course_lib import scaled_dot_product_attention
    >>> bool(np.allclose(tiled_attention(q, k, v, block_size=3),
    ...                  scaled_dot_product_attention(q, k, v)))
    True
    """
    q, k, v, mask, scale, xp, out_dtype, _ = prepare_attention(
        query, key, value, attn_mask, is_causal, scale, enable_gqa=enable_gqa,
        causal_as_mask=False)
    block_q, block_k, mask = tile_plan(block_size, mask, q, k, xp)  # mask: an (…, n, m) view
    n, m = q.shape[-2], k.shape[-2]
    batch = np.broadcast_shapes(q.shape[:-2], k.shape[:-2], v.shape[:-2])
    output = xp.empty(batch + (n, v.shape[-1]), dtype=q.dtype)  # (..., n, d_v)
    logsumexp = xp.empty(batch + (n,), dtype=q.dtype)  # (..., n)
    for i0 in range(0, n, block_q):  # one block of queries at a time
        rows = slice(i0, i0 + block_q)
        running_max, running_sum, acc = -xp.inf, 0.0, 0.0  # nothing seen yet
        last = min(m, i0 + block_q) if is_causal else m  # causal: later keys are never seen
        for j0 in range(0, last, block_k):  # its keys, one block at a time
            cols = slice(j0, min(j0 + block_k, last))
            scores = (q[..., rows, :] @ xp.swapaxes(k[..., cols, :], -1, -2)) * scale  # (..., r, c)
            if is_causal:
                block = causal_mask(scores.shape[-2], scores.shape[-1], diagonal=i0 - j0, like=q)
            else:
                block = None if mask is None else mask[..., rows, cols]
            running_max, running_sum, acc, _ = online_softmax_update(
                apply_mask(scores, block), v[..., cols, :], running_max, running_sum, acc)
        if bool(xp.isnan(running_max).any() | xp.isposinf(running_max).any()):  # overflowed
            raise ValueError(f"scores contain NaN or +∞ (query rows {i0} … {i0 + block_q - 1}); "
                             "only −∞ (a masked score) is allowed")
        running_sum = xp.where(running_sum > 0, running_sum, 1.0)  # fully masked rows give 0
        output[..., rows, :] = acc / running_sum[..., None]  # (..., r, d_v)
        logsumexp[..., rows] = running_max + xp.log(running_sum)  # L = M + log l (−∞: no key)
    if return_logsumexp:
        return output.astype(out_dtype, copy=False), logsumexp
    return output.astype(out_dtype, copy=False)


def online_softmax_update(scores, value_block, running_max, running_sum, acc):
    """Fold one block of scores (..., r, c) into its r query rows' running statistics.

    Returns the new (running_max (..., r), running_sum (..., r), acc (..., r, d_v)) and the
    factor e^(old max − new max) (..., r) applied to what was summed before. Start from
    running_max = −∞, running_sum = 0, acc = 0.

    >>> import numpy as np
    >>> top, total, acc, _ = online_softmax_update(np.array([[0.0, 0.0]]), np.array([[1.0], [3.0]]),
    ...                                            -np.inf, 0.0, 0.0)
    >>> top.tolist(), total.tolist(), (acc / total[:, None]).tolist()   # mean of 1 and 3
    ([0.0], [2.0], [[2.0]])
    """
    xp = get_array_module(scores)
    new_max = xp.maximum(running_max, scores.max(axis=-1))  # (..., r)
    shift = xp.where(xp.isneginf(new_max), 0.0, new_max)  # a row with no key yet stays empty
    weights = xp.exp(scores - shift[..., None])  # (..., r, c), every exponent ≤ 0
    rescale = xp.exp(running_max - shift)  # (..., r), ≤ 1: the old sums shrink to the new max
    running_sum = running_sum * rescale + weights.sum(axis=-1)  # (..., r)
    acc = acc * rescale[..., None] + weights @ value_block  # (..., r, d_v)
    return new_max, running_sum, acc, rescale


class OnlineSoftmaxStep(NamedTuple):
    """The running statistics after one key block (arrays have one entry per query row)."""

    start: int  # the block holds keys start … stop − 1
    stop: int
    block_max: object  # (n,) the largest score inside this block
    running_max: object  # (n,) Mᵢ: the largest score seen so far
    rescale: object  # (n,) e^(old max − new max): the factor applied to what came before
    running_sum: object  # (n,) lᵢ = Σⱼ e^(S_ij − Mᵢ) over the keys seen so far
    output: object  # (n, d_v) the answer if the keys stopped here: accumulator / running sum


def online_softmax_steps(query, key, value, block_size, scale=None):
    """Yield the online softmax's state after each block of keys (2-D inputs, all queries).

    The last step's ``output`` is the attention output; its ``running_sum`` times
    e^(running_max) is Σⱼ e^(S_ij). Uses the same update as :func:`tiled_attention`.

    Parameters
    ----------
    query : (n, d_k); key : (m, d_k); value : (m, d_v).
    block_size : keys per block (an int ≥ 1).
    scale : multiplier of the scores; default 1/√d_k.

    >>> steps = list(online_softmax_steps([[1.0]], [[1.0], [2.0], [3.0]], [[0.0], [1.0], [2.0]],
    ...                                   block_size=2, scale=1.0))
    >>> [(s.start, s.stop, float(s.running_max[0])) for s in steps]
    [(0, 2, 2.0), (2, 3, 3.0)]
    """
    q, k, v, _, scale, xp, _, _ = prepare_attention(query, key, value, scale=scale)
    if q.ndim != 2 or k.ndim != 2 or v.ndim != 2:
        raise ValueError(f"online_softmax_steps takes 2-D query, key and value (no batch axes); "
                         f"got shapes {q.shape}, {k.shape}, {v.shape}")
    _, block_k = check_block_size(block_size, xp)
    running_max, running_sum, acc = -xp.inf, 0.0, 0.0
    for start in range(0, k.shape[0], block_k):
        stop = min(start + block_k, k.shape[0])
        scores = (q @ k[start:stop].T) * scale  # (n, c)
        running_max, running_sum, acc, rescale = online_softmax_update(
            scores, v[start:stop], running_max, running_sum, acc)
        yield OnlineSoftmaxStep(start, stop, scores.max(axis=1), running_max, rescale,
                                running_sum, acc / running_sum[:, None])
