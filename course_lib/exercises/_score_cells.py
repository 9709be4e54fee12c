"""Detectors of the score_loop exercise (notebook 05): partly filled grids, cells holding
d_k products, loops past the end. This module defines no exercise (its name starts with _)."""

import numpy as np


def filled(query, key, rows, cols, shape=None, same_index=False):
    """S with only the cells (i, j) in rows × cols filled; an IndexError where a loop runs
    past the data, as the learner's code does."""
    n, m = query.shape[0], key.shape[0]
    scores = np.zeros(shape or (n, m))
    for i in rows:
        for j in cols:
            scores[i, j] = query[i] @ key[i if same_index else j]
    return scores


def multiplied_only(outcomes):
    """Each cell got d_k products: a 'setting an array element with a sequence' error on
    every case with d_k > 1, or the (n, m, d_k) grid of products."""
    telling = None
    for outcome in outcomes:
        query, key = outcome.case.args
        products = query[:, None, :] * key[None, :, :]  # (n, m, d_k)
        if query.shape[1] == 1:
            continue
        message = str(outcome.error or "")
        if "sequence" in message or "shape" in message and outcome.error is not None:
            telling = telling or outcome
            continue
        try:
            if np.asarray(outcome.value, dtype=float).shape == products.shape and np.allclose(
                    np.asarray(outcome.value, dtype=float), products):
                telling = telling or outcome
                continue
        except (TypeError, ValueError):
            pass
        return None
    return telling


def zeros_without_brackets(outcomes):
    """A TypeError about a data type on every case: np.zeros(n, m) instead of np.zeros((n, m))."""
    if outcomes and all(isinstance(o.error, TypeError) and "data type" in str(o.error)
                        for o in outcomes):
        return outcomes[0]
    return None


def ran_past_the_end(outcomes):
    """An IndexError on every case: the loop counted 1 … n (or 1 … m) instead of 0 … n − 1."""
    if outcomes and all(isinstance(o.error, IndexError) for o in outcomes):
        return outcomes[0]
    return None
