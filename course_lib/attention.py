"""Scaled dot-product attention: softmax(QKᵀ/√d_k) V."""

import numpy as np

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

    >>> out, weights = scaled_dot_product_attention([[1.0, 0.0]], [[1.0, 0.0], [0.0, 1.0]],
    ...                                             [[10.0], [20.0]], return_weights=True)
    >>> [round(float(w), 4) for w in weights[0]]
    [0.6698, 0.3302]
    >>> round(float(out[0, 0]), 4)
    13.3024
    """
    query, key, value, batch = check_attention_inputs(query, key, value)
    n, m = query.shape[-2], key.shape[-2]
    mask = check_mask(attn_mask, is_causal, batch, n, m)
    scale = check_scale(scale, query.shape[-1])
    xp = get_array_module(query, key, value)
    dtype = compute_dtype(query, key, value)
    q, k, v = (a.astype(dtype, copy=False) for a in (query, key, value))

    scores = (q * scale) @ xp.swapaxes(k, -1, -2)  # (..., n, m); scaling Q is cheaper than S
    if is_causal:
        mask = xp.tril(xp.ones((n, m), dtype=bool))  # query i sees keys 0..i
    if mask is not None and mask.dtype == bool:
        scores = xp.where(mask, scores, -xp.inf)
    elif mask is not None:
        scores = scores + mask.astype(dtype, copy=False)
    weights = softmax(scores, axis=-1)  # (..., n, m), fully masked rows are 0
    output = weights @ v  # (..., n, d_v)

    out_dtype = np.result_type(query.dtype, key.dtype, value.dtype)
    out_dtype = out_dtype if out_dtype == np.float16 else dtype  # float16 in, float16 out
    output = output.astype(out_dtype, copy=False)
    if return_weights:
        return output, weights.astype(out_dtype, copy=False)
    return output
