"""Exercise of notebook 02: the length ∥q∥ of a list of any number of slots."""

import math

from .. import norm
from .core import Case, Exercise, Mistake

__all__ = ["LENGTH_EXERCISE", "check_length", "evaluate_length"]

LENGTH_EXERCISE = Exercise(
    "length(q)",
    cases=[Case((q,)) for q in (
        [3.0, 4.0], [-3.0, 4.0], [2.0], [-2.0], [1.0, 2.0, 2.0], [0.0, 0.0],
        [1.0, 1.0, 1.0, 1.0], [2.0, -1.0, 2.0, -4.0, 2.0], [-1.0, -2.0, -2.0])],
    reference=lambda q: float(norm(q)),
    mistakes=[
        Mistake("no square root",
                "you added the squares but did not take the square root at the end: the "
                "length of [3, 4] is √(9 + 16) = √25 = 5, not 25. Use math.sqrt(...) on the "
                "total.",
                imitation=lambda q: sum(x * x for x in q)),
        Mistake("no squares",
                "you added the slots themselves. Square each slot first (q₁², q₂², …), then "
                "add, then take the square root: a negative slot adds length too.",
                imitation=lambda q: math.sqrt(sum(q))),
        Mistake("absolute values",
                "you added the sizes of the slots (|q₁| + |q₂| + …): that is the distance "
                "walked along the grid lines, not the straight arrow. Square, add, then take "
                "the square root.",
                imitation=lambda q: sum(abs(x) for x in q)),
        Mistake("squared the sum",
                "you added the slots first and squared the total. Square each slot first, then "
                "add the squares: (3 + 4)² = 49 but 3² + 4² = 25.",
                imitation=lambda q: math.sqrt(sum(q) ** 2)),
        Mistake("two slots only",
                "you used only the first two slots. Pythagoras in the plane has two, but q can "
                "have any number L of slots: add the squares of all of them (loop over q).",
                imitation=lambda q: math.sqrt(q[0] ** 2 + q[1] ** 2)),
    ],
)


def evaluate_length(func):
    """The :class:`~course_lib.exercises.core.Feedback` on a learner's ``length``."""
    return LENGTH_EXERCISE.evaluate(func)


def check_length(func):
    """Print feedback on a learner's ``length(q)``."""
    LENGTH_EXERCISE.check(func)
