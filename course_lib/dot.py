"""The dot product: one number that says how much two arrows point the same way."""

from .backend import get_array_module
from .validation import as_float_array, check_finite, check_same_last_axis
from .vectors import norm

__all__ = ["cosine_similarity", "dot"]


def dot(q, k):
    """q·k = Σᵢ qᵢ kᵢ: multiply matching slots, add the L products.

    Parameters
    ----------
    q, k : (..., L) arrays with the same number of slots L; leading axes broadcast.

    Returns
    -------
    (...) array: one number per pair of vectors.

    >>> float(dot([1.0, 2.0, 3.0], [4.0, 5.0, 6.0]))
    32.0
    >>> float(dot([1.0, 0.0], [0.0, 2.0]))   # perpendicular arrows
    0.0
    """
    q = as_float_array(q, "q")
    k = as_float_array(k, "k")
    check_same_last_axis(q, k, "q", "k")
    check_finite(q, "q")
    check_finite(k, "k")
    return (q * k).sum(axis=-1)


def cosine_similarity(q, k):
    """cos θ = q·k / (∥q∥ ∥k∥): the alignment of two arrows with their lengths divided out.

    >>> round(float(cosine_similarity([1.0, 1.0], [2.0, 2.0])), 6)
    1.0
    >>> round(float(cosine_similarity([1.0, 0.0], [-3.0, 0.0])), 6)
    -1.0
    """
    lengths = norm(q) * norm(k)
    xp = get_array_module(lengths)
    if bool((lengths == 0).any()):
        raise ValueError("cosine_similarity is undefined for a zero-length vector (it has no "
                         "direction)")
    return xp.clip(dot(q, k) / lengths, -1.0, 1.0)  # rounding can step just past ±1
