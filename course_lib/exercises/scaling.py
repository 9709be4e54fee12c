"""Exercise of notebook 08: the scaled score grid QKᵀ / √d_k, with d_k read from the shapes."""

import math

import numpy as np

from .. import scaled_scores
from .core import Case, Exercise, Mistake, frozen_array

__all__ = ["SCALE_EXERCISE", "check_scale_scores", "evaluate_scale_scores"]


def _grids(seed=8):
    rng = np.random.default_rng(seed)
    integers = [  # (query, key): n queries, m keys, d_k slots, all three different
        ([[1, 2, 0, 1], [0, 1, 3, -1]], [[2, 0, 1, 1], [1, 1, 1, 1], [-1, 2, 0, 3]]),
        ([[1, 0, 2, 0, 1, 0, 0, 1, 3]], [[2, 1, 1, 0, 0, 1, 2, 0, 1], [0, 3, 1, 1, 2, 0, 1, 1, 0]]),
        ([[2, -1, 1], [1, 1, 0]], [[1, 0, 2], [3, 1, -1], [0, 2, 1]]),  # square K: m = d_k
        ([[3], [-2]], [[1], [2], [-1]]),  # d_k = 1: the scale is 1
    ]
    drawn = [(rng.integers(-3, 4, (3, 16)), rng.integers(-3, 4, (5, 16))),
             (rng.standard_normal((4, 25)), rng.standard_normal((2, 25)))]
    return [(frozen_array(q), frozen_array(k)) for q, k in integers + drawn]


def _raw(query, key):
    return query @ key.T  # (n, m)


def _show_grids(args):
    query, key = args
    return (f"query of shape {query.shape[0]}×{query.shape[1]}, "
            f"key of shape {key.shape[0]}×{key.shape[1]}")


SCALE_EXERCISE = Exercise(
    "scale_scores(query, key)",
    cases=[Case(args) for args in _grids()],
    reference=lambda query, key: np.asarray(scaled_scores(query, key)),
    show_args=_show_grids,
    mistakes=[
        Mistake("missing scale",
                "you returned the raw scores QKᵀ. Divide them by √d_k, where d_k = "
                "query.shape[-1] is the number of slots in each query and key: without it their "
                "spread grows like √d_k and softmax saturates.",
                imitation=_raw),
        Mistake("divided by d_k",
                "you divided by d_k instead of √d_k. Var(q·k) = d_k, so the spread (standard "
                "deviation) is √d_k; dividing by d_k over-shrinks it to 1/√d_k and softmax goes "
                "nearly uniform. Divide by math.sqrt(d_k).",
                imitation=lambda query, key: _raw(query, key) / query.shape[-1]),
        Mistake("multiplied by √d_k",
                "you multiplied by √d_k, which makes the spread bigger still (variance d_k²). "
                "Divide by √d_k instead.",
                imitation=lambda query, key: _raw(query, key) * math.sqrt(query.shape[-1])),
        Mistake("scaled by the number of keys",
                "you divided by the square root of m, the number of keys (key.shape[0]). The "
                "scale comes from d_k, the number of slots in each query and key: "
                "query.shape[-1].",
                imitation=lambda query, key: _raw(query, key) / math.sqrt(key.shape[0])),
        Mistake("scaled by the number of queries",
                "you divided by the square root of n, the number of queries (query.shape[0]). "
                "The scale comes from d_k, the number of slots in each query and key: "
                "query.shape[-1].",
                imitation=lambda query, key: _raw(query, key) / math.sqrt(query.shape[0])),
        Mistake("missing transpose",
                "query @ key multiplies rows of Q with the COLUMNS of K, which are not keys. "
                "Transpose K first (key.T, shape d_k×m), so that row i of Q meets key j: "
                "query @ key.T.",
                imitation=lambda query, key: query @ key / math.sqrt(query.shape[-1])),
    ],
)


def evaluate_scale_scores(func):
    """The :class:`~course_lib.exercises.core.Feedback` on a learner's ``scale_scores``."""
    return SCALE_EXERCISE.evaluate(func)


def check_scale_scores(func):
    """Print feedback on a learner's ``scale_scores(query, key)``."""
    SCALE_EXERCISE.check(func)
