"""Exercise of notebook 16: generate step by step with a KV cache.

``generate(query, key, value)`` gets the rows of n tokens (query and key (n, d_k), value
(n, d_v)) and plays the model writing them one at a time: at step t it appends key row t and
value row t to the cache, attends with query row t alone over the whole cache, and keeps that
output row. It returns the (n, d_v) output rows, equal to full causal attention.

Slips (``generate(query, key, value)``):

- the whole sequence at every step: each query attends to all n keys, the future included.
- only the newest key: the cache is emptied (or overwritten) at every step, so row t = value t.
- attended before appending: query t sees keys 0 … t − 1 only (step 0 has nothing to see).
- top-left causal on the cache: ``is_causal=True`` with one query row lets it see key 0 only.
- queries cached as keys: the cache collects query rows instead of key rows.
- keys cached as values: the value cache collects key rows.
- not scaled: the scores are not divided by √d_k.
- scaled by d_k: divided by d_k instead of √d_k.
- queries cached as values: the value cache collects query rows.
- scaled by √d_v: the value width instead of d_k.
- scaled by √(cache length): √(t + 1) instead of √d_k.
- query 0 every step: query row 0 used at every step.
- looked at the future: keys t … n − 1 instead of 0 … t.
- softmax over the wrong axis: over the single query row, so every weight is 1.
- scaled by √n: the number of tokens instead of d_k.
- transposed the output: (d_v, n) instead of (n, d_v).
- return inside the loop: only the first output row comes back.
- only the last output: the last step's row, not all n rows.
- rows kept as 1-row grids: n outputs of shape (1, d_v) stacked into (n, 1, d_v).
"""

import math

import numpy as np

from .. import scaled_dot_product_attention, softmax
from .core import Case, Exercise, Mistake, frozen_array

__all__ = ["KV_CACHE_EXERCISE", "check_generate", "evaluate_generate"]


def _cases(seed=16):
    rng = np.random.default_rng(seed)
    sizes = [(1, 2, 2), (3, 2, 1), (4, 3, 2), (5, 4, 3), (2, 2, 2), (6, 4, 4)]  # n, d_k, d_v
    cases = [(rng.standard_normal((n, d_k)) * 1.5, rng.standard_normal((n, d_k)) * 1.5,
              rng.standard_normal((n, d_v))) for n, d_k, d_v in sizes]
    return [tuple(frozen_array(a) for a in case) for case in cases]


def _attend(q_row, keys, values, scale=None):
    """One query row over the given key/value rows: (d_v,)."""
    scale = 1 / math.sqrt(q_row.shape[-1]) if scale is None else scale
    return softmax(keys @ q_row * scale) @ values  # (m,) weights → (d_v,)


def _steps(query, key, value, keys_at, values_at=None, scale=None, first=None):
    """Output row t from the cache rows ``keys_at(t)`` (an index list or slice)."""
    values_at = keys_at if values_at is None else values_at
    rows = []
    for t in range(query.shape[0]):
        keys, values = key[keys_at(t)], value[values_at(t)]
        rows.append(first if keys.shape[0] == 0 else _attend(query[t], keys, values, scale))
    return np.array(rows)


def _before_appending(outcomes):
    """Query t over keys 0 … t − 1: step 0 raises (no key) or gives zeros."""
    telling = None
    for o in outcomes:
        q, k, v = o.case.args
        if o.error is not None:
            if "zero rows" not in str(o.error) and "empty" not in str(o.error):
                return None
            telling = telling or o
            continue
        want = _steps(q, k, v, lambda t: slice(0, t), first=np.zeros(v.shape[1]))
        try:
            got = np.asarray(o.value, dtype=float)
        except Exception:
            return None
        if q.shape[0] > 1 and (got.shape != want.shape or not np.allclose(got[1:], want[1:])):
            return None
        telling = telling or (o if not o.correct else None)
    return telling


def _show(args):
    q, k, v = args
    return f"query {q.shape[0]}×{q.shape[1]}, key {k.shape[0]}×{k.shape[1]}, value " \
           f"{v.shape[0]}×{v.shape[1]}"


_CACHE = "Append key row t and value row t to the cache, THEN attend with query row t."

KV_CACHE_EXERCISE = Exercise(
    "generate(query, key, value)",
    cases=[Case(args) for args in _cases()],
    reference=lambda q, k, v: np.asarray(scaled_dot_product_attention(q, k, v, is_causal=True)),
    show_args=_show, rtol=1e-7, atol=1e-9,
    mistakes=[
        Mistake("the whole sequence at every step",
                "on {call} each query attended to ALL n keys, the later tokens included. At "
                "step t the cache holds keys 0 … t only: the future is not written yet.",
                imitation=lambda q, k, v: np.asarray(scaled_dot_product_attention(q, k, v))),
        Mistake("only the newest key",
                "on {call} every output row equals its own value row: the cache held only the "
                "newest key. Keep the earlier rows: append to the cache lists, do not reset "
                "them inside the loop.",
                imitation=lambda q, k, v: np.array(v)),
        Mistake("top-left causal on the cache",
                "on {call} every output row is value row 0: is_causal=True is aligned top-left, "
                "so ONE query row sees key 0 only. The newest token is the LAST position: no "
                "mask at all is needed when one query attends to the cache.",
                imitation=lambda q, k, v: np.repeat(v[:1], q.shape[0], axis=0)),
        Mistake("attended before appending",
                "on {call} query t saw keys 0 … t − 1 only (and step 0 had nothing to attend "
                "to). " + _CACHE, detect=_before_appending),
        Mistake("queries cached as keys",
                "on {call} the cache collected QUERY rows. It keeps key row t and value row t; "
                "the query row is used once, at its own step.",
                imitation=lambda q, k, v: _steps(q, q, v, lambda t: slice(0, t + 1))),
        Mistake("keys cached as values",
                "on {call} the value cache collected KEY rows: append value[t] to it.",
                imitation=lambda q, k, v: _steps(q, k, k, lambda t: slice(0, t + 1))),
        Mistake("not scaled",
                "on {call} the scores were not divided by √d_k (d_k = query.shape[1]).",
                imitation=lambda q, k, v: _steps(q, k, v, lambda t: slice(0, t + 1), scale=1.0)),
        Mistake("scaled by d_k",
                "on {call} the scores were divided by d_k; the scale is 1/√d_k, the square "
                "root (d_k = query.shape[1]).",
                imitation=lambda q, k, v: _steps(q, k, v, lambda t: slice(0, t + 1),
                                                 scale=1 / q.shape[1])),
        Mistake("queries cached as values",
                "on {call} the value cache collected QUERY rows: append value row t to the "
                "value cache (the outputs mix values, not queries).",
                imitation=lambda q, k, v: _steps(q, k, q, lambda t: slice(0, t + 1))),
        Mistake("softmax over the wrong axis",
                "on {call} every weight was 1 (output row t = the sum of value rows 0 … t): the "
                "softmax ran over an axis of length 1, the query's own row. Take it over the "
                "keys (the last axis of the (1, t + 1) scores).",
                imitation=lambda q, k, v: np.cumsum(v, axis=0)),
        Mistake("scaled by √n",
                "on {call} the scores were divided by √n, the number of tokens; the scale is "
                "1/√d_k with d_k = query.shape[1].",
                imitation=lambda q, k, v: _steps(q, k, v, lambda t: slice(0, t + 1),
                                                 scale=1 / math.sqrt(q.shape[0]))),
        Mistake("transposed the output",
                "on {call} the output came back as (d_v, n), {got}: stack the n output rows "
                "as rows, np.array(rows), without .T.",
                imitation=lambda q, k, v: np.asarray(
                    scaled_dot_product_attention(q, k, v, is_causal=True)).T),
        Mistake("scaled by √(cache length)",
                "on {call} the scores were divided by the square root of the cache's length "
                "(t + 1 rows); the scale is 1/√d_k with d_k = query.shape[1], the same at "
                "every step.", imitation=lambda q, k, v: np.array([_attend(
                    q[t], k[:t + 1], v[:t + 1], 1 / math.sqrt(t + 1)) for t in range(len(q))])),
        Mistake("query 0 every step",
                "on {call} every step attended with query row 0: at step t use query row t.",
                imitation=lambda q, k, v: _steps(np.repeat(q[:1], len(q), axis=0), k, v,
                                                 lambda t: slice(0, t + 1))),
        Mistake("looked at the future",
                "on {call} query row t attended to keys t … n − 1, the FUTURE tokens. The cache "
                "holds the past: keys 0 … t.", imitation=lambda q, k, v: _steps(
                    q, k, v, lambda t: slice(t, len(q)))),
        Mistake("scaled by √d_v",
                "on {call} the scores were divided by √d_v, the VALUE width; the scale is "
                "1/√d_k with d_k = query.shape[1].",
                imitation=lambda q, k, v: _steps(q, k, v, lambda t: slice(0, t + 1),
                                                 scale=1 / math.sqrt(v.shape[1]))),
        Mistake("return inside the loop",
                "on {call} only the first output row came back: the `return` sits inside the "
                "loop. Collect the n rows, return after the loop.",
                imitation=lambda q, k, v: np.asarray(
                    scaled_dot_product_attention(q[:1], k[:1], v[:1]))),
        Mistake("only the last output",
                "on {call} only the last step's row came back; return all n rows (one per "
                "step), e.g. np.array(outputs).",
                imitation=lambda q, k, v: np.asarray(
                    scaled_dot_product_attention(q, k, v, is_causal=True))[-1:]),
        Mistake("only the last output",
                "on {call} only the last step's row came back; return all n rows (one per "
                "step), e.g. np.array(outputs).",
                imitation=lambda q, k, v: np.asarray(
                    scaled_dot_product_attention(q, k, v, is_causal=True))[-1]),
        Mistake("rows kept as 1-row grids",
                "on {call} the result has shape (n, 1, d_v): each step's output is a 1 × d_v "
                "grid. Keep its only row (out[0]) or use np.concatenate, to get (n, d_v).",
                imitation=lambda q, k, v: np.asarray(
                    scaled_dot_product_attention(q, k, v, is_causal=True))[:, None, :]),
    ],
)


def evaluate_generate(func):
    """The :class:`~course_lib.exercises.core.Feedback` on a learner's ``generate``."""
    return KV_CACHE_EXERCISE.evaluate(func)


def check_generate(func):
    """Print feedback on a learner's ``generate(query, key, value)``."""
    KV_CACHE_EXERCISE.check(func)
