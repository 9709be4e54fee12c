"""Notebook 04: q·k by hand and as a loop, the cosine, q·k from lengths and θ, a right angle."""

import math
from itertools import permutations

from ._values import numeric, show
from .engine import Case, CodeExercise
from .feedback import Slip
from .feedback import no_prediction as _no
from .hand import HandExercise, one_off
from .python import REPLACED


def _p(q, k):
    return [a * b for a, b in zip(q, k, strict=True)]  # the products qᵢkᵢ


def _dot(q, k):
    return sum(_p(q, k))


def _draw_pair(rng):
    while True:
        q, k = ([int(x) for x in rng.integers(-5, 6, size=3)] for _ in "qk")
        if all(q) and all(k) and min(_p(q, k)) < 0:
            return {"q": q, "k": k}


def _one_pair(i, wrong):  # q·k with qᵢkᵢ made wrong(qᵢ, kᵢ) (None: not here)
    def gives(q, k):
        w = wrong(q[i], k[i])
        return _dot(q, k) - q[i] * k[i] + (_no() if w is None else w)
    return gives


# rows of the by-hand and the loop exercise
_SHARED = [
    ("multiplies the sums", "that is (Σ qᵢ) × (Σ kᵢ): multiply slot by slot, then add.",
     lambda q, k: sum(q) * sum(k)),
    ("multiplied the products", "the products were multiplied together: add them.",
     lambda q, k: math.prod(_p(q, k))),
    ("squared the products", "that adds the products' squares: add the products.",
     lambda q, k: sum(x * x for x in _p(q, k))),
    ("the lengths multiplied", "that is ∥q∥ ∥k∥, q·k only for arrows pointing one way.",
     lambda q, k: math.sqrt(_dot(q, q) * _dot(k, k))),
]

_DOT_HAND_SLIPS = [
    ("sign of a product", "{got} gives a product the wrong sign: (+)(−) is negative, (−)(−) "
     "positive.", (lambda q, k: sum(abs(x) for x in _p(q, k)),
                   *(_one_pair(i, lambda a, b: -a * b if a * b > 0 else None) for i in range(3)))),
    ("sums without multiplying", "{got} adds a pair, qᵢ + kᵢ, for its product: multiply each pair.",
     (lambda q, k: sum(q) + sum(k), *(_one_pair(i, lambda a, b: a + b) for i in range(3)))),
    *_SHARED,
    *[(f"left out slot {i + 1}", f"{{got}} leaves out slot {i + 1}'s product: add all three.",
       lambda q, k, i=i: _dot(q, k) - q[i] * k[i]) for i in range(3)],
]


DOT_HAND = HandExercise(
    "dot by hand", "{q}·{k}", _dot, {"q": [1, -2, 3], "k": [4, 1, 2]}, _DOT_HAND_SLIPS,
    draw=_draw_pair, twins=[one_off(_dot),
        ("slots paired out of line", "pair slot i with slot i.", [lambda q, k, j=j: _dot(
            q, [k[i] for i in j]) for j in permutations(range(3)) if j != (0, 1, 2)]),
        ("q with itself", "{got} is q·q: multiply q's slots by k's.", lambda q, k: _dot(q, q)),
        ("one product alone", "add all three.", [lambda q, k, i=i: _p(q, k)[i] for i in range(3)]),
        ("left out the negative product", "keep the signs.",
         lambda q, k: sum(x for x in _p(q, k) if x > 0)),
        ("as if at a right angle", "{got} is q·k at a right angle: work it out.",
         lambda q, k: 0)])

_PAIRS = [([3.0], [-2.0]), ([1.0, 0.0], [0.0, 1.0]), ([1.0, 2.0, 3.0], [4.0, 5.0, 6.0]),
          ([2.0, -1.0, 3.0, 0.5], [1.0, 4.0, -2.0, 2.0]),
          ([1.0, 2.0, 3.0, 4.0, 5.0], [5.0, 4.0, 3.0, 2.0, 1.0]),
          ([1.0, 3.0, 9.0, 27.0], [1.0, 1.0, 1.0, 1.0]), ([0.35, -1.25], [0.3, 2.2])]


def _unrefused(o):  # a case to refuse answered (not as text), or run past the end
    return o.case.raises is not None and (
        (o.error is None and not isinstance(o.value, str))
        or (isinstance(o.error, IndexError) and "out of range" in str(o.error)))


_DOT_LOOP_SLIPS = [
    ("sums without multiplying", "every slot of both lists was added: multiply matching slots.",
     lambda q, k: sum(q) + sum(k)),
    *_SHARED,
    ("one list used twice", "that is q·q or k·k: multiply q's slots by k's.",
     (lambda q, k: _dot(q, q), lambda q, k: _dot(k, k))),
    ("returns the products", "the list of products: add them.", _p),
    ("k read backwards", "q₁ met k's LAST slot: pair slot i with slot i.",
     lambda q, k: _dot(q, k[::-1]) if len(q) > 1 else _no()),
    ("only the last term counts", REPLACED, lambda q, k: q[-1] * k[-1]),
    Slip("does not refuse different numbers of slots", "raise ValueError if len(q) != len(k): a "
         "loop alone stops early or runs past the end.", when=_unrefused,
         example=lambda q, k: sum(a * b for a, b in zip(q, k))),  # noqa: B905
]


DOT_LOOP = CodeExercise(
    "dot_loop", "dot_loop(q, k)",
    _PAIRS + [Case(([1.0, 2.0], [1.0, 2.0, 3.0]), raises=ValueError),
              Case(([1.0, 2.0, 3.0], [1.0, 2.0]), raises=ValueError)],
    _dot, _DOT_LOOP_SLIPS, loop_only=("np.dot", "dot", "np.inner"),
    quantities={"L": lambda q, k: len(q)})


def _len(q):
    return math.sqrt(_dot(q, q))


def _cos(q, k):
    return _dot(q, k) / (_len(q) * _len(k))


_COSINE_SLIPS = [
    ("one length used twice", "you divided by one length twice: ∥q∥ and ∥k∥.",
     (lambda q, k: _dot(q, k) / _dot(q, q), lambda q, k: _dot(q, k) / _dot(k, k))),
    ("took math.cos", "q·k / (∥q∥ ∥k∥) already IS cos θ: no math.cos.",
     (lambda q, k: math.cos(_cos(q, k)), lambda q, k: math.cos(_dot(q, k)))),
    ("returned the angle", "that is θ (math.acos): return the cosine.",
     (lambda q, k: math.acos(_cos(q, k)), lambda q, k: math.degrees(math.acos(_cos(q, k))))),
    ("not divided", "that is q·k itself: divide by ∥q∥ ∥k∥.", _dot),
    ("divided by the sum of lengths", "you divided by ∥q∥ + ∥k∥: by ∥q∥ ∥k∥.",
     lambda q, k: _dot(q, k) / (_len(q) + _len(k))),
    ("divided by the squared lengths", "you divided by ∥q∥² ∥k∥²: take the roots.",
     lambda q, k: _dot(q, k) / (_dot(q, q) * _dot(k, k))),
    ("divided by the number of slots", "len() counts slots: divide by the lengths ∥q∥ ∥k∥.",
     (lambda q, k: _dot(q, k) / len(q), lambda q, k: _dot(q, k) / len(q) ** 2)),
    ("a root of the lengths", "you divided by √(∥q∥ ∥k∥): by ∥q∥ ∥k∥.",
     lambda q, k: _dot(q, k) / math.sqrt(_len(q) * _len(k))),
    ("divided by the sums", "you divided by (Σ qᵢ)(Σ kᵢ): by ∥q∥ ∥k∥.",
     lambda q, k: _dot(q, k) / (sum(q) * sum(k))),
    ("returned 1 − cos θ", "return cos θ.", lambda q, k: 1 - _cos(q, k)),
]


COSINE = CodeExercise(
    "cosine", "cosine(q, k)",
    [([1.0, 0.0], [0.0, 1.0]), ([3.0, 4.0], [4.0, 3.0]), ([1.0, 2.0, 2.0], [2.0, 4.0, 4.0]),
     ([2.0, -1.0], [-4.0, 2.0]), ([1.0, 2.0, 3.0], [-1.5, 0.5, 2.0]),
     ([0.5, 1.5, -2.0, 1.0], [2.0, 1.0, 0.5, -3.0])],
    _cos, _COSINE_SLIPS, rtol=1e-7,  # acos near ±1 magnifies the last digit
    quantities={"∥q∥": lambda q, k: _len(q), "∥k∥": lambda q, k: _len(k)})


def _round_cos(angle):  # cos of whole degrees, exact where it should be (cos 90° = 0)
    return round(math.cos(math.radians(angle)), 12)


def _draw_angle(rng):
    lengths = [int(x) for x in rng.choice([2, 3, 4, 5, 6, 8], size=2, replace=False)]
    return {"a": lengths[0], "b": lengths[1], "angle": int(rng.choice([60, 120, 180]))}


_COSINE_HAND_SLIPS = [
    ("forgot cos θ", "{got} is {a} × {b} alone: multiply by cos {angle}°.",
     lambda a, b, angle: a * b),
    ("cos θ alone", "{got} is cos {angle}°: times both lengths.",
     lambda a, b, angle: _round_cos(angle)),
    ("used sin θ", "{got} uses sin {angle}°: q·k uses the cosine.",
     lambda a, b, angle: a * b * math.sin(math.radians(angle))),
    ("added the lengths", "{got} adds where q·k multiplies: {a} × {b} × cos {angle}°.",
     (lambda a, b, angle: (a + b) * _round_cos(angle),
      lambda a, b, angle: a + b, lambda a, b, angle: a + b + _round_cos(angle))),
    ("divided by cos θ", "{got} is {a} × {b} ÷ cos {angle}°: multiply by the cosine.",
     lambda a, b, angle: a * b / _round_cos(angle) if angle != 180 else _no()),
    ("cos θ divided by the lengths", "{got} is cos {angle}° ÷ ({a} × {b}): multiply.",
     lambda a, b, angle: _round_cos(angle) / (a * b)),
    ("left out a length", "{got} uses one length: q·k = ∥q∥ ∥k∥ cos θ.",
     (lambda a, b, angle: a * _round_cos(angle), lambda a, b, angle: b * _round_cos(angle))),
    ("squared the lengths", "{got} uses the squared lengths.",
     lambda a, b, angle: a * a * b * b * _round_cos(angle)),
    ("multiplied by the angle", "{got} is {a} × {b} × {angle}: multiply by cos {angle}°.",
     lambda a, b, angle: a * b * angle),
    ("took cos 60° as 0.6", "{got} takes cos 60° as 0.6: it is 0.5.",
     lambda a, b, angle: a * b * 0.6 if angle == 60 else _no()),
    ("cos 45° for cos θ", "{got} uses 0.707 = cos 45°: cos 60° = 0.5.",
     lambda a, b, angle: a * b * math.sqrt(0.5) * {60: 1, 120: -1}.get(angle, math.nan)),
    ("as if at a right angle", "{got} is q·k at a right angle (cos 90° = 0); here θ = {angle}°.",
     lambda a, b, angle: 0.0),
    ("cos of the angle in radians", "{got} takes cos of {angle} radians: use degrees.",
     lambda a, b, angle: a * b * math.cos(angle)),
]


COSINE_HAND = HandExercise(
    "cosine by hand", "q·k for ∥q∥ = {a}, ∥k∥ = {b}, θ = {angle}°",
    lambda a, b, angle: a * b * _round_cos(angle), {"a": 2, "b": 5, "angle": 60},
    _COSINE_HAND_SLIPS, draw=_draw_angle,
    twins=[("squared one length", "q·k = ∥q∥ ∥k∥ cos θ.",
            [lambda a, b, angle, n=n: a * b * (a, b)[n] * _round_cos(angle)
             for n in (0, 1)]),
           ("cos θ taken twice", "{got} is {a} × {b} × cos² {angle}°: cos θ once.",
            lambda a, b, angle: a * b * _round_cos(angle) ** 2)])


def _turn_left(q):
    return [-q[1], q[0]]


def _turned(c, s):  # the rotation with cos, sin taken as c, s
    return lambda q: [q[0] * c - q[1] * s, q[0] * s + q[1] * c]


def _score(o):  # the arrow · q, to 9 decimals (None: not two numbers, or q itself)
    v, q = numeric(o.value), o.case.args[0]
    return None if v is None or v.shape != (2,) or list(v) == q else round(float(v @ q), 9)


def _askew(o):  # not at a right angle to q, or at one but turned to the right
    return _score(o) not in (None, 0.0) or (
        _score(o) == 0 and _dot(numeric(o.value), o.case.expected) < 0)


def _askew_hint(ex, o):
    if _score(o):
        return f"your arrow scores {show(_score(o))} against q; at a right angle it scores 0."
    return "your arrow is at a right angle to q, but turned to the RIGHT."


_PERPENDICULAR_SLIPS = [
    ("swapped without a minus", "[q₂, q₁] is q mirrored: one slot needs a minus.",
     lambda q: [q[1], q[0]]),
    ("both slots negated", "only one slot gets the minus: [−q₂, q₁].", lambda q: [-q[1], -q[0]]),
    ("the opposite arrow", "[−q₁, −q₂] points the opposite way: swap the slots too.",
     lambda q: [-q[0], -q[1]]),
    ("one slot negated", "that mirrors q: swap the slots AND negate one.",
     (lambda q: [-q[0], q[1]], lambda q: [q[0], -q[1]])),
    ("the same slot twice", "the second slot is q[1] again: it is q[0].", lambda q: [-q[1], q[1]]),
    ("overwrote a slot", "the second slot copied the new first one: build a new list.",
     lambda q: [-q[1], -q[1]]),
    ("made it length 1", "that arrow has length 1: keep q's length.",
     lambda q: [x / math.hypot(*q) for x in _turn_left(q)]),
    ("cos or sin of 90 wrong", "cos 90° = 0 and sin 90° = 1 (math.cos takes radians).",
     (_turned(math.cos(90), math.sin(90)), _turned(1, 1))),
    ("the zero vector", "[0, 0] points nowhere: turn q.", lambda q: [0, 0]),
    Slip("not a quarter turn left", _askew_hint, when=_askew,
         example=lambda q: [-q[1], q[0] + q[1]]),
]


PERPENDICULAR = CodeExercise(
    "perpendicular", "perpendicular(q)",
    [([3.0, 1.0],), ([1.0, 0.0],), ([0.0, 2.0],), ([-2.0, 5.0],), ([1.5, -2.5],), ([-4.0, -3.0],)],
    _turn_left, _PERPENDICULAR_SLIPS)

EXERCISES = [DOT_HAND, DOT_LOOP, COSINE, COSINE_HAND, PERPENDICULAR]
