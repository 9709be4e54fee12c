"""Notebook 17: my_attention, previous_token_score, the model's KV-cache bytes by hand."""

import math

import numpy as np

from .decoding import CACHE_ROWS, CACHE_TWINS, cache_slips
from .engine import CodeExercise
from .hand import HandExercise
from .python import REPLACED

# --- my_attention

def _attend(query, key, value, mask, scale=None, masked=None, axis=-1, shift=True, top=None,
            blend="value"):
    """softmax(QKᵀ/√d_k, blocked keys −∞)V per head; the keywords make the slips."""
    q, k, v = (np.asarray(a, float) for a in (query, key, value))
    s = q @ k.swapaxes(-1, -2) * (1 / math.sqrt(q.shape[-1]) if scale is None else scale(q))
    s = np.where(mask, s, -np.inf) if masked is None else masked(s, np.asarray(mask))
    top = axis if top is None else top
    e = np.exp(s - s.max(axis=top, keepdims=True)) if shift else np.exp(s)
    return e / e.sum(axis=axis, keepdims=True) @ (k if blend == "key" else v)  # (H, n, d_v)


def _with(**how):
    return lambda *case: _attend(*case, **how)


def _weights(q, k, v, mask):
    return _attend(q, k, np.eye(k.shape[-2])[None].repeat(len(k), 0), mask)  # (H, n, m)


_RNG = np.random.default_rng(17)


def _case(heads, n, m, d, d_v, size=1.0, rng=_RNG):
    rounded = [np.round(rng.standard_normal(shape) * size, 2)
               for shape in ((heads, n, d), (heads, m, d), (heads, m, d_v))]
    return (*rounded, np.arange(m)[None, :] <= np.arange(n)[:, None] + (m - n))  # bottom-right


_ATTEND_CASES = [_case(1, 1, 1, 2, 1), _case(2, 3, 3, 4, 3), _case(3, 2, 4, 4, 2),
                 _case(2, 1, 5, 3, 2), _case(3, 4, 4, 2, 3, size=2.0), _case(2, 2, 3, 9, 5),
                 _case(1, 3, 3, 4, 2, size=30.0)]  # scores near 700: e^s overflows

_MY_ATTENTION_SLIPS = [
    ("no √d_k", "the scores are divided by √d_k = √{d_k} before the softmax.",
     _with(scale=lambda q: 1.0)),
    ("d_k from the wrong axis", "d_k is a query's length, the LAST axis: query.shape[-1].",
     (_with(scale=lambda q: q.shape[0] ** -0.5), _with(scale=lambda q: q.shape[1] ** -0.5))),
    ("÷ d_k for ÷ √d_k", "divide by the square root of d_k: math.sqrt(d_k).",
     _with(scale=lambda q: 1 / q.shape[-1])),
    ("the mask ignored", "every query saw the future keys too: put −∞ on the scores where mask "
     "is False.", _with(masked=lambda s, mask: s)),
    ("True read as blocked", "True in mask means MAY attend: np.where(mask, scores, -np.inf).",
     _with(masked=lambda s, mask: np.where(mask, -np.inf, s))),
    ("blocked score set to 0", "a blocked score of 0 still gets weight e⁰: use −∞ (np.where(mask, "
     "scores, -np.inf)).", _with(masked=lambda s, mask: s * mask)),
    ("softmax along another axis", "each query's row of weights sums to 1: the softmax runs "
     "along axis=-1.", (_with(axis=-2), _with(axis=0), _with(axis=-2, top=-1),
                        _with(axis=0, top=-1))),
    ("weights @ key", "the weights blend the VALUE rows: weights @ value.", _with(blend="key")),
    ("the mask added to the scores", "True adds 1 and False 0, so nothing is blocked: "
     "np.where(mask, scores, -np.inf).", _with(masked=lambda s, mask: s + mask)),
    ("the max over the heads", "subtract each ROW's largest score, max(axis=-1, keepdims=True).",
     (_with(top=0), _with(top=0, masked=lambda s, mask: np.where(mask, s, -1e9)))),
    ("the weights returned", "blend the values with them: weights @ value.", _weights),
    ("masked after the softmax", "zeroed weights leave rows that do not sum to 1: put −∞ on the "
     "scores BEFORE it.", lambda q, k, v, mask: (_weights(q, k, v, np.ones_like(mask)) * mask) @ v),
]


MY_ATTENTION = CodeExercise(
    "my_attention", "my_attention(query, key, value, mask)", _ATTEND_CASES, _attend,
    _MY_ATTENTION_SLIPS, rtol=1e-6, quantities={"d_k": lambda q, k, v, mask: q.shape[-1]})


# --- previous_token_score

def _score(A, rows=None, at=lambda A, i: A[i][i - 1], mean=True):
    rows = range(1, len(A)) if rows is None else rows(len(A))
    values = [float(at(A, i)) for i in rows]
    return sum(values) / (len(A) - 1) if mean else values


_GRNG = np.random.default_rng(1717)


def _grid(n, peaked=None, rng=_GRNG):
    """A causal grid of rounded weights."""
    rows = []
    for i in range(n):
        w = np.zeros(n)
        w[:i + 1] = rng.random(i + 1) + 0.05
        if peaked is not None and i >= 1:
            w[peaked(i)] += 2.0
        w[:i + 1] = np.round(w[:i + 1] / w[:i + 1].sum(), 3)
        w[i] += 1 - w[:i + 1].sum()  # exact row sums after rounding
        rows.append(w.round(3).tolist())
    return rows


_GRIDS = [_grid(2), _grid(3), _grid(4, peaked=lambda i: i - 1), _grid(5),
          _grid(6, peaked=lambda i: 0), _grid(7),
          [[1.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]]  # a perfect previous-token head

_PREVIOUS_TOKEN_SCORE_SLIPS = [
    ("divided by n", "the mean runs over rows 1 … n − 1 (row 0 has no previous token; A[0][-1] "
     "is the LAST column).",
     (lambda A: _score(A, rows=range) * (len(A) - 1) / len(A),
      lambda A: _score(A) * (len(A) - 1) / len(A))),
    ("the sum, not the mean", "divide the total by the n − 1 rows.",
     lambda A: _score(A) * (len(A) - 1)),
    ("the diagonal", "A[i][i] is a token's weight on ITSELF: the previous token is column i − 1.",
     lambda A: _score(A, at=lambda A, i: A[i][i])),
    ("the first token", "A[i][0] is the first token (the sink's score): the previous is column "
     "i − 1.", lambda A: _score(A, at=lambda A, i: A[i][0])),
    ("above the diagonal", "A[i][i + 1] is the NEXT token (or rows and columns swapped): the "
     "previous is A[i][i − 1].",
     (lambda A: _score(A, at=lambda A, i: A[i - 1][i]),
      lambda A: _score(A, at=lambda A, i: A[i][i + 1]))),
    ("the last row missed", "range(1, n) stops at n − 1, the last row: no − 1.",
     lambda A: _score(A, rows=lambda n: range(1, n - 1))),
    ("the largest, not the mean", "the score is the mean of A[i][i − 1] over the rows.",
     lambda A: max(_score(A, mean=False))),
    ("stopped after the first row", "the `return` is inside the loop: one indent less.",
     lambda A: A[1][0] / (len(A) - 1)),
    ("only the last term counts", REPLACED, lambda A: A[-1][-2] / (len(A) - 1)),
    ("the mean of whole rows", "a row's mean is 1/n (it sums to 1): take one entry a row, "
     "A[i][i − 1].", lambda A: sum(sum(A[i]) / len(A) for i in range(1, len(A))) / (len(A) - 1)),
]


PREVIOUS_TOKEN_SCORE = CodeExercise(
    "previous_token_score", "previous_token_score(A)", [(g,) for g in _GRIDS],
    _score, _PREVIOUS_TOKEN_SCORE_SLIPS, quantities={"n": len})


# --- by hand: KV-cache bytes

def _bytes(layers, heads, kv_heads, d_k):
    return 2 * layers * kv_heads * d_k * 4  # K and V, float32: 4 bytes a number


_FACTORS = [("the 2", lambda g: 2), ("the 4 bytes", lambda g: 4),  # of 2·layers·kv_heads·d_k·4
            ("the layers", lambda g: g["layers"]), ("the key/value heads", lambda g: g["kv_heads"]),
            ("d_k", lambda g: g["d_k"])]
_PAIRS = [(f"{a} and {b} left out", "both count.", lambda g, x=x, y=y: 1 / x(g) / y(g))
          for i, (a, x) in enumerate(_FACTORS) for b, y in _FACTORS[i + 1:]]

MODEL_CACHE = HandExercise(
    "model cache by hand", "the bytes one token adds to the model's KV cache ({layers} layers, "
    "{heads} query heads, {kv_heads} key/value heads, d_k = {d_k}, float32)",
    _bytes, {"layers": 30, "heads": 9, "kv_heads": 3, "d_k": 64}, cache_slips(_bytes, CACHE_ROWS + [
        ("KiB, not bytes", "the question asks for bytes: no ÷ 1024.", 1 / 1024),
        ("1000 tokens", "{got} is 1000 tokens' worth: one token here.", 1000)]),
    twins=cache_slips(_bytes, CACHE_TWINS + _PAIRS + [(
        "query heads counted, no 2", CACHE_TWINS[0][1],
        lambda g: (g["heads"] + g["kv_heads"]) / g["kv_heads"] / 2)]), tolerance=0.5)

EXERCISES = [MY_ATTENTION, PREVIOUS_TOKEN_SCORE, MODEL_CACHE]
