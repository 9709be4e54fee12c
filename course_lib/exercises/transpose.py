"""Exercises of notebook 06: the score grid S = QKᵀ (code) and one score worked out by hand
(the shape rule is in :mod:`course_lib.exercises.shapes`).

Slips
-----
``scores(Q, K)`` (the hidden Q and K have n, m and d_k apart, and some d_k = m or n = m, so
that a wrong product runs and shows):

- K Qᵀ instead of Q Kᵀ: an m×n grid, rows belonging to the keys;
- missing transpose: ``Q @ K`` (or ``np.dot(Q, K)``);
- transposed Q instead of K: ``Q.T @ K`` (or ``K.T @ Q``);
- divided by √d_k: the scaling of notebook 08, too early;
- element-wise product: ``Q * K`` or ``Q * K.T`` instead of ``@``;
- outer product: ``np.outer(Q, K)``, every number times every number;
- paired query i with key i only: ``(Q * K).sum(axis=1)``, the n scores of matching rows;
- divided by d_k: a scale that does not belong here (and the later one is √d_k);
- applied the softmax: the weights, one step too far;
- sign turned round: −Q Kᵀ;
- used Q twice / used K twice: Q Qᵀ or K Kᵀ;
- added up the grid: one number, the sum of all the scores;
- changed its input: Q or K written into (named by the framework).

By hand, S₂₃ = row 𝐪₂ · row 𝐤₃ (``HAND_SCORE``):

- key 2 / key 4: the neighbouring key; query 1: the other query;
- both indices one too low: 𝐪₁ · 𝐤₂;
- added instead of multiplied; minus times minus; last term dropped;
- dropped the minus signs (6); first term dropped (−5); middle term dropped (0).
"""

import numpy as np

from .. import score_grid, softmax
from .by_hand import HandExercise, Slip
from .core import Case, Exercise, Mistake, frozen_array

__all__ = ["HAND_SCORE", "SCORES_EXERCISE", "check_score_by_hand", "check_scores",
           "evaluate_scores"]


def _grid(rows, cols, start):
    values = np.arange(start, start + rows * cols, dtype=float).reshape(rows, cols)
    return (values * 7) % 11 - 5  # small distinct integers, both signs


# (n, d_k) and (m, d_k); d_k = m in some (Q @ K runs), n = m in others (Q * K runs)
_SCORE_SHAPES = [((1, 2), (3, 2)), ((2, 3), (3, 3)), ((3, 2), (3, 2)), ((2, 4), (5, 4)),
                 ((4, 2), (2, 2)), ((3, 3), (3, 3))]
_SCORE_CASES = [(frozen_array(_grid(*q, 1)), frozen_array(_grid(*k, 2 + q[0])))
                for q, k in _SCORE_SHAPES]


def _paired_rows(q, k):
    return (q * k).sum(axis=1)  # only q_i · k_i: needs n = m


SCORES_EXERCISE = Exercise(
    "scores(Q, K)",
    cases=[Case(args) for args in _SCORE_CASES],
    reference=lambda query, key: score_grid(query, key),
    mistakes=[
        Mistake("K Qᵀ instead of Q Kᵀ",
                "{call} gave {got}, an m×n grid whose rows are the keys: that is K Qᵀ. Put Q "
                "first, S = Q Kᵀ, so that row i belongs to query i and column j to key j.",
                imitation=lambda q, k: k @ q.T),
        Mistake("missing transpose",
                "{call} gave {got}: you multiplied Q by K itself. Q is n×d_k and K is m×d_k: "
                "the inner sizes (d_k and m) only match by accident, as here. Transpose K "
                "first (K.T is d_k×m): Q @ K.T.",
                imitation=lambda q, k: q @ k),
        Mistake("transposed Q instead of K",
                "{call} gave {got}: Qᵀ K pairs up slots, not vectors. Keep the queries as "
                "rows and turn the keys into columns: Q @ K.T.",
                detect=lambda outcomes: _first_of(outcomes, lambda q, k: q.T @ k,
                                                  lambda q, k: k.T @ q)),
        Mistake("element-wise product",
                "{call} gave {got}: `*` multiplies matching cells one by one. The matrix "
                "product is `@` (row i of Q times column j of Kᵀ, summed): Q @ K.T.",
                detect=lambda outcomes: _first_of(outcomes, lambda q, k: q * k,
                                                  lambda q, k: q * k.T)),
        Mistake("divided by √d_k",
                "{call} gave {got}: the scores divided by √d_k. That scaling is a later step "
                "(notebook 08); the score grid itself is S = Q Kᵀ, here {expected}.",
                imitation=lambda q, k: q @ k.T / np.sqrt(q.shape[1])),
        Mistake("divided by d_k",
                "{call} gave {got}: the scores divided by d_k. No scaling belongs here (and "
                "the one of notebook 08 is √d_k, not d_k): S = Q Kᵀ, here {expected}.",
                imitation=lambda q, k: q @ k.T / q.shape[1]),
        Mistake("applied the softmax",
                "{call} gave {got}: each row adds up to 1, so a softmax was applied. The score "
                "grid is the step before it: S = Q Kᵀ, here {expected}.",
                imitation=lambda q, k: softmax(q @ k.T, axis=-1)),
        Mistake("sign turned round",
                "{call} gave {got}: every score has the wrong sign. S = +Q Kᵀ; expected "
                "{expected}.", imitation=lambda q, k: -(q @ k.T)),
        Mistake("used Q twice",
                "{call} gave {got}, which is Q Qᵀ: the queries scored against themselves. "
                "The columns belong to the KEYS: Q @ K.T.", imitation=lambda q, k: q @ q.T),
        Mistake("used K twice",
                "{call} gave {got}, which is K Kᵀ: the keys scored against themselves. The "
                "rows belong to the QUERIES: Q @ K.T.", imitation=lambda q, k: k @ k.T),
        Mistake("added up the grid",
                "{call} gave {got}, one number: the whole grid was summed. S keeps every "
                "score, an n×m grid: Q @ K.T, here {expected}.",
                imitation=lambda q, k: float((q @ k.T).sum())),
        Mistake("outer product",
                "{call} gave {got}: np.outer multiplies every number of Q with every number "
                "of K. A score is a dot product of a whole row of Q with a whole row of K: "
                "Q @ K.T.",
                imitation=lambda q, k: np.outer(q, k)),
        Mistake("paired query i with key i only",
                "{call} gave {got}: only the n scores of query i with key i. S holds every "
                "pair (i, j), an n×m grid: Q @ K.T.",
                imitation=_paired_rows),
    ],
)


def _first_of(outcomes, *imitations):
    for imitation in imitations:
        found = Mistake("", "", imitation=imitation).telling_outcome(SCORES_EXERCISE, outcomes)
        if found is not None:
            return found
    return None


def evaluate_scores(func):
    """The :class:`~course_lib.exercises.core.Feedback` on a learner's ``scores(Q, K)``."""
    return SCORES_EXERCISE.evaluate(func)


def check_scores(func):
    """Print feedback on a learner's ``scores(Q, K)``."""
    SCORES_EXERCISE.check(func)


# --- by hand: S₂₃ = q₂ · k₃ with q₂ = [−1, 2, 1], k₃ = [−1, −2, −1] --------------------------
HAND_SCORE = HandExercise(
    "S₂₃ = row q₂ · row k₃",
    -4.0,
    [
        Slip("key 2", -7.0, "{got} is row q₂ · row k₂. S₂₃ is column 3: key k₃ = [−1, −2, −1]."),
        Slip("key 4", 1.0, "{got} is row q₂ · row k₄. S₂₃ is column 3: key k₃ = [−1, −2, −1]."),
        Slip("query 1", -8.0, "{got} is row q₁ · row k₃ (or the two slot totals "
             "multiplied, 2 × (−4)). S₂₃ is row 2, query q₂ = [−1, 2, 1], slot by slot."),
        Slip("dropped the minus signs", 6.0, "{got} is 1 + 4 + 1: every product counted as "
             "positive. Keep each sign: (−1)×(−1) + 2×(−2) + 1×(−1)."),
        Slip("first term dropped", -5.0, "{got} adds only the last two products. There are "
             "d_k = 3 slots: add (−1)×(−1) = +1 as well."),
        Slip("middle term dropped", 0.0, "{got} leaves out 2×(−2) = −4. Add all three products."),
        Slip("both indices one too low", 2.0, "{got} is row q₁ · row k₂. In S₂₃ the first "
             "index, 2, picks the query and the second, 3, the key, counted from 1."),
        Slip("added instead of multiplied", -2.0, "{got} adds the slots. Multiply matching "
             "slots, then add the three products: (−1)×(−1) + 2×(−2) + 1×(−1)."),
        Slip("minus times minus", -6.0, "{got}: check (−1)×(−1): a negative times a negative "
             "is positive, +1."),
        Slip("last term dropped", -3.0, "{got} adds only two products. There are d_k = 3 "
             "slots: add 1×(−1) as well."),
    ],
    tolerance=0.01,
)


def check_score_by_hand(value):
    """Print feedback on the number worked out by hand for S₂₃."""
    HAND_SCORE.check(value)
