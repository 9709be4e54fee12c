"""Exercise of notebook 07: softmax of every row of a score grid. The checker recognises
softmax over the wrong axis, a softmax that overflows on large scores, and the ways of not
normalising (or normalising over the wrong set)."""

import warnings

import numpy as np

from .. import softmax
from .core import Case, Exercise, Mistake

__all__ = ["SOFTMAX_EXERCISE", "check_softmax_rows", "evaluate_softmax_rows", "is_large"]

OVERFLOW_LIMIT = 709.0  # e^x overflows float64 a little above x = 709.78

_CASES = [
    [[1.0, 2.0, 3.0]],
    [[0.0, 0.0, 0.0, 0.0]],
    [[1.0, -1.0], [2.0, 0.5], [-3.0, -2.0]],
    [[-3.0, -1.0, -2.0], [0.5, 0.5, 4.0]],
    [[1000.0, 999.0, 998.0], [-5.0, 0.0, 5.0]],
    [[800.0, 0.0], [0.0, -800.0]],
    [[750.0, 760.0, 755.0]],
]


def is_large(case):
    """Whether a case holds scores big enough to overflow e^x in float64."""
    return bool(np.abs(case.args[0]).max() > OVERFLOW_LIMIT)


def _array(value):
    try:
        return np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        return None


def _same_or_both_nan(got, wrong):
    got, wrong = _array(got), _array(wrong)
    if got is None or wrong is None or got.shape != wrong.shape:
        return False
    return bool(np.allclose(got, wrong, rtol=1e-9, atol=1e-9, equal_nan=True))


def _acts_like(imitation, ordinary_only=True):
    """The learner's answers equal the imitation's (NaN where it gives NaN, an error where it
    raises) on every case, and that is wrong somewhere. With ``ordinary_only`` the large
    cases are left out, so a second slip (overflow) does not hide the first."""

    def detect(outcomes):
        telling = 0
        for outcome in outcomes:
            if ordinary_only and is_large(outcome.case):
                continue
            try:
                wrong = imitation(np.array(outcome.case.args[0]))
            except Exception:
                if outcome.error is None:
                    return False
                telling += 1
                continue
            if outcome.error is not None or not _same_or_both_nan(outcome.value, wrong):
                return False
            telling += not _same_or_both_nan(wrong, outcome.case.expected)
        return telling > 0

    return detect


def _overflows(outcomes):
    """Right on every ordinary case; NaN, ∞ or an error on the large ones."""
    large = [o for o in outcomes if is_large(o.case)]
    if not large or not all(o.correct for o in outcomes if not is_large(o.case)):
        return False
    for outcome in large:
        value = _array(outcome.value) if outcome.error is None else None
        broke = outcome.error is not None or value is None or not np.isfinite(value).all()
        if not broke:
            return False
    return True


def _not_normalised(outcomes):
    """On the ordinary cases every row is a positive multiple of the right row, and some
    multiple is not 1."""
    ordinary = [o for o in outcomes if not is_large(o.case)]
    scaled = False
    for outcome in ordinary:
        value = _array(outcome.value) if outcome.error is None else None
        expected = np.asarray(outcome.case.expected, dtype=float)
        if value is None or value.shape != expected.shape or not np.isfinite(value).all():
            return False
        ratios = value / expected  # softmax weights are never 0 on these cases
        if not np.allclose(ratios, ratios[:, :1], rtol=1e-9):
            return False
        scaled |= not np.allclose(ratios, 1.0, rtol=1e-9)
    return bool(ordinary) and scaled


def _grid_max(x):
    e = np.exp(x - x.max())  # the largest score of the whole grid, not of each row
    return e / e.sum(axis=-1, keepdims=True)


def _stable_exp(x):
    return np.exp(x - x.max(axis=-1, keepdims=True))


def _no_keepdims(x):
    e = _stable_exp(x)
    return e / e.sum(axis=-1)  # shape (n,) against (n, m): lines up with the wrong axis


def _whole_grid(x):
    e = np.exp(x - x.max())
    return e / e.sum()  # the total of the whole grid


SOFTMAX_EXERCISE = Exercise(
    "softmax_rows(scores)",
    cases=[Case((np.array(c),)) for c in _CASES],
    reference=lambda scores: softmax(scores, axis=-1),
    mistakes=[
        Mistake("overflows on large scores",
                "your weights are right for ordinary scores, but become nan or inf (or raise "
                "OverflowError) when the scores are large, like 1000: e¹⁰⁰⁰ is too big for a "
                "float. Subtract each row's largest score before exponentiating: it cancels "
                "between the top and the bottom of the fraction, so the weights do not change, "
                "and every exponent becomes ≤ 0.",
                detect=_overflows),
        Mistake("softmax over the wrong axis",
                "each COLUMN of your answer sums to 1, not each row. Softmax runs along a row: "
                "over the m keys of one query. Take the max and the sum along axis=-1 (the "
                "last axis), with keepdims=True so the shapes line up.",
                detect=_acts_like(lambda x: softmax(x, axis=0))),
        Mistake("normalised over the whole grid",
                "all your weights together add up to 1, but each ROW must: divide each row's "
                "exponentials by the total of that row only (sum with axis=-1, "
                "keepdims=True).",
                detect=_acts_like(_whole_grid)),
        Mistake("row totals without keepdims",
                "you divided by the row totals, but e.sum(axis=-1) has shape (n,), which NumPy "
                "lines up with the COLUMNS of the (n, m) grid: wrong totals, or a shape error. "
                "Keep the summed axis: e.sum(axis=-1, keepdims=True) has shape (n, 1) and "
                "divides each row by its own total.",
                detect=_acts_like(_no_keepdims)),
        Mistake("subtracted the largest score of the whole grid",
                "you subtracted the largest score of the whole grid. That is exact on paper, "
                "but a row far below that maximum underflows to all zeros and gives "
                "0/0 = nan. Subtract each row's own largest score (max with axis=-1, "
                "keepdims=True).",
                detect=_acts_like(_grid_max, ordinary_only=False)),
        Mistake("no exponential",
                "you divided the scores by their total without exponentiating. Negative "
                "scores then give negative weights, and a row that adds up to 0 cannot be "
                "divided at all. Take eˣ of every score first (positive for every x), then "
                "divide by the row's total.",
                detect=_acts_like(lambda x: x / x.sum(axis=-1, keepdims=True))),
        Mistake("not normalised",
                "your rows have the right proportions but do not add up to 1: divide each "
                "exponential by the total of its row.",
                detect=_not_normalised),
    ],
)


def _quietly(func):
    # the learner's attempt may overflow: no warning text in the notebook, a hint instead;
    # each call gets its own copy of the scores
    def call(scores):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with np.errstate(all="ignore"):
                return func(np.array(scores))
    return call


def evaluate_softmax_rows(func):
    """The :class:`~course_lib.exercises.core.Feedback` on a learner's ``softmax_rows``."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with np.errstate(all="ignore"):  # the imitations of the mistakes overflow too
            return SOFTMAX_EXERCISE.evaluate(_quietly(func))


def check_softmax_rows(func):
    """Print feedback on a learner's ``softmax_rows(scores)``."""
    print(evaluate_softmax_rows(func))


