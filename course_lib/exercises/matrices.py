"""Exercises of notebook 05: stack vectors into a grid (code), and one entry of Q = XW_Q
worked out by hand.

Slips
-----
``stack_rows(vectors)``:

- stacked as columns: each vector became a column (``np.array(v).T``, ``zip(*v)``);
- flattened: one long list of n·d numbers (or one column) instead of n rows;
- extra brackets: ``np.array([vectors])``, the grid inside another list (3 axes);
- returned the shape: (n, d) instead of the grid;
- rows in reverse order: the last vector on top;
- loop runs one past the end: ``range(len(vectors) + 1)`` raises IndexError;
- return inside the loop: only the first row came back;
- last row left out: the loop stops one early (``range(len(vectors) - 1)``), the row missing or
  left at 0;
- last column left out: each vector's last number dropped (a slice ending one early);
- reshaped instead of transposed: ``reshape(d, n)`` cuts the numbers into rows of n;
- transposed then reshaped: ``.T.reshape(n, d)`` scrambles the rows;
- first vector only: one vector instead of the grid;
- rows shifted by one: ``grid[i] = vectors[i - 1]``;
- rounded the numbers: ``dtype=int`` or ``int()`` cuts the decimals off;
- first row left out: the loop starts at 1 (``range(1, len(vectors))``);
- needs a second row: the length check reads ``vectors[1]``, so one vector raises IndexError;
- grid made square: ``np.zeros((n, n))`` filled row by row, so a one-number row is spread
  across n columns;
- does not reject different lengths: ragged input comes back instead of a ValueError;
- length compared with the number of vectors: ``len(v) != len(vectors)`` refuses good grids;
- wrong kind of error: ragged input raises, but not ValueError (``assert``, ``TypeError``);
- changed its input: the caller's list was modified (named by the framework).

By hand, slot 2 of row 𝐪₂ of Q ("cat"), ``HAND_Q_ENTRY``:

- used W_K: the dot product with column 2 of W_K instead of W_Q;
- column 1 of W_Q / column 3 of W_Q: the neighbouring column;
- row of word 1 / row of word 3: the wrong word (counting from 0 gives word 3, "sat");
- added instead of multiplied: Σ (xⱼ + wⱼ) instead of Σ xⱼwⱼ;
- minus times minus: (−0.6) × (−1) taken as −0.6;
- dropped the minus signs: every product counted as positive;
- last term dropped: only three of the four products added.
"""

import numpy as np

from ._detect import first_of, rounded
from ._grid_rows import (
    RAGGED_CASES,
    STACK_CASES,
    accepts_ragged,
    flat,
    needs_two_rows,
    past_the_end,
    refuses_non_square,
    shape_back,
    square_grid,
    wrong_error,
)
from .by_hand import HandExercise, Slip
from .core import Case, Exercise, Mistake

__all__ = ["HAND_Q_ENTRY", "STACK_EXERCISE", "check_q_entry", "check_stack_rows",
           "evaluate_stack_rows"]

def _one_of(*imitations):
    return lambda outcomes: first_of(STACK_EXERCISE, outcomes, *imitations)


STACK_EXERCISE = Exercise(
    "stack_rows(vectors)",
    cases=[Case((vectors,)) for vectors in STACK_CASES]
    + [Case((vectors,), raises=ValueError) for vectors in RAGGED_CASES],
    reference=lambda vectors: np.array(vectors, dtype=float),
    mistakes=[
        Mistake("stacked as columns",
                "{call} gave {got}: each vector became a COLUMN. In this course every vector "
                "is a ROW, so n vectors of d slots make an n×d grid; row i must be "
                "vectors[i], here {expected}.",
                imitation=lambda v: np.array(v, float).T),
        Mistake("flattened",
                "{call} gave {got}: all the numbers in one line (or one column). Keep each "
                "vector as its own row (a list of rows, or np.array of that list): "
                "{expected}, with 2 axes.",
                detect=_one_of(flat, lambda v: flat(v)[:, None])),
        Mistake("extra brackets",
                "{call} gave {got}: one pair of brackets too many, so the grid sits inside "
                "another list (3 axes). Return the list of rows itself: {expected}.",
                detect=_one_of(lambda v: np.array([v], float),
                               lambda v: np.array(v, float)[:, None])),
        Mistake("returned the shape",
                "{call} gave {got}, the grid's SHAPE (rows, columns). Return the grid itself, "
                "the numbers: {expected}.",
                detect=shape_back),
        Mistake("rows in reverse order",
                "{call} gave {got}: the rows are upside down. Row i must be vectors[i], in "
                "the order given: {expected}.",
                imitation=lambda v: np.array(v[::-1], float)),
        Mistake("return inside the loop",
                "{call} gave {got}: only the first row. A `return` inside the loop ends the "
                "function on its first round; move it after the loop (one indent less).",
                imitation=lambda v: np.array(v[:1], float)),
        Mistake("last row left out",
                "{call} gave {got}, without the last vector: the loop stops one early. "
                "range(len(vectors)) already runs over all n rows, 0 to n − 1.",
                detect=_one_of(lambda v: np.array(v[:-1], float),
                               lambda v: np.array(v, float)[:-1])),
        Mistake("last row left out",
                "{call} gave {got}: the last row is still 0, so the loop that fills the grid "
                "stopped one row early. range(len(vectors)) already ends at the last row; "
                "expected {expected}.",
                imitation=lambda v: np.array(v[:-1] + [[0.0] * len(v[-1])], float)),
        Mistake("last column left out",
                "{call} gave {got}: each row lost its last number (a slice ending one early, "
                "`[:-1]` or `[:d - 1]`). Keep every slot of each vector; expected {expected}.",
                imitation=lambda v: np.array(v, float)[:, :-1]),
        Mistake("reshaped instead of transposed",
                "{call} gave {got}: reshape(d, n) keeps the numbers in reading order and cuts "
                "them into rows of n; it does not turn rows into columns (and here nothing needs "
                "turning): np.array(vectors) is the n × d grid; expected {expected}.",
                imitation=lambda v: np.array(v, float).reshape(len(v[0]), len(v))),
        Mistake("transposed then reshaped",
                "{call} gave {got}: `.T.reshape(n, d)` reads the numbers column by column, so "
                "the rows are scrambled. The vectors are already the rows: np.array(vectors).",
                imitation=lambda v: np.array(v, float).T.reshape(len(v), len(v[0]))),
        Mistake("first vector only",
                "{call} gave {got}, the first vector alone. The grid has one row per vector: "
                "np.array(vectors), shape (n, d); expected {expected}.",
                imitation=lambda v: np.array(v[0], float)),
        Mistake("rows shifted by one",
                "{call} gave {got}: row i holds vector i − 1 (grid[i] = vectors[i - 1] wraps "
                "round to the last vector). Python counts from 0: grid[i] = vectors[i].",
                imitation=lambda v: np.array([v[i - 1] for i in range(len(v))], float)),
        Mistake("rounded the numbers",
                "{call} gave {got}: the decimals were cut off (dtype=int, int() or round()). "
                "Keep the numbers as they are, `np.array(vectors, dtype=float)`; expected "
                "{expected}.", detect=rounded),
        Mistake("loop runs one past the end",
                "{call} raised IndexError: the loop asks for a row after the last one. "
                "range(len(vectors)) runs 0 … n − 1, all n rows; range(len(vectors) + 1) or "
                "range(1, n + 1) goes one too far.",
                detect=past_the_end),
        Mistake("first row left out",
                "{call} gave {got}, without the first vector: Python counts from 0, so the "
                "loop must start at 0 (range(len(vectors))), not at 1.",
                detect=_one_of(lambda v: np.array(v[1:], float),
                               lambda v: np.array(v, float)[1:],
                               lambda v: np.array([[0.0] * len(v[0])] + v[1:], float))),
        Mistake("length compared with the number of vectors",
                "{call} raised ValueError, but that is a proper grid ({expected}). Compare "
                "each vector's length with the FIRST vector's length, not with how many "
                "vectors there are (a grid need not be square).",
                detect=refuses_non_square),
        Mistake("needs a second row",
                "{call} raised IndexError: your length check reads vectors[1], and one vector "
                "has no second row. Compare every vector with vectors[0] in a loop (a grid may "
                "have a single row).", detect=needs_two_rows),
        Mistake("grid made square",
                "{call} gave {got}: the grid was made n × n, np.zeros((len(vectors), "
                "len(vectors))), so a row of one number was copied across every column. n "
                "vectors of d numbers make an n × d grid: np.zeros((len(vectors), "
                "len(vectors[0]))).", imitation=square_grid),
        Mistake("does not reject different lengths",
                "your grids are right, but vectors of different lengths do not make a grid: "
                "every row of a matrix has the same number of slots. Check every vector's "
                "length against the first and raise ValueError with a message if one differs.",
                detect=accepts_ragged),
        Mistake("wrong kind of error",
                "you refuse vectors of different lengths, which is right, but with the wrong "
                "kind of error: write `raise ValueError(\"...\")` (an `assert` raises "
                "AssertionError, which can be switched off).",
                detect=wrong_error),
    ],
)


def evaluate_stack_rows(func):
    """The :class:`~course_lib.exercises.core.Feedback` on a learner's ``stack_rows``."""
    return STACK_EXERCISE.evaluate(func)


def check_stack_rows(func):
    """Print feedback on a learner's ``stack_rows(vectors)``."""
    STACK_EXERCISE.check(func)


# --- by hand: slot 2 of row q₂ of Q = X W_Q ------------------------------------------------
# x₂ = [1.1, 0.1, −0.6, −0.8] ("cat"); column 2 of W_Q = [2, −1, −1, 2]
HAND_Q_ENTRY = HandExercise(
    "slot 2 of row q₂ of Q, x₂ · (column 2 of W_Q)",
    1.1,
    [
        Slip("used W_K", -0.4, "{got} is row x₂ times column 2 of W_K. Queries are made with "
             "W_Q: take column 2 of W_Q, [2, −1, −1, 2]."),
        Slip("column 1 of W_Q", 0.9, "{got} uses column 1 of W_Q. Slot 2 of the query comes "
             "from column 2 of W_Q: [2, −1, −1, 2]."),
        Slip("column 3 of W_Q", -2.1, "{got} uses column 3 of W_Q. Slot 2 of the query comes "
             "from column 2 of W_Q: [2, −1, −1, 2]."),
        Slip("row of word 1", 0.7, "{got} uses row x₁ (\"the\"). Row q₂ of Q is made from "
             "row x₂, the vector of \"cat\": [1.1, 0.1, −0.6, −0.8]."),
        Slip("row of word 3", -2.9, "{got} uses row x₃ (\"sat\"), which is X[2] in Python. "
             "Word 2 is X[1] = [1.1, 0.1, −0.6, −0.8]: the maths counts from 1, Python "
             "from 0."),
        Slip("added instead of multiplied", 1.8, "{got} adds the slots. A dot product "
             "MULTIPLIES matching slots, then adds the four products: 1.1×2 + 0.1×(−1) + …"),
        Slip("minus times minus", -0.1, "{got}: check (−0.6)×(−1): a negative times a "
             "negative is positive, +0.6."),
        Slip("dropped the minus signs", 4.5, "{got} is 2.2 + 0.1 + 0.6 + 1.6: every product "
             "counted as positive. Keep each sign: 1.1×2 + 0.1×(−1) + (−0.6)×(−1) + (−0.8)×2."),
        Slip("last term dropped", 2.7, "{got} adds only three products. There are four slots: "
             "add (−0.8)×2 = −1.6 as well."),
    ],
    tolerance=0.01,
)


def check_q_entry(value):
    """Print feedback on the number worked out by hand for slot 2 of row q₂ of Q."""
    HAND_Q_ENTRY.check(value)
