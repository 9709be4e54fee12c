"""Exercise of notebook 04: the dot product q·k = q₁k₁ + q₂k₂ + … + q_Lk_L as a loop."""

from itertools import combinations

import numpy as np

from .. import dot
from .core import Case, Exercise, Mistake

__all__ = ["DOT_EXERCISE", "check_dot_product", "evaluate_dot_product"]

_VALUE_CASES = [
    ([3.0], [-2.0]),
    ([1.0, 0.0], [0.0, 1.0]),
    ([1.0, 2.0, 3.0], [4.0, 5.0, 6.0]),
    ([2.0, -1.0, 3.0, 0.5], [1.0, 4.0, -2.0, 2.0]),
    ([1.0, 2.0, 3.0, 4.0, 5.0], [5.0, 4.0, 3.0, 2.0, 1.0]),
    ([1.0, 3.0, 9.0, 27.0], [1.0, 1.0, 1.0, 1.0]),  # every subset of slots has its own sum
]
_LENGTH_CASES = [([1.0, 2.0], [1.0, 2.0, 3.0]), ([1.0, 2.0, 3.0], [1.0, 2.0])]


def _value_outcomes(outcomes):
    return [o for o in outcomes if o.case.raises is None]


def _returns_vector(outcomes):
    return any(o.error is None and o.value is not None and np.ndim(o.value) > 0
               for o in _value_outcomes(outcomes))


def _partial_sums_of_products(q, k):
    products = [a * b for a, b in zip(q, k, strict=True)]
    return [sum(c) for r in range(len(products)) for c in combinations(products, r)]


def _uses_some_slots(outcomes):
    """Every wrong answer is the sum of the products over some, but not all, of the slots."""
    wrong = [o for o in _value_outcomes(outcomes) if not o.correct]
    if not wrong:
        return False
    for o in wrong:
        if o.error is not None or np.ndim(o.value) != 0:
            return False
        partial = _partial_sums_of_products(*o.case.args)
        if not any(abs(float(o.value) - p) <= 1e-9 for p in partial):
            return False
    return True


def _accepts_different_lengths(outcomes):
    values_right = all(o.correct for o in _value_outcomes(outcomes))
    return values_right and any(not o.correct for o in outcomes if o.case.raises is not None)


DOT_EXERCISE = Exercise(
    "dot_loop(q, k)",
    cases=[Case(args) for args in _VALUE_CASES]
    + [Case(args, raises=ValueError) for args in _LENGTH_CASES],
    reference=lambda q, k: float(dot(q, k)),
    mistakes=[
        Mistake("returns a vector",
                "you returned a list of numbers (the products q₁k₁, q₂k₂, …?). The dot product "
                "is ONE number: add the products together and return the total.",
                detect=_returns_vector),
        Mistake("sums without multiplying",
                "you added the slots of q and k. Multiply matching slots first (q₁ times k₁, "
                "q₂ times k₂, …), then add those products.",
                imitation=lambda q, k: sum(q) + sum(k)),
        Mistake("multiplies the sums",
                "you multiplied the two totals, (q₁ + q₂ + …)(k₁ + k₂ + …). Multiply slot by "
                "slot instead, then add: q₁k₁ + q₂k₂ + ….",
                imitation=lambda q, k: sum(q) * sum(k)),
        Mistake("uses only some slots",
                "your sum leaves out some slots. Check the loop's range: it must visit every "
                "slot, from the first (index 0) to the last (index L − 1).",
                detect=_uses_some_slots),
        Mistake("does not reject different lengths",
                "your numbers are right, but lists of different lengths have no dot product. "
                "Check len(q) == len(k) first and raise ValueError with a message if they "
                "differ (zip would silently stop at the shorter list).",
                detect=_accepts_different_lengths),
    ],
)


def evaluate_dot_product(func):
    """The :class:`~course_lib.exercises.core.Feedback` on a learner's ``dot_loop``."""
    return DOT_EXERCISE.evaluate(func)


def check_dot_product(func):
    """Print feedback on a learner's ``dot_loop(q, k)``."""
    DOT_EXERCISE.check(func)
