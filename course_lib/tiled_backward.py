"""The backward pass of tiled attention: ∂L/∂Q, ∂L/∂K, ∂L/∂V without the n × m grid.

:func:`course_lib.attention_gradients` builds the whole weight grid A (n × m) and four more
grids of that size. The tiled backward of FlashAttention-2 (Dao 2023) needs only two numbers
per query row, both kept from the forward pass:

* the logsumexp  Lᵢ = Mᵢ + log lᵢ = log Σⱼ e^(S_ij)  (running max and running sum at the end of
  :func:`course_lib.tiled_attention`; FlashAttention-2's name for it, not the loss L of
  ∂L/∂O), so any weight comes back from its score alone:
  A_ij = e^(S_ij − Lᵢ), no max and no sum over the row needed;
* Dᵢ = Σⱼ A_ij ∂L/∂A_ij, the row total of the softmax backward. Since ∂L/∂A_ij = gᵢ · vⱼ
  (gᵢ the row i of G = ∂L/∂O), Dᵢ = gᵢ · Σⱼ A_ij vⱼ = gᵢ · oᵢ: the rowsum of G ⊙ O, computed
  from the output without the grid.

Then each tile of block_q query rows × block_k keys is visited once: its scores are
recomputed (cheaper than storing them, Dao et al. 2022), its weights come from L, and it adds
its share to ∂L/∂Q, ∂L/∂K and ∂L/∂V (the three steps of :mod:`course_lib.gradients`).
Under a causal mask the tiles above the diagonal are skipped
(:func:`course_lib.tiles.causal_tiles`).
"""


from .gradients import sum_to_shape
from .masks import apply_mask, causal_mask
from .prepare import prepare_attention
from .tiled import tiled_attention
from .tiled_memory import tile_plan
from .tiles import SKIPPED, causal_tiles

__all__ = ["tiled_attention_gradients"]


def tiled_attention_gradients(query, key, value, grad_output, *, block_size=None,
                              attn_mask=None, is_causal=False, scale=None):
    """∂L/∂Q, ∂L/∂K, ∂L/∂V of O = softmax(Q Kᵀ · scale) V, one tile at a time.

    Equal to :func:`course_lib.attention_gradients` up to float rounding. The extra memory is
    a few tiles, the output O and two numbers per query row (L and D), besides the gradients.

    Parameters
    ----------
    query : (..., n, d_k); key : (..., m, d_k); value : (..., m, d_v). Batch axes broadcast.
    grad_output : (..., n, d_v) — G = ∂L/∂O.
    block_size, attn_mask, is_causal, scale : as in :func:`course_lib.tiled_attention`.

    Returns
    -------
    (grad_query, grad_key, grad_value) with the shapes of query, key and value; float16 and
    bfloat16 in give the same dtype out, computed in float32.

    >>> import numpy as np
    >>> from course_lib import attention_gradients
    >>> rng = np.random.default_rng(0)
    >>> q, k, v, g = (rng.normal(size=shape) for shape in [(5, 3), (7, 3), (7, 2), (5, 2)])
    >>> tiled = tiled_attention_gradients(q, k, v, g, block_size=2, is_causal=True)
    >>> plain = attention_gradients(q, k, v, g, is_causal=True)
    >>> all(np.allclose(a, b) for a, b in zip(tiled, plain))
    True
    """
    q, k, v, mask, scale, xp, out_dtype, g = prepare_attention(
        query, key, value, attn_mask, is_causal, scale, grad_output=grad_output,
        causal_as_mask=False)
    block_q, block_k, mask = tile_plan(block_size, mask, q, k, xp)  # mask: an (…, n, m) view
    n, m = q.shape[-2], k.shape[-2]
    output, logsumexp = tiled_attention(q, k, v, block_size=block_size, attn_mask=mask,
                                        is_causal=is_causal, scale=scale,
                                        return_logsumexp=True)  # (..., n, d_v), (..., n)
    row_total = (g * output).sum(axis=-1)  # (..., n): D = rowsum(G ⊙ O)
    del output  # O was needed for D only: its n·d_v numbers need not stay
    logsumexp = xp.where(xp.isneginf(logsumexp), xp.inf, logsumexp)  # a row with no key: A = 0
    tiles = causal_tiles(n, m, (block_q, block_k)).states if is_causal else None
    q_scaled = q * scale  # (..., n, d_k): scale Q once instead of every tile of scores
    grad_q = xp.zeros(g.shape[:-1] + (q.shape[-1],), dtype=q.dtype)  # (..., n, d_k), ÷ scale
    grad_k = xp.zeros(g.shape[:-2] + k.shape[-2:], dtype=q.dtype)  # (..., m, d_k)
    grad_v = xp.zeros(g.shape[:-2] + v.shape[-2:], dtype=q.dtype)  # (..., m, d_v)
    for b, j0 in enumerate(range(0, m, block_k)):  # one block of keys and values at a time
        cols = slice(j0, j0 + block_k)
        for a, i0 in enumerate(range(0, n, block_q)):  # every query block that sees them
            if is_causal and tiles[a, b] == SKIPPED:
                continue  # above the diagonal: every score blocked, nothing to add
            rows = slice(i0, i0 + block_q)
            scores = q_scaled[..., rows, :] @ xp.swapaxes(k[..., cols, :], -1, -2)  # (..., r, c)
            if is_causal:
                block = causal_mask(scores.shape[-2], scores.shape[-1], diagonal=i0 - j0, like=q)
            else:
                block = None if mask is None else mask[..., rows, cols]
            weights = xp.exp(apply_mask(scores, block) - logsumexp[..., rows, None])  # A tile
            grad_v[..., cols, :] += xp.swapaxes(weights, -1, -2) @ g[..., rows, :]  # Aᵀ G
            grad_weights = g[..., rows, :] @ xp.swapaxes(v[..., cols, :], -1, -2)  # G Vᵀ
            grad_scores = weights * (grad_weights - row_total[..., rows, None])  # (..., r, c)
            grad_q[..., rows, :] += grad_scores @ k[..., cols, :]  # (..., r, d_k)
            grad_k[..., cols, :] += xp.swapaxes(grad_scores, -1, -2) @ q_scaled[..., rows, :]
    grads = (grad_q * scale, grad_k, grad_v)  # the scale of ∂L/∂Q, applied once
    return tuple(sum_to_shape(grad, a.shape).astype(out_dtype, copy=False)
                 for grad, a in zip(grads, (q, k, v), strict=True))
