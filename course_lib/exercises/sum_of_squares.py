"""Exercise of notebook 03: Σᵢ₌₁ᴸ qᵢ², the sum under the root of the norm, as a loop.

Slips
-----
sum_of_squares(q):

- caret for power: ``x ^ 2`` is not a power in Python (TypeError on decimal numbers, XOR on
  whole numbers).
- squared the whole list: ``q ** 2`` on a Python list (TypeError).
- = instead of +=: ``total = x ** 2`` keeps only the last square.
- returned the squares: the list q₁², q₂², … instead of their sum.
- two to the power: ``2 ** x`` instead of ``x ** 2``.
- doubled instead of squared: ``x * 2`` where ``x ** 2`` was meant.
- forgot to square: Σ qᵢ, the slots added as they are.
- squared the total: (Σ qᵢ²)², one squaring too many.
- squared the sum: (Σ qᵢ)², the total squared instead of each slot.
- absolute values: Σ |qᵢ| instead of Σ qᵢ².
- took the square root: √(Σ qᵢ²) is the norm, one step too far.
- multiplied instead of added: the squares multiplied together (``*=`` from 1).
- divided by the number of slots: the mean of the squares, not their sum.
- rounded the result: ``int`` or ``round`` cuts the decimals off.
- largest square: max(qᵢ²) instead of the sum.
- doubled the squares: 2 Σ qᵢ².
- left out the last slot: the loop stops at slot L − 1.
- skipped the first slot: the loop starts at Python position 1, slot 2.
- return inside the loop: the function stops after the first term, q₁².
- changed its input: q was changed in place (named by the framework).
"""

import math

from ._detect import CARET_RAISED, LIST_SQUARED, raised, rounded
from .core import Case, Exercise, Mistake

__all__ = ["SQUARES_EXERCISE", "check_sum_of_squares", "evaluate_sum_of_squares"]


SQUARES_EXERCISE = Exercise(
    "sum_of_squares(q)",
    cases=[Case((q,)) for q in (
        [3.0], [-2.0], [3.0, 4.0], [1.0, -2.0, 2.0], [0.5, 1.5, -1.0, 2.0],
        [2.0, 1.0, 3.0, 1.0, 2.0], [-1.0, -1.0, -1.0], [0.3, -1.25])],
    reference=lambda q: sum(x * x for x in q),
    mistakes=[
        CARET_RAISED,
        LIST_SQUARED,
        Mistake("squared the whole list",
                "{call} raised TypeError: `q * q` tries to multiply a list by a list, which "
                "Python cannot do. Square one slot at a time: `x * x` for x in q.",
                detect=raised(TypeError, "can't multiply sequence")),
        Mistake("returned the squares",
                "{call} gave {got}, the list of squares. Σ adds them up into one number; "
                "expected {expected}.",
                detect=lambda outcomes: next((o for o in outcomes if o.error is None
                                              and isinstance(o.value, (list, tuple))), None)),
        Mistake("two to the power",
                "{call} gave {got}: `2 ** x` is 2 to the power x. A square is x to the power "
                "2: `x ** 2`; expected {expected}.", imitation=lambda q: sum(2 ** x for x in q)),
        Mistake("doubled instead of squared",
                "{call} gave {got}: `x * 2` doubles x, it does not square it. Write x ** 2 or "
                "x * x; expected {expected}.", imitation=lambda q: sum(2 * x for x in q)),
        Mistake("forgot to square",
                "{call} gave {got}, the slots added as they are. Square each slot before "
                "adding it; expected {expected}.", imitation=lambda q: sum(q)),
        Mistake("squared the total",
                "{call} gave {got}: you squared the sum of squares at the end. Return the sum "
                "itself; expected {expected}.", imitation=lambda q: sum(x * x for x in q) ** 2),
        Mistake("squared the sum",
                "{call} gave {got}: you added the slots first and squared the total, (Σ qᵢ)². "
                "Square each slot, then add: Σ qᵢ²; expected {expected}.",
                imitation=lambda q: sum(q) ** 2),
        Mistake("absolute values",
                "{call} gave {got}, the sizes |qᵢ| added. Square each slot (a square is never "
                "negative either); expected {expected}.",
                imitation=lambda q: sum(abs(x) for x in q)),
        Mistake("took the square root",
                "{call} gave {got}: that is √(Σ qᵢ²), the norm ∥q∥. The exercise stops one step "
                "earlier, at the sum of squares itself; expected {expected}.",
                imitation=lambda q: math.sqrt(sum(x * x for x in q))),
        Mistake("return inside the loop",
                "{call} gave {got}, the first square alone: the `return` sits inside the loop, "
                "so it stops after slot 1. Return the total after the loop ends.",
                imitation=lambda q: q[0] ** 2),
        Mistake("= instead of +=",
                "{call} gave {got}, the last square alone: `total = x ** 2` replaces the total "
                "at every step. Add to it: `total += x ** 2`.",
                imitation=lambda q: q[-1] ** 2),
        Mistake("multiplied instead of added",
                "{call} gave {got}: you multiplied the squares together (did the total start "
                "at 1 with `*=`?). Σ adds: start at 0 and use `+=`; expected {expected}.",
                imitation=lambda q: math.prod(x * x for x in q)),
        Mistake("divided by the number of slots",
                "{call} gave {got}, the mean of the squares: Σ qᵢ² is their sum, with no "
                "division by L; expected {expected}.",
                imitation=lambda q: sum(x * x for x in q) / len(q)),
        Mistake("rounded the result",
                "{call} gave {got}: int() or round() cut off the decimals. Return the total "
                "as it is; expected {expected}.", detect=rounded),
        Mistake("caret for power",
                "{call} gave {got}: `x ^ 2` on whole numbers is XOR, a bit operation, not a "
                "power (5 ^ 2 = 7). Write x ** 2 or x * x; expected {expected}.",
                imitation=lambda q: sum(int(x) ^ 2 for x in q)),
        Mistake("largest square",
                "{call} gave {got}, the biggest square alone. Σ adds the squares of ALL the "
                "slots; expected {expected}.", imitation=lambda q: max(x * x for x in q)),
        Mistake("doubled the squares",
                "{call} gave {got}, twice the answer: each square was also doubled (x * x * 2 "
                "or 2 * x ** 2). Each term is just x ** 2; expected {expected}.",
                imitation=lambda q: 2 * sum(x * x for x in q)),
        Mistake("left out the last slot",
                "{call} gave {got}: the last slot is missing. range(len(q)) already stops at "
                "the last position, len(q) − 1; expected {expected}.",
                imitation=lambda q: sum(x * x for x in q[:-1])),
        Mistake("skipped the first slot",
                "{call} gave {got}: slot 1 (Python position 0) is missing. Python counts "
                "positions from 0, so start the loop at 0; expected {expected}.",
                imitation=lambda q: sum(x * x for x in q[1:])),
    ],
)


def evaluate_sum_of_squares(func):
    """The :class:`~course_lib.exercises.core.Feedback` on a learner's ``sum_of_squares``."""
    return SQUARES_EXERCISE.evaluate(func)


def check_sum_of_squares(func):
    """Print feedback on a learner's ``sum_of_squares(q)``."""
    SQUARES_EXERCISE.check(func)
