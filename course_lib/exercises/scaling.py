"""Exercise of notebook 08: the scaled score grid QKᵀ / √d_k, with d_k read from the shapes.

Slips
-----
- missing scale: returned the raw scores QKᵀ.
- divided by d_k: divided by d_k instead of √d_k.
- multiplied by √d_k: multiplied instead of dividing.
- scaled by the number of keys: √m (``key.shape[0]``, ``len(key)``) instead of √d_k.
- scaled by the number of queries: √n (``query.shape[0]``, ``len(query)``) instead of √d_k.
- scaled by the number of entries: √(n·d_k) or √(m·d_k) (``query.size``, ``key.size``).
- ** 1/2 without brackets: ``scores / d_k ** 1/2`` divides by d_k, then by 2.
- (d_k ** 1/2) is d_k/2: ``scores / (d_k ** 1/2)`` divides by d_k/2, not √d_k.
- floor division: ``//`` rounds every scaled score down to a whole number.
- missing transpose: ``query @ key``, which only runs when m = d_k.
- Q * K.T elementwise: ``*`` multiplies matching entries; ``@`` is the matrix product.
- K Qᵀ: ``key @ query.T``, the m×n grid, each score in the wrong place.
- Qᵀ K: ``query.T @ key``, a d_k×d_k grid of slot-by-slot products.
- ^ for **: ``d_k ^ 0.5`` (a TypeError) or ``d_k ^ 1/2`` (XOR, then ÷ 2): ``^`` is not a power.
- a name never defined: ``d_k`` used but never set, or ``math`` used without ``import math``.
- applied the softmax: the weights, one step too far.
- √d_k rounded to a whole number: ``int(math.sqrt(d_k))``.
- rounded the result: ``round(…, 2)`` or ``np.round``, so the answers lose their decimals.
- changed its input (named by the framework): e.g. ``query /= math.sqrt(d_k)``.
"""

import math

import numpy as np

from .. import scaled_scores, softmax
from ._detect import (
    everywhere_like,
    matches_everywhere,
    power_with_caret,
    raised_name_error,
    rounded,
)
from .core import Case, Exercise, Mistake, frozen_array

__all__ = ["SCALE_EXERCISE", "check_scale_scores", "evaluate_scale_scores"]


def _grids(seed=8):
    rng = np.random.default_rng(seed)
    integers = [  # (query, key): n queries, m keys, d_k slots
        ([[1, 2, 0, 1], [0, 1, 3, -1]], [[2, 0, 1, 1], [1, 1, 1, 1], [-1, 2, 0, 3]]),
        ([[1, 0, 2, 0, 1, 0, 0, 1, 3]], [[2, 1, 1, 0, 0, 1, 2, 0, 1], [0, 3, 1, 1, 2, 0, 1, 1, 0]]),
        ([[2, -1, 1], [1, 1, 0]], [[1, 0, 2], [3, 1, -1], [0, 2, 1]]),  # square K: m = d_k
        ([[1, 2, 0], [0, 1, 3], [2, 0, 1]], [[3, 1, 0], [1, 0, 2], [0, 2, 2]]),  # n = m = d_k
        ([[3], [-2]], [[1], [2], [-1]]),  # d_k = 1: the scale is 1
    ]
    drawn = [(rng.integers(-3, 4, (3, 16)), rng.integers(-3, 4, (5, 16))),
             (rng.standard_normal((4, 25)), rng.standard_normal((2, 25)))]
    return [(frozen_array(q), frozen_array(k)) for q, k in integers + drawn]


def _raw(query, key):
    return query @ key.T  # (n, m)


def _d_k(query):
    return query.shape[-1]


def _show_grids(args):
    query, key = args
    return (f"query of shape {query.shape[0]}×{query.shape[1]}, "
            f"key of shape {key.shape[0]}×{key.shape[1]}")


_D_K = "d_k = query.shape[-1] is the number of slots in each query and key"

SCALE_EXERCISE = Exercise(
    "scale_scores(query, key)",
    cases=[Case(args) for args in _grids()],
    reference=lambda query, key: np.asarray(scaled_scores(query, key)),
    show_args=_show_grids,
    mistakes=[
        Mistake("missing scale",
                f"on {{call}} you returned the raw scores QKᵀ. Divide them by √d_k, where "
                f"{_D_K}: without it their spread grows like √d_k and softmax saturates.",
                imitation=_raw),
        Mistake("divided by d_k",
                "on {call} you divided by d_k instead of √d_k. Var(q·k) = d_k, so the spread "
                "(standard deviation) is √d_k; dividing by d_k over-shrinks it to 1/√d_k and "
                "softmax goes nearly uniform. Divide by math.sqrt(d_k).",
                imitation=lambda query, key: _raw(query, key) / _d_k(query)),
        Mistake("multiplied by √d_k",
                "on {call} you multiplied by √d_k, which makes the spread bigger still "
                "(variance d_k²). Divide by √d_k instead.",
                imitation=lambda query, key: _raw(query, key) * math.sqrt(_d_k(query))),
        Mistake("scaled by the number of keys",
                f"on {{call}} you divided by the square root of m, the number of keys "
                f"(key.shape[0]). The scale comes from d_k: {_D_K}.",
                imitation=lambda query, key: _raw(query, key) / math.sqrt(key.shape[0])),
        Mistake("scaled by the number of queries",
                f"on {{call}} you divided by the square root of n, the number of queries "
                f"(query.shape[0]). The scale comes from d_k: {_D_K}.",
                imitation=lambda query, key: _raw(query, key) / math.sqrt(query.shape[0])),
        Mistake("scaled by the number of entries",
                f"on {{call}} you divided by the square root of a whole grid's size (n·d_k "
                f"entries in Q, m·d_k in K). The scale comes from one row: {_D_K}.",
                detect=lambda outcomes: matches_everywhere(
                    outcomes, lambda case: _raw(*case.args) / math.sqrt(case.args[0].size))
                or matches_everywhere(
                    outcomes, lambda case: _raw(*case.args) / math.sqrt(case.args[1].size))),
        Mistake("** 1/2 without brackets",
                "on {call} your scores came out divided by d_k and then by 2: Python reads "
                "`scores / d_k ** 1/2` as `(scores / d_k) / 2`, because ** binds tighter than "
                "/. Write math.sqrt(d_k), or d_k ** 0.5.",
                imitation=lambda query, key: _raw(query, key) / _d_k(query) ** 1 / 2),
        Mistake("(d_k ** 1/2) is d_k/2",
                "on {call} your scores came out divided by d_k/2, not √d_k: Python reads "
                "`d_k ** 1/2` as `(d_k ** 1) / 2`, because ** binds tighter than /. Write "
                "math.sqrt(d_k), or d_k ** 0.5.",
                imitation=lambda query, key: _raw(query, key) / (_d_k(query) ** 1 / 2)),
        Mistake("floor division",
                "on {call} every scaled score came out rounded down to a whole number: `//` "
                "is floor division. Use `/`, which keeps the decimals.",
                imitation=lambda query, key: _raw(query, key) // math.sqrt(_d_k(query))),
        Mistake("missing transpose",
                "on {call}, query @ key multiplies rows of Q with the COLUMNS of K, which are "
                "not keys (it only runs when m = d_k). Transpose K first (key.T, shape d_k×m), "
                "so that row 𝐪ᵢ of Q meets row 𝐤ⱼ of K: query @ key.T.",
                imitation=lambda query, key: query @ key / math.sqrt(_d_k(query))),
        Mistake("Q * K.T elementwise",
                "on {call} you multiplied matching entries (`*`), which only runs when the "
                "shapes happen to fit. A score is a dot product, a sum of products: use the "
                "matrix product `@`, query @ key.T.",
                imitation=lambda query, key: query * key.T / math.sqrt(_d_k(query))),
        Mistake("K Qᵀ",
                "on {call} you computed key @ query.T, the m×n grid: row j, column i holds "
                "the score of query i with key j, the wrong way round. Queries are the rows of "
                "the answer: query @ key.T (n×m).",
                imitation=lambda query, key: key @ query.T / math.sqrt(_d_k(query))),
        Mistake("^ for **",
                "on {call}, `^` spoilt your answer ({got}): in Python `^` is not a power but "
                "XOR, a bitwise operation on whole numbers. Write math.sqrt(d_k), or "
                "d_k ** 0.5.",
                detect=lambda outcomes: power_with_caret(
                    outcomes, lambda q, k: _raw(q, k) / ((_d_k(q) ^ 1) / 2))),
        Mistake("a name never defined",
                "{call} raised NameError: your function uses a name it never defined. Set "
                "d_k inside the function (d_k = query.shape[-1]) and import what it uses "
                "(import math) in the same cell.",
                detect=raised_name_error),
        Mistake("rounded the result",
                "on {call} you returned {got}, the answer {expected} rounded. Return the "
                "numbers as they are: rounding is for printing only.",
                detect=rounded),
        Mistake("Qᵀ K",
                "on {call} you computed query.T @ key, a d_k×d_k grid that adds up slot-by-"
                "slot products over the queries and keys. Transpose K, not Q: query @ key.T.",
                imitation=lambda query, key: query.T @ key / math.sqrt(_d_k(query))),
        Mistake("applied the softmax",
                "{call} gave {got}: each row adds up to 1, so a softmax was applied. This step "
                "stops at the scaled scores QKᵀ / √d_k (the softmax is notebook 09's); "
                "expected {expected}.",
                imitation=lambda query, key: softmax(_raw(query, key) / math.sqrt(_d_k(query)),
                                                     axis=-1)),
        Mistake("√d_k rounded to a whole number",
                "{call} gave {got}: int(math.sqrt(d_k)) cuts √d_k to a whole number "
                "(√3 ≈ 1.732 became 1). Divide by math.sqrt(d_k) itself; expected {expected}.",
                detect=lambda outcomes: everywhere_like(
                    outcomes, lambda q, k: _raw(q, k) / int(math.sqrt(_d_k(q))))),
    ],
)


def evaluate_scale_scores(func):
    """The :class:`~course_lib.exercises.core.Feedback` on a learner's ``scale_scores``
    (NumPy's warnings silenced: the feedback explains a division by zero)."""
    with np.errstate(all="ignore"):
        return SCALE_EXERCISE.evaluate(func)


def check_scale_scores(func):
    """Print feedback on a learner's ``scale_scores(query, key)``."""
    print(evaluate_scale_scores(func))
