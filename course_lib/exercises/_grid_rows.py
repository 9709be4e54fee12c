"""The hidden cases and detectors of the stack_rows exercise (notebook 05): a grid's rows and
its refusals of ragged input. This module defines no exercise (its name starts with _)."""

import numpy as np

STACK_CASES = [
    [[1.0, 2.0, 3.0]],
    [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]],
    [[1.0, 0.0, 2.0, -1.0], [0.0, 3.0, 1.0, 2.0]],
    [[2.5], [-1.0], [4.0]],
    [[1.0, 2.0], [3.0, 4.0]],
]
RAGGED_CASES = [[[1.0, 2.0], [3.0]], [[1.0], [2.0, 3.0, 4.0]], [[1.0, 2.0], [3.0], [4.0, 5.0]],
                [[1.0, 2.0], [3.0, 4.0], [5.0]]]  # the last: only the last row differs


def past_the_end(outcomes):
    """An IndexError on every grid: the loop ran one row past the end."""
    found = grids(outcomes)
    return found[0] if found and all(isinstance(o.error, IndexError) for o in found) else None


def grids(outcomes):
    return [o for o in outcomes if o.case.raises is None]


def refusals(outcomes):
    return [o for o in outcomes if o.case.raises is not None]


def accepts_ragged(outcomes):
    """Every grid right, and some ragged input came back without an error."""
    return (all(o.correct for o in grids(outcomes))
            and any(o.error is None for o in refusals(outcomes)))


def wrong_error(outcomes):
    """Every grid right, every ragged input refused, but not always with a ValueError."""
    return (all(o.correct for o in grids(outcomes))
            and all(o.error is not None for o in refusals(outcomes))
            and any(not o.correct for o in refusals(outcomes)))


def refuses_non_square(outcomes):
    """Right on square grids; a ValueError exactly where the width differs from the count."""
    found = None
    for outcome in grids(outcomes):
        vectors = outcome.case.args[0]
        if len(vectors[0]) == len(vectors):
            if not outcome.correct:
                return None
        elif isinstance(outcome.error, ValueError):
            found = found or outcome
        else:
            return None
    return found


def needs_two_rows(outcomes):
    """Right on every grid of two rows or more; an IndexError on a grid of one row
    (``vectors[1]`` read for the length check)."""
    wrong = [o for o in grids(outcomes) if not o.correct]
    if wrong and all(len(o.case.args[0]) == 1 and isinstance(o.error, IndexError) for o in wrong):
        return wrong[0]
    return None


def flat(vectors):
    return np.array([x for row in vectors for x in row], float)  # (n·d,)


def shape_back(outcomes):
    # (n, d) or (d, n): the shape instead of the grid
    return next((o for o in outcomes if o.error is None and not o.correct and isinstance(
        o.value, (tuple, list)) and len(o.value) == 2 and all(isinstance(x, int) for x in o.value)
        and sorted(o.value) == sorted(np.shape(o.case.expected))), None)


def square_grid(vectors):
    # np.zeros((n, n)) filled row by row: a row of one number is spread across the n columns
    grid = np.zeros((len(vectors), len(vectors)))
    for i, row in enumerate(vectors):
        grid[i] = row
    return grid
