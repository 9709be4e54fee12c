"""Exercise of notebook 12: multi-head self-attention, heads concatenated and mixed by W_O.

``multi_head(x, w_q, w_k, w_v, w_o, num_heads)`` returns the (n, d_model) output
[head₀ | … | headₕ₋₁] W_O, each head softmax(Q_t K_tᵀ / √d_k) V_t on its own d_k columns.

Slips:

- forgot W_O: the heads side by side, not mixed.
- W_O transposed: ``concat @ w_o.T`` (PyTorch's nn.Linear stores the transposed matrix).
- W_Q used for the keys: K = X W_Q.
- scores K Qᵀ: each head's grid transposed (or W_Q and W_K swapped).
- one head only: num_heads ignored, one attention over all d_model columns.
- W_K used for the values: V = X W_K.
- W_Q used for the values: V = X W_Q.
- values not projected: V = X instead of X W_V.
- slice started at t: head t took columns t … t + d_k − 1 (overlapping heads).
- scaled by √d_model: the full width instead of the head's √d_k.
- divided by d_model: the full width, no square root.
- divided by d_k: no square root.
- no scale: the scores not divided at all.
- softmax over the wrong axis: the weights' columns sum to 1.
- merged without moving the head axis back: (h, n, d_k) reshaped straight to (n, h·d_k).
- d_k as a float: d_model / h used in a slice or reshape.
- no softmax: the scaled scores used as weights.
- lists used as arrays: arithmetic on the Python lists (``x @ w_q``, ``a * g``) raises.
"""

import numpy as np

from ._detect import LISTS_HINT, lists_used_as_arrays
from ._heads import FLOAT_HINT, float_width, head_weights, heads_case, project_heads, show_heads
from .core import Exercise, Mistake

__all__ = ["MULTI_HEAD_EXERCISE", "check_multi_head", "evaluate_multi_head"]


def multi_head(x, w_q, w_k, w_v, w_o, h, values="W_V", merge="move", mix="W_O", **slip):
    """[head₀ | … | headₕ₋₁] W_O, (n, d_model); the keywords make one slip each."""
    weights = head_weights(x, w_q, w_k, h, **slip)  # (h, n, n)
    w = {"W_K": w_k, "W_Q": w_q, "X": np.eye(np.shape(w_v)[0])}.get(values, w_v)
    v = np.asarray(project_heads(x, w, h, slip.get("split", "slices")))  # (h, n, d_k)
    heads = weights @ v  # (h, n, d_k)
    n = heads.shape[1]
    concat = (heads.transpose(1, 0, 2) if merge == "move" else heads).reshape(n, -1)
    w_o = np.asarray(w_o, float)
    return {"W_O": lambda: concat @ w_o, "W_Oᵀ": lambda: concat @ w_o.T,
            "none": lambda: concat}[mix]()


def _slip(**kw):
    return lambda x, w_q, w_k, w_v, w_o, h: multi_head(x, w_q, w_k, w_v, w_o, h, **kw)


MULTI_HEAD_EXERCISE = Exercise(
    "multi_head(x, w_q, w_k, w_v, w_o, num_heads)",
    cases=[heads_case(*c, with_values=True) for c in [(11, 3, 4, 2), (12, 4, 8, 2),
                                                      (13, 5, 8, 4), (14, 3, 6, 3),
                                                      (15, 2, 4, 1), (16, 4, 12, 3)]],
    reference=multi_head,
    mistakes=[
        Mistake("lists used as arrays", LISTS_HINT, detect=lists_used_as_arrays),
        Mistake("forgot W_O",
                "on {call} you returned the heads side by side, [head₀ | … | headₕ₋₁]. The "
                "last step multiplies them by W_O, which mixes the heads.",
                imitation=_slip(mix="none")),
        Mistake("W_O transposed",
                "on {call} you multiplied by W_Oᵀ. In this course the matrices act on the "
                "right, concat @ w_o (PyTorch's nn.Linear stores the transposed matrix).",
                imitation=_slip(mix="W_Oᵀ")),
        Mistake("W_Q used for the keys",
                "on {call} your keys came from W_Q: K = X W_K, with its own matrix.",
                imitation=_slip(keys="W_Q")),
        Mistake("scores K Qᵀ",
                "on {call} each head's score grid is transposed (K Qᵀ, or W_Q and W_K swapped). "
                "The scores are Q Kᵀ: row i holds query i's scores against every key.",
                imitation=_slip(flip=True)),
        Mistake("one head only",
                "on {call} your answer is single-head attention: it ignores num_heads. Cut the "
                "columns into num_heads slices of d_k = d_model / h and run one attention each.",
                imitation=lambda x, w_q, w_k, w_v, w_o, h: multi_head(x, w_q, w_k, w_v, w_o, 1)),
        Mistake("W_K used for the values",
                "on {call} your values came from W_K: V = X W_V, with its own matrix.",
                imitation=_slip(values="W_K")),
        Mistake("W_Q used for the values",
                "on {call} the values were made with W_Q (V = X W_Q). Each projection has its "
                "own matrix: V = X W_V.", imitation=_slip(values="W_Q")),
        Mistake("values not projected",
                "on {call} the heads blended the rows of x itself (V = X). The values are "
                "projected like the queries and keys: V = X W_V, then cut into heads.",
                imitation=_slip(values="X")),
        Mistake("slice started at t",
                "on {call} head t took columns t … t + d_k − 1, so the heads overlap. Head t "
                "owns columns t·d_k … (t+1)·d_k − 1: slice [:, t * d_k:(t + 1) * d_k].",
                imitation=_slip(split="offset")),
        Mistake("scaled by √d_model",
                "on {call} you divided by √d_model, the full width. Each head divides by √d_k, "
                "d_k = d_model / h, the width of the vectors it takes dot products of.",
                imitation=_slip(divisor="√d_model")),
        Mistake("divided by d_model",
                "on {call} you divided by d_model; each head divides by √d_k, the square root "
                "of its own width d_model / h.", imitation=_slip(divisor="d_model")),
        Mistake("divided by d_k",
                "on {call} you divided by d_k; the scale is 1/√d_k.",
                imitation=_slip(divisor="d_k")),
        Mistake("no scale",
                "on {call} the scores were not scaled: divide each head's scores by √d_k.",
                imitation=_slip(divisor="1")),
        Mistake("softmax over the wrong axis",
                "on {call} the weights' columns add up to 1, not their rows: softmax over the "
                "last axis (the keys).", imitation=_slip(axis=-2)),
        Mistake("merged without moving the head axis back",
                "on {call} the heads were glued back wrongly: reshaping (h, n, d_k) straight to "
                "(n, h·d_k) mixes tokens. Move the head axis back first (transpose(1, 0, 2)), "
                "or np.concatenate(heads, axis=1).", imitation=_slip(merge="no move")),
        Mistake("d_k as a float", FLOAT_HINT, detect=float_width),
        Mistake("no softmax",
                "on {call} the scaled scores were used as weights: take the softmax of each "
                "row first.", imitation=_slip(normalise=False)),
    ],
    show_args=show_heads,
)


def evaluate_multi_head(func):
    """The :class:`~course_lib.exercises.core.Feedback` on a learner's ``multi_head``."""
    return MULTI_HEAD_EXERCISE.evaluate(func)


def check_multi_head(func):
    """Print feedback on a learner's ``multi_head(x, w_q, w_k, w_v, w_o, num_heads)``."""
    MULTI_HEAD_EXERCISE.check(func)
