"""The fast tiled attention: :func:`course_lib.tiled.tiled_attention` on every core, in place.

The same online softmax, with three speed-only changes: the query blocks are shared out over
threads (:mod:`course_lib.fast.threads`), each thread reuses one score buffer for all its
blocks, and the running max, sum and output are updated in place instead of as new arrays.
The extra memory stays one score block per thread plus O(n·d) (``attention_memory`` with
``threads``).
"""

import numpy as np

from ..masks import apply_mask, causal_mask
from ..prepare import prepare_attention
from ..tiled import tiled_attention as plain_tiled_attention
from ..tiled_memory import check_block_size
from .threads import run_tasks, thread_count

__all__ = ["tiled_attention"]


def tiled_attention(query, key, value, *, block_size=None, attn_mask=None, is_causal=False,
                    scale=None, return_logsumexp=False):
    """:func:`course_lib.tiled_attention` with its query blocks on every core.

    The same arguments and the same numbers (up to float rounding); CuPy inputs go to the
    plain function. With ``return_logsumexp`` it also returns each row's logsumexp (..., n),
    in the compute dtype, as the plain function does (the fast backward starts from it).

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
    block_q, block_k = check_block_size(block_size)
    n, m, d_v = p.query.shape[-2], p.key.shape[-2], p.value.shape[-1]
    batch = np.broadcast_shapes(p.query.shape[:-2], p.key.shape[:-2], p.value.shape[:-2])
    qs = np.broadcast_to(p.query * p.scale, batch + (n, p.query.shape[-1]))  # scale Q, not S
    k = np.broadcast_to(p.key, batch + p.key.shape[-2:])
    v = np.broadcast_to(p.value, batch + p.value.shape[-2:])
    masks = None if p.mask is None else np.broadcast_to(p.mask, batch + (n, m))  # views
    out = np.empty(batch + (n, d_v), dtype=qs.dtype)
    logsumexp = np.empty(batch + (n,), dtype=qs.dtype) if return_logsumexp else None
    tasks = [(b, i0) for b in np.ndindex(*batch) for i0 in range(0, n, block_q)]

    def work(task, buffer):
        b, i0 = task
        rows = slice(i0, min(i0 + block_q, n))
        _query_block(qs[b][rows], k[b], v[b], None if masks is None else masks[b], is_causal,
                     i0, block_k, out[b][rows], buffer,
                     None if logsumexp is None else logsumexp[b][rows])

    threads = thread_count(len(tasks) * min(block_q, n) * m)
    run_tasks(tasks, work, threads,
              lambda: np.empty((min(block_q, max(n, 1)), min(block_k, m)), dtype=qs.dtype))
    if return_logsumexp:
        return out.astype(p.out_dtype, copy=False), logsumexp
    return out.astype(p.out_dtype, copy=False)


def _query_block(qs, k, v, mask, is_causal, i0, block_k, out, buffer, logsumexp=None):
    """Attention for the query rows i0 … i0 + r − 1 of one 2-D problem, one key block at a time.

    With ``logsumexp`` (r,), also writes each row's L = M + log l there (−∞: no key seen).
    """
    r, m = out.shape[0], k.shape[0]
    running_max = np.full(r, -np.inf, dtype=out.dtype)
    running_sum = np.zeros(r, dtype=out.dtype)
    acc = np.zeros(out.shape, dtype=out.dtype)  # (r, d_v)
    last = min(m, i0 + r) if is_causal else m  # causal: keys after the block's last row are unseen
    for j0 in range(0, last, block_k):
        j1 = min(j0 + block_k, last)
        scores = buffer[:r, :j1 - j0]
        np.matmul(qs, k[j0:j1].T, out=scores)  # (r, c), in the thread's own buffer
        if is_causal and j1 - 1 > i0:  # the block crosses the diagonal
            block = causal_mask(r, j1 - j0, diagonal=i0 - j0, like=scores)
        else:
            block = None if mask is None else mask[i0:i0 + r, j0:j1]
        apply_mask(scores, block, out=scores)  # in place: a blocked score is −∞
        new_max = np.maximum(running_max, scores.max(axis=1))  # (r,)
        shift = np.where(np.isneginf(new_max), 0.0, new_max)  # no key yet: the row stays empty
        scores -= shift[:, None]
        np.exp(scores, out=scores)  # every exponent ≤ 0
        rescale = np.exp(running_max - shift)  # (r,) ≤ 1
        running_sum *= rescale
        running_sum += scores.sum(axis=1)
        acc *= rescale[:, None]
        acc += scores @ v[j0:j1]  # (r, d_v)
        running_max[...] = new_max
    np.divide(acc, np.where(running_sum > 0, running_sum, 1.0)[:, None], out=out)  # empty → 0
    if logsumexp is not None:  # what course_lib.fast.tiled_backward starts from
        logsumexp[...] = running_max + np.log(np.where(running_sum > 0, running_sum, 1.0))
