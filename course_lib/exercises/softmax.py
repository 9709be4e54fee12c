"""Exercises of notebook 07: one softmax weight by hand, the slope p₁(1 − p₁) by hand, and
the stable softmax of every row of a grid of scores."""

import math
from dataclasses import replace

import numpy as np

from .engine import CodeExercise
from .feedback import NoPrediction, Slip
from .hand import HandExercise

__all__ = ["EXERCISES"]

TOLERANCE = 0.002  # of both by-hand answers; the prompts ask for 3 decimals and say so


def _no():
    raise NoPrediction


def _share(values, i=0):
    """values[i] / sum(values)."""
    return values[i] / sum(values) if sum(values) else _no()


def _weight(x, i=0):
    return _share([math.exp(v) for v in x], i)


def _table(v, decimals=3):
    return round(math.exp(v), decimals)  # eˣ as the notebook's table prints it (3 decimals)


def _forms(name, hint, gives):
    """One slip, one row per way of writing its eˣ (in full, to 3 or to 2 decimals): a large
    value such as e³ alone is otherwise claimed only when typed as the checker computes it.
    HandExercise calls ``gives`` once, so several forms of one slip are rows with one name."""
    return [Slip(name, hint, gives=lambda x, d=d: gives(x, d)) for d in (12, 3, 2)]


def _slope(p):
    return p * (1 - p)


def _told_apart(answer, slips):
    """Each slip predicted only where it lands clear of the answer (a tiny term left out
    cannot be told from it), so that fresh numbers rarely clash."""
    def clear(gives):
        def value(**givens):
            got = gives(**givens)
            return _no() if abs(got - answer(**givens)) <= 2 * TOLERANCE else got
        return value
    return [replace(slip, gives=clear(slip.gives)) for slip in slips]


# --- by hand: one weight --------------------------------------------------------------------

def _left_out(j):
    def hint(x):
        return ("{got} leaves e⁰ out of the total: a score of 0 still counts, e⁰ = 1." if x[j] == 0
                else "{got} leaves one term out of the total: add eˣ of all three scores.")
    return Slip(f"left out term {j + 1} of the total", hint,
                gives=lambda x: _share([math.exp(v) for k, v in enumerate(x) if k != j]))


def _x_times_e(x):
    if any(v < 0 for v in x) or 0 not in x or set(x) <= {0, 1}:
        _no()  # without a 0 it is "no exponential"; at 0 and 1 alone it is eˣ itself
    return _share([v * math.e if v else 1.0 for v in x])


def _halves(rng, size):
    """Scores from −2 to 4 in half steps, whole ones written as ints: [3, 1.5, 0]."""
    return [int(v) // 2 if v % 2 == 0 else int(v) / 2 for v in rng.integers(-4, 9, size=size)]


def _draw_scores(rng):
    while True:
        x = _halves(rng, 3)
        if len(set(x)) == 3 and x[0] == max(x) and abs(_weight(x) - _weight([3, 1, 0])) > 0.01:
            return {"x": x}  # a fresh answer, not the notebook's again


WEIGHT_HAND = HandExercise(
    "softmax weight by hand", "p₁ of softmax({x})", answer=_weight, givens={"x": [3, 1, 0]},
    draw=_draw_scores, tolerance=TOLERANCE, slips=_told_apart(_weight, [
        Slip("no exponential", "{got} divides the score by the total of the scores: take eˣ "
             "of every score first.", gives=lambda x: _share(x)),
        *[_left_out(j) for j in (1, 2)],
        *_forms("forgot to divide", "{got} is e^(x₁) alone: divide it by the total of all three "
                "exponentials.", lambda x, d: _table(x[0], d)),
        *_forms("divided by the other terms", "{got} divides e^(x₁) by the other exponentials "
                "only: the total includes e^(x₁) too.",
                lambda x, d: _table(x[0], d) / sum(_table(v, d) for v in x[1:])),
        *[Slip("a percentage", "{got} is p₁ as a percentage: type the fraction itself, "
               "between 0 and 1.", gives=lambda x, d=d: round(100 * _weight(x), d))
          for d in (1, 2)],
        *[Slip(f"weight of key {i + 1}", f"{{got}} is p{'₂₃'[i - 1]}, the weight of the "
               f"{('second', 'third')[i - 1]} score: p₁ has e^(x₁) on top.",
               gives=lambda x, i=i: _weight(x, i))
          for i in (1, 2)],
        Slip("one minus the weight", "{got} is 1 − p₁, the other keys' share: p₁ itself has "
             "e^(x₁) on top.", gives=lambda x: 1 - _weight(x)),
        *[Slip(f"{name} in place of eˣ", f"{{got}} uses {name} where softmax takes eˣ, e ≈ "
               "2.718 to the power of the score (the table of eˣ above).",
               gives=lambda x, f=f: _share([f(v) for v in x]))
          for name, f in (("x²", lambda v: v * v), ("2ˣ", lambda v: 2 ** v),
                          ("3ˣ", lambda v: 3 ** v))],
        Slip("eˣ as x times e", "{got} reads e³ as 3 × e: e³ = e × e × e ≈ 20.09.",
             gives=_x_times_e),
        Slip("e⁰ taken as e", "{got} takes e⁰ as e: any number to the power 0 is 1.",
             gives=lambda x: _share([math.exp(v) if v else math.e for v in x]) if 0 in x
             else _no()),
        Slip("exponentials rounded to whole numbers", "{got} rounds every eˣ to a whole number "
             "first: keep their decimals and round only the weight.",
             gives=lambda x: _share([round(math.exp(v)) for v in x])),
        Slip("equal split", "{got} is 1/3, the weight when all three scores are equal; here "
             "they differ.", gives=lambda x: 1 / len(x)),
        Slip("signs of the scores turned round", "{got} is the weight of −x₁ among −x: keep "
             "each score's sign.", gives=lambda x: _share([math.exp(-v) for v in x])),
    ]),
)


# --- by hand: the slope p₁(1 − p₁) ----------------------------------------------------------

def _pair_slope(x):
    return _slope(_weight(x))


def _draw_pair(rng):
    while True:
        x = _halves(rng, 2)
        if abs(x[0] - x[1]) in (0.5, 1.5, 2.5):  # gaps of 1 and 2: the notebook's own slopes
            return {"x": x}


SLOPE_HAND = HandExercise(
    "softmax slope by hand", "the slope p₁(1 − p₁) at x = {x}", answer=_pair_slope,
    givens={"x": [2, 0]}, draw=_draw_pair, tolerance=TOLERANCE, slips=_told_apart(_pair_slope, [
        Slip("gave the weight", "{got} is p₁ itself: the slope multiplies it by 1 − p₁.",
             gives=_weight),
        Slip("gave one minus the weight", "{got} is 1 − p₁ alone: multiply it by p₁.",
             gives=lambda x: 1 - _weight(x)),
        Slip("p₁ taken as 1", "{got} means p₁ came out as 1: e⁰ = 1, not 0, so p₁ = "
             "e^(x₁) / (e^(x₁) + 1) is below 1.", gives=lambda x: 0.0 if x[1] == 0 else _no()),
        Slip("e⁰ taken as e", "{got} takes e⁰ as e: any number to the power 0 is 1.",
             gives=lambda x: _slope(_share([math.exp(x[0]), math.e])) if x[1] == 0 else _no()),
        Slip("no exponential", "{got} puts the scores themselves into p₁: take eˣ of each "
             "first.", gives=lambda x: _slope(_share(x)) if x[1] else _no()),
        Slip("weight squared", "{got} is p₁ × p₁: the second factor is 1 − p₁.",
             gives=lambda x: _weight(x) ** 2),
        Slip("one plus the weight", "{got} is p₁(1 + p₁): the slope has a minus, p₁(1 − p₁).",
             gives=lambda x: _weight(x) * (1 + _weight(x))),
        Slip("used the score", "{got} puts the score x₁ where the weight p₁ belongs.",
             gives=lambda x: _slope(x[0]) if x[0] not in (0, 1) else _no()),
        *_forms("no division", "{got} uses e^(x₁) as p₁: divide it by e^(x₁) + e^(x₂) first.",
                lambda x, d: _slope(_table(x[0], d))),
        Slip("eˣ as x times e", "{got} reads e² as 2 × e: e² = e × e ≈ 7.389.",
             gives=lambda x: _slope(_x_times_e(x))),
        Slip("equal split", "{got} = ½ × ½ is the slope for two equal scores; work out p₁ "
             "first.", gives=lambda x: 0.25),
        Slip("weight rounded to 1 decimal", "{got} rounds p₁ to one decimal first: keep 3.",
             gives=lambda x: _slope(round(_weight(x), 1))),
    ]),
)


# --- code: softmax of every row -------------------------------------------------------------

def _top(s):
    return s.max(axis=-1, keepdims=True)  # (n, 1): each row's largest score


def _rows(s, shift=0.0, total=None):
    """e^(s − shift) divided by each row's total (or by ``total``)."""
    e = np.exp(s - shift)
    return e / (e.sum(axis=-1, keepdims=True) if total is None else total)


def _softmax_rows(scores):
    return _rows(scores, _top(scores))


def _loop(rows, fill=None):
    """Only rows ``rows(n)`` converted; the others stay the scores (or ``fill``)."""
    def answer(s):
        out = s.copy() if fill is None else np.full(s.shape, fill)
        for i in rows(len(s)):
            out[i] = _softmax_rows(s[i:i + 1])[0]
        return out
    return answer


def _naive_loops(s):
    out = []
    for row in s:
        exps = [math.exp(v) for v in row]  # OverflowError past 709, 0/0 below −745
        out.append([e / sum(exps) for e in exps])
    return out


SOFTMAX_ROWS = CodeExercise(
    "softmax rows", "softmax_rows(scores)",
    cases=[(np.array(rows, dtype=float),) for rows in (
        [[2.0, -1.0, 1.0, 0.0]],
        [[0.5, 1.5, -0.25], [2.0, 2.0, 2.0]],
        [[1000.0, 999.0, 998.0], [0.1, 0.2, 0.3]],
        [[-3.5, -1.0], [0.0, 0.0], [4.25, -2.0]],
        [[0.3, -1.2, 2.5], [1.0, 0.0, -1.0], [-0.7, 0.4, 0.1]],
        [[1000.5, 1001.0, 999.0, 998.5], [-2.0, 0.0, 1.5, 0.5]],
        [[0.0, -10.0, -20.0, -30.0]],
        [[3.0], [-2.0]],
        [[-400.5, 400.0, 0.0]],
        [[1500.0, 0.0, -100.0], [1.0, 2.0, 3.0]],
        [[-1000.0, -1001.0, -1002.5], [0.25, -0.5, 0.75], [5.0, 1.0, -3.0], [0.0, 0.0, 1.0]],
        [[0.2, -0.4, 1.1, 0.0, -2.3], [3.3, 2.2, 1.1, 0.0, -1.1], [-0.9, 0.6, 0.3, -0.3, 1.2]],
    )],
    solution=_softmax_rows,
    quantities={"m": lambda s: s.shape[-1], "n": lambda s: s.shape[0]},
    rtol=1e-6,  # weights worked in float32 (rounding ~1e-7) are right too
    slips=[
        Slip("no shift: e^x overflows", "e^1000 is too big for a float (∞, and ∞/∞ = nan) and "
             "e^(−1000) rounds to 0 (0/0): subtract each row's largest score first.",
             gives=(_rows, _naive_loops)),
        Slip("a shift that is not the row's largest", "only each row's LARGEST score, "
             "subtracted, makes every exponent ≤ 0; with another shift (the smallest score, "
             "the mean, a score added) a widely spread row still overflows.",
             gives=[lambda s, f=f: _rows(s, f(s)) for f in (
                 lambda s: s.min(axis=-1, keepdims=True), lambda s: s.mean(axis=-1, keepdims=True),
                 lambda s: s[:, :1], lambda s: -_top(s))]),
        Slip("subtracted the grid's largest score", "one largest score for the whole grid: a "
             "row far below it underflows to zeros, and 0/0 = nan. Subtract each row's own.",
             gives=lambda s: _rows(s, s.max())),
        Slip("subtracted each column's largest score", "max(axis=0) gives each COLUMN's "
             "largest score, so the scores of a row lose different numbers: use axis=-1.",
             gives=(lambda s: _rows(s, s.max(axis=0, keepdims=True)),
                    lambda s: _rows(s, s.max(axis=0)))),
        Slip("without keepdims", "a max or total over axis=-1 has shape (n,), which NumPy "
             "lines up with the columns (wrong numbers, or the shapes clash): keepdims=True "
             "keeps shape (n, 1), one number per row.",
             gives=(lambda s: _rows(s, s.max(axis=-1)),
                    lambda s: _rows(s, s.max(axis=-1), np.exp(s - s.max(axis=-1)).sum(axis=-1)),
                    lambda s: _rows(s, _top(s), np.exp(s - _top(s)).sum(axis=-1)),
                    lambda s: _rows(s, 0.0, np.exp(s).sum(axis=-1)))),
        Slip("shifted the top only", "the top is shifted, e^(x − c), the total below is not, so "
             "e^(−c) no longer cancels: divide by the total of the shifted exponentials.",
             gives=(lambda s: _rows(s, _top(s), np.exp(s).sum(axis=-1, keepdims=True)),
                    lambda s: _rows(s, s.max(), np.exp(s).sum(axis=-1, keepdims=True)),
                    lambda s: _rows(s, _top(s), np.exp(s).sum()))),
        Slip("no exponential", "the scores divided by their total, without eˣ: a negative "
             "score gets a negative weight, and a total of 0 divides by 0.",
             gives=(lambda s: s / s.sum(axis=-1, keepdims=True),
                    lambda s: (d := s - _top(s)) / d.sum(axis=-1, keepdims=True))),
        Slip("not divided by the row's total", "divide each exponential by its row's total, "
             "e.sum(axis=-1, keepdims=True), so that each row adds up to 1.",
             gives=(lambda s: np.exp(s - _top(s)), np.exp,
                    lambda s: np.exp(s - _top(s)) / s.shape[-1])),
        Slip("e^(−x) in place of e^x", "the largest score must get the largest weight: "
             "np.exp(scores − max), without a minus sign in front.",
             gives=(lambda s: _rows(-s, -s.min(axis=-1, keepdims=True)),
                    lambda s: _rows(-s, -_top(s)))),
        Slip("2ˣ in place of eˣ", "softmax takes e ≈ 2.718 to the power of each score: np.exp.",
             gives=lambda s: (t := 2.0 ** (s - _top(s))) / t.sum(axis=-1, keepdims=True)),
        Slip("one-hot: the hard maximum", "softmax is the SOFT maximum: every score gets some "
             "weight, e^x divided by the row's total.",
             gives=(lambda s: (s == _top(s)).astype(float),
                    lambda s: np.eye(s.shape[-1])[s.argmax(axis=-1)])),
        Slip("sigmoid instead of softmax", "1 / (1 + e^(−x)) is the sigmoid, one score on its "
             "own: softmax shares 1 out over the row.", gives=lambda s: 1 / (1 + np.exp(-s))),
        Slip("first row only", "only the first row's weights came back: a `return` inside the "
             "loop over rows, or code for scores[0] alone. Return after the loop.",
             gives=(lambda s: _softmax_rows(s[:1])[0], lambda s: _softmax_rows(s[:1]),
                    _loop(lambda n: range(1), fill=0.0))),
        Slip("last row only", "only the last row's weights came back: each pass of the loop "
             "replaced the result. Store row i in out[i], then return the whole grid.",
             gives=lambda s: _softmax_rows(s[-1:])[0]),
        Slip("last row left out", "the loop stops one row early: range(len(scores)) visits "
             "every row.", gives=(_loop(lambda n: range(n - 1)),
                                  _loop(lambda n: range(n - 1), fill=0.0))),
        Slip("first row left out", "the loop starts at 1: rows are counted from 0, "
             "range(len(scores)).", gives=(_loop(lambda n: range(1, n)),
                                           _loop(lambda n: range(1, n), fill=0.0))),
        Slip("Python's max on a grid", "max(scores) is Python's max, which compares whole rows: "
             "use scores.max(axis=-1, keepdims=True).", gives=lambda s: _rows(s, max(s))),
        Slip("math.exp on an array", "math.exp takes one number; np.exp takes a whole array.",
             raises=(TypeError, "converted to Python scalars"),
             example=lambda s: math.exp(s - _top(s)) / math.exp(s - _top(s)).sum()),
    ],
)

EXERCISES = [WEIGHT_HAND, SLOPE_HAND, SOFTMAX_ROWS]
