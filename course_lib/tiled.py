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
block_q × block_k scores.
"""

from typing import NamedTuple

import numpy as np

from ._threads import run_tasks, thread_count
from .backend import get_array_module
from .validation import check_attention_inputs, check_mask, check_scale, compute_dtype

__all__ = ["OnlineSoftmaxStep", "attention_memory", "online_softmax_steps", "tiled_attention"]

DEFAULT_BLOCK = {"numpy": 512, "cupy": 4096}  # a 512×512 float32 block is 1 MiB: fits in cache


def _check_block_size(block_size, xp):
    """``block_size``: None (the default for the backend), one int, or (block_q, block_k)."""
    if block_size is None:
        size = DEFAULT_BLOCK["numpy" if xp is np else "cupy"]
        return size, size
    pair = block_size if isinstance(block_size, (tuple, list)) else (block_size, block_size)
    if len(pair) != 2:
        raise ValueError(f"block_size must be one int or a pair (block_q, block_k); got "
                         f"{block_size!r}")
    for size in pair:
        if isinstance(size, bool) or not isinstance(size, (int, np.integer)):
            raise TypeError(f"block_size must be a positive int (or a pair of them); got "
                            f"{block_size!r}")
        if size < 1:
            raise ValueError(f"block_size must be at least 1 (rows per block); got {block_size!r}")
    return int(pair[0]), int(pair[1])


def _absorb_block(scores, value_block, running_max, running_sum, acc):
    """Fold one block of scores (r, c) into the running statistics of its r query rows.

    Updates ``running_max`` (r,), ``running_sum`` (r,) and ``acc`` (r, d_v) in place, overwrites
    ``scores`` with e^(S − new max) and returns the factor e^(old max − new max) (r,).
    """
    xp = get_array_module(scores)
    new_max = xp.maximum(running_max, scores.max(axis=1))  # (r,)
    shift = xp.where(xp.isneginf(new_max), 0.0, new_max)  # a row with no key yet stays empty
    xp.subtract(scores, shift[:, None], out=scores)
    xp.exp(scores, out=scores)  # every exponent ≤ 0: nothing overflows
    rescale = xp.exp(running_max - shift)  # ≤ 1: what was summed under the old max shrinks
    running_sum *= rescale
    running_sum += scores.sum(axis=1)
    acc *= rescale[:, None]
    acc += scores @ value_block  # (r, c) @ (c, d_v) -> (r, d_v)
    running_max[...] = new_max
    return rescale


def _mask_block(scores, mask, is_causal, i0, j0):
    """Write −∞ (or add the float mask) into one block of scores, in place."""
    xp = get_array_module(scores)
    r, c = scores.shape
    if is_causal and j0 + c - 1 > i0:  # the block crosses the diagonal: query i sees keys ≤ i
        blocked = (j0 + xp.arange(c))[None, :] > (i0 + xp.arange(r))[:, None]
        scores[blocked] = -xp.inf
    elif mask is not None and mask.dtype == bool:
        scores[~mask[i0:i0 + r, j0:j0 + c]] = -xp.inf
    elif mask is not None:
        scores += mask[i0:i0 + r, j0:j0 + c]


def _query_block(qs, k, v, mask, is_causal, i0, block_k, out, buffer):
    """Attention for the query rows i0 … i0 + r − 1 of one 2-D problem, one key block at a time."""
    xp = get_array_module(qs)
    r, m = out.shape[0], k.shape[0]
    running_max = xp.full(r, -xp.inf, dtype=out.dtype)
    running_sum = xp.zeros(r, dtype=out.dtype)
    acc = xp.zeros(out.shape, dtype=out.dtype)  # (r, d_v)
    last = min(m, i0 + r) if is_causal else m  # causal: keys after the block's last row are unseen
    for j0 in range(0, last, block_k):
        j1 = min(j0 + block_k, last)
        if buffer is None:
            scores = qs @ k[j0:j1].T  # (r, c)
        else:
            scores = buffer[:r, :j1 - j0]
            np.matmul(qs, k[j0:j1].T, out=scores)  # reuse one buffer: no fresh memory per block
        _mask_block(scores, mask, is_causal, i0, j0)
        _absorb_block(scores, v[j0:j1], running_max, running_sum, acc)
    xp.divide(acc, xp.where(running_sum > 0, running_sum, 1.0)[:, None], out=out)  # empty row → 0


def tiled_attention(query, key, value, block_size=None, is_causal=False, scale=None,
                    attn_mask=None):
    """softmax(Q Kᵀ · scale) V computed block by block with the online softmax.

    Equal to :func:`scaled_dot_product_attention` up to float rounding, but it never holds
    the n×m scores: the extra memory is O(block_q·block_k + n·d) (one score block per thread,
    the scaled queries, the output, and the running max and sum of each query row) instead
    of the O(n·m) score grid.

    Parameters
    ----------
    query : (..., n, d_k); key : (..., m, d_k); value : (..., m, d_v). Batch axes broadcast.
    block_size : None, an int, or a pair (block_q, block_k): how many query rows and key rows
        one block holds. None means 512 on NumPy (a 1 MiB float32 block) and 4096 on CuPy.
        It need not divide n or m.
    is_causal : query i sees keys 0 … i only (top-left aligned, also when n ≠ m).
    scale : multiplier of the scores; default 1/√d_k.
    attn_mask : None, boolean (..., n, m) with True = may attend, or float added to the
        scores; it must broadcast to (..., n, m). Not together with ``is_causal``.

    Returns
    -------
    output : (..., n, d_v) on the inputs' array library. A query whose keys are all masked
    gets a row of zeros, as in :func:`scaled_dot_product_attention`.

    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> q, k, v = rng.normal(size=(5, 4)), rng.normal(size=(7, 4)), rng.normal(size=(7, 3))
    >>> from course_lib import scaled_dot_product_attention
    >>> bool(np.allclose(tiled_attention(q, k, v, block_size=3),
    ...                  scaled_dot_product_attention(q, k, v)))
    True
    """
    query, key, value, batch = check_attention_inputs(query, key, value)
    n, m, d_v = query.shape[-2], key.shape[-2], value.shape[-1]
    xp = get_array_module(query, key, value)
    mask = check_mask(attn_mask, is_causal, batch, n, m, like=query)
    scale = check_scale(scale, query.shape[-1])
    block_q, block_k = _check_block_size(block_size, xp)
    dtype = compute_dtype(query, key, value)

    qs = xp.broadcast_to(query.astype(dtype, copy=False) * scale, batch + query.shape[-2:])
    k = xp.broadcast_to(key.astype(dtype, copy=False), batch + key.shape[-2:])
    v = xp.broadcast_to(value.astype(dtype, copy=False), batch + value.shape[-2:])
    masks = None if mask is None else xp.broadcast_to(mask, batch + (n, m))  # views, no copies
    out = xp.empty(batch + (n, d_v), dtype=dtype)
    tasks = [(b, i0) for b in np.ndindex(*batch) for i0 in range(0, n, block_q)]

    def work(task, buffer):
        b, i0 = task
        i1 = min(i0 + block_q, n)
        _query_block(qs[b][i0:i1], k[b], v[b], None if masks is None else masks[b], is_causal,
                     i0, block_k, out[b][i0:i1], buffer)

    if xp is np:  # threads over query blocks (course_lib/_threads.py), one buffer each
        threads = thread_count(len(tasks) * min(block_q, n) * m)
        run_tasks(tasks, work, threads,
                  lambda: np.empty((min(block_q, n), min(block_k, m)), dtype=dtype))
    else:  # CuPy runs each block on the GPU already
        for task in tasks:
            work(task, None)

    out_dtype = np.result_type(query.dtype, key.dtype, value.dtype)
    return out.astype(out_dtype if out_dtype == np.float16 else dtype, copy=False)


class OnlineSoftmaxStep(NamedTuple):
    """The running statistics after one key block (arrays have one entry per query row)."""

    start: int  # the block holds keys start … stop − 1
    stop: int
    block_max: object  # (n,) the largest score inside this block
    running_max: object  # (n,) mᵢ: the largest score seen so far
    rescale: object  # (n,) e^(old max − new max): the factor applied to what came before
    running_sum: object  # (n,) lᵢ = Σⱼ e^(S_ij − mᵢ) over the keys seen so far
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
    query, key, value, batch = check_attention_inputs(query, key, value)
    if batch:
        raise ValueError(f"online_softmax_steps takes 2-D query, key and value (no batch axes); "
                         f"got batch axes {batch}")
    xp = get_array_module(query, key, value)
    _, block_k = _check_block_size(block_size, xp)
    dtype = compute_dtype(query, key, value)
    qs = query.astype(dtype, copy=False) * check_scale(scale, query.shape[-1])
    k, v = key.astype(dtype, copy=False), value.astype(dtype, copy=False)
    n, m = qs.shape[0], k.shape[0]
    running_max = xp.full(n, -xp.inf, dtype=dtype)
    running_sum = xp.zeros(n, dtype=dtype)
    acc = xp.zeros((n, v.shape[1]), dtype=dtype)
    for start in range(0, m, block_k):
        stop = min(start + block_k, m)
        scores = qs @ k[start:stop].T  # (n, c)
        block_max = scores.max(axis=1)
        rescale = _absorb_block(scores, v[start:stop], running_max, running_sum, acc)
        yield OnlineSoftmaxStep(start, stop, block_max, running_max.copy(), rescale,
                                running_sum.copy(), acc / running_sum[:, None])


def attention_memory(n, m, d_k, d_v, block_size=512, itemsize=4, batch=1, threads=1):
    """Bytes of working memory: (the plain formula's score grids, tiled attention's extra).

    The plain formula holds n·m scores per batch element (per head). Tiled attention holds one
    block_q × block_k score block per thread (``threads`` of them; 1 by default), and per
    batch element the scaled queries (n·d_k), the output (n·d_v) and two running numbers per
    query row (2n). ``itemsize`` is the bytes per number: 2 for float16, 4 for float32, 8 for
    float64.

    >>> grid, tiled = attention_memory(32768, 32768, 64, 64)
    >>> grid / 2**30, round(tiled / 2**20, 2)   # GiB, MiB
    (4.0, 17.25)
    >>> round(attention_memory(32768, 32768, 64, 64, threads=2)[1] / 2**20, 2)  # one more block
    18.25
    """
    sizes = (("n", n), ("m", m), ("d_k", d_k), ("d_v", d_v), ("itemsize", itemsize),
             ("batch", batch), ("threads", threads))
    for name, size in sizes:
        if isinstance(size, bool) or not isinstance(size, (int, np.integer)) or size < 1:
            raise ValueError(f"{name} must be a positive int; got {size!r}")
    block_q, block_k = _check_block_size(block_size, np)
    grid = batch * n * m
    tiled = threads * min(block_q, n) * min(block_k, m) + batch * n * (d_k + d_v + 2)
    return grid * itemsize, tiled * itemsize
