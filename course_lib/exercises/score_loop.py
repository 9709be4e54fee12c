"""Exercise of notebook 05: fill the n × m grid of scores with two loops,
S[i, j] = row 𝐪ᵢ of Q · row 𝐤ⱼ of K (n queries, m keys, d_k slots each).

The hidden cases have n, m and d_k all different (and one with d_k = m), so a loop bound
taken from the wrong size shows.

Slips
-----
- keys and queries swapped: an m×n grid (K Qᵀ, or ``S[j, i]``);
- missing transpose: ``Q @ K`` (runs only when d_k = m, with the wrong numbers);
- square grid n×n: ``np.zeros((n, n))`` with both loops over n;
- grid as wide as d_k: ``n, m = Q.shape`` or ``np.zeros_like(Q)`` gives d_k columns;
- rows share one list: ``[[0] * m] * n`` makes every row the same list;
- np.zeros(n, m) without brackets: the shape must be one pair, ``np.zeros((n, m))``;
- inner loop over n: ``for j in range(n)``, so keys beyond n stay 0 (or an IndexError);
- same index for query and key: ``Q[i] @ K[i]`` instead of ``Q[i] @ K[j]``;
- multiplied without adding up: ``Q[i] * K[j]`` is d_k products, not one score;
- loop starts at 1: ``range(1, n)`` or ``range(1, m)`` leaves row or column 1 at 0;
- loop stops one early: ``range(n - 1)`` or ``range(m - 1)`` leaves the last row or column at 0;
- counted from 1 to n: ``range(1, n + 1)`` runs past the last row (IndexError);
- divided by √d_k: the scaling of notebook 08, too early;
- divided by d_k: a scale that does not belong here;
- multiplied the sums: (Σ Q[i]) × (Σ K[j]);
- left out the first slot: the loop over d_k slots starts at 1;
- added instead of multiplied: Σ (qₜ + kₜ) in each cell;
- sign turned round: −Q[i] @ K[j];
- left out the last slot: the loop over d_k slots stops one early;
- = instead of +=: each cell keeps only the last slot's product;
- appended after the loop: ``S.append(row)`` outside the loop over i, only the last row;
- return inside the loop: only the first row (or the first cell) is filled;
- changed its input: Q or K written into (named by the framework).
"""

import numpy as np

from .. import score_grid
from ._score_cells import filled, multiplied_only, ran_past_the_end, zeros_without_brackets
from .core import Case, Exercise, Mistake, frozen_array

__all__ = ["SCORE_LOOP_EXERCISE", "check_score_loop", "evaluate_score_loop"]

_SHAPES = [((2, 3), (4, 3)), ((3, 2), (1, 2)), ((2, 3), (3, 3)), ((3, 1), (2, 1)),
           ((4, 2), (3, 2))]  # (n, d_k), (m, d_k): no two sizes alike, except one d_k = m


def _grid(rows, cols, start):
    values = np.arange(start, start + rows * cols, dtype=float).reshape(rows, cols)
    return (values * 7) % 11 - 5  # small distinct integers, both signs


_CASES = [(frozen_array(_grid(*q, 1)), frozen_array(_grid(*k, 3 + q[0]))) for q, k in _SHAPES]


def _any_of(*imitations):
    """A detector: the learner's answers agree with one of these imitations."""
    mistakes = [Mistake("", "", imitation=f) for f in imitations]

    def detect(outcomes):
        for mistake in mistakes:
            found = mistake.telling_outcome(SCORE_LOOP_EXERCISE, outcomes)
            if found is not None:
                return found
        return None

    return detect


def _rows(q):
    return range(q.shape[0])


def _cols(k):
    return range(k.shape[0])


SCORE_LOOP_EXERCISE = Exercise(
    "score_loop(Q, K)",
    cases=[Case(args) for args in _CASES],
    reference=lambda query, key: score_grid(query, key),
    mistakes=[
        Mistake("keys and queries swapped",
                "{call} gave {got}, an m×n grid: its rows belong to the keys. Row i of S is "
                "query i, column j is key j: S[i, j] = Q[i] @ K[j], in an n×m grid "
                "({expected}).",
                imitation=lambda q, k: k @ q.T),
        Mistake("missing transpose",
                "{call} gave {got}: that is Q @ K, which pairs rows of Q with COLUMNS of K. "
                "Each score pairs a row of Q with a row of K: S[i, j] = Q[i] @ K[j].",
                imitation=lambda q, k: q @ k),
        Mistake("square grid n×n",
                "{call} gave {got}: your grid has n rows and n columns. It needs one column "
                "per KEY: np.zeros((n, m)) with m = K.shape[0], and j in range(m).",
                detect=_any_of(lambda q, k: filled(q, k, _rows(q), _rows(q), (len(q), len(q))))),
        Mistake("grid as wide as d_k",
                "{call} gave {got}: your grid has d_k columns, one per SLOT. `n, m = Q.shape` "
                "reads d_k, not the number of keys, and np.zeros_like(Q) is n×d_k. The grid "
                "needs one column per key: m = K.shape[0], np.zeros((n, m)).",
                detect=_any_of(lambda q, k: filled(q, k, _rows(q), range(q.shape[1]),
                                                    q.shape))),
        Mistake("rows share one list",
                "{call} gave {got}: every row is the same. [[0] * m] * n makes n references "
                "to ONE list, so writing a row writes them all. Build each row anew, e.g. "
                "[[0] * m for _ in range(n)], or use np.zeros((n, m)).",
                detect=_any_of(lambda q, k: np.tile(q[-1] @ k.T, (len(q), 1)))),
        Mistake("np.zeros(n, m) without brackets",
                "{call} raised TypeError: np.zeros(n, m) reads m as a data type. The shape is "
                "ONE argument, a pair in brackets: np.zeros((n, m)).",
                detect=zeros_without_brackets),
        Mistake("inner loop over n",
                "{call} gave {got}: the inner loop counts the queries (range(n)), but j "
                "walks over the KEYS: for j in range(m), with m = K.shape[0].",
                detect=_any_of(lambda q, k: filled(q, k, _rows(q), _rows(q)))),
        Mistake("same index for query and key",
                "{call} gave {got}: every cell of row i holds the same number, Q[i] @ K[i]. "
                "Cell (i, j) pairs query i with key j: Q[i] @ K[j].",
                detect=_any_of(lambda q, k: filled(q, k, _rows(q), _cols(k), same_index=True))),
        Mistake("multiplied without adding up",
                "{call}: Q[i] * K[j] gives d_k products, one per slot, but a cell holds ONE "
                "number: their sum, the dot product Q[i] @ K[j] (or np.sum(Q[i] * K[j])).",
                detect=multiplied_only),
        Mistake("loop starts at 1",
                "{call} gave {got}: the first row or column is still 0. Python counts from "
                "0: range(n) runs 0, 1, …, n − 1, so start the loops at 0.",
                detect=_any_of(lambda q, k: filled(q, k, range(1, len(q)), _cols(k)),
                               lambda q, k: filled(q, k, _rows(q), range(1, len(k))),
                               lambda q, k: filled(q, k, range(1, len(q)), range(1, len(k))))),
        Mistake("loop stops one early",
                "{call} gave {got}: the last row or column is still 0. range(n) already "
                "stops at n − 1, the last row: no `- 1` needed.",
                detect=_any_of(lambda q, k: filled(q, k, range(len(q) - 1), _cols(k)),
                               lambda q, k: filled(q, k, _rows(q), range(len(k) - 1)))),
        Mistake("counted from 1 to n",
                "{call} raised IndexError: the loop runs past the last row. Rows are numbered "
                "0 to n − 1 in Python: use range(n) and range(m), not range(1, n + 1).",
                detect=ran_past_the_end),
        Mistake("divided by √d_k",
                "{call} gave {got}: the scores were divided by √d_k. That scaling is the step "
                "of notebook 08; here a cell is the plain dot product Q[i] @ K[j].",
                imitation=lambda q, k: q @ k.T / np.sqrt(q.shape[1])),
        Mistake("divided by d_k",
                "{call} gave {got}: the scores were divided by d_k. No scaling belongs here "
                "(and notebook 08's is √d_k): a cell is the plain dot product Q[i] @ K[j].",
                imitation=lambda q, k: q @ k.T / q.shape[1]),
        Mistake("multiplied the sums",
                "{call} gave {got}: each cell is (Σ of Q[i]) × (Σ of K[j]). Multiply slot by "
                "slot first, then add: Σₜ Q[i, t] K[j, t] = Q[i] @ K[j].",
                imitation=lambda q, k: q.sum(1)[:, None] * k.sum(1)[None, :]),
        Mistake("left out the first slot",
                "{call} gave {got}: the loop over the d_k slots starts at 1, so slot 0's "
                "product is missing from every cell. range(d_k) starts at 0.",
                imitation=lambda q, k: q[:, 1:] @ k[:, 1:].T),
        Mistake("added instead of multiplied",
                "{call} gave {got}: each cell adds the slots (Σ (qₜ + kₜ)). A dot product "
                "MULTIPLIES matching slots, then adds: Q[i] @ K[j].",
                imitation=lambda q, k: q.sum(1)[:, None] + k.sum(1)[None, :]),
        Mistake("sign turned round",
                "{call} gave {got}: every score has the wrong sign (a `-=` or a minus sign "
                "crept in). S[i, j] = +Q[i] @ K[j]; expected {expected}.",
                imitation=lambda q, k: -q @ k.T),
        Mistake("left out the last slot",
                "{call} gave {got}: the loop over the d_k slots stops one early "
                "(range(d_k - 1)), so the last slot's product is missing from every cell.",
                imitation=lambda q, k: q[:, :-1] @ k[:, :-1].T),
        Mistake("= instead of +=",
                "{call} gave {got}: each cell holds only the LAST slot's product: "
                "`S[i, j] = Q[i, t] * K[j, t]` replaces the cell at every t. Add: `+=`.",
                imitation=lambda q, k: q[:, -1:] @ k[:, -1:].T),
        Mistake("appended after the loop",
                "{call} gave {got}, only the last row: `S.append(row)` sits after the loop over "
                "the queries, so it runs once. Indent it into the loop over i.",
                imitation=lambda q, k: q[-1:] @ k.T),
        Mistake("return inside the loop",
                "{call} gave {got}: only the start of the grid is filled. The `return` sits "
                "inside a loop, so the function ends on its first round: move it after both "
                "loops (no indent).",
                detect=_any_of(lambda q, k: filled(q, k, range(1), _cols(k)),
                               lambda q, k: filled(q, k, range(1), range(1)))),
    ],
)


def evaluate_score_loop(func):
    """The :class:`~course_lib.exercises.core.Feedback` on a learner's ``score_loop``."""
    return SCORE_LOOP_EXERCISE.evaluate(func)


def check_score_loop(func):
    """Print feedback on a learner's ``score_loop(Q, K)``."""
    SCORE_LOOP_EXERCISE.check(func)
