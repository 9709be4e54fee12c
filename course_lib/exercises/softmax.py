"""Exercise of notebook 07: the softmax of every row of an (n, m) grid of scores.

The hidden cases are read-only arrays: ordinary rows, rows of large scores (1000, ±800) that
overflow eˣ in float64, and one widely spread row where even subtracting the mean overflows.

Slips
-----
- overflows on large scores: ``np.exp(x)`` with no shift (NaN or OverflowError past ~709);
- subtracted the smallest score: every exponent ≥ 0, so a spread row still overflows;
- subtracted the mean: exact on paper, but a widely spread row still overflows;
- softmax over the wrong axis: columns sum to 1 (``axis=0`` for the max, the sum or both);
- max over the wrong axis: each column's max subtracted (0/0 on a spread column);
- shifted the top only: e^(x − c) over the unshifted total;
- sigmoid instead of softmax: 1 / (1 + e⁻ˣ), each score on its own;
- normalised over the whole grid: all weights together sum to 1, not each row;
- row totals without keepdims: ``e / e.sum(axis=-1)`` divides by the wrong totals;
- max without keepdims: ``x - x.max(axis=-1)`` subtracts the wrong rows' maxima;
- subtracted the largest score of the whole grid: a row far below it underflows to 0/0;
- no exponential: ``x / x.sum()`` (negative weights, division by 0);
- not normalised: the exponentials without the division (or divided twice);
- return inside the loop: only the first row's weights come back;
- log of the softmax: x − max − log Σ e^(x − max), the log-weights;
- rounded the result: the weights rounded to a few decimals;
- changed its input: ``scores -= scores.max(...)`` writes into the caller's grid.
"""

import warnings

import numpy as np

from .. import softmax
from ._detect import rounded
from ._softmax_rows import (
    OVERFLOW_LIMIT,
    acts_like,
    is_large,
    not_normalised,
    overflows,
    row_max,
    rows,
)
from .core import Case, Exercise, Mistake, frozen_array

__all__ = ["OVERFLOW_LIMIT", "SOFTMAX_EXERCISE", "check_softmax_rows", "evaluate_softmax_rows",
           "is_large"]

_CASES = [  # ordinary grids (one square, so a missing keepdims shows in the values) ...
    [[1.0, 2.0, 3.0]], [[0.0, 0.0, 0.0, 0.0]], [[1.0, -1.0], [2.0, 0.5], [-3.0, -2.0]],
    [[-3.0, -1.0, -2.0], [0.5, 0.5, 4.0]], [[1.0, 3.0], [0.0, -2.0]],
    [[2.0, 0.0, 1.0], [-1.0, 4.0, 0.5], [0.0, 0.0, 3.0]],
    # ... and large ones: eˣ overflows, and a spread row defeats the min and mean shifts
    [[1000.0, 999.0, 998.0], [-5.0, 0.0, 5.0]], [[800.0, 0.0], [0.0, -800.0]],
    [[750.0, 760.0, 755.0]], [[1500.0, 0.0, -100.0], [1.0, 2.0, 3.0]],
]


def _log_weights(x):  # PyTorch's log_softmax, computed stably
    shifted = x - row_max(x)
    return shifted - np.log(np.exp(shifted).sum(axis=-1, keepdims=True))


SOFTMAX_EXERCISE = Exercise(
    "softmax_rows(scores)",
    cases=[Case((frozen_array(c),)) for c in _CASES],
    reference=lambda scores: softmax(scores, axis=-1),
    mistakes=[
        Mistake("return inside the loop",
                "{call} gave {got}: only the first row's weights. The `return` sits inside "
                "the loop over rows, so the function stops after one round: collect every "
                "row, and return after the loop.",
                detect=acts_like(lambda x: softmax(x[0]), lambda x: softmax(x[:1], axis=-1),
                                 ordinary_only=False)),
        Mistake("subtracted the smallest score",
                "{call} gave {got}: you subtracted each row's SMALLEST score, so every "
                "exponent is ≥ 0 and a widely spread row still overflows. Subtract the row's "
                "LARGEST score: every exponent is then ≤ 0.",
                detect=acts_like(lambda x: rows(x, x.min(axis=-1, keepdims=True)),
                                  ordinary_only=False)),
        Mistake("subtracted the mean",
                "{call} gave {got}: you subtracted each row's mean. That is exact on paper, "
                "but scores far above the mean still overflow eˣ. Subtract the row's LARGEST "
                "score, so every exponent is ≤ 0.",
                detect=acts_like(lambda x: rows(x, x.mean(axis=-1, keepdims=True)),
                                  ordinary_only=False)),
        Mistake("overflows on large scores",
                "your weights are right for ordinary scores, but {call} gave {got}: e¹⁰⁰⁰ is "
                "too big for a float. Subtract each row's largest score before "
                "exponentiating: it cancels between the top and the bottom of the fraction, "
                "so the weights do not change, and every exponent becomes ≤ 0.",
                detect=overflows),
        Mistake("softmax over the wrong axis",
                "{call} gave {got}: each COLUMN of your answer sums to 1, not each row. "
                "Softmax runs along a row, over the m keys of one query: take the max and "
                "the sum along axis=-1 (the last axis), with keepdims=True.",
                detect=acts_like(lambda x: softmax(x, axis=0),
                                  lambda x: (e := np.exp(x - row_max(x))) / e.sum(axis=0))),
        Mistake("max over the wrong axis",
                "{call} gave {got}: you subtracted each COLUMN's largest score. That is exact "
                "on paper, but a row far below its column's maximum underflows to 0/0 = nan. "
                "Subtract each row's own largest score: x.max(axis=-1, keepdims=True).",
                detect=acts_like(lambda x: rows(x, x.max(axis=0, keepdims=True)),
                                  ordinary_only=False)),
        Mistake("shifted the top only",
                "{call} gave {got}: you subtracted the row's largest score on top of the "
                "fraction but not in the total below, so e⁻ᶜ no longer cancels. Shift once, "
                "then use the shifted exponentials for both: e = np.exp(x - c); e / e.sum(...).",
                detect=acts_like(lambda x: np.exp(x - row_max(x))
                                  / np.exp(x).sum(axis=-1, keepdims=True))),
        Mistake("sigmoid instead of softmax",
                "{call} gave {got}: 1 / (1 + e⁻ˣ) is the sigmoid, one number per score on its "
                "own. Softmax shares out 1 across the row: eˣʲ divided by the row's total.",
                detect=acts_like(lambda x: 1 / (1 + np.exp(-x)))),
        Mistake("normalised over the whole grid",
                "{call} gave {got}: all your weights together add up to 1, but each ROW must. "
                "Divide each row's exponentials by the total of that row only (sum with "
                "axis=-1, keepdims=True).",
                detect=acts_like(lambda x: (e := np.exp(x - x.max())) / e.sum(),
                                  lambda x: (e := np.exp(x - row_max(x))) / e.sum())),
        Mistake("row totals without keepdims",
                "{call} gave {got}: e.sum(axis=-1) has shape (n,), which NumPy lines up with "
                "the COLUMNS of the (n, m) grid: wrong totals, or a shape error. Keep the "
                "summed axis: e.sum(axis=-1, keepdims=True) has shape (n, 1).",
                detect=acts_like(lambda x: (e := np.exp(x - row_max(x))) / e.sum(axis=-1),
                                  lambda x: np.exp(x) / np.exp(x).sum(axis=-1))),
        Mistake("max without keepdims",
                "{call} gave {got}: x.max(axis=-1) has shape (n,), which NumPy lines up with "
                "the COLUMNS, so each score loses another row's maximum (or a shape error). "
                "Keep the axis: x.max(axis=-1, keepdims=True) has shape (n, 1).",
                detect=acts_like(lambda x: rows(x, x.max(axis=-1)))),
        Mistake("subtracted the largest score of the whole grid",
                "{call} gave {got}: you subtracted the largest score of the whole grid. That "
                "is exact on paper, but a row far below that maximum underflows to all zeros "
                "and gives 0/0 = nan. Subtract each row's own largest score.",
                detect=acts_like(lambda x: rows(x, x.max()), ordinary_only=False)),
        Mistake("no exponential",
                "{call} gave {got}: you divided the scores by their total without "
                "exponentiating. Negative scores then give negative weights, and a row that "
                "adds up to 0 cannot be divided at all. Take eˣ of every score first.",
                detect=acts_like(lambda x: x / x.sum(axis=-1, keepdims=True))),
        Mistake("not normalised",
                "{call} gave {got}: your rows have the right proportions, but do not add up "
                "to 1 ({expected}): divide each exponential by the total of its row, once.",
                detect=not_normalised),
        Mistake("log of the softmax",
                "{call} gave {got}: negative numbers, the LOGARITHM of the weights (x − max − "
                "log Σ e^(x − max), PyTorch's log_softmax). The weights themselves are "
                "e^(x − max) / Σ e^(x − max); expected {expected}.",
                detect=acts_like(_log_weights, ordinary_only=False)),
        Mistake("rounded the result",
                "{call} gave {got}, rounded: keep every decimal (round only when you print); "
                "expected {expected}.", detect=rounded),
    ],
)


def _quietly(func):
    # the learner's attempt may overflow: no warning text in the notebook, a hint instead
    def call(scores):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with np.errstate(all="ignore"):
                return func(scores)
    return call


def evaluate_softmax_rows(func):
    """The :class:`~course_lib.exercises.core.Feedback` on a learner's ``softmax_rows``."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with np.errstate(all="ignore"):  # the imitations of the slips overflow too
            return SOFTMAX_EXERCISE.evaluate(_quietly(func) if callable(func) else func)


def check_softmax_rows(func):
    """Print feedback on a learner's ``softmax_rows(scores)``."""
    print(evaluate_softmax_rows(func))
