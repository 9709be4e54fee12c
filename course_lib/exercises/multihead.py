"""Exercise of notebook 12: every head's weights, with the per-head scale 1/√d_k, and its cards."""

import math

import numpy as np

from .. import multi_head_attention, softmax
from ..checklist import Question
from .core import Case, Exercise, Mistake

__all__ = ["HEADS_EXERCISE", "HEADS_QUESTIONS", "check_head_weights", "evaluate_head_weights"]


def _reference(x, w_q, w_k, num_heads):
    d_model = np.shape(w_q)[1]
    eye = np.eye(d_model)
    _, weights = multi_head_attention(x, x, x, w_q, w_k, eye, eye, num_heads,
                                      return_weights=True)
    return weights


def _split(a, h):  # (n, h·d) → (h, n, d)
    n, width = a.shape
    return a.reshape(n, h, width // h).transpose(1, 0, 2)


def _weights_with(x, w_q, w_k, h, scale_of, split=_split, axis=-1):
    q = split(np.asarray(x) @ np.asarray(w_q), h)
    k = split(np.asarray(x) @ np.asarray(w_k), h)
    d_k = q.shape[-1]
    scores = q @ k.transpose(0, 2, 1) * scale_of(d_k, np.shape(w_q)[1])
    return softmax(scores, axis=axis)


def _case(seed, n, d_model, h):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((n, d_model)) * 2.0
    w_q, w_k = (rng.standard_normal((d_model, d_model)) for _ in range(2))
    return Case((x.tolist(), w_q.tolist(), w_k.tolist(), h))


HEADS_EXERCISE = Exercise(
    "head_weights(x, w_q, w_k, num_heads)",
    cases=[_case(1, 3, 4, 2), _case(2, 4, 8, 2), _case(3, 5, 8, 4), _case(4, 3, 6, 3),
           _case(5, 4, 4, 1), _case(6, 2, 8, 8)],
    reference=_reference,
    mistakes=[
        Mistake("scaled by √d_model",
                "you divided by √d_model (the full width). Each head takes dot products of "
                "vectors with d_k = d_model / h slots, so it divides by √d_k.",
                imitation=lambda x, wq, wk, h: _weights_with(x, wq, wk, h,
                                                             lambda d_k, d: 1 / math.sqrt(d))),
        Mistake("no scale",
                "you did not scale the scores. Divide each head's scores by √d_k, with d_k its "
                "own width d_model / h.",
                imitation=lambda x, wq, wk, h: _weights_with(x, wq, wk, h, lambda d_k, d: 1.0)),
        Mistake("divided by d_k",
                "you divided by d_k; the scale is 1/√d_k (the square root of the head's width).",
                imitation=lambda x, wq, wk, h: _weights_with(x, wq, wk, h,
                                                             lambda d_k, d: 1 / d_k)),
        Mistake("reshaped without moving the head axis",
                "your heads mix up tokens and columns: reshaping (n, h·d_k) straight to (h, n, "
                "d_k) cuts along the rows. Reshape to (n, h, d_k) first, then move the head "
                "axis to the front (transpose(1, 0, 2)).",
                imitation=lambda x, wq, wk, h: _weights_with(
                    x, wq, wk, h, lambda d_k, d: 1 / math.sqrt(d_k),
                    split=lambda a, h: a.reshape(h, a.shape[0], a.shape[1] // h))),
        Mistake("softmax over the wrong axis",
                "your columns add up to 1, not your rows. Each query's row of weights must sum "
                "to 1: softmax over the last axis (the keys).",
                imitation=lambda x, wq, wk, h: _weights_with(x, wq, wk, h,
                                                             lambda d_k, d: 1 / math.sqrt(d_k),
                                                             axis=-2)),
    ],
    show_args=lambda args: (f"x of shape {np.shape(args[0])}, w_q and w_k of shape "
                            f"{np.shape(args[1])}, num_heads={args[3]}"),
)


def evaluate_head_weights(func):
    """The :class:`~course_lib.exercises.core.Feedback` on a learner's ``head_weights``."""
    return HEADS_EXERCISE.evaluate(func)


def check_head_weights(func):
    """Print feedback on a learner's ``head_weights(x, w_q, w_k, num_heads)``."""
    HEADS_EXERCISE.check(func)


HEADS_QUESTIONS = (
    Question("In self-attention and in cross-attention, where do Q, K and V come from?",
             "Self-attention: all three are projections of the same sequence X. Cross-attention: "
             "Q comes from one sequence (X W_Q) and K and V from another (Y W_K, Y W_V).", 12),
    Question("With d_model = 512 and h = 8 heads, what is d_k, and what does each head divide "
             "its scores by?",
             "d_k = 512 / 8 = 64, so each head divides by √64 = 8: the width of the vectors it "
             "takes dot products of, not √512.", 12),
    Question("What shape are the weights of multi-head attention for n queries and m keys?",
             "(h, n, m): one n×m grid per head, each row summing to 1.", 12),
    Question("What does W_O do?",
             "It mixes the heads: the h outputs of width d_v are laid side by side (width h·d_v) "
             "and multiplied by W_O, so every output column can draw on every head.", 12),
)
