"""The hidden cases of the attention exercise (notebook 09) and the pieces its imitations
are built from (scores, softmax variants, the overflow and first-row detectors).
This module defines no exercise (its name starts with _)."""

import math

import numpy as np

from .core import breaks_only_on, frozen_array


def cases(seed=9):
    rng = np.random.default_rng(seed)
    by_hand = (  # the by-hand example of notebook 09: n = 2, m = 3, d_k = 4, d_v = 2
        [[1, 0, 1, 0], [0, 2, 0, 0]],
        [[1, 0, 1, 0], [0, 1, 0, 1], [1, 1, 1, 1]],
        [[2, 0], [0, 2], [4, 4]],
    )
    square = (  # m = d_k: QK (no transpose) has the right shape, so that slip can show
        [[2, -1, 1], [1, 1, 0]], [[1, 0, 2], [3, 1, -1], [0, 2, 1]], [[1, 0], [0, 1], [2, 2]])
    cube = (  # n = m = d_k: Q * Kᵀ, K Qᵀ and a missing keepdims all run here
        [[1, 2, 0], [0, 1, 3], [2, 0, 1]], [[3, 1, 0], [1, 0, 2], [0, 2, 2]],
        [[1, 0, 2, 1], [0, 3, 1, 0], [2, 1, 0, 3]])
    one_query = ([[1.0, 2.0]], [[2.0, 0.0], [0.0, 1.0]], [[10.0], [20.0]])
    drawn = [
        (rng.standard_normal((4, 8)), rng.standard_normal((5, 8)), rng.standard_normal((5, 3))),
        (rng.standard_normal((3, 16)), rng.standard_normal((6, 16)), rng.standard_normal((6, 2))),
    ]
    big = (  # scores near 1800: e^1800 overflows unless the row maximum is subtracted first
        [[30, 30, 30, 30]], [[30, 30, 30, 30], [-30, 30, 30, 30], [29, 30, 30, 30]],
        [[1, 0], [0, 1], [3, 3]])
    cases = [by_hand, square, cube, one_query, *drawn, big]
    return [tuple(frozen_array(a) for a in case) for case in cases]


BIG = 6  # index of the large-score case


def scores(query, key, scale=None):
    d_k = query.shape[-1]
    return query @ key.T * (1 / math.sqrt(d_k) if scale is None else scale)  # (n, m)


def exp_rows(scores):
    return np.exp(scores - scores.max(axis=-1, keepdims=True))  # (n, m), row max → e⁰ = 1


def overflows(outcomes):
    return breaks_only_on(outcomes, BIG)


def first_row_only(outcomes):
    """The telling outcome when every answer is just the first query's output row."""
    telling = None
    for outcome in outcomes:
        expected = np.asarray(outcome.case.expected, dtype=float)
        try:
            got = np.asarray(outcome.value, dtype=float).reshape(-1)
        except Exception:
            return None
        row = expected[0].reshape(-1)
        if outcome.error is not None or got.shape != row.shape or not np.allclose(got, row):
            return None
        if expected.shape[0] > 1:
            telling = telling or outcome
    return telling


def show_arrays(args):
    names = ("query", "key", "value")
    return ", ".join(f"{name} of shape {a.shape[0]}×{a.shape[1]}"
                     for name, a in zip(names, args, strict=True))


def softmax_no_keepdims_max(scores):
    e = np.exp(scores - scores.max(axis=-1))  # (n, m) − (n,): runs only when n = m
    return e / e.sum(axis=-1, keepdims=True)


def softmax_no_keepdims_sum(scores):
    e = exp_rows(scores)
    return e / e.sum(axis=-1)  # (n, m) / (n,): runs only when n = m


def normalise(e):
    return e / e.sum(axis=-1, keepdims=True)  # (n, m): each row adds up to 1


def whole_grid(scores):
    e = np.exp(scores - scores.max())
    return e / e.sum()


def returned_pair(outcomes):
    """The first case that returned a pair, like (output, weights)."""
    return next((o for o in outcomes if o.error is None and isinstance(o.value, tuple)
                 and len(o.value) == 2), None)


ROOT = ("Divide the scores by √d_k, where d_k = query.shape[-1] is the number of slots in each "
        "query and key")
