"""Notebook 03: Σᵢ₌ₐᵇ qᵢ by hand and as a loop (slots from 1), and the sum of squares."""

import math

from .engine import CodeExercise
from .feedback import no_prediction as _no
from .hand import HandExercise, one_off
from .python import REPLACED


def _sum(q, a, b):
    return sum(q[a - 1:b])


def _from_zero(q, a, b):
    if b >= len(q):
        raise IndexError("list index out of range")  # q[b] is past the end
    return sum(q[a:b + 1])


def _stops_early(q, a, b):  # this and the next two: rows of both exercises
    return sum(q[a - 1:b - 1])


def _starts_late(q, a, b):
    return sum(q[a:b])


def _everything(q, a, b):
    return sum(q)


_SUM_HAND_SLIPS = [
    ("counted from 0", "{got} adds Python's positions {a} to {b}: the maths counts from 1.",
     lambda q, a, b: sum(q[a:b + 1])),
    ("left out the last slot", "{got} stops before slot {b}: both ends are in.", _stops_early),
    ("started one late", "{got} starts after slot {a}: both ends are in.", _starts_late),
    ("added everything", "{got} adds every slot: only i = {a} … {b}.", _everything),
    ("only the two ends", "{got} adds only slots {a} and {b}: those between count too.",
     lambda q, a, b: q[a - 1] + q[b - 1] if b - a > 1 else _no()),
    ("started at slot 1", "{got} starts at q₁: the sum starts at i = {a}.",
     lambda q, a, b: sum(q[:b])),
    ("one slot past the end", "{got} goes on past slot {b}: the sum stops there.",
     lambda q, a, b: sum(q[a - 1:b + 1]) if b < len(q) else _no()),
    ("multiplied instead of added", "{got} multiplies the terms: Σ adds them.",
     lambda q, a, b: math.prod(q[a - 1:b])),
    ("added the slot numbers", "{got} adds the slot numbers i = {a} … {b}.",
     lambda q, a, b: sum(range(a, b + 1))),
    ("one slot early at both ends", "{got} starts and stops one slot early.",
     lambda q, a, b: sum(q[a - 2:b - 1])),
    ("squared each term", "{got} adds the squares: Σ adds the terms as they are.",
     lambda q, a, b: sum(x * x for x in q[a - 1:b])),
    ("the mean of the terms", "{got} is the mean of the terms: Σ only adds.",
     lambda q, a, b: _sum(q, a, b) / (b - a + 1)),
    ("the mean of the whole list", "{got} is the mean of every slot: Σ only adds.",
     lambda q, a, b: sum(q) / len(q)),
]


SUM_HAND = HandExercise(
    "sum by hand", "Σ qᵢ for i from {a} to {b}, with q = {q}",
    _sum, {"q": [5, 1, 4, 2, 8], "a": 2, "b": 4}, _SUM_HAND_SLIPS,
    draw=lambda rng: {"q": [int(x) for x in rng.integers(1, 10, size=6)],
                      "a": int(rng.integers(2, 4)), "b": int(rng.integers(4, 6))},
    twins=[one_off(_sum), ("counted the terms", "add them up.", lambda q, a, b: b - a + 1),
        ("one term alone", "Σ adds slots {a} to {b}.",
         [lambda q, a, b, j=j: q[a - 1 + j] if a + j <= b else _no() for j in range(4)])])


_SUM_FROM_TO_SLIPS = [
    ("counted from 0", "each term is one slot too far right: slot i is q[i - 1].",
     (_from_zero, lambda q, a, b: sum(q[a:b + 1]))),
    ("left out the last slot", "a range stops BEFORE its end: range(a, b + 1).", _stops_early),
    ("started one late", "slot a was left out: it sits at q[a - 1].", _starts_late),
    ("added everything", "that adds every slot: only slots a to b.", _everything),
    ("one slot past the end", "it goes on to slot b + 1: q[a - 1:b] stops at b.",
     lambda q, a, b: sum(q[a - 1:b + 1])),
    ("on to the last slot", "the sum stops at slot b: q[a - 1:b].", lambda q, a, b: sum(q[a - 1:])),
    ("only the two ends", "the slots between a and b count too.",
     lambda q, a, b: q[a - 1] + q[b - 1] if b - a > 1 else _no()),
    ("started at slot 1", "start at slot a, q[a - 1].", lambda q, a, b: sum(q[:b])),
    ("only the last term counts", REPLACED,
     (lambda q, a, b: q[b - 1], lambda q, a, b: q[b - 2] if b > a else 0.0)),
    ("return inside the loop", "only the first term came back: return after the loop.",
     lambda q, a, b: q[a - 1]),
    ("the first term twice", "a total started at q[a - 1] adds it again in the loop: start at 0.",
     lambda q, a, b: _sum(q, a, b) + q[a - 1]),
    ("multiplied instead of added", "the terms were multiplied: Σ adds them.",
     lambda q, a, b: math.prod(q[a - 1:b])),
    ("the loop never ran", "0 is the total before any term: range(b, a + 1) is empty (range(a, b + "
     "1)), or the sum was never stored (+=).",
     lambda q, a, b: 0.0 if a < b else _sum(q, a, b)),
]


SUM_FROM_TO = CodeExercise(
    "sum_from_to", "sum_from_to(q, a, b)",
    [([5.0, 1.0, 4.0, 2.0], 1, 4), ([5.0, 1.0, 4.0, 2.0], 2, 3), ([5.0, 1.0, 4.0, 2.0], 3, 3),
     ([2.0, 7.0, 1.0, 8.0, 2.0, 8.0], 2, 5),
     ([3.0, -1.5, 4.0, -1.0, 5.0], 1, 5), ([3.0, 1.0, 4.0, 1.5, 5.0, 9.0], 4, 6),
     ([0.5, 2.5, 1.25, 4.0, 3.0, 0.75, 6.0], 3, 6), ([-2.0, 1.5, -0.5, 3.0], 1, 3),
     ([1.5, 2.0, -1.0, 4.0, 0.5, 3.0], 2, 3)],
    _sum, _SUM_FROM_TO_SLIPS, loop_only=("sigma",),
    quantities={"the number of terms": lambda q, a, b: b - a + 1})


_SUM_OF_SQUARES_SLIPS = [
    ("forgot to square", "each slot was added as it is: x ** 2.", sum),
    ("doubled instead of squared", "`x * 2` doubles x: `x ** 2`.", lambda q: sum(2 * x for x in q)),
    ("squared the sum", "the total was squared: square each slot, then add.",
     lambda q: sum(q) ** 2),
    ("absolute values", "the sizes |x| were added: square each slot.",
     lambda q: sum(abs(x) for x in q)),
    ("only the last term counts", REPLACED, lambda q: q[-1] ** 2),
    ("cubed", "x ** 3 is the cube: x ** 2.", lambda q: sum(x ** 3 for x in q)),
    ("multiplied instead of added", "the squares were multiplied: Σ adds them.",
     lambda q: math.prod(x * x for x in q)),
    ("returned the squares", "add up the squares.", lambda q: [x * x for x in q]),
]


SUM_OF_SQUARES = CodeExercise(
    "sum_of_squares", "sum_of_squares(q)",
    [([3.0, 4.0],), ([-2.0],), ([1.0, -2.0, 2.0],), ([0.5, 1.5],), ([0.0, 0.0],),
     ([2.5, -1.5, 1.0, 3.0],), ([1.0, 1.0, 1.0, 1.0, 1.0],), ([-1.25, 2.0, 0.4],),
     ([2.0, -1.0, 2.0],)],
    lambda q: sum(x * x for x in q), _SUM_OF_SQUARES_SLIPS, quantities={"L": len})

EXERCISES = [SUM_HAND, SUM_FROM_TO, SUM_OF_SQUARES]
