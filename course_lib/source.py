"""A function's code as a notebook shows it: the lines under its ``def`` and docstring."""

import ast
import inspect
import textwrap

__all__ = ["source_body"]


def source_body(func, first=None, last=None):
    """The code of a function without its ``def`` line and docstring, dedented.

    ``first`` and ``last`` cut it to the lines from the first one that starts with ``first``
    to the next one that starts with ``last`` (leading spaces ignored), dedented again.

    >>> def halve(x):
    ...     'Half of x.'
    ...     y = x / 2
    ...     return y
    >>> print(source_body(halve))
    y = x / 2
    return y
    >>> source_body(halve, first="return", last="return")
    'return y'
    """
    lines = textwrap.dedent(inspect.getsource(func)).splitlines()
    node = ast.parse("\n".join(lines)).body[0]
    if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
        raise TypeError(f"source_body needs a function defined with def, got {func!r}")
    opening = node.body[0]
    has_docstring = isinstance(opening, ast.Expr) and isinstance(opening.value, ast.Constant) \
        and isinstance(opening.value.value, str)
    if has_docstring and len(node.body) == 1:
        return ""
    start = node.body[1] if has_docstring else opening
    if start.lineno == node.lineno:  # a one-line function: def f(x): return x
        return lines[start.lineno - 1][start.col_offset:].strip()
    begin = opening.end_lineno if has_docstring else start.lineno - 1
    body = textwrap.dedent("\n".join(lines[begin:])).strip("\n")
    return body if first is None and last is None else _cut(body, first, last, func)


def _cut(body, first, last, func):
    """The lines of body from one starting with first to the next starting with last."""
    lines = body.splitlines()
    starts = [i for i, line in enumerate(lines) if first is None or line.lstrip().startswith(first)]
    if not starts:
        raise ValueError(f"no line of {func.__name__} starts with {first!r}")
    ends = [i for i in range(starts[0], len(lines))
            if last is None or lines[i].lstrip().startswith(last)]
    if not ends:
        raise ValueError(f"no line of {func.__name__} after {first!r} starts with {last!r}")
    return textwrap.dedent("\n".join(lines[starts[0]:ends[0] + 1]))
