"""Exercise of notebook 02: the unit vector q / ∥q∥, the direction of q with length 1.

Slips
-----
unit(q):

- divided the whole list: ``q / size`` on a Python list (TypeError).
- returned the length: the number ∥q∥ instead of the list q / ∥q∥.
- not divided: q comes back unchanged.
- multiplied by the length: q × ∥q∥ instead of q / ∥q∥.
- divided by the squared length: q / ∥q∥², the root forgotten.
- divided by the sum: q / (q₁ + q₂ + …), which is not a length (and can be negative).
- divided by the sum of sizes: q / (|q₁| + |q₂| + …).
- divided by the number of slots: q / L.
- squared the slots: x² / ∥q∥² for every slot x (signs lost).
- divided by the biggest slot: q / max(q), which makes the biggest slot 1, not the length.
- divided by a fixed number: q / c with the same c for every q (one example's length).
- rounded the result: every slot rounded (to a decimal or two).
- halved instead of the root: ∥q∥ computed as ``total ** 1/2``, half the sum of squares.
- doubled instead of squared: ∥q∥ computed with ``x * 2``.
- divided the length by the slots: ∥q∥ / x, the division upside down.
- lost the signs: ``abs(x) / ∥q∥``, the direction changed.
- left out the last slot: the result is one slot short.
- sign turned round: −q / ∥q∥.
- subtracted the length: x − ∥q∥.
- length of the first two slots: ∥q∥ from q₁ and q₂ only.
- returned two things: (∥q∥, q / ∥q∥) instead of the list.
- return inside the loop: only the first slot, divided.
- divided the first slot only: the other slots were left as they were.
- changed its input: q was divided in place (named by the framework).
"""

import math

import numpy as np

from .. import norm
from ._detect import quiet, raised, returned
from .core import Case, Exercise, Mistake

__all__ = ["UNIT_EXERCISE", "check_unit", "evaluate_unit"]


def _length(q):
    return float(norm(q))


def _returns_number(outcomes):
    return next((o for o in outcomes if o.error is None and o.value is not None
                 and not isinstance(o.value, str) and np.ndim(o.value) == 0), None)


def _fixed_divisor(outcomes):
    # q / c with one constant c on every case
    try:
        ratios = {round(float(x) / float(y), 9) for o in outcomes
                  for x, y in zip(o.case.args[0], o.value, strict=True) if float(y) != 0}
        wrong = [o for o in outcomes if not o.correct]
        return wrong[0] if len(ratios) == 1 and wrong else None
    except Exception:
        return None


def _rounded(outcomes):
    # close to the answer everywhere (within a rounding step of 0.05), right to 1e-9 nowhere
    try:
        wrong = [o for o in outcomes if not o.correct]
        if wrong and all(o.error is None and np.allclose(np.asarray(o.value, dtype=float),
                                                         o.case.expected, atol=0.051)
                         for o in outcomes):
            return wrong[0]
    except Exception:
        return None
    return None


UNIT_EXERCISE = Exercise(
    "unit(q)",
    cases=[Case((q,)) for q in (
        [3.0, 4.0], [0.0, -2.0], [6.0, -8.0], [1.0, 2.0, 2.0], [-4.0, 2.0, -4.0],
        [2.0, 3.0, -1.0, 0.5], [-0.6, -0.8])],
    reference=lambda q: [x / _length(q) for x in q],
    mistakes=[
        Mistake("returned two things",
                "{call} returned {got}, a pair. Return only the list q / ∥q∥ (compute the "
                "length inside, but do not return it); expected {expected}.",
                detect=returned(lambda o: isinstance(o.value, tuple) and len(o.value) == 2
                                and np.ndim(o.value[0]) == 0)),
        Mistake("divided the whole list",
                "{call} raised TypeError: `q / size` tries to divide a Python list, which it "
                "cannot do. Divide one slot at a time: `[x / size for x in q]`.",
                detect=raised(TypeError, "/: 'list'")),
        Mistake("returned the length",
                "{call} gave one number, {got}: that is ∥q∥. Now divide every slot of q by it "
                "and return the list, {expected}.", detect=quiet(_returns_number)),
        Mistake("not divided",
                "{call} gave q back unchanged, {got}. Divide every slot by the length ∥q∥; "
                "expected {expected}.", imitation=lambda q: list(q)),
        Mistake("multiplied by the length",
                "{call} gave {got}: you multiplied by ∥q∥. To bring the length to 1, divide "
                "by it; expected {expected}.", imitation=lambda q: [x * _length(q) for x in q]),
        Mistake("divided by the squared length",
                "{call} gave {got}: you divided by q₁² + q₂² + …, the SQUARE of the length. "
                "Take its square root first; expected {expected}.",
                imitation=lambda q: [x / _length(q) ** 2 for x in q]),
        Mistake("divided by the sum",
                "{call} gave {got}: you divided by q₁ + q₂ + …, which is not the length (it "
                "can even be negative). Divide by ∥q∥ = √(q₁² + q₂² + …); expected {expected}.",
                imitation=lambda q: [x / sum(q) for x in q]),
        Mistake("divided by the sum of sizes",
                "{call} gave {got}: you divided by |q₁| + |q₂| + …, the walk along the grid "
                "lines, not the length. Divide by ∥q∥; expected {expected}.",
                imitation=lambda q: [x / sum(abs(y) for y in q) for x in q]),
        Mistake("divided by the number of slots",
                "{call} gave {got}: you divided by L, the number of slots. Divide by the "
                "length ∥q∥ instead; expected {expected}.",
                imitation=lambda q: [x / len(q) for x in q]),
        Mistake("squared the slots",
                "{call} gave {got}: you squared every slot (x² / ∥q∥²). Divide the slots "
                "themselves by ∥q∥, keeping their signs; expected {expected}.",
                imitation=lambda q: [x * x / _length(q) ** 2 for x in q]),
        Mistake("divided by the biggest slot",
                "{call} gave {got}: you divided by the biggest slot, which makes that slot 1, "
                "not the length. Divide by ∥q∥; expected {expected}.",
                imitation=lambda q: [x / max(q) for x in q]),
        Mistake("divided by the biggest slot",
                "{call} gave {got}: you divided by the biggest size of a slot, which makes that "
                "slot ±1, not the length. Divide by ∥q∥; expected {expected}.",
                imitation=lambda q: [x / max(abs(y) for y in q) for x in q]),
        Mistake("divided by a fixed number",
                "{call} gave {got}: every list was divided by the same number, whatever q is "
                "(the length of one example?). Compute ∥q∥ of the q you are given; expected "
                "{expected}.", detect=lambda outcomes: _fixed_divisor(outcomes)),
        Mistake("rounded the result",
                "{call} gave {got}, rounded: keep every decimal (round only when you print); "
                "expected {expected}.", detect=lambda outcomes: _rounded(outcomes)),
        Mistake("halved instead of the root",
                "{call} gave {got}: `total ** 1/2` is (total ** 1) / 2, half the sum of "
                "squares, because ** binds before /. Write total ** 0.5 or math.sqrt(total); "
                "expected {expected}.", imitation=lambda q: [x / (_length(q) ** 2 / 2) for x in q]),
        Mistake("doubled instead of squared",
                "{call} gave {got}: the length was computed with `x * 2`, which doubles x; a "
                "square is x ** 2 or x * x; expected {expected}.",
                imitation=lambda q: [x / math.sqrt(sum(2 * y for y in q)) for x in q]),
        Mistake("divided the length by the slots",
                "{call} gave {got}: you computed ∥q∥ / x, the division upside down. Each slot "
                "is divided BY the length: x / ∥q∥; expected {expected}.",
                imitation=lambda q: [_length(q) / x for x in q]),
        Mistake("lost the signs",
                "{call} gave {got}: the minus signs are gone (abs). The unit vector points the "
                "same way as q, so keep each slot's sign: x / ∥q∥; expected {expected}.",
                imitation=lambda q: [abs(x) / _length(q) for x in q]),
        Mistake("left out the last slot",
                "{call} gave {got}, one slot short: the loop stopped before the last slot "
                "(range(len(q)) already ends at the last one); expected {expected}.",
                imitation=lambda q: [x / _length(q) for x in q[:-1]]),
        Mistake("sign turned round",
                "{call} gave {got}: every slot has the wrong sign, so the arrow points the "
                "other way. Divide by +∥q∥; expected {expected}.",
                imitation=lambda q: [-x / _length(q) for x in q]),
        Mistake("subtracted the length",
                "{call} gave {got}: x − ∥q∥ for every slot. Scaling to length 1 DIVIDES each "
                "slot by ∥q∥; expected {expected}.",
                imitation=lambda q: [x - _length(q) for x in q]),
        Mistake("length of the first two slots",
                "{call} gave {got}: the length came from q₁ and q₂ only (Pythagoras in the "
                "plane). q can have any number of slots: ∥q∥ adds the squares of all of them.",
                imitation=lambda q: [x / math.sqrt(q[0] ** 2 + q[1] ** 2) for x in q]),
        Mistake("return inside the loop",
                "{call} gave {got}, only the first slot: the `return` sits inside the loop, so "
                "it stops after one slot. Return the list after the loop; expected {expected}.",
                imitation=lambda q: [q[0] / _length(q)]),
        Mistake("divided the first slot only",
                "{call} gave {got}: only the first slot was divided. Every slot must be divided "
                "by ∥q∥; expected {expected}.",
                imitation=lambda q: [q[0] / _length(q), *q[1:]]),
    ],
)


def evaluate_unit(func):
    """The :class:`~course_lib.exercises.core.Feedback` on a learner's ``unit``."""
    return UNIT_EXERCISE.evaluate(func)


def check_unit(func):
    """Print feedback on a learner's ``unit(q)``."""
    UNIT_EXERCISE.check(func)
