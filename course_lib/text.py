"""Numbers as printed text for notebook cells and readouts: a true minus sign, fixed decimals,
rows and tables in columns, so that a cell shows the maths and not the string padding.

>>> print(labelled("weights:", [0.5, 0.25, 0.25], digits=2, width=10))
weights:  0.50  0.25  0.25
"""

__all__ = ["fmt", "labelled", "numbers", "rows_text", "short", "table_row"]


def fmt(x, digits=2):
    """A number with a fixed number of decimals and a true minus sign (−), never '-0.00'.

    >>> fmt(-1.5), fmt(2, 1), fmt(-0.0001)
    ('−1.50', '2.0', '0.00')
    """
    text = f"{float(x):.{digits}f}"
    if float(text) == 0:
        text = text.lstrip("-")
    return text.replace("-", "−")


def short(x, digits=2):
    """A number with as few decimals as it needs, at most ``digits``, and a true minus sign:
    the squares of half-steps (2.25, 6.25) are shown whole, so labels that add up read so.

    >>> short(2.25), short(9.0), short(-0.5), short(1 / 3)
    ('2.25', '9', '−0.5', '0.33')
    """
    text = fmt(x, digits)
    return text.rstrip("0").rstrip(".") if "." in text else text


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
