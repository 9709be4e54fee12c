"""Exercises of notebooks 05 and 06: stack vectors into a matrix, and compute the score grid
S = QKᵀ (the checker recognises a missing transpose and the other typical slips)."""

import numpy as np

from .. import score_grid
from .core import Case, Exercise, Mistake

__all__ = [
    "SCORES_EXERCISE",
    "STACK_EXERCISE",
    "acts_like",
    "check_scores",
    "check_stack_rows",
    "evaluate_scores",
    "evaluate_stack_rows",
]


def _value_outcomes(outcomes):
    return [o for o in outcomes if o.case.raises is None]


def acts_like(exercise_ref, imitation):
    """A ``detect`` for :class:`~course_lib.exercises.core.Mistake`: the learner's function
    behaves exactly like ``imitation``, errors included (where the imitation raises, so did
    the learner's), on every case, and that differs from the right answer somewhere."""

    def detect(outcomes):
        exercise = exercise_ref()
        telling = 0
        for outcome in _value_outcomes(outcomes):
            try:
                wrong = imitation(*outcome.case.args)
            except Exception:  # the mistake crashes here: so must the learner's code
                if outcome.error is None:
                    return False
                telling += 1
                continue
            if outcome.error is not None or not exercise.same(outcome.value, wrong):
                return False
            telling += not exercise.same(wrong, outcome.case.expected)
        return telling > 0

    return detect


# --- notebook 05: stack row vectors into a grid ------------------------------------------

_STACK_CASES = [
    [[1.0, 2.0, 3.0]],
    [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]],
    [[1.0, 0.0, 2.0, -1.0], [0.0, 3.0, 1.0, 2.0]],
    [[2.5], [-1.0], [4.0]],
]
_RAGGED_CASES = [[[1.0, 2.0], [3.0]], [[1.0], [2.0, 3.0, 4.0]]]


def _accepts_ragged(outcomes):
    values_right = all(o.correct for o in _value_outcomes(outcomes))
    return values_right and any(not o.correct for o in outcomes if o.case.raises is not None)


STACK_EXERCISE = Exercise(
    "stack_rows(vectors)",
    cases=[Case((vectors,)) for vectors in _STACK_CASES]
    + [Case((vectors,), raises=ValueError) for vectors in _RAGGED_CASES],
    reference=lambda vectors: np.array(vectors, dtype=float),
    mistakes=[
        Mistake("stacked as columns",
                "your grid is turned on its side: each vector became a column. In this course "
                "every vector is a ROW, so n vectors of d slots make an n×d grid (n rows, d "
                "columns); row i must be vectors[i].",
                detect=acts_like(lambda: STACK_EXERCISE, lambda v: np.array(v, float).T)),
        Mistake("flattened",
                "you returned one long list of n·d numbers. Keep each vector as its own row: "
                "a list of rows (or np.array of that list), so that the result has 2 axes.",
                detect=acts_like(lambda: STACK_EXERCISE,
                                 lambda v: np.array([x for row in v for x in row], float))),
        Mistake("does not reject different lengths",
                "your grids are right, but vectors of different lengths do not make a grid: "
                "every row of a matrix has the same number of slots. Check that all lengths "
                "are equal and raise ValueError with a message if not.",
                detect=_accepts_ragged),
    ],
)


def evaluate_stack_rows(func):
    """The :class:`~course_lib.exercises.core.Feedback` on a learner's ``stack_rows``."""
    return STACK_EXERCISE.evaluate(func)


def check_stack_rows(func):
    """Print feedback on a learner's ``stack_rows(vectors)``."""
    STACK_EXERCISE.check(func)


# --- notebook 06: the score grid S = QKᵀ --------------------------------------------------

def _grid(rows, cols, start):
    # small distinct integers, so that a transposed or reordered answer is visibly different
    values = np.arange(start, start + rows * cols, dtype=float).reshape(rows, cols)
    return (values * 7) % 11 - 5


# (n, d_k) and (m, d_k) pairs; some with d_k = m, so Q @ K runs and gives the wrong numbers,
# and some with n = m, so Qᵀ @ K and Q * K run too
_SCORE_SHAPES = [((1, 2), (3, 2)), ((2, 3), (3, 3)), ((3, 2), (3, 2)), ((2, 4), (5, 4)),
                 ((4, 2), (2, 2))]
_SCORE_CASES = [(_grid(*q_shape, 1), _grid(*k_shape, 2 + q_shape[0])) for q_shape, k_shape in
                _SCORE_SHAPES]


def _copying(func):
    # the cases are NumPy arrays: hand each call its own copy, so an in-place edit cannot
    # spoil a later case
    def call(query, key):
        return func(np.array(query), np.array(key))
    return call


SCORES_EXERCISE = Exercise(
    "scores(Q, K)",
    cases=[Case(args) for args in _SCORE_CASES],
    reference=lambda query, key: score_grid(query, key),
    mistakes=[
        Mistake("K Qᵀ instead of Q Kᵀ",
                "your grid is m×n: its rows are the keys. That is K Qᵀ, the transpose of the "
                "score grid. Put Q first: S = Q Kᵀ, so that row i belongs to query i and "
                "column j to key j (S_ij = q_i·k_j).",
                detect=acts_like(lambda: SCORES_EXERCISE, lambda q, k: k @ q.T)),
        Mistake("missing transpose",
                "you multiplied Q by K itself. Q is n×d_k and K is m×d_k: the inner sizes "
                "(d_k and m) do not match, so the product fails, or, when d_k happens to equal "
                "m, gives the wrong numbers. Transpose K first (K.T is d_k×m): Q @ K.T.",
                detect=acts_like(lambda: SCORES_EXERCISE, lambda q, k: q @ k)),
        Mistake("transposed Q instead of K",
                "you transposed Q instead of K. Qᵀ K pairs up slots, not vectors; keep the "
                "queries as rows and turn the keys into columns: Q @ K.T.",
                detect=acts_like(lambda: SCORES_EXERCISE, lambda q, k: q.T @ k)),
        Mistake("element-wise product",
                "`*` multiplies matching cells one by one (and only works when the shapes "
                "line up). The matrix product is `@`: row i of Q times column j of Kᵀ, "
                "summed. Use Q @ K.T.",
                detect=acts_like(lambda: SCORES_EXERCISE, lambda q, k: q * k)),
    ],
)


def evaluate_scores(func):
    """The :class:`~course_lib.exercises.core.Feedback` on a learner's ``scores(Q, K)``."""
    return SCORES_EXERCISE.evaluate(_copying(func))


def check_scores(func):
    """Print feedback on a learner's ``scores(Q, K)``."""
    print(evaluate_scores(func))
