"""Notebook 09: row 1 of A and of AV by hand, and attention(query, key, value) (also 10's)."""

import math

import numpy as np

from .. import softmax as _softmax
from ._values import frozen_array, shapes
from .engine import CodeExercise
from .feedback import NoPrediction, slip_rows
from .hand import HandExercise


def _scores(q, k, by=None):
    return q @ k.T / (math.sqrt(q.shape[-1]) if by is None else by)  # (n, m)


def attention_solution(query, key, value):
    """softmax(QKᵀ / √d_k) V."""
    return _softmax(_scores(query, key)) @ value  # (n, d_v)


def _divided(by):  # ÷ by(d_k), not √d_k
    return lambda q, k, v: _softmax(_scores(q, k, by(q.shape[-1]))) @ v


def _sized(size):  # ÷ √size(q, k, v), not √d_k
    return lambda q, k, v: _softmax(_scores(q, k, math.sqrt(size(q, k, v)))) @ v


def _rows(e):
    return e.sum(axis=-1, keepdims=True)


def _row_max(s):
    return s.max(axis=-1, keepdims=True)


def _no_shift(s):
    return 0.0


def _shifted(shift, total=_rows, exp=np.exp):
    def attention(q, k, v):
        s = _scores(q, k)
        with np.errstate(all="ignore"):
            e = exp(s - shift(s))
            return e / total(e) @ v
    return attention


def _then(f):  # f(A, q, k, v) in place of A @ V
    return lambda q, k, v: f(_softmax(_scores(q, k)), q, k, v)


def _naive_loops(q, k, v):  # math.exp raises OverflowError past e^709
    return [[sum(math.exp(s) * v[j][c] for j, s in enumerate(row))
             / sum(math.exp(s) for s in row) for c in range(v.shape[1])]
            for row in _scores(q, k).tolist()]


_RNG = np.random.default_rng(9)
CASES = [tuple(frozen_array(a) for a in case) for case in (
    # notebook 09's example: n = 2, m = 3, d_k = 4, d_v = 2
    ([[1, 0, 1, 0], [0, 2, 0, 0]], [[1, 0, 1, 0], [0, 1, 0, 1], [2, 1, 2, 1]],
     [[2, 0], [0, 2], [4, 4]]),
    # m = d_k = d_v: query @ key and weights @ value.T run here
    ([[2.0, -1.5, 1.0], [0.5, 1.0, 0.0]], [[1.0, 0.0, 2.5], [3.0, 1.0, -1.0], [0.0, 2.0, 1.5]],
     [[1.5, 0.0, 1.0], [0.0, 1.0, -0.5], [2.0, 2.5, 0.0]]),
    # n = m = d_k ≠ d_v: K Qᵀ, Q * Kᵀ and no keepdims run here
    ([[1.0, 2.0, 0.0], [0.0, 1.5, 3.0], [2.0, 0.0, 1.0]],
     [[3.0, 1.0, 0.0], [1.0, 0.5, 2.0], [0.0, 2.0, 2.0]],
     [[1.0, 0.0, 2.0, 1.0], [0.0, 3.0, 1.5, 0.0], [2.0, 1.0, 0.0, 3.0]]),
    ([[1.0, 2.0]], [[2.0, 0.0], [0.0, 1.0]], [[10.0], [20.0]]),
    (_RNG.standard_normal((4, 8)), _RNG.standard_normal((5, 8)), _RNG.standard_normal((5, 3))),
    (_RNG.standard_normal((3, 16)), _RNG.standard_normal((6, 16)), _RNG.standard_normal((6, 2))),
    # scores near 1800: e^1800 overflows without the row max subtracted
    ([[30, 30, 30, 30]], [[30, 30, 30, 30], [-30, 30, 30, 30], [29, 30, 30, 30]],
     [[1, 0], [0, 1], [3, 3]]),
    # rows near +800 and −800: one max for the grid leaves 0 / 0
    ([[20, 20, 20, 20], [-20, -20, -20, -20]],
     [[20, 20, 20, 20], [19.5, 20, 20, 20], [20, 20, 19.5, 20]], [[1.5, 0], [0, 2.5], [1, 1]]),
)]

QUANTITIES = {"d_k": lambda q, k, v: q.shape[-1], "n": lambda q, k, v: q.shape[0],
              "m": lambda q, k, v: k.shape[0], "d_v": lambda q, k, v: v.shape[-1]}

_ROOT = "divide by math.sqrt(d_k), d_k = query.shape[-1]."
_BLEND = "weights @ value."

SLIPS = slip_rows([
    ("no scaling", "the scores went into the softmax as they are: " + _ROOT,
     _divided(lambda d: 1.0)),
    ("divided by d_k", "the divisor was d_k = {d_k} itself; " + _ROOT, _divided(lambda d: d)),
    ("÷ d_k and ÷ √d_k", "divide once: " + _ROOT, _divided(lambda d: d ** 1.5)),
    ("divided by d_k²", "the divisor was d_k × d_k; " + _ROOT, _divided(lambda d: d ** 2)),
    ("d_k / 2 or 2·d_k for √d_k", "`d_k ** 1/2` is d_k / 2, so `/ d_k ** 1/2` divides by 2·d_k (** "
     "before /): " + _ROOT,
     (_divided(lambda d: 2 * d), _divided(lambda d: d / 2))),
    ("^ for a power", "`^` is XOR in Python (4 ^ 2 is 6): " + _ROOT,
     (_divided(lambda d: (d ^ 1) / 2), _divided(lambda d: d ^ 2))),
    ("divided by 2", "√d_k is 2 only when d_k = 4 (here {d_k}): " + _ROOT, _divided(lambda d: 2.0)),
    ("√(n·d_k) for √d_k", "query.size counts all n × d_k numbers: " + _ROOT,
     _sized(lambda q, k, v: q.size)),
    ("multiplied by √d_k", "divide the scores by √d_k.", _divided(lambda d: d ** -0.5)),
    *((f"√{size} for √d_k", f"{size} = {{{size}}} is {what}: " + _ROOT, _sized(QUANTITIES[size]))
      for size, what in (("n", "the number of queries"), ("m", "the number of keys"),
                         ("d_v", "a value's length"))),
    ("scaled after the softmax", "a row adds up to 1/√d_k: scale the scores, before it.",
     lambda q, k, v: _softmax(q @ k.T) / math.sqrt(q.shape[-1]) @ v),
    ("softmax down the columns", "each KEY's column adds up to 1: work along each row, "
     "axis=-1.", lambda q, k, v: _softmax(_scores(q, k), axis=0) @ v),
    ("the total down the columns", "divide by each row's total, sum(axis=-1, "
     "keepdims=True).", _shifted(_row_max, lambda e: e.sum(axis=0, keepdims=True))),
    ("max down the columns", "subtract each ROW's max, max(axis=-1, keepdims=True).",
     _shifted(lambda s: s.max(axis=0))),
    ("not normalised", "divide each row by its total.",
     (_shifted(_row_max, lambda e: 1.0), _shifted(_no_shift, lambda e: 1.0))),
    ("normalised over the whole grid", "all n·m weights add up to 1: divide each row by "
     "its total.", (_shifted(np.max, np.sum), _shifted(_row_max, np.sum))),
    ("a shift that is not the row's largest", "subtract the row's LARGEST score.",
     _shifted(lambda s: s.min(axis=-1, keepdims=True))),
    ("one max for the whole grid", "a row far below scores.max() becomes 0 / 0: subtract each "
     "row's max.", _shifted(np.max)),
    ("softmax overflows", "e^x overflows past x ≈ 709: subtract each row's max first.",
     (_shifted(_no_shift), _naive_loops)),
    ("no exponential", "each weight is e^s over the row's total of e^s, not s over Σ s.",
     tuple(_shifted(shift, exp=lambda s: s) for shift in (_no_shift, _row_max))),
    ("no softmax", "the scores were used as weights: take each row's softmax.",
     (lambda q, k, v: _scores(q, k) @ v, lambda q, k, v: (q @ k.T) @ v)),
    ("returned the weights", "that is A (n × m): blend the values with it, " + _BLEND,
     _then(lambda a, q, k, v: a)),
    ("weights applied to K", "the content is in the values: " + _BLEND,
     _then(lambda a, q, k, v: a @ k)),
    ("the keys still in the blend", "keys are for the scores only: " + _BLEND,
     (_then(lambda a, q, k, v: a @ k @ v), _then(lambda a, q, k, v: a @ k.T))),
    ("blended the queries", "the weights take from each VALUE: " + _BLEND,
     _then(lambda a, q, k, v: a @ q)),
    ("transposed the weights", "weights.T has one row per KEY: " + _BLEND,
     _then(lambda a, q, k, v: a.T @ v)),
    ("value transposed", "blend the value rows: " + _BLEND, _then(lambda a, q, k, v: a @ v.T)),
    ("value @ weights", "the wrong way round: " + _BLEND, _then(lambda a, q, k, v: v @ a)),
    ("* for @ in the blend", "`*` multiplies matching entries: " + _BLEND,
     _then(lambda a, q, k, v: a * v)),
    ("only the last key's term", "`out[i] = …` in a loop keeps key m − 1's term: `+=` adds each.",
     _then(lambda a, q, k, v: a[:, -1:] * v[-1])),
    ("equal weights", "every query got the plain average of the values (weights 1/m).",
     lambda q, k, v: np.repeat(v.mean(axis=0, keepdims=True), q.shape[0], axis=0)),
    ("no transpose", "query @ key meets the COLUMNS of K: query @ key.T.",
     lambda q, k, v: _softmax(_scores(q, k.T)) @ v),
])

# wrong only on large scores: named only if they explain every wrong case
_ONLY_LARGE = {"softmax overflows", "one max for the whole grid",
               "a shift that is not the row's largest"}


class AttentionExercise(CodeExercise):
    """On notebook 09's cases and table."""

    def __init__(self, name, call, slips):
        super().__init__(name, call, CASES, attention_solution, slips, quantities=QUANTITIES,
                         rtol=1e-5, atol=1e-8,  # float32 passes
                         show_args=shapes(("query", "key", "value"), "of shape "),
                         loop_only=("scaled_dot_product_attention", "attention_formula",
                                    "attention_loop", "cl.softmax", "course_lib.softmax"))

    def explanations(self, outcomes):
        wrong = sum(not o.correct for o in outcomes)
        return [e for e in super().explanations(outcomes)
                if e[2] not in _ONLY_LARGE or e[0] == wrong]


ATTENTION = AttentionExercise("attention", "attention(query, key, value)", SLIPS)


# --- by hand

def _row_scores(Q, K, row=0):
    return np.asarray(K, float) @ np.asarray(Q, float)[row]  # (m,): 𝐪 · 𝐤ⱼ for every key


def _scaled(Q, K):
    return _row_scores(Q, K) / math.sqrt(len(Q[0]))


def _weights(Q, K, row=0, by=None, base=math.e):
    e = base ** (_row_scores(Q, K, row) / (math.sqrt(len(Q[0])) if by is None else by))
    return e / e.sum()


def _no_exp(Q, K):
    s = _scaled(Q, K)
    if np.any(s < 0) or s.sum() <= 0:
        raise NoPrediction
    return s / s.sum()


def _e0_as_0(Q, K):
    s = _scaled(Q, K)
    if np.all(s != 0) or np.all(s == 0):
        raise NoPrediction
    e = np.where(s == 0, 0.0, np.exp(s))
    return e / e.sum()


def _columns(Q, K):
    e = np.exp(np.asarray(Q, float) @ np.asarray(K, float).T / math.sqrt(len(Q[0])))  # (n, m)
    return (e / e.sum(axis=0))[0]


_WEIGHTS = {  # name: (the slip's weights from the givens, hint)
    "no scaling": (lambda Q, K: _weights(Q, K, by=1.0), "the scores were not divided by √d_k."),
    "divided by d_k": (lambda Q, K: _weights(Q, K, by=len(Q[0])), "divide by √d_k, not d_k."),
    "√m for √d_k": (lambda Q, K: _weights(Q, K, by=math.sqrt(len(K))),
                    "divide by √d_k, not by √m (3 keys)."),
    "2ˣ in place of eˣ": (lambda Q, K: _weights(Q, K, base=2.0), "softmax takes eˣ, not 2ˣ."),
    "scaled after the softmax": (lambda Q, K: _weights(Q, K, by=1.0) / math.sqrt(len(Q[0])),
                                 "divide the scores, before the softmax."),
    "not normalised": (lambda Q, K: np.exp(_scaled(Q, K)), "divide each eˣ by their total."),
    "no exponential": (_no_exp, "take eˣ of each scaled score first."),
    "e⁰ taken as 0": (_e0_as_0, "e⁰ = 1: a score of 0 still gets weight."),
    "row 2 instead of row 1": (lambda Q, K: _weights(Q, K, row=1), "those are query 2's."),
}


WEIGHT_SLIPS = [
    *((name, hint, f) for name, (f, hint) in _WEIGHTS.items()),
    ("multiplied by √d_k", "divide the scores by √d_k.",
     lambda Q, K: _weights(Q, K, by=1 / math.sqrt(len(Q[0])))),
    ("the scaled scores", "the weights are their softmax.", _scaled),
    ("softmax down the columns", "each COLUMN adds up to 1: the softmax runs along "
     "query 1's row.", _columns),
    ("equal weights", "work out the scores first.", lambda Q, K: np.full(len(K), 1 / len(K))),
    ("the keys in reverse order", "A₁₁ belongs to 𝐤₁.", lambda Q, K: _weights(Q, K)[::-1]),
]


def _best(Q, K):  # the best-matching key (none when two tie)
    s = _row_scores(Q, K)
    if np.sum(s == s.max()) > 1:
        raise NoPrediction
    return int(np.argmax(s))


def _draw_qk(rng):
    """Slots of 0, 1 or 2, scores up to 8, query 1's three different and not the notebook's
    2, 0, 4 reordered or shifted."""
    while True:
        Q, K = rng.integers(0, 3, size=(2, 4)), rng.integers(0, 3, size=(3, 4))
        S = Q @ K.T
        gaps = sorted((S[0] - S[0].min()).tolist())  # even scores: ÷ √4 leaves whole powers of e
        if S.max() <= 8 and len(set(S[0].tolist())) == 3 and gaps != [0, 2, 4] \
                and all(s % 2 == 0 for s in S[0].tolist()):
            return {"Q": Q.tolist(), "K": K.tolist()}


_Q = [[1, 0, 1, 0], [0, 2, 0, 0]]
_K = [[1, 0, 1, 0], [0, 1, 0, 1], [2, 1, 2, 1]]

WEIGHTS_HAND = HandExercise(
    "weights by hand", "row 1 of A = softmax(QKᵀ/√d_k) for Q = {Q}, K = {K}",
    _weights, {"Q": _Q, "K": _K}, WEIGHT_SLIPS, draw=_draw_qk, tolerance=0.002)  # the prompt's


def _blend(weights, V):
    return np.asarray(weights, float) @ np.asarray(V, float)  # (d_v,): Σⱼ wⱼ 𝐯ⱼ


OUTPUT_SLIPS = [
    *((name, "{got} blends the values with the wrong weights: " + hint,
       lambda Q, K, V, f=f: _blend(f(Q, K), V)) for name, (f, hint) in _WEIGHTS.items()),
    ("the scaled scores as weights", "their softmax is the weights.",
     lambda Q, K, V: _blend(_scaled(Q, K), V)),
    ("equal weights", "{got} is the plain average of the values: use query 1's weights.",
     lambda Q, K, V: np.mean(np.asarray(V, float), axis=0)),
    ("only the best match", "{got} is the best key's value alone: every key gets weight.",
     lambda Q, K, V: np.asarray(V, float)[_best(Q, K)]),
    ("weights rounded to 1 decimal", "keep 3 decimals of the weights.",
     lambda Q, K, V: _blend(np.round(_weights(Q, K), 1), V)),
    *((f"left out key {j + 1}", "add all three terms.", lambda Q, K, V, j=j: _blend(
        _weights(Q, K), V) - _weights(Q, K)[j] * np.asarray(V[j])) for j in range(3)),
]


OUTPUT_HAND = HandExercise(
    "output by hand", "output row 1 of softmax(QKᵀ/√d_k) V for Q = {Q}, K = {K}, V = {V}",
    lambda Q, K, V: _blend(_weights(Q, K), V), {"Q": _Q, "K": _K, "V": [[2, 0], [0, 2], [4, 4]]},
    OUTPUT_SLIPS, draw=lambda rng: {**_draw_qk(rng), "V": rng.integers(-2, 5, (3, 2)).tolist()})

EXERCISES = [WEIGHTS_HAND, OUTPUT_HAND, ATTENTION]
