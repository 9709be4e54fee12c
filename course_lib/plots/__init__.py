"""Pictures for the course, one module per topic, in matplotlib's gallery shape.

Each ``draw_x(..., ax=None)`` draws one picture into ``ax`` (the current axes if None) and
returns the artists it drew; the matching ``update_x(artists, ...)`` moves them in place,
which is what the dashboards do at every slider move. Numbers come from the math in
``course_lib``; nothing here computes them again.

Modules: ``style`` (palette, ``course_style()``), ``render`` (fast PNGs), ``notation`` (Unicode
maths for labels), ``course_map``, ``vectors``, ``norm``, ``summation``, ``dot_product``.
Import what you need, e.g. ``from course_lib.plots.style import course_style``.
"""

from .fast_render import figure_png
from .style import PALETTE, ROLE_COLORS, course_style, detached_figure

__all__ = ["PALETTE", "ROLE_COLORS", "course_style", "detached_figure", "figure_png"]
