"""Exercises of notebook 04: the dot product q·k = q₁k₁ + q₂k₂ + … + q_Lk_L as a loop, and
one worked out by hand.

Slips
-----
dot_loop(q, k):

- multiplied the lists: ``q * k`` on two Python lists (TypeError).
- @ on lists: ``q @ k`` on two Python lists (TypeError).
- sign turned round: ``total -= …``, the dot product with its sign flipped.
- = instead of +=: ``total = q[i] * k[i]`` keeps only the last product.
- k read backwards: q₁ paired with k_L, q₂ with k_(L−1), … (or ``k[-i]``).
- divided by the number of slots: the mean of the products.
- used k twice: k₁k₁ + k₂k₂ + … (q never used).
- subtracted instead of multiplied: Σ (qᵢ − kᵢ).
- k shifted by one: q[i] paired with k[i + 1] (or k[i - 1]).
- rounded the result: ``int`` or ``round`` cuts the decimals off.
- took the size: ``abs(total)``, the minus sign lost.
- returns a vector: the products q₁k₁, q₂k₂, … come back as a list, never added.
- sums without multiplying: the slots of q and k added instead of multiplied.
- multiplies the sums: (q₁ + q₂ + …)(k₁ + k₂ + …).
- multiplied the products: q₁k₁ × q₂k₂ × … (the total started at 1 and multiplied).
- used q twice: q₁q₁ + q₂q₂ + … (k never used: a typo for k[i]).
- return inside the loop: the function stops after the first product, q₁k₁.
- uses only some slots: the loop's range leaves some slots out.
- does not reject different lengths: lists of different lengths give a number instead of an
  error (``zip`` stops at the shorter list).
- changed its input: q or k was changed in place (named by the framework).

By hand, [1, −2, 3]·[4, 1, 2] = 8: sign of a product ((−2)×1 taken as +2: 12), sums
without multiplying (9), multiplies the sums (14), multiplied the products (−48),
left out the last slot (2), left out the first slot (4), left out the middle slot (10).
"""


import numpy as np

from .. import dot
from ._detect import first_of, quiet, raised, rounded
from ._products import accepts_different_lengths, returns_vector, uses_some_slots
from .by_hand import HandExercise, Slip
from .core import Case, Exercise, Mistake

__all__ = ["DOT_EXERCISE", "DOT_HAND", "check_dot_by_hand", "check_dot_product",
           "evaluate_dot_product"]

_VALUE_CASES = [
    ([3.0], [-2.0]),
    ([1.0, 0.0], [0.0, 1.0]),
    ([1.0, 2.0, 3.0], [4.0, 5.0, 6.0]),
    ([2.0, -1.0, 3.0, 0.5], [1.0, 4.0, -2.0, 2.0]),
    ([1.0, 2.0, 3.0, 4.0, 5.0], [5.0, 4.0, 3.0, 2.0, 1.0]),
    ([1.0, 3.0, 9.0, 27.0], [1.0, 1.0, 1.0, 1.0]),  # every subset of slots has its own sum
    ([0.35, -1.25], [0.3, 2.2]),  # a dot product with decimals: rounding shows
]
_LENGTH_CASES = [([1.0, 2.0], [1.0, 2.0, 3.0]), ([1.0, 2.0, 3.0], [1.0, 2.0])]


DOT_EXERCISE = Exercise(
    "dot_loop(q, k)",
    cases=[Case(args) for args in _VALUE_CASES]
    + [Case(args, raises=ValueError) for args in _LENGTH_CASES],
    reference=lambda q, k: float(dot(q, k)),
    mistakes=[
        Mistake("multiplied the lists",
                "{call} raised TypeError: `q * k` cannot multiply two Python lists. Multiply "
                "one pair of slots at a time, `q[i] * k[i]`, inside a loop, and add them up.",
                detect=raised(TypeError, "can't multiply sequence")),
        Mistake("@ on lists",
                "{call} raised TypeError: `@` works on NumPy arrays, not on Python lists. This "
                "exercise is the loop behind it: multiply q[i] by k[i] and add, slot by slot.",
                detect=raised(TypeError, "for @")),
        Mistake("returns a vector",
                "{call} returned {got}, a list of numbers (the products q₁k₁, q₂k₂, …?). The "
                "dot product is ONE number: add the products together and return the total.",
                detect=quiet(returns_vector)),
        Mistake("sums without multiplying",
                "{call} gave {got}: you added the slots of q and k. Multiply matching slots "
                "first (q₁ times k₁, q₂ times k₂, …), then add those products; expected "
                "{expected}.",
                imitation=lambda q, k: sum(q) + sum(k)),
        Mistake("multiplies the sums",
                "{call} gave {got}: you multiplied the two totals, (q₁ + q₂ + …)(k₁ + k₂ + …). "
                "Multiply slot by slot instead, then add: q₁k₁ + q₂k₂ + …; expected "
                "{expected}.",
                imitation=lambda q, k: sum(q) * sum(k)),
        Mistake("multiplied the products",
                "{call} gave {got}: you multiplied the products together (q₁k₁ × q₂k₂ × …; "
                "did the total start at 1 with `*=`?). Add them: start at 0 and use `+=`; "
                "expected {expected}.", imitation=lambda q, k: float(np.prod(np.multiply(q, k)))),
        Mistake("used q twice",
                "{call} gave {got}, which is q₁q₁ + q₂q₂ + …: k never appears. Multiply q[i] "
                "by k[i]; expected {expected}.", imitation=lambda q, k: sum(x * x for x in q)),
        Mistake("return inside the loop",
                "{call} gave {got}, the first product q₁k₁ alone: the `return` sits inside the "
                "loop, so it stops after one slot. Return the total after the loop ends.",
                imitation=lambda q, k: q[0] * k[0]),
        Mistake("sign turned round",
                "{call} gave {got}, the right size with the wrong sign: `total -= …` or a "
                "minus sign crept in. Add the products: `total += q[i] * k[i]`; expected "
                "{expected}.", imitation=lambda q, k: -float(dot(q, k))),
        Mistake("k read backwards",
                "{call} gave {got}: you paired q₁ with the LAST slot of k. Matching slots "
                "have the same index: q[i] * k[i]; expected {expected}.",
                imitation=lambda q, k: float(dot(q, k[::-1]))),
        Mistake("k read backwards",
                "{call} gave {got}: you paired q[i] with k[-i], which counts from the END of k "
                "(k[-1] is the last slot). Matching slots have the same index: q[i] * k[i]; "
                "expected {expected}.",
                imitation=lambda q, k: sum(q[i] * k[-i] for i in range(len(q)))),
        Mistake("divided by the number of slots",
                "{call} gave {got}, the mean of the products: the dot product is their sum, "
                "with no division by L; expected {expected}.",
                imitation=lambda q, k: float(dot(q, k)) / len(q)),
        Mistake("took the size",
                "{call} gave {got}: abs() removed the minus sign. A dot product can be "
                "negative (the arrows point apart): return the sum as it is; expected {expected}.",
                imitation=lambda q, k: abs(float(dot(q, k)))),
        Mistake("used k twice",
                "{call} gave {got}, which is k₁k₁ + k₂k₂ + …: q never appears. Multiply q[i] "
                "by k[i]; expected {expected}.", imitation=lambda q, k: sum(y * y for y in k)),
        Mistake("subtracted instead of multiplied",
                "{call} gave {got}: you added q[i] − k[i]. A dot product MULTIPLIES matching "
                "slots, then adds: q[i] * k[i]; expected {expected}.",
                imitation=lambda q, k: sum(x - y for x, y in zip(q, k, strict=True))),
        Mistake("k shifted by one",
                "{call} gave {got}: q[i] was paired with k[i + 1] (the index of k runs one "
                "ahead). Matching slots share one index: q[i] * k[i]; expected {expected}.",
                detect=lambda outcomes: first_of(DOT_EXERCISE, outcomes, *[
                    lambda q, k, s=s: sum(q[i] * k[(i + s) % len(k)] for i in range(len(q)))
                    for s in (1, -1)])),
        Mistake("rounded the result",
                "{call} gave {got}: int() or round() cut off the decimals. Return the sum as "
                "it is; expected {expected}.", detect=rounded),
        Mistake("= instead of +=",
                "{call} gave {got}, the last product alone: `total = q[i] * k[i]` replaces the "
                "total at every step. Add to it: `total += q[i] * k[i]`.",
                imitation=lambda q, k: q[-1] * k[-1]),
        Mistake("uses only some slots",
                "{call} gave {got}: your sum leaves out some slots. Check the loop's range: it "
                "must visit every slot, from the first (index 0) to the last (index L − 1); "
                "expected {expected}.",
                detect=quiet(uses_some_slots)),
        Mistake("does not reject different lengths",
                "your numbers are right, but lists of different lengths have no dot product. "
                "Check len(q) == len(k) first and raise ValueError with a message if they "
                "differ (zip would silently stop at the shorter list).",
                detect=quiet(accepts_different_lengths)),
    ],
)


DOT_HAND = HandExercise("[1, −2, 3]·[4, 1, 2]", 8.0, [
    Slip("sign of a product", 12.0, "{got} is 4 + 2 + 6: the middle product is (−2) × 1 = −2, "
         "a negative times a positive is negative."),
    Slip("sums without multiplying", 9.0, "{got} is (1 − 2 + 3) + (4 + 1 + 2): multiply the "
         "matching slots first, then add the three products."),
    Slip("multiplies the sums", 14.0, "{got} is (1 − 2 + 3) × (4 + 1 + 2): multiply slot by "
         "slot (1×4, (−2)×1, 3×2), then add."),
    Slip("left out the last slot", 2.0, "{got} is 1×4 + (−2)×1: the third product 3×2 is missing; "
         "add all three."),
    Slip("left out the first slot", 4.0, "{got} is (−2)×1 + 3×2: the first product 1×4 is "
         "missing; add all three."),
    Slip("left out the middle slot", 10.0, "{got} is 1×4 + 3×2: the middle product "
         "(−2)×1 = −2 is missing; add all three."),
    Slip("multiplied the products", -48.0, "{got} is 4 × (−2) × 6: add the three products, "
         "do not multiply them."),
], tolerance=0.01)


def evaluate_dot_product(func):
    """The :class:`~course_lib.exercises.core.Feedback` on a learner's ``dot_loop``."""
    return DOT_EXERCISE.evaluate(func)


def check_dot_product(func):
    """Print feedback on a learner's ``dot_loop(q, k)``."""
    DOT_EXERCISE.check(func)


def check_dot_by_hand(value):
    """Print feedback on the number typed for [1, −2, 3]·[4, 1, 2]."""
    DOT_HAND.check(value)
