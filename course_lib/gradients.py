"""The gradient of attention by hand: the backward pass through AV, the row softmax and QKᵀ.

Forward, in three steps:  S = Q Kᵀ · scale  →  A = softmax(S) row by row  →  O = A V.
Given G = ∂L/∂O (how the loss L changes with each output number), go back one step at a time:

1. O = A V:         ∂L/∂V = Aᵀ G          and   ∂L/∂A = G Vᵀ
2. A = softmax(S):  ∂L/∂S_ij = A_ij (∂L/∂A_ij − Σ_l A_il ∂L/∂A_il)   (one row at a time)
3. S = Q Kᵀ·scale:  ∂L/∂Q = scale · (∂L/∂S) K   and   ∂L/∂K = scale · (∂L/∂S)ᵀ Q

Five matrix products in all: Q Kᵀ (recomputed instead of stored, here as the whole n×m grid;
GPU kernels recompute it tile by tile from the forward's logsumexp, as
:func:`course_lib.tiled_backward.tiled_attention_gradients` does), then four.
Step 2 is where saturation bites: when a row of A is nearly one-hot, every A_ij is 0 or the
bracket is 0, so almost no gradient reaches the scores (notebook 08, measured in notebook 13).
"""

from .masks import apply_mask
from .prepare import prepare_attention
from .softmax import softmax
from .validation import as_float_array

__all__ = ["attention_gradients", "score_gradients", "softmax_backward", "sum_to_shape"]


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
    grad_scores = grad_weights - row_total  # (..., m), a new array: the input stays as given
    grad_scores *= weights
    return grad_scores


def sum_to_shape(grad, shape):
    """Undo broadcasting: add up the gradient over the axes an input was stretched along.

    An input of ``shape`` that broadcasting stretched to ``grad.shape`` was used once per copy,
    so its gradient is the sum over the copies.

    >>> import numpy as np
    >>> sum_to_shape(np.ones((2, 3, 4)), (1, 4)).tolist()   # 2 × 3 copies of each number
    [[6.0, 6.0, 6.0, 6.0]]
    """
    extra = grad.ndim - len(shape)
    if extra:
        grad = grad.sum(axis=tuple(range(extra)))
    stretched = tuple(i for i, size in enumerate(shape) if size == 1 and grad.shape[i] != 1)
    if stretched:
        grad = grad.sum(axis=stretched, keepdims=True)
    return grad


def _weights(q, k, mask, scale, xp):
    """A = softmax(Q Kᵀ · scale + mask): the forward pass again, recomputed instead of stored."""
    scores = (q * scale) @ xp.swapaxes(k, -1, -2)  # (..., n, m); scaling Q is n·d_k products
    return softmax(apply_mask(scores, mask), axis=-1)  # (..., n, m)


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
    q, k, v, mask, scale, xp, out_dtype, g = prepare_attention(query, key, value, attn_mask,
                                                               is_causal, scale,
                                                               grad_output=grad_output)
    weights = _weights(q, k, mask, scale, xp)  # (..., n, m)
    grad_value = xp.swapaxes(weights, -1, -2) @ g  # step 1: (..., m, d_v)
    grad_weights = g @ xp.swapaxes(v, -1, -2)  # step 1: (..., n, m)
    grad_scores = softmax_backward(weights, grad_weights)  # step 2: (..., n, m)
    grad_query = (grad_scores @ k) * scale  # step 3: (..., n, d_k)
    grad_key = (xp.swapaxes(grad_scores, -1, -2) @ q) * scale  # step 3: (..., m, d_k)
    return tuple(sum_to_shape(grad, a.shape).astype(out_dtype, copy=False)
                 for grad, a in zip((grad_query, grad_key, grad_value), (q, k, v), strict=True))


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
    q, k, v, mask, scale, xp, out_dtype, g = prepare_attention(query, key, value, attn_mask,
                                                               is_causal, scale,
                                                               grad_output=grad_output)
    weights = _weights(q, k, mask, scale, xp)  # (..., n, m)
    grad_weights = g @ xp.swapaxes(v, -1, -2)  # (..., n, m)
    grad_scores = softmax_backward(weights, grad_weights)  # (..., n, m)
    return weights.astype(out_dtype, copy=False), grad_scores.astype(out_dtype, copy=False)
