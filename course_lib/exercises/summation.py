"""Exercises of notebook 03: Σᵢ₌ₐᵇ qᵢ as a loop, with slots counted from 1 as in the maths,
and the same sum by hand.

Slips
-----
sum_from_to(q, a, b):

- counted from 0: ``q[i]`` for slot i, so every term is one slot too far right (and an
  IndexError when b is the last slot).
- left out the last slot: the range or slice stops before slot b.
- started one late: slot a is left out.
- added everything: every slot of q, not just a to b.
- one slot past the end: the slice ``q[a - 1:b + 1]`` adds slot b + 1 too.
- = instead of +=: ``total = q[i - 1]`` keeps only the last term, q_b.
- only the two ends: q_a + q_b, the slots between left out.
- shifted slots: slots a + s to b + s for a shift s of −1 or 2 (a slice off by more than one).
- started at slot 1: ``sum(q[:b])``, the slots before a added too.
- return inside the loop: the function stops after the first term, q_a.
- multiplied instead of added: the terms multiplied together.
- divided by the number of terms: the mean instead of the sum.
- added the slot numbers: a + … + b instead of q_a + … + q_b.
- returned the terms: the list of terms, never added.
- changed its input: q was changed in place (named by the framework).

By hand, Σᵢ₌₂⁴ qᵢ for q = [5, 1, 4, 2, 3]: counted from 0 (9), left out the last slot (5),
started one late (6), added everything (15), multiplied instead of added (8),
only the two ends (3), started at slot 1 (12), one slot past the end (10).
"""

import math

from ..summation import sigma
from ._detect import returned
from .by_hand import HandExercise, Slip
from .core import Case, Exercise, Mistake

__all__ = ["SUM_EXERCISE", "SUM_HAND", "check_sum_by_hand", "check_sum_from_to",
           "evaluate_sum_from_to"]

def _from_zero(outcomes):
    # q[i] for i in a..b: one slot to the right, and an IndexError when b is the last slot
    telling = None
    for o in outcomes:
        q, a, b = o.case.args
        if b >= len(q) and isinstance(o.error, IndexError):
            telling = telling or o
            continue
        try:
            if o.error is not None or abs(float(o.value) - sum(q[a:b + 1])) > 1e-9:
                return None
        except (TypeError, ValueError):
            return None
        telling = telling or (None if o.correct else o)
    return telling


def _shifted(outcomes):
    # the sum of slots a + s to b + s for a small shift s (s = 1 is "counted from 0")
    for shift in (-1, 2):
        telling = None
        for o in outcomes:
            q, a, b = o.case.args
            shifted = sum(q[a - 1 + shift:b + shift])  # as the learner sliced, negatives and all
            try:
                if o.error is not None or abs(float(o.value) - shifted) > 1e-9:
                    break
            except (TypeError, ValueError):
                break
            telling = telling or (None if o.correct else o)
        else:
            if telling is not None:
                return telling
    return None


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
                "{call} gave {got}: your sum is shifted by one slot. The maths numbers slots "
                "from 1, Python from 0: slot i is q[i - 1]. Loop i over range(a, b + 1) and "
                "add q[i - 1]; expected {expected}.",
                detect=lambda outcomes: _from_zero(outcomes)),
        Mistake("left out the last slot",
                "{call} gave {got}: your sum stops one slot early. Σ from a to b includes slot "
                "b too, but a Python range or slice stops before its end: use range(a, b + 1).",
                imitation=lambda q, a, b: sum(q[a - 1:b - 1])),
        Mistake("started one late",
                "{call} gave {got}: your sum leaves out slot a. Σ from a to b starts at slot a, "
                "which Python holds at q[a - 1]; expected {expected}.",
                imitation=lambda q, a, b: sum(q[a:b])),
        Mistake("added everything",
                "{call} gave {got}, the sum of every slot of q. Only slots a to b belong in "
                "Σᵢ₌ₐᵇ qᵢ; expected {expected}.",
                imitation=lambda q, a, b: sum(q)),
        Mistake("one slot past the end",
                "{call} gave {got}: your sum goes one slot past b. Slot b is q[b - 1], so the "
                "slice is q[a - 1:b] (a slice stops before its end); expected {expected}.",
                imitation=lambda q, a, b: sum(q[a - 1:b + 1])),
        Mistake("shifted slots",
                "{call} gave {got}: your sum covers other slots than a to b (shifted by one or "
                "two). Slot i is q[i - 1]: add q[a - 1] up to q[b - 1]; expected {expected}.",
                detect=lambda outcomes: _shifted(outcomes)),
        Mistake("only the two ends",
                "{call} gave {got}, q_a + q_b only: the slots between the limits count too, "
                "q_a + q_(a+1) + … + q_b; expected {expected}.",
                imitation=lambda q, a, b: q[a - 1] + q[b - 1]),
        Mistake("started at slot 1",
                "{call} gave {got}: your sum starts at slot 1 instead of slot a (a slice "
                "q[:b] starts at the beginning). Start at q[a - 1]; expected {expected}.",
                imitation=lambda q, a, b: sum(q[:b])),
        Mistake("= instead of +=",
                "{call} gave {got}, the last term q_b alone: `total = q[i - 1]` replaces the "
                "total at every step. Add to it: `total += q[i - 1]`.",
                imitation=lambda q, a, b: q[b - 1]),
        Mistake("return inside the loop",
                "{call} gave {got}, the first term q_a alone: the `return` sits inside the "
                "loop, so it stops after one slot. Return the total after the loop ends.",
                imitation=lambda q, a, b: q[a - 1]),
        Mistake("= instead of +=",
                "{call} gave {got}, one term alone: `total = q[i - 1]` replaces the total at "
                "every step (and range(a, b) stops before b). Add to it, `total += q[i - 1]`, "
                "for i in range(a, b + 1); expected {expected}.",
                imitation=lambda q, a, b: q[b - 2] if b > a else 0),
        Mistake("multiplied instead of added",
                "{call} gave {got}, the terms multiplied: Σ ADDS them (start the total at 0 "
                "and use +=); expected {expected}.",
                imitation=lambda q, a, b: math.prod(q[a - 1:b])),
        Mistake("divided by the number of terms",
                "{call} gave {got}, the mean of the terms: Σ is their sum, with no division; "
                "expected {expected}.", imitation=lambda q, a, b: sum(q[a - 1:b]) / (b - a + 1)),
        Mistake("added the slot numbers",
                "{call} gave {got}, a + (a + 1) + … + b: the slot NUMBERS i were added, not the "
                "numbers qᵢ sitting in those slots. Add q[i - 1]; expected {expected}.",
                imitation=lambda q, a, b: sum(range(a, b + 1))),
        Mistake("returned the terms",
                "{call} gave {got}, the list of terms: add them into one number and return "
                "that; expected {expected}.",
                detect=returned(lambda o: isinstance(o.value, (list, tuple)))),
    ],
)

SUM_HAND = HandExercise("Σᵢ₌₂⁴ qᵢ for q = [5, 1, 4, 2, 3]", 7.0, [
    Slip("counted from 0", 9.0, "{got} is 4 + 2 + 3, the slots Python numbers 2 to 4 (from 0). "
         "The maths counts from 1: q₂ is the second number, 1."),
    Slip("left out the last slot", 5.0, "{got} is q₂ + q₃ only: Σ from 2 to 4 includes slot 4 "
         "too, both ends are in."),
    Slip("started one late", 6.0, "{got} is q₃ + q₄: Σ from i = 2 starts with q₂, both ends "
         "are in."),
    Slip("added everything", 15.0, "{got} adds all five slots: only i = 2, 3, 4 belong in the "
         "sum."),
    Slip("only the two ends", 3.0, "{got} is q₂ + q₄: the slots between the limits count "
         "too, q₂ + q₃ + q₄."),
    Slip("started at slot 1", 12.0, "{got} is q₁ + q₂ + q₃ + q₄: the sum starts at i = 2, "
         "so q₁ = 5 is not in it."),
    Slip("one slot past the end", 10.0, "{got} is q₂ + q₃ + q₄ + q₅: the sum stops at slot "
         "4, so q₅ = 3 is not in it."),
    Slip("multiplied instead of added", 8.0, "{got} is q₂ × q₃ × q₄: Σ adds the terms (the "
         "product sign is Π)."),
], tolerance=0.01)


def evaluate_sum_from_to(func):
    """The :class:`~course_lib.exercises.core.Feedback` on a learner's ``sum_from_to``."""
    return SUM_EXERCISE.evaluate(func)


def check_sum_from_to(func):
    """Print feedback on a learner's ``sum_from_to(q, a, b)``."""
    SUM_EXERCISE.check(func)


def check_sum_by_hand(value):
    """Print feedback on the number typed for Σᵢ₌₂⁴ qᵢ."""
    SUM_HAND.check(value)
