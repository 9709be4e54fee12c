"""Exercise of notebook 12: every head's weights, and the helpers its neighbours share.

Slips (``head_weights(x, w_q, w_k, num_heads)``, the (h, n, n) weights of self-attention):

- scaled by √d_model: divided by the full width instead of the head's √d_k.
- divided by d_model: the full width, and no square root.
- divided by d_k: the head's width without the square root.
- ** 1/2: ``d_k ** 1/2`` is d_k / 2 (and ``s / d_k ** 1/2`` is s / (2 d_k)).
- transposed a projection: ``x @ w_q.T``, ``x @ w_k.T`` or both.
- divided by √h: the number of heads instead of the head's width.
- multiplied by √d_k: the scale upside down.
- no scale: the scores not divided at all.
- slice one column short: head t took columns t·d_k … (t+1)·d_k − 2, one column early.
- slice one column long: head t took columns t·d_k … (t+1)·d_k (a + 1 on the slice's end).
- slice shifted one column: head t took columns t·d_k + 1 … (t+1)·d_k.
- slice started at t: head t took columns t … t + d_k − 1 (overlapping heads).
- divided by √d_model / h: the root taken before dividing the width.
- W_K used for the queries: Q = X W_K.
- one head only: num_heads ignored, one (1, n, n) grid over all d_model columns.
- interleaved columns: head t took columns t, t + h, t + 2h, … (reshape to (n, d_k, h)).
- reshaped without moving the head axis: (n, h·d_k) reshaped straight to (h, n, d_k).
- W_Q used for the keys: K = X W_Q.
- scores K Qᵀ: the score grid transposed before the softmax.
- softmax over the wrong axis: columns sum to 1.
- softmax over the whole grid: each head's n × n grid sums to 1.
- no keepdims: e / e.sum(axis=-1), the row totals laid along the columns.
- d_k as a float: d_model / h used in a slice or reshape.
- no softmax: the scaled scores returned.
- return inside the loop: only head 0's grid.
- heads concatenated, not stacked: shape (n, h·n).
- heads stacked on the wrong axis: shape (n, h, n).
- lists used as arrays: arithmetic on the Python lists (``x @ w_q``, ``a * g``) raises.
"""


import numpy as np

from ._detect import LISTS_HINT, lists_used_as_arrays
from ._heads import FLOAT_HINT, float_width, head_weights, heads_case, show_heads
from .core import Exercise, Mistake

__all__ = ["HEADS_EXERCISE", "check_head_weights", "evaluate_head_weights"]


_TRANSPOSED = ("on {call} you multiplied by a transposed weight matrix (x @ w.T). In this course "
               "the matrices act on the right as they are: Q = X W_Q, K = X W_K.")


def _slip(**kw):
    return lambda x, w_q, w_k, h: head_weights(x, w_q, w_k, h, **kw)


HEADS_EXERCISE = Exercise(
    "head_weights(x, w_q, w_k, num_heads)",
    cases=[heads_case(*c) for c in [(1, 3, 4, 2), (2, 4, 8, 2), (3, 5, 8, 4), (4, 3, 6, 3),
                                    (5, 4, 4, 1), (6, 2, 8, 8), (7, 4, 12, 3)]],
    reference=head_weights,
    mistakes=[
        Mistake("lists used as arrays", LISTS_HINT, detect=lists_used_as_arrays),
        Mistake("scaled by √d_model",
                "on {call} you divided by √d_model, the full width. Each head takes dot "
                "products of vectors with d_k = d_model / h slots, so it divides by √d_k.",
                imitation=_slip(divisor="√d_model")),
        Mistake("divided by d_model",
                "on {call} you divided by d_model. Each head divides by √d_k, the square root "
                "of ITS width d_k = d_model / h.", imitation=_slip(divisor="d_model")),
        Mistake("divided by d_k",
                "on {call} you divided by d_k; the scale is 1/√d_k (the square root of the "
                "head's width).", imitation=_slip(divisor="d_k")),
        Mistake("** 1/2",
                "on {call} you divided by d_k / 2: `d_k ** 1/2` is (d_k ** 1) / 2, because ** "
                "binds tighter than /. Write d_k ** 0.5 or math.sqrt(d_k).",
                imitation=_slip(divisor="d_k/2")),
        Mistake("** 1/2",
                "on {call} you divided by 2·d_k: `scores / d_k ** 1/2` is (scores / d_k) / 2, "
                "because ** binds tighter than /. Write scores / d_k ** 0.5 or "
                "scores / math.sqrt(d_k).", imitation=_slip(divisor="2·d_k")),
        Mistake("transposed a projection", _TRANSPOSED, imitation=_slip(keys="W_Kᵀ")),
        Mistake("transposed a projection", _TRANSPOSED, imitation=_slip(keys="W_Qᵀ")),
        Mistake("transposed a projection", _TRANSPOSED, imitation=_slip(keys="both ᵀ")),
        Mistake("divided by √h",
                "on {call} you divided by √num_heads. The divisor is √d_k, the square root of "
                "the head's width d_model / h, not of the number of heads.",
                imitation=_slip(divisor="√h")),
        Mistake("multiplied by √d_k",
                "on {call} you multiplied by √d_k: the scale is upside down. Divide by √d_k "
                "(or multiply by 1/√d_k).", imitation=_slip(divisor="1/√d_k")),
        Mistake("no scale",
                "on {call} the scores were not scaled. Divide each head's scores by √d_k, with "
                "d_k its own width d_model / h.", imitation=_slip(divisor="1")),
        Mistake("slice one column short",
                "on {call} each head used one column too few: head t owns columns t·d_k up to "
                "and including (t+1)·d_k − 1, which is the slice [t*d_k:(t+1)*d_k] (a slice "
                "stops BEFORE its end).", imitation=_slip(short=True)),
        Mistake("slice one column long",
                "on {call} each head took one column too many, t·d_k up to (t+1)·d_k: a slice "
                "already stops BEFORE its end, so [t*d_k:(t+1)*d_k] needs no + 1.",
                imitation=_slip(split="long")),
        Mistake("slice shifted one column",
                "on {call} head t started at column t·d_k + 1: counting from 0, head t owns "
                "columns t·d_k … (t+1)·d_k − 1, the slice [t*d_k:(t+1)*d_k].",
                imitation=_slip(split="shifted")),
        Mistake("slice started at t",
                "on {call} head t took columns t … t + d_k − 1, so the heads overlap. Head t "
                "owns columns t·d_k … (t+1)·d_k − 1: slice [:, t * d_k:(t + 1) * d_k].",
                imitation=_slip(split="offset")),
        Mistake("divided by √d_model / h",
                "on {call} the scores were divided by √d_model / h, the root taken before "
                "dividing the width. Each head's width is d_k = d_model / h: divide by √d_k.",
                imitation=_slip(divisor="√d_model/h")),
        Mistake("W_K used for the queries",
                "on {call} the queries were made with W_K (Q = X W_K). Each projection has its "
                "own matrix: Q = X W_Q, K = X W_K.",
                imitation=lambda x, w_q, w_k, h: head_weights(x, w_k, w_k, h)),
        Mistake("one head only",
                "{call} gave {got}: one attention over all d_model columns, as if num_heads "
                "were 1. Cut Q and K into num_heads slices of d_k = d_model // h columns and "
                "give each head its own (n, n) weights.",
                imitation=lambda x, w_q, w_k, h: head_weights(x, w_q, w_k, 1)),
        Mistake("interleaved columns",
                "on {call} head t got the columns t, t + h, t + 2h, …: reshaping to (n, d_k, h) "
                "deals the columns out like cards. Head t owns the block of d_k neighbouring "
                "columns from t·d_k: reshape to (n, h, d_k).",
                imitation=_slip(split="interleaved")),
        Mistake("reshaped without moving the head axis",
                "on {call} your heads mix up tokens and columns: reshaping (n, h·d_k) straight "
                "to (h, n, d_k) cuts along the rows. Reshape to (n, h, d_k) first, then move "
                "the head axis to the front (transpose(1, 0, 2)).",
                imitation=_slip(split="rows")),
        Mistake("W_Q used for the keys",
                "on {call} your keys came from W_Q: K = X W_K, with its own matrix.",
                imitation=_slip(keys="W_Q")),
        Mistake("scores K Qᵀ",
                "on {call} each head's grid is transposed: you took K Qᵀ. The scores are "
                "Q Kᵀ, so row i holds query i's scores against every key.",
                imitation=_slip(flip=True)),
        Mistake("softmax over the wrong axis",
                "on {call} your columns add up to 1, not your rows. Each query's row of weights "
                "must sum to 1: softmax over the last axis (the keys).",
                imitation=_slip(axis=-2)),
        Mistake("softmax over the whole grid",
                "on {call} the whole n × n grid of each head adds up to 1. The softmax runs "
                "along each row: sum with axis=-1, keepdims=True.",
                imitation=_slip(normalise="grid")),
        Mistake("no keepdims",
                "on {call} each row was divided by the wrong total: e.sum(axis=-1) without "
                "keepdims=True has shape (n,), which NumPy lays along the columns. Use "
                "e.sum(axis=-1, keepdims=True), shape (n, 1).",
                imitation=_slip(normalise="no keepdims")),
        Mistake("d_k as a float", FLOAT_HINT, detect=float_width),
        Mistake("no softmax",
                "on {call} you returned the scaled scores: take the softmax of each row to get "
                "the weights.", imitation=_slip(normalise=False)),
        Mistake("return inside the loop",
                "{call} gave back only head 0's grid, of shape (n, n): the `return` sits inside "
                "the loop over the heads. Collect every head, then return np.stack(heads) of "
                "shape (h, n, n) after the loop.",
                detect=lambda outcomes: _first_of(outcomes, lambda *a: head_weights(*a)[0],
                                                  lambda *a: head_weights(*a)[:1])),
        Mistake("heads concatenated, not stacked",
                "on {call} your result has shape (n, h·n): np.concatenate lays the heads side "
                "by side. Stack them on a new first axis, np.stack(heads), shape (h, n, n).",
                imitation=lambda *args: np.concatenate(list(head_weights(*args)), axis=1)),
        Mistake("heads stacked on the wrong axis",
                "on {call} your result has shape (n, h, n): the head axis must come first, "
                "(h, n, n). np.stack(heads) (axis=0) puts it there.",
                imitation=lambda *args: head_weights(*args).transpose(1, 0, 2)),
    ],
    show_args=show_heads,
)


def _first_of(outcomes, *imitations):
    for imitation in imitations:
        found = Mistake("", "", imitation=imitation).telling_outcome(HEADS_EXERCISE, outcomes)
        if found is not None:
            return found
    return None


def evaluate_head_weights(func):
    """The :class:`~course_lib.exercises.core.Feedback` on a learner's ``head_weights``."""
    return HEADS_EXERCISE.evaluate(func)


def check_head_weights(func):
    """Print feedback on a learner's ``head_weights(x, w_q, w_k, num_heads)``."""
    HEADS_EXERCISE.check(func)
