"""Notebook 00: positions and a loop by hand; mean, cost and row means in code."""

import numpy as np

from ._values import frozen_array
from .engine import Case, CodeExercise
from .feedback import Slip, slip_rows
from .feedback import no_prediction as _no
from .hand import HandExercise, one_off

REPLACED = "the loop replaces (`total = …`) or resets the total: set it to 0 once, before the loop."


def _draw_list(rng):
    return {"q": [int(x) for x in rng.choice(np.arange(1, 10), size=int(rng.integers(5, 8)),
                                             replace=False)]}


_POSITIONS_HAND_SLIPS = [
    ("counted from 1", "{got} adds q[0]: positions count from 0, q[1] is the second.",
     lambda q: q[0] + q[-1]),
    ("-1 read as the first", "q[-1] is the last number.", lambda q: q[1] + q[0]),
    ("-1 read as one before the last", "q[-1] is the last number; q[-2] the one before.",
     lambda q: q[1] + q[-2]),
    ("counted from 1 at both ends", "positions count from 0, from the end from −1.",
     lambda q: q[0] + q[-2]),
    ("added the positions", "add the numbers at 1 and −1, not 1 + (−1).", lambda q: 0),
    ("-1 read as a number", "{got} adds −1 itself: q[-1] is the last number.", lambda q: q[1] - 1),
    ("a minus sign on the last", "the minus belongs to the position.", lambda q: q[1] - q[-1]),
    ("multiplied", "`+` adds.", lambda q: q[1] * q[-1]),
    ("the position 1 itself", "q[1] is the number AT position 1.", lambda q: 1 + q[-1]),
    ("q[1] read as the third", "q[1] is the second number.", lambda q: q[2] + q[-1]),
    ("a slice", "{got} adds q[1] to the end: q[1] + q[-1] adds two.", lambda q: sum(q[1:])),
]


def _ends(q):
    return q[1] + q[-1]


POSITIONS_HAND = HandExercise(
    "positions by hand", "q[1] + q[-1] for q = {q}", _ends, {"q": [3, 8, 5, 1, 9]},
    _POSITIONS_HAND_SLIPS, draw=_draw_list, twins=[one_off(_ends),
        ("only one of the two", "add both.", (lambda q: q[1], lambda q: q[-1])),
        ("the last two", "{got} is q[-2] + q[-1].", lambda q: q[-2] + q[-1])])


def _squares(a, b):
    return sum(k * k for k in range(a, b))


_LOOP_HAND_SLIPS = [
    ("range includes its end", "range({a}, {b}) stops BEFORE {b}.",
     lambda a, b: _squares(a, b + 1)),
    ("range started at 0", "range({a}, {b}) starts at {a}.", lambda a, b: _squares(0, b)),
    ("left out the start", "{a} ** 2 counts too.", lambda a, b: _squares(a + 1, b)),
    ("doubled instead of squared", "k ** 2 is k × k, not k × 2.",
     lambda a, b: sum(2 * k for k in range(a, b))),
    ("no squares", "{got} adds the k themselves: square each.", lambda a, b: sum(range(a, b))),
    ("only the last square", "{got} is the last square: `+=` adds at every step.",
     lambda a, b: (b - 1) ** 2),
    ("squared the total", "{got} squares the sum: square each k, then add.",
     lambda a, b: sum(range(a, b)) ** 2),
    ("counted the steps", "{got} counts the loop's steps: add up each k ** 2.", lambda a, b: b - a),
    ("2 ** k for k ** 2", "{got} adds 2 ** k.", lambda a, b: sum(2 ** k for k in range(a, b))),
    ("started one late, ran one far", "range({a}, {b}) is {a} … {b} − 1.",
     lambda a, b: _squares(a + 1, b + 1)),
]


LOOP_HAND = HandExercise(
    "loop by hand", "the total after `for k in range({a}, {b}): total += k ** 2`",
    _squares, {"a": 2, "b": 5}, _LOOP_HAND_SLIPS,
    twins=[one_off(_squares),
        ("left out the end", "{b} − 1 counts: range stops just before {b}.",
         lambda a, b: _squares(a, b - 1)),
        ("^ for a power", "{got} adds k ^ 2 (XOR: 3 ^ 2 is 1): k ** 2 is k × k.",
         lambda a, b: sum(k ^ 2 for k in range(a, b)))],
    draw=lambda rng: {"a": (a := int(rng.integers(1, 6))),  # not (2, 5)
                      "b": a + int(rng.choice([2, 4] if a == 2 else [2, 3, 4]))})


def _mean(q):
    if len(q) == 0:
        raise ValueError("an empty list has no mean")
    return sum(q) / len(q)


_MEAN_SLIPS = slip_rows([
    ("divided by len(q) − 1", "divide by len(q).", lambda q: sum(q) / (len(q) - 1)),
    ("return inside the loop", "only q[0] was added: return after the loop.",
     (lambda q: q[0] / len(q), lambda q: q[0])),
    ("only the last number counts", REPLACED, (lambda q: q[-1] / len(q), lambda q: q[-1])),
    ("started the total at 1", "start at 0.", lambda q: (1 + sum(q)) / len(q)),
    ("the first number counted twice", "a total started at q[0] adds it again: start at 0.",
     lambda q: (q[0] + sum(q)) / len(q)),
    ("left out the first number", "range(1, len(q)) skips q[0]: positions start at 0.",
     lambda q: sum(q[1:]) / len(q)),
    ("left out the last number", "range(len(q) - 1) stops one early.",
     lambda q: sum(q[:-1]) / len(q)),
    ("the middle number", "{got} is the middle number (a median).",
     (lambda q: sorted(q)[len(q) // 2], np.median)),
], lambda func: lambda q: func(q) if q else _no())


MEAN = CodeExercise(
    "mean", "mean(q)",
    [([2.0, 4.0],), ([1.0, 2.0, 4.0],), ([5.5],), ([-1.5, 2.5, 0.5, 3.5],), ([0.25, 0.5, 0.75],),
     ([3.0, 3.0, 3.0, 3.0, 1.0],), ([10.0, -4.0, 2.5],), ([-2.5, 1.0, -0.25],),
     Case(([],), raises=ValueError)],
    _mean, _MEAN_SLIPS, quantities={"len(q)": len})


_PRICES = {"tea": 2.5, "milk": 1.25, "bread": 3.0, "jam": 4.75, "eggs": 2.0}


def _cost(basket, prices):
    return sum(prices[item] for item in basket)


def missing_key(o, test):
    """A KeyError for a key that passes ``test(key, first argument)``."""
    error = o.error
    key = error.args[0] if isinstance(error, KeyError) and error.args else None
    return key is not None and test(key, o.case.args[0])


_COST_SLIPS = [
    ("paid each item once", "an item twice in the basket is paid twice: loop over it.",
     lambda b, p: sum(p[i] for i in set(b))),
    ("the whole price list", "add only the basket's items.", lambda b, p: sum(p.values())),
    ("only the last item counts", REPLACED, lambda b, p: p[b[-1]] if b else 0),
    ("return inside the loop", "only the first item was paid: return after the loop.",
     lambda b, p: p[b[0]] if b else 0),
    ("every item at the first price", "each item has its own price, prices[item].",
     lambda b, p: p[b[0]] * len(b)),
    ("left out the first item", "range(1, …) skips item 0.", lambda b, p: _cost(b[1:], p)),
    ("left out the last item", "range(len(basket) - 1) stops one early.",
     lambda b, p: _cost(b[:-1], p)),
    ("multiplied the prices", "add them, from 0.", lambda b, p: float(np.prod([p[i] for i in b]))),
    ("counted the items", "add up their prices.", lambda b, p: len(b)),
    ("returned the prices", "add them up into one number.", lambda b, p: [p[i] for i in b]),
    ("paid repeats over again", "`* basket.count(item)` in the loop pays k × k times.",
     lambda b, p: sum(p[i] * b.count(i) for i in b)),
    Slip("refused the empty basket", "an empty basket costs 0: no raise.",
         when=lambda o: o.case.args[0] == [] and isinstance(o.error, ValueError)),
    Slip("quoted the name", "`prices[\"item\"]` looks up the text 'item': prices[item].",
         when=lambda o: missing_key(o, lambda key, b: isinstance(key, str) and key not in b)),
    Slip("positions as keys", "the keys are names, not positions: prices[basket[i]].",
         when=lambda o: missing_key(o, lambda key, b: isinstance(key, int))),
    Slip("round brackets", "`prices(item)` calls the dict: prices[item].",
         raises=(TypeError, "not callable")),
]


COST = CodeExercise(
    "cost", "cost(basket, prices)",
    [(b, _PRICES) for b in (["tea"], ["milk", "bread"], ["tea", "milk", "tea"],
                            ["jam", "eggs", "bread", "eggs"], [], ["bread"] * 3,
                            ["eggs", "jam", "milk", "tea", "bread", "jam"])],
    _cost, _COST_SLIPS, quantities={"len(basket)": lambda b, p: len(b)},
    show_args=lambda args: f"{args[0]!r}, prices")


def _means(A):
    return A.sum(axis=1) / A.shape[1]


_ROW_MEANS_SLIPS = [
    ("added down the columns", "axis=0 goes down each column; a row lies along axis=1.",
     (lambda A: A.sum(axis=0) / A.shape[0], lambda A: sum(A) / len(A),
      lambda A: A.sum(axis=0) / A.shape[1])),
    ("divided by the number of rows", "len(A) counts the rows; a row holds A.shape[1].",
     lambda A: A.sum(axis=1) / A.shape[0]),
    ("divided by every number's count", "A.size counts all of A; a row holds A.shape[1].",
     lambda A: A.sum(axis=1) / A.size),
    ("the mean of everything", "one number for the grid: .sum(axis=1) gives one per row.",
     [lambda A, n=n: A.sum() / n(A) for n in (np.size, len, lambda A: A.shape[1])]),
    ("the first row only", "one mean per row, not the first row's alone.",
     (lambda A: A[0].sum() / A.shape[1], lambda A: _means(A)[:1])),
    ("left out the last row", "range(len(A) - 1) stops one row early.", lambda A: _means(A)[:-1]),
    ("only the last number counts", REPLACED,
     (lambda A: A[:, -1] / A.shape[1], lambda A: A[:, -1])),
    ("only two columns", "A[:, 0] + A[:, 1] leaves out the rest: .sum(axis=1).",
     (lambda A: (A[:, 0] + A[:, 1]) / 2, lambda A: (A[:, 0] + A[:, 1]) / A.shape[1])),
    ("the middle number", "{got} is each row's middle number (a median).",
     lambda A: np.median(A, axis=1)),
    ("the largest number", "{got} is each row's largest number.", lambda A: A.max(axis=1)),
    Slip("called the shape", "A.shape is a pair, not a function: A.shape[1].",
         raises=(TypeError, "'tuple' object")),
]


ROW_MEANS = CodeExercise(
    "row means", "row_means(A)",
    [(frozen_array(r),) for r in (
        [[1, 2, 3], [4, 5, 6]], [[0.5, 1.5], [2.0, -1.0], [3.25, 0.5]], [[2.5, -1.0, 0.25, 4.0]],
        [[1.5], [-2.0], [0.75], [3.0]], [[1, 2, 3], [4, 5, 6], [7, 8, 10.5]],
        [[-0.5, 2.0, 1.0], [1.0, 1.0, 4.5]], [[-2.5, 1.0], [0.5, -3.0]])],
    _means, _ROW_MEANS_SLIPS,
    quantities={f"A.shape[{i}]": lambda A, i=i: A.shape[i] for i in (1, 0)})

EXERCISES = [POSITIONS_HAND, LOOP_HAND, MEAN, COST, ROW_MEANS]
