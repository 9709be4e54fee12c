"""A function's code as a notebook shows it: the lines under its ``def`` and docstring."""

import ast
import inspect
import textwrap

__all__ = ["source_body"]


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
