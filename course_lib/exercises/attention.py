"""Exercise of notebook 09: attention(query, key, value) = softmax(QKᵀ / √d_k) V, with the
typical mistakes recognised one by one."""

import math

import numpy as np

from .. import scaled_dot_product_attention, softmax
from .core import Case, Exercise, Mistake, breaks_only_on, frozen_array

__all__ = ["ATTENTION_EXERCISE", "check_attention", "evaluate_attention"]


def _cases(seed=9):
    rng = np.random.default_rng(seed)
    by_hand = (  # the worked example of notebook 09: n = 2, m = 3, d_k = 4, d_v = 2
        [[1, 0, 1, 0], [0, 2, 0, 0]],
        [[1, 0, 1, 0], [0, 1, 0, 1], [1, 1, 1, 1]],
        [[2, 0], [0, 2], [4, 4]],
    )
    square = (  # m = d_k: QK (no transpose) has the right shape, so that mistake can show
        [[2, -1, 1], [1, 1, 0]], [[1, 0, 2], [3, 1, -1], [0, 2, 1]], [[1, 0], [0, 1], [2, 2]])
    one_query = ([[1.0, 2.0]], [[2.0, 0.0], [0.0, 1.0]], [[10.0], [20.0]])
    drawn = [
        (rng.standard_normal((4, 8)), rng.standard_normal((5, 8)), rng.standard_normal((5, 3))),
        (rng.standard_normal((3, 16)), rng.standard_normal((6, 16)), rng.standard_normal((6, 2))),
    ]
    big = (  # scores near 1800: e^1800 overflows unless the row maximum is subtracted first
        [[30, 30, 30, 30]], [[30, 30, 30, 30], [-30, 30, 30, 30], [29, 30, 30, 30]],
        [[1, 0], [0, 1], [3, 3]])
    cases = [by_hand, square, one_query, *drawn, big]
    return [tuple(frozen_array(a) for a in case) for case in cases]


_BIG = 5  # index of the large-score case


def _scores(query, key, scale=None):
    d_k = query.shape[-1]
    return query @ key.T * (1 / math.sqrt(d_k) if scale is None else scale)  # (n, m)


def _overflows(outcomes):
    return breaks_only_on(outcomes, _BIG)


def _show_arrays(args):
    names = ("query", "key", "value")
    return ", ".join(f"{name} of shape {a.shape[0]}×{a.shape[1]}"
                     for name, a in zip(names, args, strict=True))


ATTENTION_EXERCISE = Exercise(
    "attention(query, key, value)",
    cases=[Case(args) for args in _cases()],
    reference=lambda query, key, value: np.asarray(
        scaled_dot_product_attention(query, key, value)),
    show_args=_show_arrays,
    rtol=1e-7, atol=1e-9,
    mistakes=[
        Mistake("weights applied to K",
                "you blended the KEYS with the weights (weights @ key). Keys are only for "
                "matching; the content to retrieve is in V: the output is weights @ value.",
                imitation=lambda q, k, v: softmax(_scores(q, k)) @ k),
        Mistake("softmax over the wrong axis",
                "your softmax runs down the columns (axis=0), so each KEY's weights add up to 1. "
                "Each query's row must add up to 1: take the softmax along the last axis "
                "(axis=-1), over the m keys.",
                imitation=lambda q, k, v: softmax(_scores(q, k), axis=0) @ v),
        Mistake("missing transpose",
                "query @ key multiplies rows of Q with the COLUMNS of K, which are not keys (it "
                "only runs at all when m = d_k). Transpose K first: query @ key.T, shape "
                "n×d_k times d_k×m gives the n×m scores.",
                imitation=lambda q, k, v: softmax(q @ k / math.sqrt(q.shape[-1])) @ v),
        Mistake("missing scale",
                "you skipped the scale: divide the scores QKᵀ by √d_k (d_k = query.shape[-1]) "
                "before the softmax, or the weights saturate as d_k grows.",
                imitation=lambda q, k, v: softmax(_scores(q, k, 1.0)) @ v),
        Mistake("divided by d_k",
                "you divided the scores by d_k instead of √d_k. Var(q·k) = d_k, so the spread is "
                "√d_k; dividing by d_k over-shrinks it to 1/√d_k and the weights go nearly "
                "uniform. Divide by math.sqrt(d_k).",
                imitation=lambda q, k, v: softmax(_scores(q, k, 1.0 / q.shape[-1])) @ v),
        Mistake("returned the weights",
                "you returned the weight grid A (n×m). One step is left: blend the values, "
                "output = A @ value, an n×d_v grid whose row i is Σⱼ A_ij v_j.",
                imitation=lambda q, k, v: softmax(_scores(q, k))),
        Mistake("softmax overflows",
                "right on every case except the one with large scores (about 1800), where your "
                "softmax gives nan or inf: e^1800 overflows. Subtract each row's largest score "
                "before np.exp (the stable softmax of notebook 07; it changes nothing else).",
                detect=_overflows),
    ],
)


def evaluate_attention(func):
    """The :class:`~course_lib.exercises.core.Feedback` on a learner's ``attention``.

    Overflow warnings from a naive softmax are silenced here: the feedback explains them.
    """
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        return ATTENTION_EXERCISE.evaluate(func)


def check_attention(func):
    """Print feedback on a learner's ``attention(query, key, value)``."""
    print(evaluate_attention(func))
