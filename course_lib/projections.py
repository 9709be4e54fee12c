"""Where Q, K and V come from: each is the sentence grid X times a weight matrix.

A model learns three matrices W_Q, W_K, W_V; every word's row of X is multiplied by each, so
row 𝐪ᵢ of Q, row 𝐤ᵢ of K and row 𝐯ᵢ of V are three different views of word i.
"""

from .validation import as_float_array, check_finite

__all__ = ["project", "projections"]


def project(x, weight):
    """X W: row i of the result is row i of X times the weight matrix, Σₜ X_it W_tj.

    Parameters
    ----------
    x : (..., n, d_model) one row per word.
    weight : (d_model, d) a learned weight matrix.

    Returns
    -------
    (..., n, d) array.

    >>> project([[1.0, 2.0]], [[1.0, 0.0, 1.0], [0.0, 1.0, 1.0]]).tolist()
    [[1.0, 2.0, 3.0]]
    """
    x = as_float_array(x, "x", 2)
    weight = as_float_array(weight, "weight", 2)
    if weight.ndim != 2 or weight.shape[0] != x.shape[-1]:
        raise ValueError(f"weight must have shape (d_model, d) with d_model = {x.shape[-1]} "
                         f"(the columns of x {tuple(x.shape)}); got {tuple(weight.shape)}")
    check_finite(x, "x")
    check_finite(weight, "weight")
    return x @ weight  # (..., n, d_model) @ (d_model, d) -> (..., n, d)


def projections(x, w_q, w_k, w_v):
    """Q = X W_Q, K = X W_K, V = X W_V: the queries, keys and values of a sentence grid X.

    Parameters
    ----------
    x : (n, d_model); w_q, w_k : (d_model, d_k); w_v : (d_model, d_v).

    Returns
    -------
    query (n, d_k), key (n, d_k), value (n, d_v).

    >>> x = [[1.0, 0.0]]
    >>> q, k, v = projections(x, [[2.0], [0.0]], [[0.0], [3.0]], [[1.0, 1.0], [0.0, 0.0]])
    >>> q.tolist(), k.tolist(), v.tolist()
    ([[2.0]], [[0.0]], [[1.0, 1.0]])
    """
    return project(x, w_q), project(x, w_k), project(x, w_v)
