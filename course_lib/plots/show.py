"""One-line helpers for the plumbing of notebook cells, so that a cell shows the maths and not
the string padding: rows of numbers as text, a labelled point, the best time of a call.

>>> print(labelled("weights:", [0.5, 0.25, 0.25], digits=2, width=10))
weights:  0.50  0.25  0.25
"""

import ast
import inspect
import textwrap
import time

__all__ = ["best_time", "grid_text", "label_point", "labelled", "numbers", "rows_text",
           "source_body", "table_row"]

from .notation import fmt


def numbers(values, digits=2, width=0, sep="  "):
    """The numbers as text, a true minus sign, each right-aligned in ``width`` characters.

    >>> numbers([1, -0.5], digits=1, width=5)
    '  1.0   −0.5'
    """
    return sep.join(f"{fmt(v, digits):>{width}}" for v in values)


def labelled(label, values, digits=2, width=28, number_width=0, sep="  "):
    """A label padded to ``width`` characters, then the numbers (each right-aligned in
    ``number_width`` characters, ``sep`` between them): one printed row.

    >>> labelled("x:", [1, 2], digits=0, width=4)
    'x:  1  2'
    >>> labelled("w:", [-1, 0.5], digits=1, width=3, number_width=5, sep=" ")
    'w:  −1.0   0.5'
    """
    return f"{label:<{width}}" + numbers(values, digits, number_width, sep)


def rows_text(grid, row_names, digits=2):
    """A matrix as printed lines 'name: numbers', one per row, names right-aligned and the
    numbers in columns as wide as the widest entry.

    >>> print(rows_text([[1, -2.5], [10, 0]], ["a", "bc"], digits=1))
     a:  1.0  −2.5
    bc: 10.0   0.0
    """
    grid = [list(row) for row in grid]
    if len(grid) != len(row_names):
        raise ValueError(f"{len(grid)} rows but {len(row_names)} row names")
    name_width = max((len(str(name)) for name in row_names), default=0)
    width = max((len(fmt(x, digits)) for row in grid for x in row), default=0)
    return "\n".join(f"{name!s:>{name_width}}: " + numbers(row, digits, width)
                     for name, row in zip(row_names, grid, strict=True))


def grid_text(grid, digits=2):
    """A matrix as nested brackets: '[[1.00, 0.00], [0.50, 0.50]]'.

    >>> grid_text([[1, 0], [0.5, 0.5]], digits=1)
    '[[1.0, 0.0], [0.5, 0.5]]'
    """
    return "[" + ", ".join("[" + numbers(row, digits, sep=", ") + "]" for row in grid) + "]"


def table_row(cells, width=8):
    """Cells of a printed table, each right-aligned in ``width`` characters (one number for
    every column, or one per column).

    >>> table_row(["d_k", 64, "1.0e-3"], width=7)
    '    d_k     64 1.0e-3'
    >>> table_row(["n", 1024], width=[3, 6])
    '  n  1024'
    """
    widths = [width] * len(cells) if isinstance(width, int) else list(width)
    if len(widths) != len(cells):
        raise ValueError(f"{len(cells)} cells but {len(widths)} column widths")
    return "".join(f"{cell!s:>{w}}" for cell, w in zip(cells, widths, strict=True))


def label_point(ax, text, xy, offset=(6, 6), **kwargs):
    """Write ``text`` beside the point ``xy``, ``offset`` points away (right and up by
    default); keyword arguments go to ``ax.annotate`` (e.g. ``ha="right"``)."""
    return ax.annotate(text, xy, xytext=offset, textcoords="offset points", **kwargs)


def best_time(func, *args, repeats=5, budget=0.0, sync=None, **kwargs):
    """The shortest of at least ``repeats`` timed calls ``func(*args, **kwargs)`` (more until they
    took ``budget`` seconds in all), in seconds: the least disturbed by other work on the
    machine. ``sync()``, if given, runs inside each timing after the call: pass a GPU's
    synchronize so the time counts the work and not only its launch.

    >>> best_time(sum, [1, 2, 3], repeats=3) < 1.0
    True
    >>> best_time(sorted, [3, 1, 2], reverse=True, repeats=3) < 1.0  # keywords go to the call
    True
    >>> calls = []
    >>> _ = best_time(calls.append, 1, repeats=2, sync=lambda: calls.append("sync"))
    >>> calls
    [1, 'sync', 1, 'sync']
    """
    times = []
    while len(times) < repeats or sum(times) < budget:
        start = time.perf_counter()
        func(*args, **kwargs)
        if sync is not None:
            sync()
        times.append(time.perf_counter() - start)
    return min(times)


def source_body(func):
    """The code of a function without its ``def`` line and docstring, dedented.

    >>> def halve(x):
    ...     'Half of x.'
    ...     return x / 2
    >>> source_body(halve)
    'return x / 2'
    """
    lines = textwrap.dedent(inspect.getsource(func)).splitlines()
    node = ast.parse("\n".join(lines)).body[0]
    if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
        raise TypeError(f"source_body needs a function defined with def, got {func!r}")
    first = node.body[0]
    has_docstring = isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) \
        and isinstance(first.value.value, str)
    if has_docstring and len(node.body) == 1:
        return ""
    start = node.body[1] if has_docstring else first
    if start.lineno == node.lineno:  # a one-line function: def f(x): return x
        return lines[start.lineno - 1][start.col_offset:].strip()
    begin = first.end_lineno if has_docstring else start.lineno - 1
    return textwrap.dedent("\n".join(lines[begin:])).strip("\n")
