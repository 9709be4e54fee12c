"""The gradient of attention by hand: the backward pass through AV, the row softmax and QKᵀ.

Forward, in three steps:  S = Q Kᵀ · scale  →  A = softmax(S) row by row  →  O = A V.
Given G = ∂L/∂O (how the loss L changes with each output number), go back one step at a time:

1. O = A V:         ∂L/∂V = Aᵀ G          and   ∂L/∂A = G Vᵀ
2. A = softmax(S):  ∂L/∂S_ij = A_ij (∂L/∂A_ij − Σ_l A_il ∂L/∂A_il)   (one row at a time)
3. S = Q Kᵀ·scale:  ∂L/∂Q = scale · (∂L/∂S) K   and   ∂L/∂K = scale · (∂L/∂S)ᵀ Q

Five matrix products in all: Q Kᵀ (recomputed, as GPU kernels do, instead of stored), then four.
Step 2 is where saturation bites: when a row of A is nearly one-hot, every A_ij is 0 or the
bracket is 0, so almost no gradient reaches the scores (notebook 08, measured in notebook 13).
"""

import numpy as np

from .backend import get_array_module
from .validation import (
    as_float_array,
    broadcasts_to,
    check_attention_inputs,
    check_finite,
    check_mask,
    check_scale,
    compute_dtype,
)

__all__ = ["attention_gradients", "score_gradients", "softmax_backward"]


def softmax_backward(weights, grad_weights):
    """∂L/∂S from ∂L/∂A through a row softmax: A ⊙ (∂L/∂A − Σⱼ A_ij ∂L/∂A_ij), row by row.

    This is the softmax Jacobian diag(a) − a aᵀ applied to each row, without building the
    (m, m) matrix.

    Parameters
    ----------
    weights : (..., m) softmax weights A (rows sum to 1, or are all 0 when fully masked).
    grad_weights : (..., m) ∂L/∂A, the same shape.

    Returns
    -------
    (..., m) ∂L/∂S.

    >>> softmax_backward([0.5, 0.5], [1.0, 0.0]).tolist()     # J = [[.25, -.25], [-.25, .25]]
    [0.25, -0.25]
    >>> [abs(float(x)) for x in softmax_backward([1.0, 0.0], [1.0, 0.0])]   # saturated: nothing
    [0.0, 0.0]
    """
    weights = as_float_array(weights, "weights")
    grad_weights = as_float_array(grad_weights, "grad_weights")
    if weights.shape != grad_weights.shape:
        raise ValueError(f"weights {weights.shape} and grad_weights {grad_weights.shape} must "
                         "have the same shape")
    row_total = (weights * grad_weights).sum(axis=-1, keepdims=True)  # (..., 1)
    return weights * (grad_weights - row_total)


def _sum_to_shape(grad, shape):
    """Undo broadcasting: add up the gradient over the axes an input was stretched along."""
    extra = grad.ndim - len(shape)
    if extra:
        grad = grad.sum(axis=tuple(range(extra)))
    stretched = tuple(i for i, size in enumerate(shape) if size == 1 and grad.shape[i] != 1)
    if stretched:
        grad = grad.sum(axis=stretched, keepdims=True)
    return grad


def _attention_weights(q, k, mask, is_causal, scale):
    """A = softmax(Q Kᵀ · scale) recomputed in one n×m buffer (the same maths as
    :func:`softmax`, done in place because the backward pass is measured for speed)."""
    xp = get_array_module(q, k)
    n, m = q.shape[-2], k.shape[-2]
    scores = (q * scale) @ xp.swapaxes(k, -1, -2)  # (..., n, m); scaling Q is cheaper than S
    if is_causal:
        mask = xp.tril(xp.ones((n, m), dtype=bool))  # query i sees keys 0..i
    if mask is not None and mask.dtype == bool:
        xp.copyto(scores, -xp.inf, where=~mask)  # blocked scores become −∞
    elif mask is not None:
        scores += mask.astype(scores.dtype, copy=False)
    top = scores.max(axis=-1, keepdims=True)  # (..., n, 1)
    top[xp.isneginf(top)] = 0.0  # a fully masked row: exp(−∞ − 0) = 0, no −∞ − (−∞)
    scores -= top  # every exponent ≤ 0: no overflow
    xp.exp(scores, out=scores)
    total = scores.sum(axis=-1, keepdims=True)
    total[total == 0] = 1.0  # fully masked rows stay 0 instead of 0/0
    scores *= 1.0 / total
    return scores


def _prepare(query, key, value, grad_output, attn_mask, is_causal, scale):
    """Check everything; return the arrays in the compute dtype, the mask, the scale, the
    array module and the output dtype."""
    query, key, value, batch = check_attention_inputs(query, key, value)
    n, m, d_v = query.shape[-2], key.shape[-2], value.shape[-1]
    grad_output = as_float_array(grad_output, "grad_output", 2)
    out_shape = tuple(batch) + (n, d_v)
    if not broadcasts_to(grad_output.shape, out_shape):
        raise ValueError(f"grad_output of shape {grad_output.shape} must match the output's "
                         f"shape {out_shape} (batch..., n, d_v)")
    check_finite(grad_output, "grad_output")
    mask = check_mask(attn_mask, is_causal, batch, n, m, like=query)
    scale = check_scale(scale, query.shape[-1])
    xp = get_array_module(query, key, value, grad_output)
    dtype = compute_dtype(query, key, value, grad_output)
    q, k, v, g = (a.astype(dtype, copy=False) for a in (query, key, value, grad_output))
    g = xp.broadcast_to(g, out_shape)  # G has one row per output row, batch axes included
    out_dtype = np.result_type(query.dtype, key.dtype, value.dtype, grad_output.dtype)
    out_dtype = out_dtype if out_dtype == np.float16 else dtype
    shapes = (query.shape, key.shape, value.shape)
    return q, k, v, g, mask, scale, xp, out_dtype, shapes


def attention_gradients(query, key, value, grad_output, attn_mask=None, is_causal=False,
                        scale=None):
    """∂L/∂Q, ∂L/∂K, ∂L/∂V of O = softmax(Q Kᵀ · scale) V, given G = ∂L/∂O.

    Parameters
    ----------
    query : (..., n, d_k)
    key : (..., m, d_k)
    value : (..., m, d_v)
    grad_output : (..., n, d_v) — G = ∂L/∂O, one number per output number.
    attn_mask, is_causal, scale : exactly as in :func:`scaled_dot_product_attention` (a masked
        score gets no gradient; a fully masked row, whose output is the constant 0, passes none).

    Returns
    -------
    (grad_query, grad_key, grad_value) with the shapes of query, key and value (gradients of
    broadcast batch axes are added up). float16 in gives float16 out, computed in float32.

    >>> import numpy as np
    >>> q, k, v = np.array([[1.0, 0.0]]), np.eye(2), np.array([[1.0], [3.0]])
    >>> dq, dk, dv = attention_gradients(q, k, v, grad_output=np.ones((1, 1)), scale=1.0)
    >>> [round(float(x), 4) for x in dv[:, 0]]           # = the weights A
    [0.7311, 0.2689]
    >>> [round(float(x), 4) for x in dq[0]]    # more of q's 1st slot favours key 0's smaller value
    [-0.3932, 0.3932]
    """
    q, k, v, g, mask, scale, xp, out_dtype, shapes = _prepare(query, key, value, grad_output,
                                                              attn_mask, is_causal, scale)
    weights = _attention_weights(q, k, mask, is_causal, scale)  # (..., n, m), forward again

    # Step 1, O = A V.
    grad_value = xp.swapaxes(weights, -1, -2) @ g  # (..., m, d_v)
    grad_scores = g @ xp.swapaxes(v, -1, -2)  # (..., n, m), ∂L/∂A for now
    # Step 2, the row softmax: ∂L/∂S = A ⊙ (∂L/∂A − row total), in place in the same buffer.
    row_total = xp.einsum("...ij,...ij->...i", weights, grad_scores)  # (..., n)
    grad_scores -= row_total[..., None]
    grad_scores *= weights
    # Step 3, S = Q Kᵀ · scale: scale the small results, not the n×m grid.
    grad_query = (grad_scores @ k) * scale  # (..., n, d_k)
    grad_key = (xp.swapaxes(grad_scores, -1, -2) @ q) * scale  # (..., m, d_k)

    return tuple(_sum_to_shape(grad, shape).astype(out_dtype, copy=False)
                 for grad, shape in zip((grad_query, grad_key, grad_value), shapes, strict=True))


def score_gradients(query, key, value, grad_output, attn_mask=None, is_causal=False,
                    scale=None):
    """The weights A and the gradient reaching the scores the softmax sees, ∂L/∂(S·scale).

    Steps 1 and 2 of the backward pass only: this is where a saturated softmax cuts the
    gradient off (notebook 13 plots its size as d_k grows). The gradient with respect to the
    unscaled S = QKᵀ is ``scale`` times this one.

    Parameters are those of :func:`attention_gradients`.

    Returns
    -------
    weights : (..., n, m)
    grad_scores : (..., n, m); each row adds up to 0 (adding a constant to a row of scores
        changes nothing).

    >>> import numpy as np
    >>> a, ds = score_gradients([[1.0, 0.0]], np.eye(2), [[1.0], [3.0]], [[1.0]], scale=1.0)
    >>> [round(float(x), 4) for x in ds[0]]
    [-0.3932, 0.3932]
    """
    q, k, v, g, mask, scale, xp, out_dtype, _ = _prepare(query, key, value, grad_output,
                                                         attn_mask, is_causal, scale)
    weights = _attention_weights(q, k, mask, is_causal, scale)
    grad_weights = g @ xp.swapaxes(v, -1, -2)  # (..., n, m)
    grad_scores = softmax_backward(weights, grad_weights)
    return weights.astype(out_dtype, copy=False), grad_scores.astype(out_dtype, copy=False)
