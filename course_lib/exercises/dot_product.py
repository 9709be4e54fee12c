"""Exercises of notebook 04: the dot product by hand and as a loop, the cosine of the angle,
q·k from two lengths and an angle, and a perpendicular arrow (the meter reads 0)."""

import math
from itertools import combinations

from .engine import Case, CodeExercise
from .feedback import NoPrediction, Slip
from .hand import HandExercise

__all__ = ["EXERCISES"]


def _dot(q, k):
    return sum(a * b for a, b in zip(q, k, strict=True))


def _no():
    raise NoPrediction


def _draw_pair(rng):
    while True:
        q = [int(x) for x in rng.integers(-5, 6, size=3)]
        k = [int(x) for x in rng.integers(-5, 6, size=3)]
        if all(q) and all(k) and any(a * b < 0 for a, b in zip(q, k, strict=True)):
            return {"q": q, "k": k}


DOT_HAND = HandExercise(
    "dot by hand", "{q}·{k}", answer=_dot, givens={"q": [1, -2, 3], "k": [4, 1, 2]},
    draw=_draw_pair,
    slips=[
        Slip("sign of a product", "{got} counts a negative product as positive: a negative "
             "times a positive is negative.", gives=lambda q, k: sum(abs(a * b) for a, b
                                                                     in zip(q, k, strict=True))),
        Slip("sums without multiplying", "{got} adds all six numbers: multiply matching slots "
             "first, then add the three products.", gives=lambda q, k: sum(q) + sum(k)),
        Slip("multiplies the sums", "{got} is (q₁ + q₂ + q₃) × (k₁ + k₂ + k₃): multiply slot by "
             "slot, then add.", gives=lambda q, k: sum(q) * sum(k)),
        Slip("multiplied the products", "{got} multiplies the three products: add them.",
             gives=lambda q, k: math.prod(a * b for a, b in zip(q, k, strict=True))),
        *[Slip(f"left out slot {i + 1}", f"{{got}} has only two of the three products (slot "
               f"{i + 1}'s is missing): add all three.",
               gives=lambda q, k, i=i: _dot(q, k) - q[i] * k[i]) for i in range(3)],
    ],
)

_PAIRS = [([3.0], [-2.0]), ([1.0, 0.0], [0.0, 1.0]), ([1.0, 2.0, 3.0], [4.0, 5.0, 6.0]),
          ([2.0, -1.0, 3.0, 0.5], [1.0, 4.0, -2.0, 2.0]),
          ([1.0, 2.0, 3.0, 4.0, 5.0], [5.0, 4.0, 3.0, 2.0, 1.0]),
          ([1.0, 3.0, 9.0, 27.0], [1.0, 1.0, 1.0, 1.0]), ([0.35, -1.25], [0.3, 2.2])]


def _some_slots(outcome):
    """The answer is the sum of the products over some, not all, of the slots."""
    q, k = outcome.case.args
    products = [a * b for a, b in zip(q, k, strict=True)]
    sums = [sum(c) for r in range(1, len(products)) for c in combinations(products, r)]
    return isinstance(outcome.value, (int, float)) and any(
        abs(outcome.value - s) <= 1e-9 for s in sums)


def _checked_sum(q, k, positions):
    if len(q) != len(k):
        raise ValueError("q and k have different lengths")
    return sum(q[i] * k[i] for i in positions)


DOT_LOOP = CodeExercise(
    "dot_loop", "dot_loop(q, k)",
    cases=_PAIRS + [Case(([1.0, 2.0], [1.0, 2.0, 3.0]), raises=ValueError),
                    Case(([1.0, 2.0, 3.0], [1.0, 2.0]), raises=ValueError)],
    solution=_dot, quantities={"L": lambda q, k: len(q)},
    slips=[
        Slip("sums without multiplying", "you added every slot of both lists: multiply "
             "matching slots, then add the products.", gives=lambda q, k: sum(q) + sum(k)),
        Slip("multiplies the sums", "that is (Σ qᵢ) × (Σ kᵢ): multiply slot by slot, then add.",
             gives=lambda q, k: sum(q) * sum(k)),
        Slip("multiplied the products", "the products were multiplied together: add them.",
             gives=lambda q, k: math.prod(a * b for a, b in zip(q, k, strict=True))),
        Slip("used q twice", "that is q·q: multiply q's slots by k's.",
             gives=lambda q, k: _dot(q, q)),
        Slip("used k twice", "that is k·k: multiply q's slots by k's.",
             gives=lambda q, k: _dot(k, k)),
        Slip("returns the products", "that is the list of products: add them into one number.",
             gives=lambda q, k: [a * b for a, b in zip(q, k, strict=True)]),
        Slip("k read backwards", "q₁ was multiplied by k's LAST slot: match slot i with slot i.",
             gives=lambda q, k: _dot(q, k[::-1]) if len(q) > 1 else _no()),
        Slip("subtracted instead of multiplied", "matching slots were subtracted: multiply them.",
             gives=lambda q, k: sum(a - b for a, b in zip(q, k, strict=True))),
        Slip("took the size", "that is |q·k|: the sign matters (a negative score means the "
             "arrows point apart).", gives=lambda q, k: abs(_dot(q, k))),
        Slip("= instead of +=", "`total = q[i] * k[i]` keeps only the last product: add to it.",
             gives=lambda q, k: q[-1] * k[-1]),
        Slip("return inside the loop", "only the first product came back: the `return` sits "
             "inside the loop.", gives=lambda q, k: q[0] * k[0]),
        Slip("uses only some slots", "your total leaves some slots' products out: the loop "
             "must visit every slot, range(len(q)).", when=_some_slots,
             example=lambda q, k: _checked_sum(q, k, range(0, len(q), 2))),
        Slip("does not refuse different lengths", "lists of different lengths have no dot "
             "product (zip stops at the shorter list without a word): check "
             "len(q) != len(k) first and raise ValueError.",
             when=lambda o: o.case.raises is not None and o.error is None,
             example=lambda q, k: sum(a * b for a, b in zip(q, k))),  # noqa: B905
        Slip("multiplied the lists", "`q * k` on Python lists fails: multiply one slot at a "
             "time, q[i] * k[i].", raises=(TypeError, "can't multiply sequence"),
             example=lambda q, k: sum(q * k)),
    ],
)


def _cos(q, k):
    return _dot(q, k) / math.sqrt(_dot(q, q) * _dot(k, k))


COSINE = CodeExercise(
    "cosine", "cosine(q, k)",
    cases=[([1.0, 0.0], [0.0, 1.0]), ([3.0, 4.0], [4.0, 3.0]), ([1.0, 2.0, 2.0], [2.0, 4.0, 4.0]),
           ([2.0, -1.0], [-4.0, 2.0]), ([1.0, 2.0, 3.0], [-1.5, 0.5, 2.0]),
           ([0.5, 1.5, -2.0, 1.0], [2.0, 1.0, 0.5, -3.0])],
    solution=_cos, rtol=1e-7,  # acos near ±1 magnifies the last digit's rounding
    quantities={"∥q∥": lambda q, k: math.sqrt(_dot(q, q)),
                "∥k∥": lambda q, k: math.sqrt(_dot(k, k))},
    slips=[
        Slip("divided by one length only", "you divided q·k by one of the two lengths: divide "
             "by both, ∥q∥ ∥k∥.", gives=(lambda q, k: _dot(q, k) / math.sqrt(_dot(q, q)),
                                        lambda q, k: _dot(q, k) / math.sqrt(_dot(k, k)))),
        Slip("one length used twice", "you divided by the same length twice: one ∥q∥ and one "
             "∥k∥.", gives=(lambda q, k: _dot(q, k) / _dot(q, q),
                            lambda q, k: _dot(q, k) / _dot(k, k))),
        Slip("multiplied by the lengths", "you multiplied q·k by the lengths: divide by them.",
             gives=lambda q, k: _dot(q, k) * math.sqrt(_dot(q, q) * _dot(k, k))),
        Slip("halved instead of the root", "each length came from `total ** 1/2`, half the sum "
             "of squares: write ** 0.5 or math.sqrt.",
             gives=lambda q, k: _dot(q, k) / (_dot(q, q) / 2 * _dot(k, k) / 2)),
        Slip("cos of the answer", "math.cos of the cosine is not it: q·k / (∥q∥ ∥k∥) already "
             "IS cos θ.", gives=lambda q, k: math.cos(_cos(q, k))),
        Slip("returned the angle", "that is θ itself (math.acos of the cosine): return the "
             "cosine, q·k / (∥q∥ ∥k∥).", gives=lambda q, k: math.acos(_cos(q, k))),
        Slip("returned the angle in degrees", "that is θ in degrees: return the cosine itself.",
             gives=lambda q, k: math.degrees(math.acos(_cos(q, k)))),
        Slip("cos of the dot product", "math.cos of q·k is not the cosine of the angle: DIVIDE "
             "q·k by the two lengths.", gives=lambda q, k: math.cos(_dot(q, k))),
        Slip("not divided", "that is q·k itself: divide by ∥q∥ ∥k∥.", gives=_dot),
        Slip("divided then multiplied", "`q·k / ∥q∥ * ∥k∥` divides by ∥q∥ and then MULTIPLIES "
             "by ∥k∥: brackets, q·k / (∥q∥ * ∥k∥).",
             gives=lambda q, k: _dot(q, k) / math.sqrt(_dot(q, q)) * math.sqrt(_dot(k, k))),
        Slip("divided by the sum of lengths", "you divided by ∥q∥ + ∥k∥: divide by their "
             "product.", gives=lambda q, k: _dot(q, k) / (math.sqrt(_dot(q, q))
                                                          + math.sqrt(_dot(k, k)))),
        Slip("divided by the squared lengths", "you divided by ∥q∥² ∥k∥², the roots "
             "forgotten.", gives=lambda q, k: _dot(q, k) / (_dot(q, q) * _dot(k, k))),
        Slip("returned 1 − cos θ", "that is 1 − cos θ (a distance-like score): return cos θ.",
             gives=lambda q, k: 1 - _cos(q, k)),
    ],
)


def _round_cos(angle):
    """cos of a whole-degree angle, exact where the unit circle makes it so (cos 90° = 0)."""
    return round(math.cos(math.radians(angle)), 12)


def _draw_angle(rng):
    lengths = [int(x) for x in rng.choice([2, 3, 4, 5, 6, 8], size=2, replace=False)]
    return {"a": lengths[0], "b": lengths[1], "angle": int(rng.choice([60, 120, 180]))}


COSINE_HAND = HandExercise(
    "cosine by hand", "q·k for ∥q∥ = {a}, ∥k∥ = {b}, θ = {angle}°",
    answer=lambda a, b, angle: a * b * _round_cos(angle),
    givens={"a": 2, "b": 5, "angle": 60}, draw=_draw_angle,
    slips=[
        Slip("forgot cos θ", "{got} is ∥q∥∥k∥ = {a} × {b} alone: multiply by cos {angle}°.",
             gives=lambda a, b, angle: a * b if angle != 0 else _no()),
        Slip("cos θ alone", "{got} is cos {angle}° alone: multiply it by both lengths.",
             gives=lambda a, b, angle: _round_cos(angle)),
        Slip("used sin θ", "{got} uses sin {angle}°: the shadow across the unit circle is the "
             "cosine.", gives=lambda a, b, angle: a * b * math.sin(math.radians(angle))),
        Slip("added the lengths", "{got} is ({a} + {b}) × cos {angle}°: multiply the lengths.",
             gives=lambda a, b, angle: (a + b) * _round_cos(angle)),
        Slip("divided by cos θ", "{got} is {a} × {b} ÷ cos {angle}°: multiply by the cosine.",
             gives=lambda a, b, angle: a * b / _round_cos(angle)
             if angle not in (90, 0, 180) else _no()),
        Slip("left out a length", "{got} uses only one of the two lengths: q·k = ∥q∥ ∥k∥ cos θ.",
             gives=(lambda a, b, angle: a * _round_cos(angle),
                    lambda a, b, angle: b * _round_cos(angle))),
        Slip("added the lengths, no cos θ", "{got} is {a} + {b}: multiply the lengths, then "
             "by cos {angle}°.", gives=lambda a, b, angle: a + b),
        Slip("squared the lengths", "{got} multiplies the squared lengths: q·k uses the lengths "
             "themselves.", gives=lambda a, b, angle: a * a * b * b * _round_cos(angle)),
        Slip("cos of the angle in radians", "{got} takes cos of {angle} as if it were in "
             "radians: a calculator in degree mode gives cos 60° = 0.5.",
             gives=lambda a, b, angle: a * b * math.cos(angle) if angle else _no()),
    ],
)


def _turn_left(q):
    return [-q[1], q[0]]


PERPENDICULAR = CodeExercise(
    "perpendicular", "perpendicular(q)",
    cases=[([3.0, 1.0],), ([1.0, 0.0],), ([0.0, 2.0],), ([-2.0, 5.0],), ([1.5, -2.5],),
           ([-4.0, -3.0],)],
    solution=_turn_left,
    slips=[
        Slip("turned right", "that arrow is perpendicular too (q·k = 0), but turned a quarter "
             "turn to the RIGHT: the left turn is [−q₂, q₁].", gives=lambda q: [q[1], -q[0]]),
        Slip("swapped without a minus", "[q₂, q₁] is q mirrored, not turned: its dot product "
             "with q is 2q₁q₂, not 0 — one slot needs a minus sign.",
             gives=lambda q: [q[1], q[0]]),
        Slip("the opposite arrow", "[−q₁, −q₂] points the opposite way (q·k = −∥q∥², the "
             "meter's most negative): swap the slots as well.", gives=lambda q: [-q[0], -q[1]]),
        Slip("one slot negated", "negating one slot mirrors q: swap the two slots AND negate "
             "one.", gives=(lambda q: [-q[0], q[1]], lambda q: [q[0], -q[1]])),
        Slip("the zero vector", "[0, 0] gives q·k = 0 but is no arrow at all (it has no "
             "direction): return a turned copy of q.", gives=lambda q: [0.0, 0.0]),
    ],
)

EXERCISES = [DOT_HAND, DOT_LOOP, COSINE, COSINE_HAND, PERPENDICULAR]
