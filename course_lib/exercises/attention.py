"""Exercise of notebook 09: attention(query, key, value) = softmax(QKᵀ / √d_k) V.

Slips
-----
- weights applied to K: blended the keys, ``weights @ key``.
- softmax over the wrong axis: columns (axis=0) add up to 1 instead of rows.
- missing transpose: ``query @ key``, which only runs when m = d_k.
- Q * K.T elementwise: ``*`` instead of the matrix product ``@``.
- K Qᵀ: ``key @ query.T``, the scores the wrong way round.
- missing scale: no ÷ √d_k.
- divided by d_k: ÷ d_k instead of ÷ √d_k.
- ** 1/2 without brackets: ``scores / d_k ** 1/2`` divides by d_k, then by 2.
- d_k read from the values: √d_v (``value.shape[-1]``) instead of √d_k.
- scaled by the number of keys: √m (``key.shape[0]``) instead of √d_k.
- scaled after the softmax: the weights divided by √d_k, so rows add up to 1/√d_k.
- scaled twice: the scores scaled, and the weights or the output divided by √d_k again.
- max without keepdims: ``scores - scores.max(axis=-1)`` subtracts row j's maximum from
  column j (it only runs when n = m).
- sum without keepdims: ``e / e.sum(axis=-1)`` divides column j by row j's total (n = m).
- not normalised: the exponentials used as weights without dividing by the row total.
- normalised over the whole grid: divided by the total of all n·m exponentials.
- returned the output and the weights: the pair (output, A), PyTorch-style.
- no softmax: the scaled scores used as weights.
- returned the weights: stopped at A, the n×m grid.
- return inside the loop: only the first query's output row came back.
- softmax overflows: a naive ``np.exp(scores)`` gives nan or inf on the large-score case.
- scaled by the number of queries: √n (``len(query)``) instead of √d_k.
- max over the wrong axis: ``scores.max(axis=0)``, each column's maximum.
- value @ weights: the product the wrong way round (it only runs when d_v = n).
- transposed the output: returned the d_v×n grid (AV)ᵀ.
- ^ for **: ``d_k ^ 0.5`` (a TypeError) or ``d_k ^ 1/2`` (XOR, then ÷ 2).
- a name never defined: ``d_k`` never set, or ``math`` used without ``import math``.
- rounded the result: the output rounded to a few decimals.
- changed its input (named by the framework): e.g. ``query /= math.sqrt(d_k)``.
"""

import math

import numpy as np

from .. import scaled_dot_product_attention, softmax
from . import _attention_parts as parts
from ._attention_parts import scores
from ._detect import matches_everywhere, power_with_caret, raised_name_error, rounded
from .core import Case, Exercise, Mistake

__all__ = ["ATTENTION_EXERCISE", "check_attention", "evaluate_attention"]


ATTENTION_EXERCISE = Exercise(
    "attention(query, key, value)",
    cases=[Case(args) for args in parts.cases()],
    reference=lambda query, key, value: np.asarray(
        scaled_dot_product_attention(query, key, value)),
    show_args=parts.show_arrays,
    rtol=1e-7, atol=1e-9,
    mistakes=[
        Mistake("returned the output and the weights",
                "{call} returned a pair (output, weights), as PyTorch's attention layers do. "
                "This function returns the output alone, the n×d_v grid A @ value.",
                detect=parts.returned_pair),
        Mistake("weights applied to K",
                "on {call} you blended the KEYS with the weights (weights @ key). Keys are only "
                "for matching; the content to retrieve is in V: the output is weights @ value.",
                imitation=lambda q, k, v: softmax(scores(q, k)) @ k),
        Mistake("softmax over the wrong axis",
                "on {call} your softmax ran down the columns (axis=0), so each KEY's weights "
                "add up to 1. Each query's row must add up to 1: take the softmax along the "
                "last axis (axis=-1), over the m keys.",
                imitation=lambda q, k, v: softmax(scores(q, k), axis=0) @ v),
        Mistake("missing transpose",
                "on {call}, query @ key multiplies rows of Q with the COLUMNS of K, which are "
                "not keys (it only runs at all when m = d_k). Transpose K first: query @ key.T, "
                "shape n×d_k times d_k×m gives the n×m scores.",
                imitation=lambda q, k, v: softmax(q @ k / math.sqrt(q.shape[-1])) @ v),
        Mistake("Q * K.T elementwise",
                "on {call} you multiplied matching entries (`*`), which only runs when the "
                "shapes happen to fit. A score is a dot product: use the matrix product, "
                "query @ key.T.",
                imitation=lambda q, k, v: softmax(q * k.T / math.sqrt(q.shape[-1])) @ v),
        Mistake("K Qᵀ",
                "on {call} your scores were key @ query.T, the m×n grid: row j held key j's "
                "scores against every query. Queries are the rows: query @ key.T (n×m).",
                imitation=lambda q, k, v: softmax(k @ q.T / math.sqrt(q.shape[-1])) @ v),
        Mistake("missing scale",
                f"on {{call}} you skipped the scale. {parts.ROOT}, before the softmax, or the "
                "weights saturate as d_k grows.",
                imitation=lambda q, k, v: softmax(scores(q, k, 1.0)) @ v),
        Mistake("divided by d_k",
                "on {call} you divided the scores by d_k instead of √d_k. Var(q·k) = d_k, so "
                "the spread is √d_k; dividing by d_k over-shrinks it to 1/√d_k and the weights "
                "go nearly uniform. Divide by math.sqrt(d_k).",
                imitation=lambda q, k, v: softmax(scores(q, k, 1.0 / q.shape[-1])) @ v),
        Mistake("** 1/2 without brackets",
                "on {call} your scores came out divided by d_k and then by 2: Python reads "
                "`scores / d_k ** 1/2` as `(scores / d_k) / 2` (** binds tighter than /). "
                "Write math.sqrt(d_k), or d_k ** 0.5.",
                imitation=lambda q, k, v: softmax(scores(q, k, 1.0 / q.shape[-1] / 2)) @ v),
        Mistake("d_k read from the values",
                f"on {{call}} you divided by the square root of value.shape[-1], which is d_v, "
                f"the length of a value row. {parts.ROOT}.",
                imitation=lambda q, k, v: softmax(scores(q, k, 1 / math.sqrt(v.shape[-1]))) @ v),
        Mistake("scaled by the number of keys",
                f"on {{call}} you divided by the square root of m = key.shape[0], the number "
                f"of keys. {parts.ROOT}.",
                imitation=lambda q, k, v: softmax(scores(q, k, 1 / math.sqrt(k.shape[0]))) @ v),
        Mistake("scaled by the number of queries",
                f"on {{call}} you divided by the square root of n = len(query), the number "
                f"of queries. {parts.ROOT}.",
                imitation=lambda q, k, v: softmax(scores(q, k, 1 / math.sqrt(q.shape[0]))) @ v),
        Mistake("scaled after the softmax",
                "on {call} you divided by √d_k AFTER the softmax, so each row of weights adds "
                "up to 1/√d_k instead of 1. Scale the scores first, then take the softmax.",
                imitation=lambda q, k, v: softmax(scores(q, k, 1.0)) / math.sqrt(q.shape[-1])
                @ v),
        Mistake("scaled twice",
                "on {call} the output was divided by √d_k once more after the scores were "
                "scaled (weights or output ÷ √d_k), so it is √d_k times too small. Scale the "
                "scores once, before the softmax, and nothing after.",
                imitation=lambda q, k, v: softmax(scores(q, k)) @ v / math.sqrt(q.shape[-1])),
        Mistake("max without keepdims",
                "on {call} (n = m, so it ran) `scores.max(axis=-1)` without keepdims=True "
                "lined up the row maxima along the columns: column j lost row j's maximum. "
                "Write scores.max(axis=-1, keepdims=True), a column of n maxima.",
                imitation=lambda q, k, v: parts.softmax_no_keepdims_max(scores(q, k)) @ v),
        Mistake("sum without keepdims",
                "on {call} (n = m, so it ran) `e.sum(axis=-1)` without keepdims=True lined up "
                "the row totals along the columns: column j was divided by row j's total. "
                "Write e.sum(axis=-1, keepdims=True).",
                imitation=lambda q, k, v: parts.softmax_no_keepdims_sum(scores(q, k)) @ v),
        Mistake("max over the wrong axis",
                "on {call} you subtracted each COLUMN's maximum (max over axis=0). Softmax may "
                "only subtract one number per row: scores.max(axis=-1, keepdims=True).",
                imitation=lambda q, k, v: parts.normalise(np.exp(scores(q, k)
                                                            - scores(q, k).max(axis=0))) @ v),
        Mistake("not normalised",
                "on {call} your weights were the exponentials themselves: divide each row by "
                "its total (e.sum(axis=-1, keepdims=True)) so that it adds up to 1.",
                detect=lambda outcomes: matches_everywhere(  # with or without the row max
                    outcomes, lambda case: parts.exp_rows(scores(*case.args[:2])) @ case.args[2])
                or matches_everywhere(
                    outcomes, lambda case: np.exp(scores(*case.args[:2])) @ case.args[2])),
        Mistake("normalised over the whole grid",
                "on {call} you divided by the total of the WHOLE grid (e.sum() with no axis), "
                "so all n·m weights together add up to 1. Each query's row must add up to 1: "
                "e.sum(axis=-1, keepdims=True).",
                imitation=lambda q, k, v: parts.whole_grid(scores(q, k)) @ v),
        Mistake("value @ weights",
                "on {call} you multiplied value @ weights, the wrong way round (it only runs "
                "when d_v = n). Row i of the output blends the value rows with row i of A: "
                "weights @ value, n×m times m×d_v.",
                imitation=lambda q, k, v: v @ softmax(scores(q, k))),
        Mistake("transposed the output",
                "on {call} you returned the output transposed, d_v×n. Return weights @ value "
                "as it is: one row per query, n×d_v.",
                imitation=lambda q, k, v: (softmax(scores(q, k)) @ v).T),
        Mistake("no softmax",
                "on {call} the scaled scores were used as weights without the softmax, so "
                "rows do not add up to 1 (and can be negative). Take the softmax of each row "
                "of QKᵀ / √d_k first.", imitation=lambda q, k, v: scores(q, k) @ v),
        Mistake("returned the weights",
                "on {call} you returned the weight grid A (n×m). One step is left: blend the "
                "values, output = A @ value, an n×d_v grid whose row i is Σⱼ A_ij 𝐯ⱼ.",
                imitation=lambda q, k, v: softmax(scores(q, k))),
        Mistake("return inside the loop",
                "on {call} only the first query's output row came back: the `return` sits "
                "inside the loop over the queries, so the function stops after query 1. Collect "
                "every row, and return after the loop.",
                detect=parts.first_row_only),
        Mistake("^ for **",
                "on {call}, `^` spoilt your answer ({got}): in Python `^` is not a power but "
                "XOR, a bitwise operation on whole numbers. Write math.sqrt(d_k), or "
                "d_k ** 0.5.",
                detect=lambda outcomes: power_with_caret(
                    outcomes, lambda q, k, v: softmax(scores(q, k, 2 / (q.shape[-1] ^ 1))) @ v)),
        Mistake("a name never defined",
                "{call} raised NameError: your function uses a name it never defined. Set "
                "d_k inside the function (d_k = query.shape[-1]) and import what it uses "
                "(import math) in the same cell.",
                detect=raised_name_error),
        Mistake("rounded the result",
                "on {call} you returned {got}, the answer {expected} rounded. Return the "
                "numbers as they are: rounding is for printing only.",
                detect=rounded),
        Mistake("softmax overflows",
                "right on every case except {call}, with scores near 1800, where your softmax "
                "gave {got}: e^1800 overflows. Subtract each row's largest score before np.exp "
                "(the stable softmax of notebook 07; it changes nothing else).",
                detect=parts.overflows),
    ],
)


def evaluate_attention(func):
    """The Feedback on a learner's ``attention`` (overflow warnings silenced: hints explain)."""
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        return ATTENTION_EXERCISE.evaluate(func)


def check_attention(func):
    """Print feedback on a learner's ``attention(query, key, value)``."""
    print(evaluate_attention(func))
