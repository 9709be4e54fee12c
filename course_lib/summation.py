"""Σ, the summation sign, as code: add up the slots of a list between two slot numbers.

Slot numbers follow the maths, counted from 1: Σᵢ₌ₐᵇ qᵢ = q_a + … + q_b includes both ends.
Python counts positions from 0, so slot i lives at position i − 1.
"""

from .backend import get_array_module
from .validation import as_float_array, check_finite

__all__ = ["partial_sums", "sigma"]


def sigma(q, start=1, stop=None):
    """Add slots ``start`` to ``stop`` of q, both included, counted from 1: the Σ of qᵢ for
    i from start to stop.

    Parameters
    ----------
    q : (L,) array of numbers.
    start, stop : slot numbers with 1 ≤ start and stop ≤ L (stop defaults to L).
        An empty range (stop = start − 1) sums to 0.

    Returns
    -------
    float: the sum.

    >>> sigma([1.0, 2.0, 3.0])            # q₁ + q₂ + q₃
    6.0
    >>> sigma([1.0, 2.0, 3.0, 4.0], 2, 3)  # q₂ + q₃
    5.0
    """
    q = as_float_array(q, "q")
    check_finite(q, "q")
    if q.ndim != 1:
        raise ValueError(f"q must be one list of numbers (1 axis); got shape {q.shape}")
    length = q.shape[0]
    stop = length if stop is None else stop
    if not 1 <= start <= length + 1 or not start - 1 <= stop <= length:
        raise ValueError(f"slots {start} to {stop} do not fit a list of {length} slots "
                         "(slot numbers run from 1 to L)")
    return float(q[start - 1:stop].sum())  # slot i sits at Python position i − 1


def partial_sums(q):
    """The running totals q₁, q₁ + q₂, q₁ + q₂ + q₃, …: entry L − 1 is Σᵢ₌₁ᴸ qᵢ.

    Parameters
    ----------
    q : (..., L) array; the sums run along the last axis.

    Returns
    -------
    (..., L) array of running totals.

    >>> partial_sums([1.0, 2.0, 3.0]).tolist()
    [1.0, 3.0, 6.0]
    """
    q = as_float_array(q, "q")
    check_finite(q, "q")
    xp = get_array_module(q)
    return xp.cumsum(q, axis=-1)
