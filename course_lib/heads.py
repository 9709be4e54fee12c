"""Reading a trained model's heads: one number per head that says what the head does.

Each function takes attention weights A of shape (..., n, n) — one causal grid per head,
e.g. ``lm.attention_weights(ids)`` of shape (layers, heads, n, n) — and returns one score per
grid, shape (...). Row 0 is left out of the averages: under the causal mask the first token
can only look at itself, so its row is 1 on the diagonal whatever the head does.

* :func:`previous_token_score`: the mean weight on the token just before (A[i, i − 1]);
* :func:`sink_score`: the mean weight on the first token (A[i, 0]), an "attention sink";
* :func:`weight_on`: the weight one query puts on one key, e.g. "it" on "cat";
* :func:`row_peakedness`: how close the rows are to one-hot (the √d_k's effect, notebook 08);
* :func:`strongest_heads`: the heads with the highest score.
"""

from typing import NamedTuple

import numpy as np

from .validation import as_float_array, check_count

__all__ = ["Peakedness", "previous_token_score", "row_peakedness", "sink_score",
           "strongest_heads", "weight_on"]


def _check_grids(weights):
    weights = as_float_array(weights, "weights", min_ndim=2)
    n, m = weights.shape[-2:]
    if n != m or n < 2:
        raise ValueError(f"weights must be square causal grids (..., n, n) with n ≥ 2 (a row "
                         f"besides the first); got shape {weights.shape}")
    return weights


def previous_token_score(weights):
    """Mean over rows i = 1 … n − 1 of A[i, i − 1]: how much a head looks one token back.

    >>> a = np.array([[1.0, 0.0, 0.0], [0.9, 0.1, 0.0], [0.1, 0.7, 0.2]])
    >>> round(float(previous_token_score(a)), 4)   # (0.9 + 0.7) / 2
    0.8
    """
    weights = _check_grids(weights)
    return np.diagonal(weights, offset=-1, axis1=-2, axis2=-1).mean(axis=-1)  # (...)


def sink_score(weights):
    """Mean over rows i = 1 … n − 1 of A[i, 0]: how much a head parks on the first token.

    >>> a = np.array([[1.0, 0.0, 0.0], [0.9, 0.1, 0.0], [0.1, 0.7, 0.2]])
    >>> round(float(sink_score(a)), 4)   # (0.9 + 0.1) / 2
    0.5
    """
    weights = _check_grids(weights)
    return weights[..., 1:, 0].mean(axis=-1)  # (...)


def weight_on(weights, query, key):
    """A[query, key]: how much token ``query`` takes from token ``key`` (key ≤ query).

    >>> a = np.array([[1.0, 0.0, 0.0], [0.9, 0.1, 0.0], [0.1, 0.7, 0.2]])
    >>> float(weight_on(a, 2, 1))
    0.7
    """
    weights = _check_grids(weights)
    n = weights.shape[-1]
    query, key = check_count(query, "query", minimum=0), check_count(key, "key", minimum=0)
    if not key <= query < n:
        raise ValueError(f"need key ≤ query < n = {n} (a token sees only itself and the past); "
                         f"got query {query}, key {key}")
    return weights[..., query, key]  # (...)


class Peakedness(NamedTuple):
    """How peaked the rows of the weight grids are (rows 1 … n − 1)."""

    mean_largest: float  # the mean over rows of the largest weight (1/m for a flat row)
    one_hot_share: float  # the share of rows whose largest weight is at least ``threshold``


def row_peakedness(weights, threshold=0.99):
    """The mean largest weight of a row, and the share of rows that are (nearly) one-hot.

    Over every grid and every row but the first. Dividing the scores by a smaller number
    makes the rows more peaked; a one-hot row passes almost no gradient back (notebook 07).

    >>> a = np.array([[1.0, 0.0, 0.0], [0.5, 0.5, 0.0], [0.0, 0.0, 1.0]])
    >>> row_peakedness(a)
    Peakedness(mean_largest=0.75, one_hot_share=0.5)
    """
    weights = _check_grids(weights)
    largest = weights[..., 1:, :].max(axis=-1)  # (..., n − 1)
    return Peakedness(float(largest.mean()), float((largest >= threshold).mean()))


def strongest_heads(scores, count=3):
    """The ``count`` highest scores of a (layers, heads) table, as (layer, head, score) rows.

    >>> strongest_heads(np.array([[0.1, 0.9], [0.5, 0.2]]), count=2)
    [(0, 1, 0.9), (1, 0, 0.5)]
    """
    scores = as_float_array(scores, "scores", min_ndim=0)
    if scores.ndim != 2:
        raise ValueError(f"scores must be a (layers, heads) table; got shape {scores.shape}")
    count = check_count(count, "count")
    order = np.argsort(-scores, axis=None, kind="stable")[:count]  # flat indices, best first
    return [(int(layer), int(head), float(scores[layer, head]))
            for layer, head in zip(*np.unravel_index(order, scores.shape), strict=True)]
