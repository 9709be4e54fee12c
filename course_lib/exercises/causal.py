"""Exercise of notebook 11: the causal mask, built by a loop.

``causal_mask_loop(n, m)`` returns an n × m grid (a list of n rows of m truth values), True
where query i may attend to key j, that is where j ≤ i (top-left aligned, like
``course_lib.causal_mask``).

Slips:

- diagonal blocked: ``j < i`` (or ``range(i)``), so a query cannot see its own token.
- one key ahead: ``j <= i + 1`` (or ``range(i + 2)``), each query sees the next token too.
- future instead of past: ``j >= i``, the upper triangle.
- True means blocked: ``j > i``, the mask read the other way round.
- aligned bottom-right: ``j <= i + m - n``, the last query sees the last key.
- rows and columns swapped: an m × n grid (the loops in the wrong order).
- n for the keys: an n × n grid whatever m is.
- rows longer than m: ``[True] * (i + 1) + [False] * (m − i − 1)`` gives row i, i ≥ m, too
  many cells when n > m.
- one column too many / one column short: ``range(m + 1)`` or ``range(m - 1)`` for the keys.
- one row too many: ``range(n + 1)`` for the queries.
- one row short: ``range(n - 1)`` leaves out the last query.
- return inside the loop: only the first row comes back.
- one flat list: the n·m cells in one list instead of n rows.
- text instead of truth values: 'T' / 'F' (or 'True') strings in the cells.
- one row shared by every row: ``[row] * n`` repeats the SAME list, so every row ends up
  like the last one.
"""

import numpy as np

from .core import Case, Exercise, Mistake

__all__ = ["CAUSAL_EXERCISE", "check_causal_mask_loop", "evaluate_causal_mask_loop"]


def _grid(n, m, allowed, rows=None, cols=None):
    """An n × m grid with cell (i, j) = allowed(i, j); rows/cols override the counts."""
    return np.array([[allowed(i, j) for j in range(m if cols is None else cols)]
                     for i in range(n if rows is None else rows)], dtype=bool).reshape(
        n if rows is None else rows, m if cols is None else cols)


def _rows_too_long(outcomes):
    """Row i has min(i + 1, m) Trues but max(i + 1, m) cells: ``[True] * (i + 1) + [False] *
    (m − i − 1)`` overflows past the m keys once i + 1 > m. Right everywhere else."""
    telling = None
    for o in outcomes:
        n, m = o.case.args
        if o.correct:
            continue
        try:
            rows = [list(row) for row in o.value]
        except Exception:
            return None
        want = [[True] * (i + 1) + [False] * (m - i - 1) for i in range(n)]
        if n <= m or rows != want:
            return None
        telling = telling or o
    return telling


def _holds_text(value):
    try:
        return any(isinstance(cell, str) for row in value for cell in row)
    except TypeError:
        return False


CAUSAL_EXERCISE = Exercise(
    "causal_mask_loop(n, m)",
    cases=[Case(args) for args in [(3, 3), (2, 4), (4, 2), (1, 1), (5, 5), (1, 3), (3, 1),
                                   (4, 6)]],
    reference=lambda n, m: _grid(n, m, lambda i, j: j <= i),
    mistakes=[
        Mistake("diagonal blocked",
                "{call} → {got}: the diagonal is blocked, so no query may attend to its own "
                "token. Query i sees keys 0 … i, itself included: j <= i (range(i + 1)).",
                imitation=lambda n, m: _grid(n, m, lambda i, j: j < i)),
        Mistake("one key ahead",
                "{call} → {got}: each query also sees the next key, i + 1, which is the "
                "token it must predict. Allow j <= i, i.e. range(i + 1) counting from 0.",
                imitation=lambda n, m: _grid(n, m, lambda i, j: j <= i + 1)),
        Mistake("future instead of past",
                "{call} → {got}: the upper triangle, each query sees itself and the LATER "
                "keys. Causal means the past: key j is allowed when j <= i.",
                imitation=lambda n, m: _grid(n, m, lambda i, j: j >= i)),
        Mistake("True means blocked",
                "{call} → {got}: True sits on the blocked cells. In this course True means "
                "MAY attend, so True where j <= i.",
                imitation=lambda n, m: _grid(n, m, lambda i, j: j > i)),
        Mistake("aligned bottom-right",
                "{call} → {got}: your triangle ends in the bottom-right corner (j <= i + m − "
                "n). Here the mask is top-left aligned, like course_lib.causal_mask: query i "
                "sees keys 0 … i, whatever m is.",
                imitation=lambda n, m: _grid(n, m, lambda i, j: j <= i + m - n)),
        Mistake("rows and columns swapped",
                "{call} → {got}, a grid of m rows and n columns. The grid has one ROW per "
                "query (n rows) and one column per key (m columns): the outer loop runs over "
                "the queries i.",
                imitation=lambda n, m: _grid(n, m, lambda i, j: j <= i, rows=m, cols=n)),
        Mistake("rows and columns swapped",
                "{call} → {got}, a grid of m rows and n columns. The grid has one ROW per "
                "query (n rows) and one column per key (m columns): the outer loop runs over "
                "the queries i.",
                imitation=lambda n, m: _grid(n, m, lambda i, j: i <= j, rows=m, cols=n)),
        Mistake("n for the keys",
                "{call} → {got}, an n × n grid. There are m keys, so each row has m cells: "
                "the inner loop is range(m).",
                imitation=lambda n, m: _grid(n, m, lambda i, j: j <= i, cols=n)),
        Mistake("rows longer than m",
                "{call} → {got}: once i + 1 > m, [True] * (i + 1) + [False] * (m − i − 1) runs "
                "past the m keys (a negative count of False adds nothing). Every row has "
                "exactly m cells: [j <= i for j in range(m)].",
                detect=_rows_too_long),
        Mistake("one column too many",
                "{call} → {got}: each row has m + 1 cells. range(m + 1) counts one key too many: "
                "range(m) gives the m keys 0 … m − 1.",
                imitation=lambda n, m: _grid(n, m, lambda i, j: j <= i, cols=m + 1)),
        Mistake("one column short",
                "{call} → {got}: each row has m − 1 cells, the last key is missing. range(m - 1) "
                "stops one early: range(m) gives the m keys 0 … m − 1.",
                imitation=lambda n, m: [[j <= i for j in range(m - 1)] for i in range(n)]),
        Mistake("one row too many",
                "{call} → {got}: n + 1 rows. range(n + 1) counts one query too many: range(n) "
                "gives the n rows 0 … n − 1.",
                imitation=lambda n, m: _grid(n, m, lambda i, j: j <= i, rows=n + 1)),
        Mistake("one row short",
                "{call} → {got}: the last query's row is missing. range(n - 1) stops one early: "
                "range(n) gives the n rows 0 … n − 1.",
                imitation=lambda n, m: [[j <= i for j in range(m)] for i in range(n - 1)]),
        Mistake("return inside the loop",
                "{call} → {got}: only the first row. The `return` sits inside the loop, so "
                "the function stops after row 0; put it after the loop, at the function's "
                "indentation.",
                imitation=lambda n, m: _grid(n, m, lambda i, j: j <= i, rows=1)),
        Mistake("one row shared by every row",
                "{call} → {got}: every row is the same. `[row] * n` (or `[[False] * m] * n`) "
                "repeats ONE list n times, so writing into one row writes into all of them. "
                "Build a new row for each query: [[False] * m for _ in range(n)].",
                imitation=lambda n, m: _grid(n, m, lambda i, j: j <= n - 1)),
        Mistake("one flat list",
                "{call} → {got}: all the cells in one long list. The mask is a grid: a list "
                "of n rows, each a list of m truth values (build `row` inside the loop over i "
                "and append it).",
                imitation=lambda n, m: [j <= i for i in range(n) for j in range(m)]),
        Mistake("text instead of truth values",
                "{call} → {got}: the cells are text ('T', 'True', …). A mask holds the truth "
                "values True and False themselves (j <= i gives one), without quotes.",
                detect=lambda outcomes: next((o for o in outcomes if o.error is None
                                              and _holds_text(o.value)), None)),
    ],
)


def evaluate_causal_mask_loop(func):
    """The :class:`~course_lib.exercises.core.Feedback` on a learner's ``causal_mask_loop``."""
    return CAUSAL_EXERCISE.evaluate(func)


def check_causal_mask_loop(func):
    """Print feedback on a learner's ``causal_mask_loop(n, m)``."""
    CAUSAL_EXERCISE.check(func)
