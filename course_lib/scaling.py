"""Scaling the scores by 1/√d_k, and the variance that explains why."""

import math

import numpy as np

from .dot import dot
from .matrices import score_grid
from .validation import check_count

__all__ = ["check_scale", "default_scale", "sample_dot_products", "scaled_scores"]


def default_scale(d_k):
    """The multiplier 1/√d_k (dividing by √d_k). d_k is the number of slots of a
    query or key, not the model width.

    >>> default_scale(64)
    0.125
    """
    return 1.0 / math.sqrt(check_count(d_k, "d_k (the length of the query and key rows)"))


def check_scale(scale, d_k):
    """The score multiplier: :func:`default_scale` when ``scale`` is None, otherwise a positive
    finite number.

    >>> check_scale(None, 16), check_scale(2, 16)
    (0.25, 2.0)
    """
    if scale is None:
        return default_scale(d_k)
    if isinstance(scale, (str, bytes, bool, np.bool_)):  # float("0.5") and float(True) work
        raise TypeError(f"scale must be a number; got {scale!r}")
    try:
        value = float(scale)
    except (TypeError, ValueError):
        raise TypeError(f"scale must be a number; got {scale!r}") from None
    if not math.isfinite(value) or value <= 0:
        raise ValueError(f"scale must be a positive finite number (it multiplies the scores); "
                         f"got {scale!r}")
    return value


def scaled_scores(query, key, scale=None):
    """S / √d_k: the score grid QKᵀ multiplied by ``scale`` (default 1/√d_k).

    Parameters
    ----------
    query : (..., n, d_k)
    key : (..., m, d_k)
    scale : positive float or None (1/√d_k).

    Returns
    -------
    (..., n, m) scaled scores.

    >>> scaled_scores([[2.0, 2.0, 2.0, 2.0]], [[1.0, 1.0, 1.0, 1.0]]).tolist()   # 8 / √4
    [[4.0]]
    """
    scores = score_grid(query, key)  # (..., n, m)
    return scores * check_scale(scale, np.shape(query)[-1])  # scale defaults to 1/√d_k


def sample_dot_products(d_k, size, rng, scale=1.0):
    """Draw ``size`` dot products q·k of random vectors with d_k independent N(0, 1) slots.

    Their variance is d_k (each of the d_k products qᵢkᵢ has variance 1, and independent
    variances add); multiplying by ``scale = 1/√d_k`` brings it back to 1.

    Parameters
    ----------
    d_k : number of slots per vector.
    size : how many (q, k) pairs to draw.
    rng : a ``numpy.random.Generator`` (the only source of randomness).
    scale : multiplier applied to each dot product.

    Returns
    -------
    (size,) NumPy array.

    >>> import numpy as np
    >>> samples = sample_dot_products(16, 20_000, np.random.default_rng(0))
    >>> 15.0 < float(samples.var()) < 17.0
    True
    """
    default_scale(d_k)  # validates d_k
    q = rng.standard_normal((size, d_k))
    k = rng.standard_normal((size, d_k))
    return dot(q, k) * scale
