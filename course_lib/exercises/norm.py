"""Exercises of notebook 02: the length ∥q∥ of a list of any number of slots, in code and by
hand.

Slips
-----
length(q):

- no square root: the squares are added but the root is never taken.
- halved instead of the root: ``total ** 1/2`` is (total¹)/2, because ** binds first.
- doubled instead of squared: ``x * 2`` (or ``2 * x``) where ``x ** 2`` was meant.
- caret for power: ``x ^ 2`` is not a power in Python (TypeError on decimal numbers).
- squared the whole list: ``q ** 2`` on a Python list (TypeError).
- forgot the sum: ``math.sqrt(x ** 2 for x in q)``, the root of a generator (TypeError).
- loop runs one past the end: ``range(1, len(q) + 1)`` asks for slot L + 1 (IndexError).
- started the total at 1: ``total = 1`` instead of 0 before the loop.
- squared the positions: ``for x in range(len(q))`` squares 0, 1, 2, … not the slots.
- one over the length: ``total ** -0.5`` (or ``1 / sqrt``), the minus sign in the power.
- squared instead of the root: (Σ qᵢ²)², the last step turned round.
- no squares: the slots themselves are added, then the root taken.
- absolute values: |q₁| + |q₂| + … (the walk along the grid lines).
- squared the sum: the slots added first and the total squared.
- fixed number of slots: Pythagoras with q₁ and q₂ (or q₁, q₂, q₃) only, whatever L is.
- return inside the loop: the function stops after the first slot.
- = instead of +=: ``total = x ** 2`` keeps only the last slot's square.
- left out the last slot: the loop stops at slot L − 1.
- skipped the first slot: the loop starts at Python position 1, slot 2.
- divided by the number of slots: ∥q∥ / L, an average, not a length.
- largest slot: the size of the biggest slot instead of the length.
- power 1 // 2: ``total ** (1 // 2)`` is total ** 0 = 1.
- root of the mean: √((Σ qᵢ²) / L), the root-mean-square, not the length.
- rounded the result: ``round(…, 2)`` or ``int``, so the decimals are lost.
- root inside the loop: the root taken at every step, not once after the loop.
- single slot left signed: one slot returned as q[0] itself, so ∥[−2]∥ came out −2.
- power the wrong way round: ``2 ** x`` instead of ``x ** 2``.
- started the total at the first slot: ``total = q[0]`` and then every square added.
- forgot to store the sum: ``total + x ** 2`` without ``+=`` (0 every time).
- root of the number of slots: √L.
- @ on lists: ``q @ q`` on Python lists (TypeError; it works on NumPy arrays).
- returned a list: one number per slot (e.g. √(x²) for each x) instead of one length.
- changed its input: q was changed in place (named by the framework).

By hand, ∥[2, −3, 6]∥ = √49 = 7: no square root (49), halved instead of the root (24.5),
no squares (√5), absolute values (11), squared the sum (5), minus sign squared away wrong
((−3)² taken as −9: √31), doubled instead of squared (√10), left out a slot (√13, √40, √45),
absolute values under the root (√11).
"""

import math

import numpy as np

from .. import norm
from ._detect import CARET_RAISED, LIST_SQUARED, raised, raised_everywhere, returned, rounded
from ._lengths import fixed_slots, root_each_step, signed_single_slot
from .by_hand import HandExercise, Slip
from .core import Case, Exercise, Mistake

__all__ = ["LENGTH_EXERCISE", "LENGTH_HAND", "check_length", "check_length_by_hand",
           "evaluate_length"]


LENGTH_EXERCISE = Exercise(
    "length(q)",
    cases=[Case((q,)) for q in (
        [3.0, 4.0], [-3.0, 4.0], [2.0], [-2.0], [1.0, 2.0, 2.0], [0.0, 0.0], [0.5, 1.5],
        [1.0, 1.0, 1.0, 1.0], [2.0, -1.0, 2.0, -4.0, 2.0], [-1.0, -2.0, -2.0], [4.0, 3.0])],
    reference=lambda q: float(norm(q)),
    mistakes=[
        CARET_RAISED,
        LIST_SQUARED,
        Mistake("forgot the sum",
                "{call} raised TypeError: math.sqrt got the squares one by one (a generator), "
                "not their total. Add them first: math.sqrt(sum(x ** 2 for x in q)).",
                detect=raised(TypeError, "generator")),
        Mistake("loop runs one past the end",
                "{call} raised IndexError: the loop asks for a position after the last one. "
                "Positions run 0 … L − 1, so use range(len(q)), not range(1, len(q) + 1).",
                detect=raised_everywhere(IndexError)),
        Mistake("started the total at 1",
                "{call} gave {got}, the root of 1 + the sum of squares: the total starts at 1. "
                "Start it at 0 (total = 0) before the loop; expected {expected}.",
                imitation=lambda q: math.sqrt(1 + sum(x * x for x in q))),
        Mistake("single slot left signed",
                "{call} gave {got}: a single slot was returned as it is, sign and all. A length "
                "is never negative: ∥[−2]∥ = √((−2)²) = 2; use the same formula for one slot.",
                detect=signed_single_slot),
        Mistake("power the wrong way round",
                "{call} gave {got}: `2 ** x` is 2 to the power x; the square of x is `x ** 2`; "
                "expected {expected}.", imitation=lambda q: math.sqrt(sum(2.0 ** x for x in q))),
        Mistake("started the total at the first slot",
                "{call} gave {got}: the total started at q[0] and then every square was added "
                "(q[0] counted unsquared). Start at 0; expected {expected}.",
                imitation=lambda q: math.sqrt(q[0] + sum(x * x for x in q))),
        Mistake("@ on lists",
                "{call} raised TypeError: `@` works on NumPy arrays, not on Python lists. Use "
                "np.asarray(q) first, or add the squares in a loop.",
                detect=raised(TypeError, "@")),
        Mistake("forgot to store the sum",
                "{call} gave {got}: `total + x ** 2` computes a sum and throws it away. Store "
                "it: `total += x ** 2`; expected {expected}.", imitation=lambda q: 0.0),
        Mistake("root of the number of slots",
                "{call} gave {got}, √L, the root of the number of slots: the squares of the "
                "slots' NUMBERS are added; expected {expected}.",
                imitation=lambda q: math.sqrt(len(q))),
        Mistake("squared the positions",
                "{call} gave {got}: `for x in range(len(q))` gives the positions 0, 1, 2, …, not "
                "the slots. Square q[x] (or loop `for x in q`); expected {expected}.",
                imitation=lambda q: math.sqrt(sum(x * x for x in range(len(q))))),
        Mistake("one over the length",
                "{call} gave {got}, 1 / ∥q∥: a power of −0.5 divides 1 by the root. The root is "
                "the power +0.5 (or math.sqrt); expected {expected}.",
                imitation=lambda q: 1 / float(norm(q))),
        Mistake("no square root",
                "{call} gave {got}: you added the squares but did not take the square root at "
                "the end (the length of [3, 4] is √25 = 5, not 25). Use math.sqrt(total); "
                "expected {expected}.",
                imitation=lambda q: sum(x * x for x in q)),
        Mistake("halved instead of the root",
                "{call} gave {got}, half the sum of squares: `total ** 1/2` means "
                "(total ** 1) / 2, because ** binds before /. Write total ** 0.5 or "
                "math.sqrt(total); expected {expected}.",
                imitation=lambda q: sum(x * x for x in q) / 2),
        Mistake("doubled instead of squared",
                "{call} gave {got}: `x * 2` doubles x, it does not square it, and a negative "
                "slot then takes length away. Write x ** 2 or x * x; expected {expected}.",
                imitation=lambda q: math.sqrt(sum(2 * x for x in q))),
        Mistake("squared instead of the root",
                "{call} gave {got}: you squared the sum of squares. The last step is the "
                "square root, math.sqrt(total); expected {expected}.",
                imitation=lambda q: sum(x * x for x in q) ** 2),
        Mistake("no squares",
                "{call} gave {got}: you added the slots themselves. Square each slot first (q₁², "
                "q₂², …), then add, then take the square root: a negative slot adds length too.",
                imitation=lambda q: math.sqrt(sum(q))),
        Mistake("absolute values",
                "{call} gave {got}, the sizes of the slots added (|q₁| + |q₂| + …): that is the "
                "distance walked along the grid lines, not the straight arrow. Square, add, "
                "then take the square root; expected {expected}.",
                imitation=lambda q: sum(abs(x) for x in q)),
        Mistake("absolute values",
                "{call} gave {got}, the root of |q₁| + |q₂| + …: square each slot, not its "
                "size, then add and take the root; expected {expected}.",
                imitation=lambda q: math.sqrt(sum(abs(x) for x in q))),
        Mistake("squared the sum",
                "{call} gave {got}: you added the slots first and squared the total. Square "
                "each slot first, then add the squares: (3 + 4)² = 49 but 3² + 4² = 25.",
                imitation=lambda q: math.sqrt(sum(q) ** 2)),
        Mistake("return inside the loop",
                "{call} gave {got}, the length of the first slot alone: the `return` sits "
                "inside the loop, so it stops after one slot. Return after the loop ends.",
                imitation=lambda q: abs(q[0])),
        Mistake("= instead of +=",
                "{call} gave {got}, the length of the last slot alone: `total = x ** 2` "
                "replaces the total at every step. Add to it: `total += x ** 2`.",
                imitation=lambda q: abs(q[-1])),
        Mistake("left out the last slot",
                "{call} gave {got}: the last slot is missing. range(len(q)) already stops at "
                "the last position, len(q) − 1; expected {expected}.",
                imitation=lambda q: math.sqrt(sum(x * x for x in q[:-1]))),
        Mistake("skipped the first slot",
                "{call} gave {got}: slot 1 (Python position 0) is missing. Python counts "
                "positions from 0, so start the loop at 0; expected {expected}.",
                imitation=lambda q: math.sqrt(sum(x * x for x in q[1:]))),
        Mistake("divided by the number of slots",
                "{call} gave {got}: you divided by L, the number of slots. The length is the "
                "square root of the sum of squares, nothing more; expected {expected}.",
                imitation=lambda q: float(norm(q)) / len(q)),
        Mistake("largest slot",
                "{call} gave {got}, the size of the biggest slot. Every slot adds length: "
                "square each, add them all, then take the root; expected {expected}.",
                imitation=lambda q: max(abs(x) for x in q)),
        Mistake("power 1 // 2",
                "{call} gave {got}: `total ** (1 // 2)` is total ** 0 = 1, because 1 // 2 is "
                "whole-number division, 0. Write total ** 0.5 or math.sqrt(total); expected "
                "{expected}.", imitation=lambda q: 1.0),
        Mistake("root of the mean",
                "{call} gave {got}: you divided the sum of squares by L before the root (a mean, "
                "not a length). The length is √(q₁² + … + q_L²) with no division; expected "
                "{expected}.", imitation=lambda q: math.sqrt(sum(x * x for x in q) / len(q))),
        Mistake("rounded the result",
                "{call} gave {got}, rounded: keep every decimal (round only when you print); "
                "expected {expected}.", detect=rounded),
        Mistake("returned a list",
                "{call} gave {got}, a list. The length is ONE number: add the squares of all "
                "the slots into one total, then take its root; expected {expected}.",
                detect=returned(lambda o: np.ndim(o.value) == 1 and len(o.value) > 1)),
        Mistake("root inside the loop",
                "{call} gave {got}: the square root is taken at every step of the loop, so "
                "each new square is added to a root. Add all the squares first; take the root "
                "once, after the loop; expected {expected}.", imitation=root_each_step),
        Mistake("fixed number of slots",
                "{call} gave {got}: you used a fixed number of slots (q[0], q[1], …). "
                "Pythagoras in the plane has two, but q can have any number L of slots: add the "
                "squares of all of them (loop over q); expected {expected}.",
                detect=fixed_slots),
    ],
)

LENGTH_HAND = HandExercise("∥[2, −3, 6]∥", 7.0, [
    Slip("no square root", 49.0, "{got} is 2² + (−3)² + 6², the square of the length: take "
         "the square root as the last step."),
    Slip("halved instead of the root", 24.5, "{got} is half of 49: the square root of 49 is "
         "the number whose square is 49, not 49 ÷ 2."),
    Slip("no squares", math.sqrt(5.0), "{got} is √(2 − 3 + 6): square each slot before adding, "
         "so the minus sign disappears: (−3)² = 9."),
    Slip("absolute values", 11.0, "{got} is 2 + 3 + 6, the walk along the grid lines. Square, "
         "add, then take the square root."),
    Slip("squared the sum", 5.0, "{got} is √((2 − 3 + 6)²): square each slot first, then add "
         "the squares."),
    Slip("minus sign squared away wrong", math.sqrt(31.0), "{got} is √(4 − 9 + 36): (−3)² is "
         "(−3) × (−3) = +9, so every square is positive (a calculator reads −3² as −(3²))."),
    *[Slip("left out a slot", math.sqrt(total), "{got} is the root of only two of the three "
           "squares 4, 9 and 36: add all three before taking the root.")
      for total in (13.0, 40.0, 45.0)],
    Slip("absolute values under the root", math.sqrt(11.0), "{got} is √(2 + 3 + 6): square "
         "each slot (4, 9, 36) before adding, then take the root."),
    Slip("doubled instead of squared", math.sqrt(10.0), "{got} is √(4 − 6 + 12): you doubled "
         "each slot (× 2) instead of squaring it (× itself)."),
], tolerance=0.01)


def evaluate_length(func):
    """The :class:`~course_lib.exercises.core.Feedback` on a learner's ``length``."""
    return LENGTH_EXERCISE.evaluate(func)


def check_length(func):
    """Print feedback on a learner's ``length(q)``."""
    LENGTH_EXERCISE.check(func)


def check_length_by_hand(value):
    """Print feedback on the number typed for ∥[2, −3, 6]∥."""
    LENGTH_HAND.check(value)
