"""Scaled dot-product attention: softmax(QKᵀ/√d_k) V."""

import numpy as np

from ._blocks import attention_in_blocks
from .backend import get_array_module
from .softmax import softmax
from .validation import check_attention_inputs, check_mask, check_scale, compute_dtype

__all__ = ["scaled_dot_product_attention"]


def scaled_dot_product_attention(query, key, value, attn_mask=None, is_causal=False, scale=None,
                                 return_weights=False):
    """softmax(Q Kᵀ · scale) V, with PyTorch's conventions.

    Parameters
    ----------
    query : (..., n, d_k) — n queries ("questions").
    key : (..., m, d_k) — m keys ("labels"); leading batch axes broadcast.
    value : (..., m, d_v) — m values ("content").
    attn_mask : None, boolean (..., n, m) with True where attention is allowed, or float
        (..., n, m) added to the scores (−∞ blocks). Must broadcast to the scores' shape.
    is_causal : if True, query i sees keys 0..i only (top-left aligned, also when n ≠ m).
        Cannot be combined with ``attn_mask``.
    scale : multiplier of the scores; default 1/√d_k (that is, divide by √d_k).
    return_weights : also return the weights A.

    Returns
    -------
    output : (..., n, d_v), row i = Σⱼ A_ij v_j.
    weights : (..., n, m), only if ``return_weights``; each row sums to 1.

    A query whose keys are all masked out has nothing to attend to: its weights and its output
    row are zeros (PyTorch's CPU kernel does the same). float16 inputs are computed in float32
    and returned as float16; integer inputs are computed in float64.

    How it is computed (each step only saves time or memory; the numbers are the formula's):
    Q is multiplied by the scale, not the (n, m) scores, because it is m/d_k times smaller.
    CuPy inputs run the formula step by step on the whole grid. NumPy inputs run
    ``course_lib._blocks``: blocks of query rows whose scores stay in cache, softmax in place,
    the small (rows, d_v) output divided by the row sums instead of the (rows, m) weights,
    causal blocks that skip the keys they cannot see, and one thread per core (each asking BLAS
    for one thread) so every core works on the softmax too. That keeps it near the cost of the
    two matrix products QKᵀ and AV (``benchmarks/bench_attention.py``). The loop twin is
    ``course_lib.reference.attention_loop``.

    >>> out, weights = scaled_dot_product_attention([[1.0, 0.0]], [[1.0, 0.0], [0.0, 1.0]],
    ...                                             [[10.0], [20.0]], return_weights=True)
    >>> [round(float(w), 4) for w in weights[0]]
    [0.6698, 0.3302]
    >>> round(float(out[0, 0]), 4)
    13.3024
    """
    query, key, value, batch = check_attention_inputs(query, key, value)
    n, m = query.shape[-2], key.shape[-2]
    mask = check_mask(attn_mask, is_causal, batch, n, m, like=query)
    scale = check_scale(scale, query.shape[-1])
    xp = get_array_module(query, key, value)
    dtype = compute_dtype(query, key, value)
    q, k, v = (a.astype(dtype, copy=False) for a in (query, key, value))
    if mask is not None and mask.dtype != bool:
        mask = mask.astype(dtype, copy=False)  # a float mask is added in the compute dtype

    q = q * scale  # scaling Q (n·d_k numbers) is cheaper than S (n·m)
    if xp is np:  # by blocks of query rows, on every core (see course_lib._blocks)
        output, weights = attention_in_blocks(q, k, v, mask, is_causal, return_weights)
    else:  # CuPy: the formula as written, one whole-grid step at a time
        output, weights = _attention_whole_grid(xp, q, k, v, mask, is_causal)

    out_dtype = np.result_type(query.dtype, key.dtype, value.dtype)
    out_dtype = out_dtype if out_dtype == np.float16 else dtype  # float16 in, float16 out
    output = output.astype(out_dtype, copy=False)
    if return_weights:
        return output, weights.astype(out_dtype, copy=False)
    return output


def _attention_whole_grid(xp, q, k, v, mask, is_causal):
    """softmax(q kᵀ + mask) v with the whole (..., n, m) grid at once; q is already scaled."""
    n, m = q.shape[-2], k.shape[-2]
    scores = q @ xp.swapaxes(k, -1, -2)  # (..., n, m)
    if is_causal:
        mask = xp.tril(xp.ones((n, m), dtype=bool))  # query i sees keys 0..i
    if mask is not None and mask.dtype == bool:
        scores = xp.where(mask, scores, -xp.inf)
    elif mask is not None:
        scores = scores + mask
    weights = softmax(scores, axis=-1)  # (..., n, m), fully masked rows are 0
    return weights @ v, weights  # (..., n, d_v)
