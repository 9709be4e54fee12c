"""Scaled dot-product attention: softmax(QKᵀ/√d_k) V."""

from .masks import apply_mask
from .prepare import prepare_attention
from .softmax import softmax

__all__ = ["attention_formula", "scaled_dot_product_attention"]


def scaled_dot_product_attention(query, key, value, attn_mask=None, is_causal=False, scale=None,
                                 enable_gqa=False, return_weights=False):
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
    enable_gqa : grouped-query attention, as in PyTorch: the H query heads on axis −3 share the
        G key/value heads (H a multiple of G; head h uses key/value head h // (H / G)).
    return_weights : also return the weights A.

    Returns
    -------
    output : (..., n, d_v), row i = Σⱼ A_ij 𝐯ⱼ (a blend of the rows 𝐯ⱼ of V).
    weights : (..., n, m), only if ``return_weights``; each row sums to 1.

    A query whose keys are all masked out has nothing to attend to: its weights and its output
    row are zeros (PyTorch's CPU kernel does the same). float16 and bfloat16 (``ml_dtypes``,
    NumPy only) inputs are computed in float32 and returned in their own dtype; integer inputs
    are computed in float64. The same lines run on NumPy and on CuPy. The loop twin is
    ``course_lib.reference.attention_loop``; a faster version of the same numbers is
    ``course_lib.fast.attention``.

    >>> out, weights = scaled_dot_product_attention([[1.0, 0.0]], [[1.0, 0.0], [0.0, 1.0]],
    ...                                             [[10.0], [20.0]], return_weights=True)
    >>> [round(float(w), 4) for w in weights[0]]
    [0.6698, 0.3302]
    >>> round(float(out[0, 0]), 4)
    13.3024
    """
    q, k, v, mask, scale, _, out_dtype, _ = prepare_attention(query, key, value, attn_mask,
                                                               is_causal, scale,
                                                               enable_gqa=enable_gqa)
    output, weights = attention_formula(q, k, v, mask, scale)
    if return_weights:
        return output.astype(out_dtype, copy=False), weights.astype(out_dtype, copy=False)
    return output.astype(out_dtype, copy=False)


def attention_formula(query, key, value, mask, scale):
    """softmax(Q Kᵀ · scale) V on arrays that are already checked; returns (output, weights).

    The formula itself: :func:`scaled_dot_product_attention` checks its inputs once (with
    :func:`course_lib.prepare.prepare_attention`) and calls this; a model calls it directly
    on the queries, keys and values it computed itself, in every layer.

    Parameters
    ----------
    query : (..., n, d_k); key : (..., m, d_k); value : (..., m, d_v), the same float dtype.
    mask : None, or boolean (True = may attend) / float broadcasting to (..., n, m).
    scale : the multiplier of the scores, e.g. 1/√d_k.

    >>> import numpy as np
    >>> out, weights = attention_formula(np.zeros((1, 2)), np.zeros((2, 2)),
    ...                                  np.array([[1.0], [3.0]]), None, 0.5)
    >>> weights.tolist(), out.tolist()
    ([[0.5, 0.5]], [[2.0]])
    """
    scores = (query @ key.swapaxes(-1, -2)) * scale  # (..., n, m)
    scores = apply_mask(scores, mask)  # (..., n, m), a blocked score is −∞
    weights = softmax(scores, axis=-1)  # (..., n, m), rows sum to 1 (fully masked rows: 0)
    return weights @ value, weights  # (..., n, d_v), (..., n, m)
