"""Exercise of notebook 03: Σᵢ₌ₐᵇ qᵢ as a loop, with slots counted from 1 as in the maths."""

from ..summation import sigma
from .core import Case, Exercise, Mistake

__all__ = ["SUM_EXERCISE", "check_sum_from_to", "evaluate_sum_from_to"]

SUM_EXERCISE = Exercise(
    "sum_from_to(q, a, b)",
    cases=[Case(args) for args in (
        ([5.0, 1.0, 4.0, 2.0], 1, 4),
        ([5.0, 1.0, 4.0, 2.0], 2, 3),
        ([5.0, 1.0, 4.0, 2.0], 3, 3),
        ([2.0, 7.0, 1.0, 8.0, 2.0, 8.0], 2, 5),
        ([3.0, -1.0, 4.0, -1.0, 5.0], 1, 5),
        ([3.0, 1.0, 4.0, 1.0, 5.0, 9.0], 4, 6),
    )],
    reference=sigma,
    mistakes=[
        Mistake("counted from 0",
                "your sum is shifted by one slot. The maths numbers slots from 1, Python "
                "from 0: slot i is q[i - 1]. Loop i over range(a, b + 1) and add q[i - 1].",
                imitation=lambda q, a, b: sum(q[a:b + 1])),
        Mistake("left out the last slot",
                "your sum stops one slot early. Σ from a to b includes slot b too, but a "
                "Python range or slice stops before its end: use range(a, b + 1).",
                imitation=lambda q, a, b: sum(q[a - 1:b - 1])),
        Mistake("started one late",
                "your sum leaves out slot a. Σ from a to b starts at slot a, which Python "
                "holds at q[a - 1].",
                imitation=lambda q, a, b: sum(q[a:b])),
        Mistake("added everything",
                "you added every slot of q. Only slots a to b belong in Σᵢ₌ₐᵇ qᵢ.",
                imitation=lambda q, a, b: sum(q)),
    ],
)


def evaluate_sum_from_to(func):
    """The :class:`~course_lib.exercises.core.Feedback` on a learner's ``sum_from_to``."""
    return SUM_EXERCISE.evaluate(func)


def check_sum_from_to(func):
    """Print feedback on a learner's ``sum_from_to(q, a, b)``."""
    SUM_EXERCISE.check(func)
