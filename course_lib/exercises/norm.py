"""Notebook 02: the length ∥q∥ by hand and in code, and the unit vector q / ∥q∥."""

import math

from .engine import CodeExercise
from .feedback import Slip
from .feedback import no_prediction as _no
from .hand import HandExercise
from .python import REPLACED


def _squares(q):
    return sum(x * x for x in q)


def _length(q):
    return math.sqrt(_squares(q))


def _root_each_step(q):
    total = 0.0
    for x in q:
        total = math.sqrt(total + x * x)
    return total


def _first_slots(count):
    def length(q):
        if len(q) < count:
            raise IndexError("list index out of range")
        return _length(q[:count])
    return length


_LENGTH_SLIPS = [
    ("halved instead of the root", "`total ** 1/2` is total / 2: math.sqrt(total).",
     lambda q: _squares(q) / 2),
    ("doubled instead of squared", "`x * 2` doubles x; the square is `x ** 2`.",
     lambda q: math.sqrt(sum(2 * x for x in q))),
    ("started the total at the first slot", "q[0] also counts unsquared: start at 0.",
     (lambda q: math.sqrt(q[0] + _squares(q)), lambda q: math.sqrt(q[0] + _squares(q[1:])))),
    ("no squares", "the slots were added unsquared: square each first.",
     lambda q: math.sqrt(sum(q))),
    ("absolute values", "that adds the sizes |q₁| + |q₂| + …: square, add, then one root.",
     (lambda q: sum(abs(x) for x in q), lambda q: math.sqrt(sum(abs(x) for x in q)))),
    ("squared the sum", "the slots were added first: square each, then add.",
     lambda q: abs(sum(q))),
    ("only the last term counts", REPLACED, lambda q: abs(q[-1])),
    ("root inside the loop", "take the root once, after the loop.", _root_each_step),
    ("divided by L in the root", "that is √(Σ x² / L), a root of a mean: no ÷ L.",
     lambda q: math.sqrt(_squares(q) / len(q)) if q else _no()),
    ("largest slot", "that is the biggest slot's size: every slot adds length.",
     lambda q: max(abs(x) for x in q)),
    ("a fixed number of slots", "loop over all L slots, not the first few.",
     (_first_slots(2), _first_slots(3))),
    Slip("started from q[0]", "an empty list has no q[0]: start the total at 0, loop over every "
         "slot.", when=lambda o: not o.case.args[0] and isinstance(o.error, IndexError),
         example=lambda q: math.sqrt(q[0] ** 2 + _squares(q[1:]))),
]


LENGTH = CodeExercise(
    "length", "length(q)",
    [([3.0, 4.0],), ([-3.0, 4.0],), ([2.0],), ([-2.5],), ([1.0, 2.0, 2.0],), ([0.0, 0.0],),
     ([0.5, 1.5],), ([1.0, 1.0, 1.0, 1.0],), ([2.0, -1.0, 2.0, -4.0, 2.0],), ([-1.2, -2.0, -2.0],),
     ([4.0, 3.0],), ([],)],
    _length, _LENGTH_SLIPS, loop_only=("norm", "math.hypot", "math.dist"), quantities={"L": len})


_WHOLE = [(1, 2, 2), (2, 3, 6), (1, 4, 8), (4, 4, 7), (2, 6, 9), (6, 6, 7), (2, 10, 11)]


def _draw_vector(rng):  # a² + b² + c² is a square: the length is whole, no calculator
    while True:
        q = [int(x) * int(s) for x, s in zip(rng.permutation(_WHOLE[rng.integers(7)]),
                                             rng.choice([-1, 1], size=3), strict=True)]
        if q != [2, -3, 6]:
            return {"q": q}


def _doubled(x):  # the slot a square doubled was taken on: "(−3)² as 6"
    shown = str(x) if x > 0 else f"({x})"
    return f"{{got}} takes {shown}² as {2 * abs(x)}: it is {x * x}.".replace("-", "−")


def _signed_squares_root(q):
    total = sum(x * abs(x) for x in q)
    return math.sqrt(total) if min(q) < 0 and total > 0 else _no()


_LENGTH_HAND_SLIPS = [
    ("halved instead of the root", "{got} is half the sum of the squares: its root.",
     lambda q: _squares(q) / 2),
    ("no squares", "{got} is the root of the unsquared slots: square each first.",
     lambda q: math.sqrt(sum(q)) if sum(q) > 0 else _no()),
    ("absolute values", "{got} is |q₁| + |q₂| + |q₃|: square, add, then the root.",
     lambda q: sum(abs(x) for x in q)),
    ("absolute values under the root", "{got} is √(|q₁| + |q₂| + |q₃|): square each.",
     lambda q: math.sqrt(sum(abs(x) for x in q))),
    ("added the slots first", "{got} starts from q₁ + q₂ + q₃: square each first.",
     (lambda q: abs(sum(q)), lambda q: sum(q) ** 2)),
    ("largest slot", "{got} is the biggest slot's size: every slot adds length.",
     lambda q: max(abs(x) for x in q)),
    ("root of the mean", "{got} is the root of the squares' mean: no ÷ L.",
     lambda q: math.sqrt(_squares(q) / len(q))),
    ("minus sign squared away wrong", "{got} takes a negative slot's square as negative: "
     "(−3)² = +9.", _signed_squares_root),
    ("doubled instead of squared", "{got} doubles each slot: square it.",
     (lambda q: math.sqrt(sum(2 * x for x in q)) if sum(q) > 0 else _no(),
      lambda q: math.sqrt(sum(2 * abs(x) for x in q)))),
    *[(f"left out slot {i + 1}", f"{{got}} leaves out slot {i + 1}'s square.",
       lambda q, i=i: math.sqrt(_squares(q) - q[i] ** 2)) for i in range(3)],
]


LENGTH_HAND = HandExercise(
    "length by hand", "∥q∥ for q = {q}",
    _length, {"q": [2, -3, 6]}, _LENGTH_HAND_SLIPS, draw=_draw_vector,
    twins=[("a square doubled", lambda q, i=i: _doubled(q[i]), lambda q, i=i: math.sqrt(
        _squares(q) - q[i] ** 2 + 2 * abs(q[i])) if abs(q[i]) > 2 else _no()) for i in range(3)],
)


def _over(size):  # every slot divided by size(q)
    return lambda q: [x / size(q) for x in q]


def _unit(q):
    size = _length(q)
    return [x / size for x in q]


_UNIT_SLIPS = [
    ("returned the length", "that is ∥q∥: divide every slot by it.", _length),
    ("divided by the sum", "you divided by q₁ + q₂ + …: by ∥q∥.", _over(sum)),
    ("divided by the sum of sizes", "you divided by |q₁| + |q₂| + …: by ∥q∥.",
     _over(lambda q: sum(abs(y) for y in q))),
    ("divided by the biggest slot", "divide by ∥q∥.",
     (_over(max), _over(lambda q: max(abs(y) for y in q)))),
    ("lost the signs", "every slot came back positive: keep the signs.",
     lambda q: [abs(x) / _length(q) for x in q]),
    ("length of the first two slots", "∥q∥ came from q₁ and q₂ only.",
     _over(lambda q: _length(q[:2]))),
    ("divided the first slot only", "divide every slot, not only q₁.",
     lambda q: [q[0] / _length(q)] + list(q[1:])),
    ("halved instead of the root", "`total ** 1/2` halves: ∥q∥ is total ** 0.5.",
     _over(lambda q: _squares(q) / 2)),
    ("doubled instead of squared", "∥q∥ came from `x * 2`: square it, x ** 2.",
     _over(lambda q: math.sqrt(sum(2 * y for y in q)))),
    ("divided by ∥q∥²", "you divided by Σ x², before the root: by ∥q∥.", _over(_squares)),
    ("divided by the number of slots", "you divided by L: by ∥q∥.", _over(len)),
    ("each slot by its own size", "each slot was divided by |x|: divide by ∥q∥.",
     lambda q: [x / abs(x) for x in q]),
]


UNIT = CodeExercise(
    "unit", "unit(q)",
    [([3.0, 4.0],), ([0.0, -2.0],), ([6.0, -8.0],), ([1.0, 2.0, 2.0],), ([-4.0, 2.0, -4.0],),
     ([0.5, 0.5, 0.5, 0.5],), ([2.5],), ([1.0, 3.0, -2.0, 1.5],)],
    _unit, _UNIT_SLIPS, quantities={"∥q∥": _length, "L": len})

EXERCISES = [LENGTH_HAND, LENGTH, UNIT]

