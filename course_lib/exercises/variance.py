"""Exercises of notebook 08: a variance by hand, the c² rule by hand, Var(q·k) simulated
against d_k, and the scaled score grid QKᵀ / √d_k."""

import math
from functools import lru_cache

import numpy as np

from .. import softmax
from ._values import frozen_array
from .engine import CodeExercise
from .feedback import Slip
from .hand import HandExercise

__all__ = ["EXERCISES"]


# --- by hand: the variance of four darts ----------------------------------------------------

def _mean(x):
    return sum(x) / len(x)


def _squares(x, centre=None):
    centre = _mean(x) if centre is None else centre
    return sum((v - centre) ** 2 for v in x)


def _var(x):
    return _squares(x) / len(x)


def _distance(x):
    return sum(abs(v - _mean(x)) for v in x) / len(x)


_DARTS = [1, 2, 3, 6]


def _draw_darts(rng):
    while True:
        darts = sorted(int(v) for v in rng.choice(np.arange(-3, 10), size=4, replace=False))
        # a whole-number mean keeps the steps short; a new answer keeps the variant fresh
        if sum(darts) % 4 == 0 and _var(darts) != _var(_DARTS):
            return {"darts": darts}


def _darts(slip, hint, gives):
    return Slip(slip, "{got} " + hint, gives=lambda darts: gives(darts))


DART_VARIANCE = HandExercise(
    "variance by hand", "the variance of the darts {darts}",
    answer=lambda darts: _var(darts), givens={"darts": _DARTS}, draw=_draw_darts,
    tolerance=0.01,
    slips=[
        _darts("forgot the mean", "is the average of the squares x²: square the distances "
               "from the mean x̄ instead.", lambda x: _mean([v * v for v in x])),
        _darts("divided by N − 1", "is the sum of squared distances over N − 1: the "
               "notebook's variance averages over all N darts.",
               lambda x: _squares(x) / (len(x) - 1)),
        _darts("divided by N + 1", "is the sum of squared distances over N + 1: divide by N.",
               lambda x: _squares(x) / (len(x) + 1)),
        _darts("gave the spread", "is the spread √Var: the variance is the number before the "
               "root.", lambda x: _var(x) ** 0.5),
        _darts("forgot to square", "is the average distance |xᵢ − x̄|: average the SQUARED "
               "distances.", _distance),
        _darts("squared the mean distance", "is the average distance squared: square each "
               "distance first, then average.", lambda x: _distance(x) ** 2),
        _darts("signed distances", "is what the signed distances xᵢ − x̄ always add up to: "
               "square each one first.", lambda x: 0.0),
        _darts("forgot to divide", "is the sum of the squared distances: divide it by N.",
               _squares),
        _darts("root of the sum", "is the root of the sum of squared distances (02's length): "
               "divide the sum by N instead; no root.", lambda x: _squares(x) ** 0.5),
        _darts("gave the mean", "is the mean x̄, the first step: go on to the squared "
               "distances from it.", _mean),
        _darts("mean over N − 1", "starts from a mean over N − 1: the mean divides by all "
               "N darts.", lambda x: _squares(x, sum(x) / (len(x) - 1)) / len(x)),
        _darts("forgot to square the mean", "is the mean of the squares minus x̄: subtract "
               "x̄², not x̄.", lambda x: _mean([v * v for v in x]) - _mean(x)),
        _darts("gave the range", "is the largest dart minus the smallest: average the squared "
               "distances from the mean.", lambda x: max(x) - min(x)),
        _darts("squared a minus sign away wrong", "counts the square of a negative distance "
               "as negative: (−2)² = +4.",
               lambda x: _mean([(v - _mean(x)) * abs(v - _mean(x)) for v in x])),
        _darts("left out a dart", "is the variance without the last dart: every dart counts.",
               lambda x: _var(x[:-1])),
    ],
)


# --- by hand: scores of variance d_k divided by d_k ------------------------------------------

def _draw_width(rng):
    while True:
        d_k = int(rng.integers(3, 13)) ** 2  # a square, so that √d_k is a whole number
        if d_k != 16:  # not the notebook's own
            return {"d_k": d_k}


def _width(slip, hint, gives):
    return Slip(slip, "{got} " + hint, gives=lambda d_k: float(gives(d_k)))


OVER_SHRUNK = HandExercise(
    "over-shrunk by hand", "Var(q·k / {d_k}) when Var(q·k) = {d_k}",
    answer=lambda d_k: 1 / d_k, givens={"d_k": 16}, tolerance=0.0005,
    draw=_draw_width,
    slips=[
        _width("divided by c, not c²", "is the variance divided by c = {d_k} once (as ÷ √d_k "
               "gives): scores ÷ c make the variance ÷ c².", lambda d_k: 1),
        _width("gave the spread", "is the spread, the root of the variance: give the number "
               "before the root.", lambda d_k: d_k ** -0.5),
        _width("no scaling", "is the raw scores' variance: now divide every score by {d_k}.",
               lambda d_k: d_k),
        _width("multiplied by c²", "is the variance times c²: scores ÷ c make it ÷ c².",
               lambda d_k: d_k ** 3),
        _width("gave c²", "is c² itself: divide the raw variance {d_k} by it.",
               lambda d_k: d_k ** 2),
        _width("divided by √d_k", "is the variance divided by √d_k: the scores are ÷ c = "
               "{d_k}, so the variance is ÷ c².", lambda d_k: d_k ** 0.5),
        _width("doubled instead of squared", "is the variance divided by 2c: the c² rule "
               "squares c.",
               lambda d_k: 0.5),
        _width("started from variance 1", "starts from variance 1, that of ONE product qᵢkᵢ: "
               "q·k adds d_k of them, variance {d_k}.", lambda d_k: d_k ** -2.0),
    ],
)


# --- code: Var(q·k) simulated ------------------------------------------------------------------

def _dot_variance(d_k, size, seed):
    rng = np.random.default_rng(seed)
    q = rng.standard_normal((size, d_k))  # size queries
    k = rng.standard_normal((size, d_k))  # then size keys
    return float(np.var((q * k).sum(axis=1)))  # one score per pair (row), then Var


_replayed = lru_cache(maxsize=256)(_dot_variance)


@lru_cache(maxsize=64)
def _draws(d_k, size, seed):
    rng = np.random.default_rng(seed)
    return (frozen_array(rng.standard_normal((size, d_k))),
            frozen_array(rng.standard_normal((size, d_k))))


def _replay(form):
    """A slip as a function of the case, on the case's own draws: form(q, k, scores, d_k)."""
    @lru_cache(maxsize=64)
    def gives(d_k, size, seed):
        q, k = _draws(d_k, size, seed)
        return form(q, k, (q * k).sum(axis=1), d_k)
    return gives


@lru_cache(maxsize=256)
def _drawn_by(d_k, size, seed, draw):
    rng = np.random.default_rng(seed)
    if draw == "uniform":
        q, k = rng.random((size, d_k)), rng.random((size, d_k))
    else:  # "one slot": vectors of shape (size,)
        q, k = rng.standard_normal(size), rng.standard_normal(size)
    return float(np.var(q * k if q.ndim == 1 else (q * k).sum(axis=1)))


def _roughly_d_k(outcome):
    """A fair simulation on other draws than the case's: within four standard errors of d_k
    (Var of (q·k)² is 2d_k² + 6d_k) on a case big enough to tell, and a plausible variance on
    the smaller ones (the hidden cases include big ones, so a small case alone never decides)."""
    d_k, size, _ = outcome.case.args
    value = float(outcome.value)
    if not math.isfinite(value) or value <= 0:
        return False
    if size < 1000 or d_k < 3:
        return True
    error = math.sqrt((2 * d_k ** 2 + 6 * d_k) / size)
    # other draws land near d_k, never on it, and are not the replayed answer rounded
    expected = float(outcome.case.expected)
    far = abs(value - d_k) > 1e-9 and all(abs(value - round(expected, digits)) > 1e-12
                                          for digits in range(5))
    return far and abs(value - d_k) <= 4 * error


def _pair_by_pair(d_k, size, seed):
    rng = np.random.default_rng(seed)
    return np.var([rng.standard_normal(d_k) @ rng.standard_normal(d_k) for _ in range(size)])


def _scores(slip, hint, form):
    return Slip(slip, hint, gives=_replay(form))


DOT_VARIANCE = CodeExercise(
    "dot_variance", "dot_variance(d_k, size, seed)",
    cases=[(1, 6, 11), (4, 5, 12), (16, 8, 13), (3, 1500, 14), (16, 2000, 15), (64, 1500, 16),
           (16, 2000, 17)],
    solution=_dot_variance,
    quantities={"d_k": lambda d_k, size, seed: d_k, "size": lambda d_k, size, seed: size},
    slips=[
        _scores("variance of q alone", "that is the variance of q's slots: take the variance "
                "of the scores q·k, one per pair.", lambda q, k, s, d_k: np.var(q)),
        _scores("the mean, not the variance", "that is the scores' mean: return their "
                "variance.", lambda q, k, s, d_k: np.mean(s)),
        _scores("the spread, not the variance", "that is the spread √Var (np.std): return the "
                "variance.", lambda q, k, s, d_k: np.std(s)),
        _scores("divided by N − 1", "that divides by size − 1 (ddof=1): the notebook's "
                "variance, like np.var, divides by N.", lambda q, k, s, d_k: np.var(s, ddof=1)),
        _scores("distances not squared", "that averages |s − s̄|: the variance averages "
                "(s − s̄)².", lambda q, k, s, d_k: np.mean(np.abs(s - s.mean()))),
        _scores("forgot the mean", "that averages s² without subtracting the mean: average "
                "(s − s̄)².", lambda q, k, s, d_k: np.mean(s * s)),
        _scores("used the scaled scores", "that is the variance of q·k / √d_k: this exercise "
                "asks for the raw scores'.", lambda q, k, s, d_k: np.var(s / math.sqrt(d_k))),
        _scores("products not added", "that is the variance of the products qᵢkᵢ: add each "
                "row's products first, (q * k).sum(axis=1).",
                lambda q, k, s, d_k: np.var(q * k)),
        _scores("added down the columns", "the products were added over the pairs (axis 0, "
                "as Python's sum(…) does): add along each row, sum(axis=1).",
                lambda q, k, s, d_k: np.var((q * k).sum(axis=0))),
        _scores("every query with every key", "q @ k.T scores every query against every key: "
                "pair row i of q with row i of k only.", lambda q, k, s, d_k: np.var(q @ k.T)),
        _scores("the same draws for q and k", "two generators from one seed draw the same "
                "numbers, so k = q: draw q, then k, from ONE rng.",
                lambda q, k, s, d_k: np.var((q * q).sum(axis=1))),
        Slip("a matrix product", "q @ k pairs rows with columns: multiply matching rows slot "
             "by slot, then add, (q * k).sum(axis=1).",
             when=lambda o: isinstance(o.error, ValueError)
             and any(w in str(o.error) for w in ("matmul", "aligned")),
             example=lambda d_k, size, seed: np.var(np.dot(*_draws(d_k, size, seed)))),
        Slip("a variance of 0", "numbers with no spread at all: one number only (.sum() adds "
             "everything), or distances s − s̄ left unsquared.",
             when=lambda o: abs(float(o.value)) < 1e-9,
             example=_replay(lambda q, k, s, d_k: np.var((q * k).sum()))),
        Slip("a seed of its own", "the draws ignore `seed`: make the generator from it, "
             "rng = np.random.default_rng(seed).",
             gives=tuple(lambda d_k, size, _, s=s: _replayed(d_k, size, s)
                         for s in (0, 1, 42, 8, 123))),
        Slip("uniform draws", "rng.random draws between 0 and 1: draw rng.standard_normal "
             "(mean 0, variance 1).",
             gives=lambda d_k, size, seed: _drawn_by(d_k, size, seed, "uniform")),
        Slip("one slot per vector", "each q and k has one slot: draw shape (size, d_k).",
             gives=lambda d_k, size, seed: _drawn_by(d_k, size, seed, "one slot")),
        Slip("other draws", "about d_k, as it should be, but not from the draws the checker "
             "replays: rng = np.random.default_rng(seed), then q, then k, each "
             "rng.standard_normal((size, d_k)).", when=_roughly_d_k, example=_pair_by_pair),
    ],
)


# --- code: the scaled score grid QKᵀ / √d_k --------------------------------------------------

def _grids(seed=8):
    rng = np.random.default_rng(seed)
    whole = [  # (query, key): n queries, m keys, d_k slots
        ([[1, 2, 0, 1], [0, 1, 3, -1]], [[2, 0, 1, 1], [1, 1, 1, 1], [-1, 2, 0, 3]]),
        ([[1, 0, 2, 0, 1, 0, 0, 1, 3]], [[2, 1, 1, 0, 0, 1, 2, 0, 1], [0, 3, 1, 1, 2, 0, 1, 1, 0]]),
        ([[2, -1, 1], [1, 1, 0]], [[1, 0, 2], [3, 1, -1], [0, 2, 1]]),  # m = d_k
        ([[1, 2, 0], [0, 1, 3], [2, 0, 1]], [[3, 1, 0], [1, 0, 2], [0, 2, 2]]),  # n = m = d_k
        ([[3], [-2]], [[1], [2], [-1]]),  # d_k = 1: the scale is 1
    ]
    drawn = [(rng.integers(-3, 4, (3, 16)), rng.integers(-3, 4, (5, 16))),
             (rng.standard_normal((4, 25)), rng.standard_normal((2, 25)))]
    return [(frozen_array(q), frozen_array(k)) for q, k in whole + drawn]


def _raw(q, k):
    return q @ k.T  # (n, m)


def _over(divisor):
    return lambda q, k: _raw(q, k) / divisor(q, k)


def _d_k(q, k):
    return q.shape[-1]


_D_K = "d_k = query.shape[-1], the slots of one query or key"

SCALE_SCORES = CodeExercise(
    "scale_scores", "scale_scores(query, key)",
    cases=_grids(), solution=_over(lambda q, k: math.sqrt(_d_k(q, k))),
    show_args=lambda args: "query {}×{}, key {}×{}".format(*args[0].shape, *args[1].shape),
    quantities={"d_k": _d_k, "n": lambda q, k: q.shape[0], "m": lambda q, k: k.shape[0]},
    slips=[
        Slip("missing scale", f"those are the raw scores QKᵀ: divide by √d_k, with {_D_K}.",
             gives=_raw),
        Slip("divided by d_k", "the spread of q·k is √d_k: divide by math.sqrt(d_k); ÷ d_k "
             "over-shrinks the scores.", gives=_over(_d_k)),
        Slip("scaled by the number of keys", f"you divided by √m, m = len(key): {_D_K}.",
             gives=_over(lambda q, k: math.sqrt(len(k)))),
        Slip("scaled by the number of queries", f"you divided by √n, n = len(query): {_D_K}.",
             gives=_over(lambda q, k: math.sqrt(len(q)))),
        Slip("** 1/2 without brackets", "`/ d_k ** 1/2` divides by d_k, then by 2 (** binds "
             "before /): write math.sqrt(d_k).", gives=_over(lambda q, k: _d_k(q, k) * 2)),
        Slip("(d_k ** 1/2) is d_k/2", "`d_k ** 1/2` is (d_k ** 1) / 2 (** binds before /): "
             "write math.sqrt(d_k).", gives=_over(lambda q, k: _d_k(q, k) / 2)),
        Slip("^ for a power", "^ is not a power (it works on the bits of whole numbers): "
             "write math.sqrt(d_k).", gives=_over(lambda q, k: (_d_k(q, k) ^ 1) / 2)),
        Slip("floor division", "`//` rounds every score down to a whole number: divide with /.",
             gives=lambda q, k: _raw(q, k) // math.sqrt(_d_k(q, k))),
        Slip("√d_k rounded to a whole number", "int(math.sqrt(d_k)) cuts √d_k to a whole "
             "number: divide by math.sqrt(d_k).",
             gives=_over(lambda q, k: int(math.sqrt(_d_k(q, k))))),
        Slip("missing transpose", "query @ key meets the COLUMNS of K (it runs only when m = "
             "d_k): query @ key.T pairs rows with rows.",
             gives=lambda q, k: q @ k / math.sqrt(_d_k(q, k))),
        Slip("Q * K.T elementwise", "`*` multiplies matching entries; a score is a sum of "
             "products: query @ key.T.", gives=lambda q, k: q * k.T / math.sqrt(_d_k(q, k))),
        Slip("Qᵀ K", "query.T @ key is a d_k×d_k grid: transpose K, not Q.",
             gives=lambda q, k: q.T @ k / math.sqrt(_d_k(q, k))),
        Slip("the whole shape as d_k", "query.shape is a pair (n, d_k): take its last number, "
             "query.shape[-1].", raises=(TypeError, "tuple"),
             example=lambda q, k: _raw(q, k) / math.sqrt(q.shape)),
        Slip("applied the softmax", "each row adds up to 1: this step stops at QKᵀ / √d_k, "
             "before the softmax.",
             gives=lambda q, k: softmax(_raw(q, k) / math.sqrt(_d_k(q, k)), axis=-1)),
    ],
)

EXERCISES = [DART_VARIANCE, OVER_SHRUNK, DOT_VARIANCE, SCALE_SCORES]
