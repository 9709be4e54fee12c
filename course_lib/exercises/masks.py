"""Exercise of notebook 11: the softmax of one row of scores under a mask, and its cards."""

import numpy as np

from .. import softmax
from ..checklist import Question
from .core import Case, Exercise, Mistake, breaks_only_on

__all__ = ["MASK_EXERCISE", "MASK_QUESTIONS", "check_masked_softmax", "evaluate_masked_softmax"]


def _masked_softmax(scores, allowed):
    return softmax(np.where(np.asarray(allowed, bool), np.asarray(scores, float), -np.inf))


def _zeroed_after(scores, allowed):
    return softmax(np.asarray(scores, float)) * np.asarray(allowed, bool)


def _inverted(scores, allowed):
    return _masked_softmax(scores, ~np.asarray(allowed, bool))


def _masked_with_zero(scores, allowed):
    return softmax(np.where(np.asarray(allowed, bool), np.asarray(scores, float), 0.0))


_CASES = [
    ([1.0, 2.0, 3.0], [True, True, True]),
    ([1.0, 2.0, 3.0], [True, False, True]),
    ([2.0, -1.0, 0.5, 4.0], [True, True, False, False]),
    ([-3.0, -2.0, -5.0], [False, True, True]),
    ([0.0, 0.0, 0.0, 0.0], [True, False, False, True]),
    ([5.0], [True]),
    ([1000.0, 999.0, 1001.0], [True, True, False]),  # exp(1000) overflows without the shift
    ([1.0, 2.0], [False, False]),  # nothing to attend to
]
_BIG, _EMPTY = 6, 7


def _nan_when_empty(outcomes):
    return breaks_only_on(outcomes, _EMPTY)


def _overflows(outcomes):
    return breaks_only_on(outcomes, _BIG)


MASK_EXERCISE = Exercise(
    "masked_softmax(scores, allowed)",
    cases=[Case(args) for args in _CASES],
    reference=_masked_softmax,
    mistakes=[
        Mistake("True means blocked",
                "your weights sit exactly on the keys that should be blocked. In this course "
                "(and in PyTorch's scaled_dot_product_attention) True means MAY attend; only "
                "nn.MultiheadAttention uses True for blocked.",
                imitation=_inverted),
        Mistake("zeroed after the softmax",
                "you set the blocked weights to 0 after the softmax, so the row no longer adds up "
                "to 1. Put −∞ on the blocked scores BEFORE the softmax (or divide by the new row "
                "total afterwards).",
                imitation=_zeroed_after),
        Mistake("masked with 0",
                "you replaced the blocked scores by 0, but a score of 0 still gets weight e⁰ = 1 "
                "before dividing. A blocked score must be −∞ (float('-inf')), whose weight is "
                "exactly 0.",
                imitation=_masked_with_zero),
        Mistake("NaN when everything is blocked",
                "right on every row except the one where every key is blocked: there your "
                "function returns NaN or fails (0/0). Nothing to attend to means all weights 0: "
                "check for that row first and return zeros.",
                detect=_nan_when_empty),
        Mistake("overflow",
                "right except on the scores near 1000, where e¹⁰⁰⁰ overflows to ∞ (and ∞/∞ is "
                "NaN). Subtract the largest ALLOWED score before exponentiating (notebook 07).",
                detect=_overflows),
    ],
)


def evaluate_masked_softmax(func):
    """The :class:`~course_lib.exercises.core.Feedback` on a learner's ``masked_softmax``."""
    return MASK_EXERCISE.evaluate(func)


def check_masked_softmax(func):
    """Print feedback on a learner's ``masked_softmax(scores, allowed)``."""
    MASK_EXERCISE.check(func)


MASK_QUESTIONS = (
    Question("Why is a blocked score set to −∞ rather than to 0?",
             "Because e⁻∞ = 0: the blocked key gets weight exactly 0 and the others still add up "
             "to 1. A score of 0 would still get weight e⁰ = 1 before dividing.", 11),
    Question("Masking with −∞ before the softmax, or zeroing the weights after it and dividing "
             "by the new row total: which is right?",
             "Both give the same weights mathematically. −∞ first is the clean way: no division "
             "by a total that can underflow to 0, and it is what attention kernels do.", 11),
    Question("What does a causal mask allow, and what is its shape?",
             "Query i may attend to keys 0 … i only (itself and the past): a lower-triangular "
             "n×m grid of True, top-left aligned.", 11),
    Question("What does course_lib return for a query whose keys are all masked?",
             "Weights of all 0 and an output row of 0: there is nothing to attend to, and a row "
             "of zeros is finite where 0/0 would be NaN.", 11),
    Question("If you shuffle the keys and the values together, what happens to the output?",
             "Nothing: attention is a weighted sum, and a sum does not care about order. That is "
             "why transformers add positional information to the tokens.", 11),
)
