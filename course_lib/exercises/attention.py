"""Exercises of notebook 09: one row of the weights A and one row of the output AV by hand, and
attention(query, key, value) = softmax(QKᵀ / √d_k) V in code (notebook 10's capstone checks
its own attention with the same table)."""

import math

import numpy as np

from ._values import frozen_array
from .engine import CodeExercise
from .feedback import NoPrediction, Slip
from .hand import HandExercise

__all__ = ["ATTENTION", "CASES", "EXERCISES", "OUTPUT_HAND", "QUANTITIES", "SLIPS",
           "WEIGHTS_HAND", "attention_solution", "show_shapes"]


def _softmax(x, axis=-1):
    e = np.exp(x - x.max(axis=axis, keepdims=True))  # the largest entry becomes e⁰ = 1
    return e / e.sum(axis=axis, keepdims=True)


def _scores(q, k, divide_by=None):
    return q @ k.T / (math.sqrt(q.shape[-1]) if divide_by is None else divide_by)  # (n, m)


def attention_solution(query, key, value):
    """softmax(QKᵀ / √d_k) V, the answer every hidden case is compared with."""
    return _softmax(_scores(query, key)) @ value  # (n, d_v)


def _exp(s):
    with np.errstate(over="ignore", invalid="ignore"):
        return np.exp(s)


def _naive(q, k, v):  # np.exp of the scores themselves: e^1800 is inf, inf / inf is nan
    e = _exp(_scores(q, k))
    with np.errstate(invalid="ignore"):
        return e / e.sum(axis=-1, keepdims=True) @ v


def _naive_loops(q, k, v):  # math.exp raises OverflowError past e^709
    return [[sum(math.exp(s) * v[j][c] for j, s in enumerate(row))
             / sum(math.exp(s) for s in row) for c in range(v.shape[1])]
            for row in _scores(q, k).tolist()]


def _grid_max(q, k, v):  # one max for the whole grid: a row far below it gives 0 / 0
    e = _exp(_scores(q, k) - _scores(q, k).max())
    with np.errstate(invalid="ignore"):
        return e / e.sum(axis=-1, keepdims=True) @ v


def _by_row_max(q, k, v):  # the scores divided by their row max instead of shifted by it
    s = _scores(q, k)
    with np.errstate(all="ignore"):
        e = np.exp(s / s.max(axis=-1, keepdims=True))
        return e / e.sum(axis=-1, keepdims=True) @ v


def _first_row(q, k, v):
    if q.shape[0] < 2:
        raise NoPrediction
    return attention_solution(q, k, v)[:1]


def show_shapes(args):
    """How a case is written in the feedback: the three shapes, not the numbers."""
    return ", ".join(f"{name} of shape {a.shape[0]}×{a.shape[1]}"
                     for name, a in zip(("query", "key", "value"), args, strict=True))


_RNG = np.random.default_rng(9)
CASES = [tuple(frozen_array(a) for a in case) for case in (
    # notebook 09's tiny example: n = 2, m = 3, d_k = 4, d_v = 2
    ([[1, 0, 1, 0], [0, 2, 0, 0]], [[1, 0, 1, 0], [0, 1, 0, 1], [2, 1, 2, 1]],
     [[2, 0], [0, 2], [4, 4]]),
    # m = d_k = d_v: query @ key (no transpose) and weights @ value.T run here
    ([[2.0, -1.5, 1.0], [0.5, 1.0, 0.0]], [[1.0, 0.0, 2.5], [3.0, 1.0, -1.0], [0.0, 2.0, 1.5]],
     [[1.5, 0.0, 1.0], [0.0, 1.0, -0.5], [2.0, 2.5, 0.0]]),
    # n = m = d_k ≠ d_v: K Qᵀ, Q * Kᵀ and a missing keepdims all run here
    ([[1.0, 2.0, 0.0], [0.0, 1.5, 3.0], [2.0, 0.0, 1.0]],
     [[3.0, 1.0, 0.0], [1.0, 0.5, 2.0], [0.0, 2.0, 2.0]],
     [[1.0, 0.0, 2.0, 1.0], [0.0, 3.0, 1.5, 0.0], [2.0, 1.0, 0.0, 3.0]]),
    ([[1.0, 2.0]], [[2.0, 0.0], [0.0, 1.0]], [[10.0], [20.0]]),
    (_RNG.standard_normal((4, 8)), _RNG.standard_normal((5, 8)), _RNG.standard_normal((5, 3))),
    (_RNG.standard_normal((3, 16)), _RNG.standard_normal((6, 16)),
     _RNG.standard_normal((6, 2))),
    # scores near 1800: e^1800 overflows unless each row's max is subtracted first
    ([[30, 30, 30, 30]], [[30, 30, 30, 30], [-30, 30, 30, 30], [29, 30, 30, 30]],
     [[1, 0], [0, 1], [3, 3]]),
    # one row near +800, the other near −800: one max for the whole grid leaves 0 / 0
    ([[20, 20, 20, 20], [-20, -20, -20, -20]],
     [[20, 20, 20, 20], [19.5, 20, 20, 20], [20, 20, 19.5, 20]], [[1.5, 0], [0, 2.5], [1, 1]]),
)]

QUANTITIES = {"d_k": lambda q, k, v: q.shape[-1], "n": lambda q, k, v: q.shape[0],
              "m": lambda q, k, v: k.shape[0], "d_v": lambda q, k, v: v.shape[-1]}

_ROOT = "divide by math.sqrt(d_k), with d_k = query.shape[-1], the slots of a query or a key."

SLIPS = [
    Slip("no scaling", "the scores went into the softmax as they are: " + _ROOT,
         gives=lambda q, k, v: _softmax(q @ k.T) @ v),
    Slip("divided by d_k", "you divided the scores by d_k = {d_k}; their spread is √d_k, so "
         "divide by math.sqrt(d_k).", gives=lambda q, k, v: _softmax(_scores(q, k, q.shape[-1]))
         @ v),
    Slip("** 1/2 without brackets", "`d_k ** 1/2` is (d_k ** 1) / 2, because ** comes before "
         "/: write d_k ** 0.5 or math.sqrt(d_k).",
         gives=(lambda q, k, v: _softmax(_scores(q, k, 2 * q.shape[-1])) @ v,
                lambda q, k, v: _softmax(_scores(q, k, q.shape[-1] / 2)) @ v)),
    Slip("^ for a power", "in Python `^` is not a power: `d_k ^ 1/2` is (d_k XOR 1) / 2. "
         "Write math.sqrt(d_k) or d_k ** 0.5.",
         gives=lambda q, k, v: _softmax(_scores(q, k, (q.shape[-1] ^ 1) / 2)) @ v),
    Slip("divided by d_k²", "you divided the scores by d_k² = d_k × d_k: divide by √d_k, "
         "math.sqrt(d_k).", gives=lambda q, k, v: _softmax(_scores(q, k, q.shape[-1] ** 2)) @ v),
    Slip("multiplied by √d_k", "the scores were multiplied by √d_k: divide them by it.",
         gives=lambda q, k, v: _softmax(q @ k.T * math.sqrt(q.shape[-1])) @ v),
    Slip("√d_v for √d_k", "you divided by √d_v (d_v = value.shape[-1] = {d_v}, the width of "
         "a value): " + _ROOT,
         gives=lambda q, k, v: _softmax(_scores(q, k, math.sqrt(v.shape[-1]))) @ v),
    Slip("√m for √d_k", "you divided by √m (m = key.shape[0] = {m}, the number of keys): "
         + _ROOT, gives=lambda q, k, v: _softmax(_scores(q, k, math.sqrt(k.shape[0]))) @ v),
    Slip("√n for √d_k", "you divided by √n (n = len(query) = {n}, the number of queries): "
         + _ROOT, gives=lambda q, k, v: _softmax(_scores(q, k, math.sqrt(q.shape[0]))) @ v),
    Slip("scaled after the softmax", "the weights were divided by √d_k after the softmax, so a "
         "row adds up to 1/√d_k: divide the scores, before the softmax.",
         gives=lambda q, k, v: _softmax(q @ k.T) / math.sqrt(q.shape[-1]) @ v),
    Slip("scaled twice", "the scores were divided by √d_k, and then the weights or the output "
         "once more: scale once, before the softmax.",
         gives=lambda q, k, v: attention_solution(q, k, v) / math.sqrt(q.shape[-1])),
    Slip("softmax down the columns", "each KEY's column of weights adds up to 1: take the max "
         "and the total along each row (axis=-1), so that each query's weights add up to 1.",
         gives=lambda q, k, v: _softmax(_scores(q, k), axis=0) @ v),
    Slip("the total down the columns", "the row maxima are right, but each weight was divided "
         "by its COLUMN's total, sum(axis=0): use each row's, sum(axis=-1, keepdims=True).",
         gives=lambda q, k, v: (lambda e: e / e.sum(axis=0, keepdims=True))(
             np.exp(_scores(q, k) - _scores(q, k).max(axis=-1, keepdims=True))) @ v),
    Slip("max down the columns", "each COLUMN's max was subtracted, max(axis=0); the stable "
         "softmax subtracts one number per row: scores.max(axis=-1, keepdims=True).",
         gives=lambda q, k, v: (lambda e: e / e.sum(axis=-1, keepdims=True))(
             np.exp(_scores(q, k) - _scores(q, k).max(axis=0))) @ v),
    Slip("max without keepdims", "`scores.max(axis=-1)` is a flat list of n maxima, and "
         "subtracting it lines them up with the COLUMNS (it only runs when n = m): write "
         "scores.max(axis=-1, keepdims=True).",
         gives=lambda q, k, v: (lambda e: e / e.sum(axis=-1, keepdims=True))(
             np.exp(_scores(q, k) - _scores(q, k).max(axis=-1))) @ v),
    Slip("sum without keepdims", "`e.sum(axis=-1)` is a flat list of n totals, and dividing by "
         "it lines them up with the COLUMNS (it only runs when n = m): write "
         "e.sum(axis=-1, keepdims=True).",
         gives=lambda q, k, v: (lambda e: e / e.sum(axis=-1))(
             np.exp(_scores(q, k) - _scores(q, k).max(axis=-1, keepdims=True))) @ v),
    Slip("not normalised", "the exponentials were used as weights as they are: divide each row "
         "by its total, so that it adds up to 1.",
         gives=(lambda q, k, v: np.exp(_scores(q, k) - _scores(q, k).max(axis=-1,
                                                                          keepdims=True)) @ v,
                lambda q, k, v: _exp(_scores(q, k)) @ v)),
    Slip("normalised over the whole grid", "all n·m weights together add up to 1 (a sum with "
         "no axis): divide each row by its own total, sum(axis=-1, keepdims=True).",
         gives=(lambda q, k, v: (lambda e: e / e.sum())(
             np.exp(_scores(q, k) - _scores(q, k).max())) @ v,
                lambda q, k, v: (lambda e: e / e.sum())(
             np.exp(_scores(q, k) - _scores(q, k).max(axis=-1, keepdims=True))) @ v)),
    Slip("one max for the whole grid", "scores.max() is one number for the whole grid: a row "
         "far below it turns into 0 / 0 = nan. Subtract each row's own max, "
         "scores.max(axis=-1, keepdims=True).", gives=_grid_max),
    Slip("softmax overflows", "e^x passes the largest float near x = 709, so a large score "
         "gives inf, and inf / inf is nan: subtract each row's max before np.exp, as in 07.",
         gives=(_naive, _naive_loops)),
    Slip("divided by the row max", "the scores were divided by their row max; the stable "
         "softmax SUBTRACTS it: scores - scores.max(axis=-1, keepdims=True).", gives=_by_row_max),
    Slip("no softmax", "the scores were used as the weights: take the softmax of each row "
         "first, so the weights are positive and add up to 1.",
         gives=(lambda q, k, v: _scores(q, k) @ v, lambda q, k, v: (q @ k.T) @ v)),
    Slip("returned the weights", "that is the weight grid A (n × m): one step is left, the "
         "blend of the values, weights @ value.", gives=lambda q, k, v: _softmax(_scores(q, k))),
    Slip("weights applied to K", "you blended the KEYS (weights @ key): keys are for matching; "
         "the content is in the values, weights @ value.",
         gives=lambda q, k, v: _softmax(_scores(q, k)) @ k),
    Slip("transposed the weights", "weights.T has one row per KEY: output row i needs row i "
         "of A, one row per query, weights @ value.",
         gives=lambda q, k, v: _softmax(_scores(q, k)).T @ v),
    Slip("value transposed", "value.T has the value slots as rows: blend the value rows "
         "themselves, weights @ value (m × d_v).",
         gives=lambda q, k, v: _softmax(_scores(q, k)) @ v.T),
    Slip("blended the queries", "you blended the QUERIES: the weights say how much of each "
         "key's VALUE to take, weights @ value.",
         gives=lambda q, k, v: _softmax(_scores(q, k)) @ q),
    Slip("* for @ in the blend", "`weights * value` multiplies matching entries; the blend "
         "adds weight × value row over the keys, the matrix product weights @ value.",
         gives=lambda q, k, v: _softmax(_scores(q, k)) * v),
    Slip("value @ weights", "value @ weights is the product the wrong way round: output row i "
         "blends the value rows with row i of A, weights @ value (n × m times m × d_v).",
         gives=lambda q, k, v: v @ _softmax(_scores(q, k))),
    Slip("no transpose", "query @ key pairs each query with the COLUMNS of K (it only runs when "
         "m = d_k): transpose K, query @ key.T.",
         gives=lambda q, k, v: _softmax(q @ k / math.sqrt(q.shape[-1])) @ v),
    Slip("K Qᵀ", "key @ query.T is the m × n grid, one row per KEY: the scores are "
         "query @ key.T, one row per query.",
         gives=lambda q, k, v: _softmax(k @ q.T / math.sqrt(q.shape[-1])) @ v),
    Slip("* for @", "`*` multiplies matching entries; a score is a dot product, the matrix "
         "product query @ key.T.",
         gives=lambda q, k, v: _softmax(q * k.T / math.sqrt(q.shape[-1])) @ v),
    Slip("summed over the value's slots", "your output has one number per (query, key) pair: "
         "the blend must add over the keys j, Σⱼ A_ij 𝐯ⱼ, which weights @ value computes.",
         gives=lambda q, k, v: _softmax(_scores(q, k)) * v.sum(axis=-1)),
    Slip("return inside the loop", "only the first query's row came back: the `return` sits "
         "inside the loop over the queries. Collect every row, return after the loop.",
         gives=(_first_row, lambda q, k, v: _first_row(q, k, v)[0])),
]

ATTENTION = CodeExercise(
    "attention", "attention(query, key, value)", CASES, attention_solution, SLIPS,
    quantities=QUANTITIES, rtol=1e-7, show_args=show_shapes)


# --- by hand: query 1 of the tiny example -----------------------------------------------------

def _row_scores(Q, K, row=0):
    return np.asarray(K, float) @ np.asarray(Q, float)[row]  # (m,): 𝐪 · 𝐤ⱼ for every key


def _root(Q):
    return math.sqrt(len(Q[0]))


def _weights(Q, K, row=0, divide_by=None):
    e = np.exp(_row_scores(Q, K, row) / (_root(Q) if divide_by is None else divide_by))
    return e / e.sum()


def _no_exp(Q, K):
    s = _row_scores(Q, K) / _root(Q)
    if s.sum() <= 0 or np.any(s < 0):
        raise NoPrediction
    return s / s.sum()


def _e0_as_0(Q, K):
    s = _row_scores(Q, K) / _root(Q)
    if not np.any(s == 0) or np.all(s == 0):
        raise NoPrediction
    e = np.where(s == 0, 0.0, np.exp(s))
    return e / e.sum()


def _columns(Q, K):
    e = np.exp(np.asarray(Q, float) @ np.asarray(K, float).T / _root(Q))  # (n, m)
    return (e / e.sum(axis=0))[0]


WEIGHT_SLIPS = [
    Slip("no scaling", "{got} is the softmax of the scores themselves: divide them by √d_k "
         "first.", gives=lambda Q, K: _weights(Q, K, divide_by=1.0)),
    Slip("divided by d_k", "{got} divides the scores by d_k; divide by √d_k.",
         gives=lambda Q, K: _weights(Q, K, divide_by=len(Q[0]))),
    Slip("divided by d_k²", "you divided the scores by d_k² = d_k × d_k: divide by √d_k, "
         "math.sqrt(d_k).", gives=lambda q, k, v: _softmax(_scores(q, k, q.shape[-1] ** 2)) @ v),
    Slip("multiplied by √d_k", "{got} multiplies the scores by √d_k: divide by it.",
         gives=lambda Q, K: _weights(Q, K, divide_by=1 / _root(Q))),
    Slip("the scaled scores", "{got} are the scaled scores themselves: the weights are their "
         "softmax, each eˣ divided by the total.",
         gives=lambda Q, K: _row_scores(Q, K) / _root(Q)),
    Slip("the scores", "{got} are the scores 𝐪₁ · 𝐤ⱼ: divide by √d_k, then take the softmax.",
         gives=_row_scores),
    Slip("no exponential", "{got} divides the scaled scores by their total, without eˣ: "
         "softmax takes e to the power of each score first.", gives=_no_exp),
    Slip("e⁰ taken as 0", "{got} takes e⁰ as 0; e⁰ = 1, so a score of 0 still gets weight.",
         gives=_e0_as_0),
    Slip("not normalised", "{got} are the eˣ themselves: divide each by their total, so the "
         "row adds up to 1.", gives=lambda Q, K: np.exp(_row_scores(Q, K) / _root(Q))),
    Slip("row 2 instead of row 1", "{got} are the weights of query 2: row 1 belongs to 𝐪₁, the "
         "first row of Q.", gives=lambda Q, K: _weights(Q, K, row=1)),
    Slip("softmax down the columns", "{got} makes each COLUMN add up to 1 (over the two "
         "queries): the softmax runs along query 1's row of three scores.", gives=_columns),
    Slip("equal weights", "{got} gives every key the same weight, as if the scores were equal: "
         "work out the three scores first.", gives=lambda Q, K: np.full(len(K), 1 / len(K))),
]


def _draw_qk(rng):
    """Two queries and three keys with 0, 1, 2 in their slots, whose scores are 0, 2, 4 or 6
    (so that ÷ √4 gives whole numbers) and query 1's three scores all differ."""
    while True:
        Q, K = rng.integers(0, 3, size=(2, 4)), rng.integers(0, 3, size=(3, 4))
        S = Q @ K.T
        if np.all(S % 2 == 0) and S.max() <= 6 and len(set(S[0].tolist())) == 3:
            return {"Q": Q.tolist(), "K": K.tolist()}


_Q = [[1, 0, 1, 0], [0, 2, 0, 0]]
_K = [[1, 0, 1, 0], [0, 1, 0, 1], [2, 1, 2, 1]]
_V = [[2, 0], [0, 2], [4, 4]]

WEIGHTS_HAND = HandExercise(
    "weights by hand", "row 1 of A = softmax(QKᵀ/√d_k) for Q = {Q}, K = {K}",
    answer=_weights, givens={"Q": _Q, "K": _K}, slips=WEIGHT_SLIPS, draw=_draw_qk,
    tolerance=0.005)


def _blend(weights, V):
    return np.asarray(weights, float) @ np.asarray(V, float)  # (d_v,): Σⱼ wⱼ 𝐯ⱼ


def _best_value(Q, K, V):
    s = _row_scores(Q, K)
    if np.sum(s == s.max()) > 1:
        raise NoPrediction
    return np.asarray(V, float)[int(np.argmax(s))]


OUTPUT_SLIPS = [
    Slip("no scaling", "{got} blends the values with the softmax of the scores themselves: "
         "divide the scores by √d_k first.",
         gives=lambda Q, K, V: _blend(_weights(Q, K, divide_by=1.0), V)),
    Slip("divided by d_k", "{got} blends with the weights of the scores ÷ d_k; divide by √d_k.",
         gives=lambda Q, K, V: _blend(_weights(Q, K, divide_by=len(Q[0])), V)),
    Slip("the scaled scores as weights", "{got} blends the values with the scaled scores: "
         "their softmax is the weights.",
         gives=lambda Q, K, V: _blend(_row_scores(Q, K) / _root(Q), V)),
    Slip("not normalised", "{got} blends with the eˣ themselves: divide them by their total "
         "first, so the weights add up to 1.",
         gives=lambda Q, K, V: _blend(np.exp(_row_scores(Q, K) / _root(Q)), V)),
    Slip("no exponential", "{got} blends with the scaled scores divided by their total, "
         "without eˣ: use the softmax weights.", gives=lambda Q, K, V: _blend(_no_exp(Q, K), V)),
    Slip("e⁰ taken as 0", "{got} blends with weights that take e⁰ as 0; e⁰ = 1.",
         gives=lambda Q, K, V: _blend(_e0_as_0(Q, K), V)),
    Slip("row 2 instead of row 1", "{got} is the output of query 2: row 1 uses query 1's "
         "weights.", gives=lambda Q, K, V: _blend(_weights(Q, K, row=1), V)),
    Slip("equal weights", "{got} is the plain average of the values, as if every weight were "
         "1/m: use query 1's weights.", gives=lambda Q, K, V: np.mean(np.asarray(V, float), 0)),
    Slip("added the values", "{got} is 𝐯₁ + 𝐯₂ + 𝐯₃ without weights: multiply each value by "
         "its weight first.", gives=lambda Q, K, V: np.sum(np.asarray(V, float), axis=0)),
    Slip("only the best match", "{got} is the value of the best-matching key alone: every key "
         "gets some weight, so every value counts.", gives=_best_value),
]


def _draw_qkv(rng):
    return {**_draw_qk(rng), "V": rng.integers(-2, 5, size=(3, 2)).tolist()}


OUTPUT_HAND = HandExercise(
    "output by hand", "output row 1 of softmax(QKᵀ/√d_k) V for Q = {Q}, K = {K}, V = {V}",
    answer=lambda Q, K, V: _blend(_weights(Q, K), V), givens={"Q": _Q, "K": _K, "V": _V},
    slips=OUTPUT_SLIPS, draw=_draw_qkv, tolerance=0.01)

EXERCISES = [WEIGHTS_HAND, OUTPUT_HAND, ATTENTION]
