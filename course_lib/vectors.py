"""Vectors and their length (the norm)."""

from .backend import get_array_module
from .validation import as_float_array, check_finite

__all__ = ["norm"]


def norm(q, axis=-1):
    """Length of a vector: ∥q∥ = √(q₁² + q₂² + … + q_L²).

    Parameters
    ----------
    q : (..., L) array of numbers; each vector lies along ``axis``.

    Returns
    -------
    (...) array (a plain float for a single vector): one length per vector.

    >>> float(norm([3.0, 4.0]))
    5.0
    >>> norm([[3.0, 4.0], [1.0, 0.0]]).tolist()
    [5.0, 1.0]
    """
    q = as_float_array(q, "q")
    check_finite(q, "q")
    xp = get_array_module(q)
    return xp.sqrt((q * q).sum(axis=axis))  # square every slot, add, take the square root
