"""Notebook 08: a variance and the c² rule by hand, Var(q·k) simulated, QKᵀ / √d_k."""

import math
from functools import lru_cache

import numpy as np

from ._values import frozen_array, shapes
from .engine import CodeExercise
from .feedback import NoPrediction, Slip, slip_rows
from .hand import HandExercise


def _hand(slip, hint, gives):
    """A by-hand row; ``gives`` takes the exercise's one given."""
    return (slip, "{got} " + hint, lambda **g: float(gives(*g.values())))


def _mean(x):
    return sum(x) / len(x)


def _squares(x, centre=None):
    centre = _mean(x) if centre is None else centre
    return sum((v - centre) ** 2 for v in x)


def _var(x):
    return _squares(x) / len(x)


def _distance(x):
    return sum(abs(v - _mean(x)) for v in x) / len(x)


def _apart(value, *others):
    """``value``, unless it is within a typed rounding of one of ``others``."""
    if any(abs(value - o) <= 0.011 for o in others):
        raise NoPrediction
    return value


def _from_median(x):
    return _squares(x, sum(sorted(x)[1:3]) / 2) / len(x)  # the middle of four darts


def _xor(x):  # (xᵢ − x̄)^2 typed in Python
    if _mean(x) % 1:
        raise NoPrediction
    return _mean([int(v - _mean(x)) ^ 2 for v in x])


_DARTS = [1, 2, 3, 6]


def _draw_darts(rng):
    while True:  # a whole-number mean keeps the steps short
        darts = sorted(int(v) for v in rng.choice(np.arange(-3, 10), size=4, replace=False))
        if sum(darts) % 4 == 0 and _var(darts) != _var(_DARTS):
            return {"darts": darts}


_DART_VARIANCE_SLIPS = [
    _hand("forgot the mean", "is the mean of the squares x²: square the distances from x̄.",
          lambda x: _mean([v * v for v in x])),
    _hand("divided by N − 1", "divides by N − 1: divide by N.",
          lambda x: _squares(x) / (len(x) - 1)),
    _hand("forgot to square", "is the mean distance |xᵢ − x̄|, or a square taken as negative: "
          "average the SQUARED distances, each ≥ 0.", _distance),
    _hand("squared the mean distance", "is the mean distance squared: square each first.",
          lambda x: _distance(x) ** 2),
    _hand("signed distances", "is what xᵢ − x̄ always add up to: square each first.", lambda x: 0),
    _hand("forgot to divide", "is the sum of the squared distances: divide it by N.", _squares),
    _hand("gave the mean", "is the mean x̄, the first step only.", _mean),
    _hand("mean over N − 1", "uses x̄ = sum / (N − 1): the mean divides by N.",
          lambda x: _squares(x, sum(x) / (len(x) - 1)) / len(x)),
    _hand("forgot to square the mean", "is the mean of the squares minus x̄: subtract x̄².",
          lambda x: _mean([v * v for v in x]) - _mean(x)),
    _hand("the median as the mean", "measures from the median: measure from the mean x̄.",
          lambda x: _apart(_from_median(x), _var(x))),
    _hand("^ for a square", "is what Python's ^ gives: a square is d ** 2.", _xor),
]


def _doubled(darts, j):  # 2|d| for d²: every distance (j = 4), or one 3² as 6 (dart j)
    d = [v - _mean(darts) for v in darts]
    return _apart(_mean([2 * abs(x) if j in (i, 4) and (j == 4 or abs(x) > 2) else x * x
                         for i, x in enumerate(d)]), _var(darts))


DART_VARIANCE = HandExercise(
    "variance by hand", "the variance of the darts {darts}",
    lambda darts: _var(darts), {"darts": _DARTS}, _DART_VARIANCE_SLIPS, draw=_draw_darts,
    twins=[("doubled instead of squared", "{got} doubles a distance d for d² (3² is 9, not 6): "
            "square each.", [lambda darts, j=j: _doubled(darts, j) for j in range(5)])])


def _draw_width(rng):
    while True:
        d_k = int(rng.integers(3, 17)) ** 2  # √d_k whole
        if d_k != 16:  # not the notebook's
            return {"d_k": d_k}


_OVER_SHRUNK_SLIPS = [
    _hand("divided by c, not c²", "divides the variance by c = {d_k} once: ÷ c².", lambda d_k: 1),
    _hand("no scaling", "is the raw variance (or the answer upside down, or `/ c * c`, which "
          "multiplies back): ÷ {d_k}².", lambda d_k: d_k),
    _hand("gave c²", "is c² (or the variance × c): divide the variance {d_k} by c².",
          lambda d_k: d_k ** 2),
    _hand("divided by √d_k", "divides by √d_k: ÷ c², c = {d_k}.", lambda d_k: d_k ** 0.5),
    _hand("multiplied by √d_k", "multiplies by √d_k: ÷ c², c = {d_k}.", lambda d_k: d_k ** 1.5),
    ("doubled instead of squared", "{got} doubles c for c² (÷ 2c, or / c * 2): the rule "
     "squares c.", (lambda d_k: 0.5, lambda d_k: 2)),
    _hand("started from variance 1", "starts from ONE product's variance 1: q·k has {d_k}.",
          lambda d_k: d_k ** -2.0),
]


OVER_SHRUNK = HandExercise(
    "over-shrunk by hand", "Var(q·k / {d_k}) when Var(q·k) = {d_k}",
    lambda d_k: 1 / d_k, {"d_k": 16}, _OVER_SHRUNK_SLIPS, tolerance=0.0005, draw=_draw_width,
    twins=[_hand("one division too many", "divides by {d_k} three times: ÷ c² is two.",
                 lambda d_k: 1 / d_k ** 2),
           _hand("0 for a small variance", "is not what ÷ c² gives (a // is): it shrinks, never "
                 "vanishes.", lambda d_k: 0)])


@lru_cache(maxsize=64)
def _draws(d_k, size, seed):  # q, then k: (size, d_k) each
    rng = np.random.default_rng(seed)
    return tuple(frozen_array(rng.standard_normal((size, d_k))) for _ in "qk")


def _dot_variance(d_k, size, seed):
    q, k = _draws(d_k, size, seed)
    return float(np.var((q * k).sum(axis=1)))  # one score per row


def _replay(form):
    """A slip on the case's own draws: form(q, k, scores)."""
    @lru_cache(maxsize=64)
    def gives(d_k, size, seed):
        q, k = _draws(d_k, size, seed)
        return form(q, k, (q * k).sum(axis=1))
    return gives


@lru_cache(maxsize=64)
def _uniform(d_k, size, seed):
    rng = np.random.default_rng(seed)
    q, k = rng.random((size, d_k)), rng.random((size, d_k))
    return float(np.var((q * k).sum(axis=1)))


def _roughly_d_k(o):
    """Within 4 standard errors of d_k on a big case (Var (q·k)² = 2d_k² + 6d_k), not d_k or the
    answer rounded; any variance on a small one."""
    (d_k, size, _), v, e = o.case.args, float(o.value), float(o.case.expected)
    if not 0 < v < math.inf or size < 1000 or d_k < 3:
        return 0 < v < math.inf
    return (1e-9 < abs(v - d_k) <= 4 * math.sqrt((2 * d_k ** 2 + 6 * d_k) / size)
            and all(abs(v - round(e, n)) > 1e-12 for n in range(5)))


def _pair_by_pair(d_k, size, seed):
    rng = np.random.default_rng(seed)
    return np.var([rng.standard_normal(d_k) @ rng.standard_normal(d_k) for _ in range(size)])


_DOT_VARIANCE_SLIPS = slip_rows([  # forms of (q, k, scores), on the case's own draws
    ("scaled the scores", "that is Var(q·k / √d_k): give the raw scores' variance.",
     lambda q, k, s: np.var(s / math.sqrt(q.shape[1]))),
    ("the mean, not the variance", "that is the scores' mean.", lambda q, k, s: np.mean(s)),
    ("divided by N − 1", "that divides by size − 1 (ddof=1): np.var divides by N.",
     lambda q, k, s: np.var(s, ddof=1)),
    ("forgot the mean", "that averages s²: average (s − s̄)².", lambda q, k, s: np.mean(s * s)),
    ("products not added", "that is the products' variance: add each row first, "
     "(q * k).sum(axis=1).", lambda q, k, s: np.var(q * k)),
    ("added down the columns", "the products were added over the pairs: axis=1.",
     lambda q, k, s: np.var((q * k).sum(axis=0))),
    ("every query with every key", "q @ k.T makes the whole grid: pair row i with row i only.",
     lambda q, k, s: np.var(q @ k.T)),
    ("every query with key 1", "every query met k[0]: pair row i with row i.",
     lambda q, k, s: np.var(q @ k[0])),
    ("the same draws for q and k", "two generators from one seed draw the same numbers: ONE rng.",
     lambda q, k, s: np.var((q * q).sum(axis=1))),
], _replay) + [
    Slip("a variance of 0", "no spread: one number only (.sum() adds everything)?",
         when=lambda o: abs(float(o.value)) < 1e-9,
         example=_replay(lambda q, k, s: np.var((q * k).sum()))),
    ("uniform draws", "rng.random draws between 0 and 1: draw rng.standard_normal.", _uniform),
    Slip("other draws", "close to d_k, but not the checker's draws: one default_rng(seed), then q, "
         "then k, each standard_normal((size, d_k)).", when=_roughly_d_k, example=_pair_by_pair),
]


DOT_VARIANCE = CodeExercise(
    "dot_variance", "dot_variance(d_k, size, seed)",
    [(3, 1500, 14), (16, 2000, 15), (64, 1500, 16), (16, 2000, 17), (1, 6, 11),
     (4, 5, 12), (16, 8, 13)],  # big cases first: a message shows the first wrong case
    _dot_variance, _DOT_VARIANCE_SLIPS,
    quantities={"d_k": lambda *case: case[0], "size": lambda *case: case[1]})


def _grids(seed=8):
    rng = np.random.default_rng(seed)
    whole = [  # (query (n, d_k), key (m, d_k))
        ([[1, 2, 0, 1], [0, 1, 3, -1]], [[2, 0, 1, 1], [1, 1, 1, 1], [-1, 2, 0, 3]]),
        ([[1, 0, 2, 0, 1, 0, 0, 1, 3]], [[2, 1, 1, 0, 0, 1, 2, 0, 1], [0, 3, 1, 1, 2, 0, 1, 1, 0]]),
        ([[2, -1, 1], [1, 1, 0]], [[1, 0, 2], [3, 1, -1], [0, 2, 1]]),  # m = d_k
        ([[1, 2, 0], [0, 1, 3], [2, 0, 1]], [[3, 1, 0], [1, 0, 2], [0, 2, 2]]),  # n = m = d_k
        ([[3], [-2]], [[1], [2], [-1]]),  # d_k = 1: the scale is 1
    ]
    drawn = [(rng.integers(-3, 4, (3, 16)), rng.integers(-3, 4, (5, 16))),
             (rng.standard_normal((4, 25)), rng.standard_normal((2, 25)))]
    return [(frozen_array(q), frozen_array(k)) for q, k in whole + drawn]


def _d_k(q, k):
    return q.shape[-1]


def _over(divisor):  # the scores q @ k.T, (n, m), over divisor(q, k)
    return lambda q, k: q @ k.T / divisor(q, k)


def _root(q, k):
    return math.sqrt(_d_k(q, k))


_D_K = "d_k = query.shape[-1]"

_SCALE_SCORES_SLIPS = slip_rows([  # forms: the divisor of q @ k.T
    ("divided by d_k, not √d_k", f"the scale is √d_k: math.sqrt(d_k), {_D_K}.", _d_k),
    ("d_k as query.size", f"query.size counts all n × d_k numbers: {_D_K}.",
     lambda q, k: math.sqrt(q.size)),
    ("scaled by the number of keys", f"you divided by √m, m = len(key): {_D_K}.",
     lambda q, k: math.sqrt(len(k))),
    ("scaled by the number of queries", f"you divided by √n, n = len(query): {_D_K}.",
     lambda q, k: math.sqrt(len(q))),
    ("** 1/2 without brackets", "`/ d_k ** 1/2` divides by d_k, then by 2: math.sqrt(d_k).",
     lambda q, k: _d_k(q, k) * 2),
    ("(d_k ** 1/2) is d_k/2", "`d_k ** 1/2` is d_k / 2: math.sqrt(d_k).",
     lambda q, k: _d_k(q, k) / 2),
    ("^ for a power", "^ is not a power: write math.sqrt(d_k).", lambda q, k: (_d_k(q, k) ^ 1) / 2),
    ("the root taken twice", "that divides by √√d_k: take the root once.",
     lambda q, k: math.sqrt(_root(q, k))),
    ("√(d_k + 1)", "that divides by √(d_k + 1): the scale is √d_k.",
     lambda q, k: math.sqrt(_d_k(q, k) + 1)),
], _over) + [
    ("Q * K.T elementwise", "`*` multiplies matching entries: query @ key.T.",
     lambda q, k: q * k.T / _root(q, k)),
    ("Qᵀ K", "query.T @ key is a d_k×d_k grid: transpose K, not Q.",
     lambda q, k: q.T @ k / _root(q, k)),
]

SCALE_SCORES = CodeExercise(
    "scale_scores", "scale_scores(query, key)",
    _grids(), _over(_root), _SCALE_SCORES_SLIPS, show_args=shapes(("query", "key")),
    quantities={"d_k": _d_k, "n": lambda q, k: q.shape[0], "m": lambda q, k: k.shape[0]})

EXERCISES = [DART_VARIANCE, OVER_SHRUNK, DOT_VARIANCE, SCALE_SCORES]
