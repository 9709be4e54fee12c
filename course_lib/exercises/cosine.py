"""Exercises of notebook 04: cos θ = q·k / (∥q∥∥k∥), the direction part of the dot product,
in code and by hand from lengths and an angle.

Slips
-----
cosine(q, k):

- cos of the dot product: cos(q·k), the cosine taken of the score itself.
- took the size: abs(cos θ), the minus sign lost.
- not divided: q·k itself, the lengths still in it.
- divided by one length only: q·k / ∥q∥ (or / ∥k∥), the shadow of one arrow on the other.
- divided then multiplied: ``dot(q, k) / norm(q) * norm(k)`` divides by ∥q∥ and then
  MULTIPLIES by ∥k∥ (left to right): brackets are needed around the product.
- multiplied by the lengths: q·k × ∥q∥∥k∥.
- divided by the squared lengths: ∥q∥²∥k∥² (sums of squares without their roots).
- divided by the sum of lengths: ∥q∥ + ∥k∥ instead of ∥q∥ × ∥k∥.
- halved instead of the root: lengths written ``total ** 1/2``.
- cos of the answer: ``math.cos`` of q·k / (∥q∥∥k∥), which already is cos θ.
- returned 1 − cos θ: the cosine distance instead of the cosine.
- rounded the result: ``round(…, 2)``, the decimals lost.
- used q's length twice: ∥q∥∥q∥ (a typo for ∥q∥∥k∥).
- used k's length twice: ∥k∥∥k∥ (the other typo).
- returned the angle: θ itself (arccos of the answer), in radians or degrees.
- changed its input: q or k was changed in place (named by the framework).

By hand, ∥q∥ = 2, ∥k∥ = 5, θ = 60°, q·k = ∥q∥∥k∥cos θ = 5: forgot cos θ (10), used sin θ
(8.66), added the lengths (3.5), added the lengths, no cos θ (7), cos of 60 radians
(−9.52), divided by cos θ (20), left out a length (2.5 or 1).
"""

import math

import numpy as np

from .. import dot, norm
from ._detect import rounded
from .by_hand import HandExercise, Slip
from .core import Case, Exercise, Mistake

__all__ = ["COSINE_EXERCISE", "COSINE_HAND", "check_cosine", "check_cosine_by_hand",
           "evaluate_cosine"]


def _d(q, k):
    return float(dot(q, k))


def _n(q):
    return float(norm(q))


def _returned_angle(outcomes):
    # the learner's numbers are θ = arccos(cos θ), in radians or in degrees, on every case
    values = [o for o in outcomes if o.case.raises is None]
    for convert in (lambda c: math.acos(c), lambda c: math.degrees(math.acos(c))):
        try:
            if all(o.error is None and abs(float(o.value) - convert(o.case.expected)) < 1e-6
                   for o in values):
                return next(o for o in values if not o.correct)
        except (TypeError, ValueError, StopIteration):
            continue
    return None


def _one_length(outcomes):
    for length in (lambda q, k: _n(q), lambda q, k: _n(k)):
        try:
            if all(o.error is None
                   and abs(float(o.value) - _d(*o.case.args) / length(*o.case.args)) < 1e-6
                   for o in outcomes):
                return next(o for o in outcomes if not o.correct)
        except (TypeError, ValueError, StopIteration):
            continue
    return None


COSINE_EXERCISE = Exercise(
    "cosine(q, k)",
    cases=[Case(args) for args in (
        ([2.0, 0.0], [3.0, 3.0]), ([1.0, 2.0], [-2.0, 1.0]), ([3.0, 4.0], [-6.0, -8.0]),
        ([1.0, 2.0, 2.0], [4.0, 0.0, 3.0]), ([0.5, -1.0], [2.0, 1.0]),
        ([1.0, 1.0, 1.0, 1.0], [2.0, -1.0, 3.0, 5.0]))],
    reference=lambda q, k: _d(q, k) / (_n(q) * _n(k)),
    mistakes=[
        Mistake("returned the angle",
                "{call} gave {got}, which is the angle θ itself. The exercise asks for cos θ = "
                "q·k / (∥q∥∥k∥), a number between −1 and 1; expected {expected}.",
                detect=_returned_angle),
        Mistake("cos of the dot product",
                "{call} gave {got}: you took the cosine OF q·k. The dot product already holds "
                "cos θ: divide it by the lengths, q·k / (∥q∥∥k∥); expected {expected}.",
                imitation=lambda q, k: math.cos(_d(q, k))),
        Mistake("took the size",
                "{call} gave {got}, without its minus sign: cos θ is negative when the arrows "
                "point more apart than together (past 90°). Do not take abs(); expected "
                "{expected}.", imitation=lambda q, k: abs(_d(q, k)) / (_n(q) * _n(k))),
        Mistake("not divided",
                "{call} gave {got}, which is q·k: the lengths are still in it. Divide by "
                "∥q∥∥k∥; expected {expected}.", imitation=_d),
        Mistake("divided then multiplied",
                "{call} gave {got}: `dot(q, k) / norm(q) * norm(k)` divides by ∥q∥ and then "
                "MULTIPLIES by ∥k∥, because Python works left to right. Put brackets round "
                "the product: / (norm(q) * norm(k)); expected {expected}.",
                imitation=lambda q, k: _d(q, k) / _n(q) * _n(k)),
        Mistake("divided by one length only",
                "{call} gave {got}: you divided by one length only (that is the shadow of one "
                "arrow on the other). Divide by both, ∥q∥∥k∥; expected {expected}.",
                detect=_one_length),
        Mistake("multiplied by the lengths",
                "{call} gave {got}: you multiplied q·k by ∥q∥∥k∥. To take the lengths OUT of "
                "q·k, divide by them; expected {expected}.",
                imitation=lambda q, k: _d(q, k) * _n(q) * _n(k)),
        Mistake("divided by the squared lengths",
                "{call} gave {got}: you divided by ∥q∥²∥k∥² (sums of squares with no square "
                "root). Divide by the lengths themselves; expected {expected}.",
                imitation=lambda q, k: _d(q, k) / (_n(q) ** 2 * _n(k) ** 2)),
        Mistake("divided by the sum of lengths",
                "{call} gave {got}: you divided by ∥q∥ + ∥k∥. Divide by the product "
                "∥q∥ × ∥k∥; expected {expected}.",
                imitation=lambda q, k: _d(q, k) / (_n(q) + _n(k))),
        Mistake("halved instead of the root",
                "{call} gave {got}: a length written `total ** 1/2` is (total ** 1) / 2, half "
                "the sum of squares, because ** binds before /. Write total ** 0.5 or "
                "math.sqrt(total); expected {expected}.",
                imitation=lambda q, k: _d(q, k) / (_n(q) ** 2 / 2 * _n(k) ** 2 / 2)),
        Mistake("cos of the answer",
                "{call} gave {got}, the cosine of your answer: q·k / (∥q∥∥k∥) already IS "
                "cos θ, so no math.cos is needed; expected {expected}.",
                imitation=lambda q, k: math.cos(_d(q, k) / (_n(q) * _n(k)))),
        Mistake("returned 1 − cos θ",
                "{call} gave {got}, 1 minus the cosine (the 'cosine distance'). Return the "
                "cosine itself, q·k / (∥q∥∥k∥); expected {expected}.",
                imitation=lambda q, k: 1 - _d(q, k) / (_n(q) * _n(k))),
        Mistake("rounded the result",
                "{call} gave {got}, rounded: keep every decimal (round only when you print); "
                "expected {expected}.", detect=rounded),
        Mistake("used q's length twice",
                "{call} gave {got}: you divided by ∥q∥∥q∥. The second length is k's: "
                "∥q∥∥k∥; expected {expected}.", imitation=lambda q, k: _d(q, k) / _n(q) ** 2),
        Mistake("used k's length twice",
                "{call} gave {got}: you divided by ∥k∥∥k∥. The first length is q's: "
                "∥q∥∥k∥; expected {expected}.", imitation=lambda q, k: _d(q, k) / _n(k) ** 2),
    ],
)


COSINE_HAND = HandExercise("q·k for ∥q∥ = 2, ∥k∥ = 5, θ = 60°", 5.0, [
    Slip("forgot cos θ", 10.0, "{got} is ∥q∥∥k∥ = 2 × 5 alone: multiply by cos 60° = 0.5 "
         "(on the unit circle, the point at 60° is half a radius across)."),
    Slip("used sin θ", 10.0 * np.sin(np.radians(60.0)), "{got} is 2 × 5 × sin 60°: the "
         "dot product uses cos θ, how far ACROSS the unit circle the point at θ lies."),
    Slip("added the lengths", 3.5, "{got} is (2 + 5) × 0.5: multiply the lengths, "
         "2 × 5 = 10, then by cos θ."),
    Slip("added the lengths, no cos θ", 7.0, "{got} is 2 + 5: multiply the lengths, 2 × 5, "
         "and then by cos 60° = 0.5."),
    Slip("divided by cos θ", 20.0, "{got} is 2 × 5 ÷ 0.5: multiply by cos θ, do not divide "
         "by it; the dot product is never bigger than ∥q∥∥k∥."),
    Slip("left out a length", 2.5, "{got} is 5 × cos 60°: ∥q∥ = 2 is missing; the dot "
         "product is ∥q∥ × ∥k∥ × cos θ."),
    Slip("left out a length", 1.0, "{got} is 2 × cos 60°: ∥k∥ = 5 is missing; the dot "
         "product is ∥q∥ × ∥k∥ × cos θ."),
    Slip("cos of 60 radians", 10.0 * math.cos(60.0), "{got} is 2 × 5 × cos(60 radians): your "
         "calculator is in radians. Switch it to degrees, or use 60° = π/3."),
], tolerance=0.01)


def evaluate_cosine(func):
    """The :class:`~course_lib.exercises.core.Feedback` on a learner's ``cosine``."""
    return COSINE_EXERCISE.evaluate(func)


def check_cosine(func):
    """Print feedback on a learner's ``cosine(q, k)``."""
    COSINE_EXERCISE.check(func)


def check_cosine_by_hand(value):
    """Print feedback on the number typed for ∥q∥∥k∥cos θ."""
    COSINE_HAND.check(value)
