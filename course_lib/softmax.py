"""Softmax: turn a row of scores into weights that are non-negative and sum to 1."""

from .backend import get_array_module
from .validation import as_float_array, check_axis, compute_dtype, output_dtype

__all__ = ["jacobian_norm", "softmax", "softmax_jacobian", "softmax_naive"]


def softmax_naive(x, axis=-1):
    """eˣⁱ / Σⱼ eˣʲ taken literally; overflows past scores of ~709 in float64 (notebook 07).

    This one deliberately skips every check: it exists to show why :func:`softmax` is written
    the way it is.

    >>> [round(float(w), 4) for w in softmax_naive([1.0, 2.0, 3.0])]
    [0.09, 0.2447, 0.6652]
    """
    xp = get_array_module(x)
    e = xp.exp(xp.asarray(x, dtype=float))
    return e / e.sum(axis=axis, keepdims=True)


def softmax(x, axis=-1):
    """Numerically stable softmax along ``axis``: eˣⁱ⁻ᶜ / Σⱼ eˣʲ⁻ᶜ with c the largest score.

    Subtracting c changes nothing mathematically (it cancels between the top and the bottom)
    but keeps every exponent ≤ 0, so nothing overflows. A score of −∞ means "masked": its
    weight is exactly 0, and a row that is entirely −∞ gives all zeros (nothing to attend to).

    Parameters
    ----------
    x : array of scores, at least 1 axis; NaN and +∞ are rejected.
    axis : the axis that sums to 1 (the key axis, -1, in attention).

    Returns
    -------
    Array of the same shape: float16 in → float16 out (computed in float32); ints → float64.

    >>> [round(float(w), 4) for w in softmax([1.0, 2.0, 3.0])]
    [0.09, 0.2447, 0.6652]
    >>> softmax([1000.0, 1000.0]).tolist()      # the naive formula gives nan here
    [0.5, 0.5]
    """
    x = as_float_array(x, "scores")
    axis = check_axis(x, axis, "scores")
    xp = get_array_module(x)
    work = x.astype(compute_dtype(x), copy=False)  # float16 is computed in float32
    c = work.max(axis=axis, keepdims=True)  # the row max; a NaN or +∞ anywhere shows up in it
    if bool(xp.isnan(c).any() | xp.isposinf(c).any()):
        raise ValueError(f"scores contain NaN or +∞ (shape {x.shape}); only −∞ (a masked score) "
                         "is allowed")
    c = xp.where(xp.isneginf(c), 0.0, c)  # an all −∞ row: keep exp(−∞) = 0, avoid −∞ − (−∞)
    e = xp.exp(work - c)  # every exponent ≤ 0: no overflow
    total = e.sum(axis=axis, keepdims=True)
    weights = e / xp.where(total > 0, total, 1.0)  # all-masked rows stay 0 instead of 0/0
    return weights.astype(output_dtype(x), copy=False)


def softmax_jacobian(p):
    """The slopes of softmax: J = diag(p) − p pᵀ, with J_ij = ∂pᵢ/∂xⱼ.

    Parameters
    ----------
    p : (..., m) softmax weights (the output of :func:`softmax`).

    Returns
    -------
    (..., m, m) array. When p is nearly one-hot every entry is nearly 0: the saturated softmax
    passes almost no gradient back.

    >>> softmax_jacobian([0.5, 0.5]).tolist()
    [[0.25, -0.25], [-0.25, 0.25]]
    """
    p = as_float_array(p, "p")
    xp = get_array_module(p)
    outer = p[..., :, None] * p[..., None, :]  # (..., m, m)
    return xp.eye(p.shape[-1], dtype=outer.dtype) * p[..., :, None] - outer


def jacobian_norm(p):
    """The size of softmax's slopes at ``p``: ‖J‖ = √(Σᵢⱼ Jᵢⱼ²) with J = diag(p) − p pᵀ.

    Parameters
    ----------
    p : (..., m) softmax weights.

    Returns
    -------
    (...) array of Frobenius norms (a 0-d value for one row). A one-hot row gives 0: a
    saturated softmax passes no gradient back.

    >>> round(float(jacobian_norm([0.5, 0.5])), 3)   # four entries ±0.25
    0.5
    >>> jacobian_norm([[0.0, 1.0], [0.5, 0.5]]).tolist()
    [0.0, 0.5]
    """
    jacobian = softmax_jacobian(p)  # (..., m, m)
    xp = get_array_module(jacobian)
    return xp.sqrt((jacobian * jacobian).sum(axis=(-2, -1)))  # (...)
