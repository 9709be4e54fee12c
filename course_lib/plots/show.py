"""One-line helpers for the plumbing of notebook cells, so that a cell shows the maths and not
the string padding: rows of numbers as text, a labelled point, the best time of a call.

>>> print(labelled("weights:", [0.5, 0.25, 0.25], digits=2, width=10))
weights:  0.50  0.25  0.25
"""

import time

__all__ = ["best_time", "grid_text", "label_point", "labelled", "numbers", "table_row"]

from .notation import fmt


def numbers(values, digits=2, width=0, sep="  "):
    """The numbers as text, a true minus sign, each right-aligned in ``width`` characters.

    >>> numbers([1, -0.5], digits=1, width=5)
    '  1.0   −0.5'
    """
    return sep.join(f"{fmt(v, digits):>{width}}" for v in values)


def labelled(label, values, digits=2, width=28):
    """A label padded to ``width`` characters, then the numbers: one printed row.

    >>> labelled("x:", [1, 2], digits=0, width=4)
    'x:  1  2'
    """
    return f"{label:<{width}}" + numbers(values, digits)


def grid_text(grid, digits=2):
    """A matrix as nested brackets: '[[1.00, 0.00], [0.50, 0.50]]'.

    >>> grid_text([[1, 0], [0.5, 0.5]], digits=1)
    '[[1.0, 0.0], [0.5, 0.5]]'
    """
    return "[" + ", ".join("[" + numbers(row, digits, sep=", ") + "]" for row in grid) + "]"


def table_row(cells, width=8):
    """Cells of a printed table, each right-aligned in ``width`` characters.

    >>> table_row(["d_k", 64, "1.0e-3"], width=7)
    '    d_k     64 1.0e-3'
    """
    return "".join(f"{cell!s:>{width}}" for cell in cells)


def label_point(ax, text, xy, offset=(6, 6), **kwargs):
    """Write ``text`` beside the point ``xy``, ``offset`` points away (right and up by
    default); keyword arguments go to ``ax.annotate`` (e.g. ``ha="right"``)."""
    return ax.annotate(text, xy, xytext=offset, textcoords="offset points", **kwargs)


def best_time(func, *args, repeats=5):
    """The shortest of ``repeats`` timed calls ``func(*args)``, in seconds (the least
    disturbed by other work on the machine).

    >>> best_time(sum, [1, 2, 3], repeats=3) < 1.0
    True
    """
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        func(*args)
        times.append(time.perf_counter() - start)
    return min(times)
