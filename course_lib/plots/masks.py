"""Pictures of masks (notebook 11): a grid of scores or weights with the blocked cells marked
(grey, "−∞" or "0"), and a mask on its own as ✓ and ✕."""

import matplotlib.pyplot as plt
import numpy as np

from ..backend import to_numpy
from ..text import table_row
from .grid import draw_grid, update_grid

__all__ = ["draw_annotated_grid", "draw_mask", "mask_table", "update_annotated_grid"]


def draw_annotated_grid(values, mask=None, ax=None, row_labels=None, col_labels=None,
                        number_format="{:.2f}", blocked_text="✕", cmap="Blues", vmin=0.0,
                        vmax=1.0, row_title="query", col_title="key", **kwargs):
    """An (n, m) grid of numbers (weights by default: 0 … 1 in blues) with the cells where
    ``mask`` is False painted grey and showing ``blocked_text`` ("−∞" on a grid of scores,
    "0" on a grid of weights). Axis titles: ``row_title`` i, ``col_title`` j; ``kwargs`` go
    to ``ax.pcolormesh``.

    Returns the artists of :func:`course_lib.plots.grid.draw_grid`; pass them to
    :func:`update_annotated_grid`.
    """
    ax = plt.gca() if ax is None else ax
    artists = draw_grid(values, ax=ax, mask=mask, cmap=cmap, vmin=vmin, vmax=vmax,
                        number_format=number_format, blocked_text=blocked_text,
                        row_labels=row_labels, col_labels=col_labels, aspect="auto", **kwargs)
    ax.set_xlabel(f"{col_title} j")
    ax.set_ylabel(f"{row_title} i")
    return artists


def update_annotated_grid(artists, values, mask=None):
    """Show new numbers (and a new mask) in a grid drawn by :func:`draw_annotated_grid`."""
    return update_grid(artists, values, mask)


def draw_mask(mask, ax=None, row_labels=None, col_labels=None, title=None):
    """A boolean mask as a grid: ✓ (may attend) on light cells, ✕ (blocked) on grey ones."""
    ax = plt.gca() if ax is None else ax
    mask = np.asarray(to_numpy(mask), bool)
    artists = draw_annotated_grid(np.full(mask.shape, 0.15), mask, ax=ax, row_labels=row_labels,
                                  col_labels=col_labels, number_format="✓")
    if title is not None:
        artists["title"] = ax.set_title(title, pad=28)
    return artists


def mask_table(mask, row_names, col_names, width=6):
    """A mask as printed text: one row per query, ✓ where it may attend to that key, ✕ where not.

    >>> print(mask_table([[True, False], [True, True]], ["a", "b"], ["a", "b"], width=3))
         a  b
      a  ✓  ✕
      b  ✓  ✓
    """
    lines = [table_row(["", *col_names], width)]
    for name, row in zip(row_names, to_numpy(mask), strict=True):
        lines.append(table_row([name, *("✓" if cell else "✕" for cell in row)], width))
    return "\n".join(lines)
