"""Notebook 07: a softmax weight and the slope p₁(1 − p₁) by hand, softmax_rows in code."""

import math

import numpy as np

from .engine import CodeExercise
from .feedback import Slip, slip_rows
from .feedback import no_prediction as _no
from .hand import HandExercise

TOLERANCE = 0.002  # as the prompts say


def _share(values, i=0):
    return values[i] / sum(values) if sum(values) else _no()


def _weight(x, i=0):
    return _share([math.exp(v) for v in x], i)


def _exp_as(f, x):  # p₁ with f(v) in place of eᵛ
    return _share([f(v) for v in x])


def _forms(name, hint, gives):  # a row: eˣ in full, to 3 or 2 decimals
    return name, hint, [lambda x, d=d: gives(x, lambda v: round(math.exp(v), d))
                        for d in (12, 3, 2)]


def _slope(p):
    return p * (1 - p)


def _told_apart(answer):  # slip_rows' make: a form only where it is clear of the answer
    return lambda f: lambda **g: _no() if abs(f(**g) - answer(**g)) <= 2 * TOLERANCE else f(**g)


def _x_times_e(x):  # needs a 0 and a score past 1 to stand apart
    if any(v < 0 for v in x) or 0 not in x or set(x) <= {0, 1}:
        _no()
    return _exp_as(lambda v: v * math.e if v else 1.0, x)


def _when(value, f):  # f(v) in place of eᵛ where v == value
    return lambda x: _exp_as(lambda v: f(v) if v == value else math.exp(v), x) \
        if value in x else _no()


def _halves(rng, size):  # scores from −2 to 4 in half steps: [3, 1.5, 0]
    return [int(v) // 2 if v % 2 == 0 else int(v) / 2 for v in rng.integers(-4, 9, size=size)]


def _draw_scores(rng):
    while True:
        x = _halves(rng, 3)
        if len(set(x)) == 3 and x[0] == max(x) and abs(_weight(x) - _weight([3, 1, 0])) > 0.01:
            return {"x": x}


_E = "softmax takes eˣ, e ≈ 2.718"

_WEIGHT_SLIPS = slip_rows([
    ("no exponential", "{got} skips eˣ: take eˣ of each score first.", lambda x: _share(x)),
    *[(f"left out term {j + 1} of the total", "add eˣ of all three (e⁰ = 1 counts too).",
       lambda x, j=j: _share([math.exp(v) for v in x[:j] + x[j + 1:]]))
      for j in (1, 2)],
    _forms("forgot to divide", "{got} is e^(x₁) alone: divide it by the total.",
           lambda x, e: e(x[0])),
    _forms("divided by the other terms", "the total includes e^(x₁) too.",
            lambda x, e: e(x[0]) / sum(map(e, x[1:]))),
    *[(f"weight of key {i + 1}", f"{{got}} is p{' ₂₃'[i]}: p₁ has e^(x₁) on top.",
       lambda x, i=i: _weight(x, i)) for i in (1, 2)],
    *[(f"{name} in place of eˣ", f"{{got}} uses {name}: {_E}.", lambda x, f=f: _exp_as(f, x))
      for name, f in (("x²", lambda v: v * v), ("2ˣ", lambda v: 2 ** v), ("3ˣ", lambda v: 3 ** v))],
    ("eˣ as x times e", "e³ = e × e × e ≈ 20.09.", _x_times_e),
    ("e⁰ taken as e", "any number to the power 0 is 1.", _when(0, lambda v: math.e)),
    ("e¹ taken as 1", "e¹ = e ≈ 2.718; only e⁰ is 1.", _when(1, lambda v: 1.0)),
    ("e to the total of the scores", "{got} is e^(x₁) ÷ e^(x₁ + x₂ + x₃): add the eˣ.",
     lambda x: math.exp(x[0] - sum(x))),
    ("exponentials rounded to whole numbers", "round only the weight.",
     lambda x: _exp_as(lambda v: round(math.exp(v)), x)),
], _told_apart(_weight))

WEIGHT_HAND = HandExercise(
    "softmax weight by hand", "p₁ of softmax({x})", _weight, {"x": [3, 1, 0]}, _WEIGHT_SLIPS,
    draw=_draw_scores, tolerance=TOLERANCE,
    twins=[("a wrong line of the eˣ table", "{got} takes one eˣ a line off (e² for e³?): "
            "recheck each eˣ.", [lambda x, i=i, d=d: _exp_as(
                lambda v: math.exp(v + d * (v == x[i])), x)
                for i in range(3) for d in (-1, 1)])])


def _pair_slope(x):
    return _slope(_weight(x))


_X = [2, 0]  # the notebook's; its question gives the slope at [1, 0]


def _old(f):  # f(the slope at [1, 0]), on the notebook's scores only
    return lambda x: f(_pair_slope([1, 0])) if x == _X else _no()


def _draw_pair(rng):
    while True:
        x = _halves(rng, 2)
        if abs(x[0] - x[1]) in (0.5, 1.5, 2.5):  # not the notebook's gaps
            return {"x": x}


_SLOPE_SLIPS = slip_rows([
    ("gave the weight", "multiply p₁ by 1 − p₁.", _weight),
    ("gave one minus the weight", "multiply it by p₁.", lambda x: 1 - _weight(x)),
    ("a slope of 0", "p₁ × 1 − p₁ without brackets is 0, and so is p₁ taken as 1: "
     "p₁ × (1 − p₁), p₁ below 1.", lambda x: 0.0),
    ("the slope at [1, 0]", "{got} is the question's slope at [1, 0] (or e⁰ taken as e): "
     "work out p₁ for [2, 0], e⁰ = 1.", _old(lambda s: s)),
    *[(f"{word} the slope at [1, 0]", "doubling the scores does not scale the slope: "
       "work out p₁ first.", _old(lambda s, f=f: f * s))
      for word, f in (("twice", 2), ("half", 0.5))],
    ("2ˣ in place of eˣ", f"{{got}} uses 2ˣ: {_E}.",
     lambda x: _slope(_exp_as(lambda v: 2 ** v, x))),
    ("weight squared", "the second factor is 1 − p₁.", lambda x: _weight(x) ** 2),
    ("−p₁p₂, p₂'s slope", "{got} is −p₁p₂, how p₂ moves: p₁'s own slope is p₁(1 − p₁).",
     lambda x: -_pair_slope(x)),
    ("one plus the weight", "the slope is p₁(1 − p₁).", lambda x: _weight(x) * (1 + _weight(x))),
    _forms("no division", "p₁ is e^(x₁) ÷ (e^(x₁) + e^(x₂)).", lambda x, e: _slope(e(x[0]))),
    ("eˣ as x times e", "e² = e × e ≈ 7.389.", lambda x: _slope(_x_times_e(x))),
    ("weight rounded to 1 decimal", "keep 3 decimals of p₁.",
     lambda x: _slope(round(_weight(x), 1))),
], _told_apart(_pair_slope))

SLOPE_HAND = HandExercise(
    "softmax slope by hand", "the slope p₁(1 − p₁) at x = {x}", _pair_slope, {"x": _X},
    _SLOPE_SLIPS, draw=_draw_pair, tolerance=TOLERANCE)


def _top(s):
    return s.max(axis=-1, keepdims=True)


def _over_total(e, total=None):  # each row over its total
    return e / (e.sum(axis=-1, keepdims=True) if total is None else total)


def _rows(s, shift=0.0, total=None):
    return _over_total(np.exp(s - shift), total)


def _softmax_rows(scores):
    return _rows(scores, _top(scores))


def _first_row_only(s):  # the other rows left 0
    out = np.zeros_like(s)
    out[0] = _softmax_rows(s[:1])[0]
    return out


def _naive_loops(s):  # math.exp overflows past 709
    return [[math.exp(v) / sum(map(math.exp, r)) for v in r] for r in s.tolist()]


def _exp_total(s):
    return np.exp(s).sum(axis=-1, keepdims=True)


def _by_row(f):
    return lambda s: f(s, axis=-1, keepdims=True)


_ROWS_SLIPS = [
    ("no shift: e^x overflows", "e^1000 is ∞, e^(−1000) is 0: subtract each row's largest score "
     "first.", (_rows, _naive_loops)),
    ("a shift that is not the row's largest", "only the row's LARGEST score makes every "
     "exponent ≤ 0.", [lambda s, f=f: _rows(s, f(s)) for f in (
         _by_row(np.min), _by_row(np.mean), lambda s: s[:, :1], lambda s: -_top(s))]),
    ("subtracted the grid's largest score", "a row far below it becomes 0/0: subtract "
     "each row's own.", lambda s: _rows(s, s.max())),
    ("subtracted each column's largest score", "max(axis=0) is each COLUMN's: use axis=-1.",
     lambda s: _rows(s, s.max(axis=0))),
    ("shifted the top only", "divide by the total of the SHIFTED exponentials.",
     (lambda s: _rows(s, _top(s), _exp_total(s)), lambda s: _rows(s, s.max(), _exp_total(s)),
      lambda s: _rows(s, _top(s), np.exp(s).sum()))),
    ("no exponential", "take np.exp of the scores first.",
     (_over_total, lambda s: _over_total(s - _top(s)))),
    ("shifted after np.exp", "np.exp(scores) overflows first: np.exp(scores − c).",
     lambda s: _over_total(np.exp(s) / np.exp(_top(s)))),
    ("not divided by the row's total", "e.sum(axis=-1, keepdims=True).",
     (lambda s: np.exp(s - _top(s)), np.exp, lambda s: np.exp(s - _top(s)) / s.shape[-1])),
    ("2ˣ in place of eˣ", "use np.exp.", lambda s: _over_total(2.0 ** (s - _top(s)))),
    ("sigmoid instead of softmax", "softmax shares 1 out over the row.",
     lambda s: 1 / (1 + np.exp(-s))),
    ("first row only", "a `return` inside the loop? Return after it.",
     (lambda s: _softmax_rows(s[:1])[0], lambda s: _softmax_rows(s[:1]), _first_row_only)),
    Slip("math.exp on an array", "math.exp takes one number; np.exp an array.",
         raises=(TypeError, "converted to Python scalars"),
         example=lambda s: math.exp(s - _top(s)) / math.exp(s - _top(s)).sum()),
]

SOFTMAX_ROWS = CodeExercise(
    "softmax rows", "softmax_rows(scores)",
    [(np.array(rows, float),) for rows in (
        [[2.0, -1.0, 1.0, 0.0]], [[0.5, 1.5, -0.25], [2.0, 2.0, 2.0]],
        [[1000.0, 999.0, 998.0], [0.1, 0.2, 0.3]], [[-3.5, -1.0], [0.0, 0.0], [4.25, -2.0]],
        [[0.3, -1.2, 2.5], [1.0, 0.0, -1.0], [-0.7, 0.4, 0.1]],
        [[1000.5, 1001.0, 999.0, 998.5], [-2.0, 0.0, 1.5, 0.5]], [[0.0, -10.0, -20.0, -30.0]],
        [[3.0], [-2.0]], [[-400.5, 400.0, 0.0]], [[1500.0, 0.0, -100.0], [1.0, 2.0, 3.0]],
        [[-1000.0, -1001.0, -1002.5], [0.25, -0.5, 0.75], [5.0, 1.0, -3.0], [0.0, 0.0, 1.0]],
        [[0.2, -0.4, 1.1, 0.0, -2.3], [3.3, 2.2, 1.1, 0.0, -1.1], [-0.9, 0.6, 0.3, -0.3, 1.2]],
    )],
    _softmax_rows, _ROWS_SLIPS,
    quantities={"m": lambda s: s.shape[-1], "n": lambda s: s.shape[0]},
    rtol=1e-6)  # float32 weights pass

EXERCISES = [WEIGHT_HAND, SLOPE_HAND, SOFTMAX_ROWS]
