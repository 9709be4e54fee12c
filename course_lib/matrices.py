"""Stacking vectors into matrices, and the score grid S = QKᵀ."""

from .backend import get_array_module
from .validation import as_float_array, check_finite, check_same_last_axis

__all__ = ["score_grid"]


def score_grid(query, key):
    """S = Q Kᵀ: every query's dot product with every key, S_ij = q_i · k_j.

    Parameters
    ----------
    query : (..., n, d_k)
    key : (..., m, d_k)

    Returns
    -------
    (..., n, m) array of scores: row i belongs to query i, column j to key j.

    >>> score_grid([[1.0, 0.0], [0.0, 1.0]], [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]).tolist()
    [[1.0, 3.0, 5.0], [2.0, 4.0, 6.0]]
    """
    query = as_float_array(query, "query", 2)
    key = as_float_array(key, "key", 2)
    check_same_last_axis(query, key, "query", "key")
    check_finite(query, "query")
    check_finite(key, "key")
    xp = get_array_module(query, key)
    return query @ xp.swapaxes(key, -1, -2)  # (n, d_k) @ (d_k, m) -> (n, m)
