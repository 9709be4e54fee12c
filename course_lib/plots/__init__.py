"""Pictures for the course, one module per topic, in matplotlib's gallery shape.

Each ``draw_x(data, ..., ax=None, **kwargs)`` draws one picture into ``ax`` (the current axes
if None) with plain matplotlib and returns the artists it drew; the matching
``update_x(artists, ...)`` moves them in place, which is what the dashboards do at every
slider move. Every number a picture shows comes from the math in ``course_lib``.

Modules: ``style`` (palette, ``course_style()``, ``label_point``), ``notation`` (Unicode
maths for labels), ``grid`` (the one grid-with-numbers drawer), ``fast_render`` (the
dashboards' speed trick, used only by ``course_lib.widgets``), and one module per topic:
``course_map``, ``vectors``, ``norm``, ``summation``, ``dot_product``, ``shadows``,
``matrices``, ``softmax``, ``variance``, ``attention``, ``masks``, ``multihead``,
``gradients``, ``tiled``, ``tiles``, ``low_precision``, ``gpu``. Import what you need, e.g.
``from course_lib.plots.style import course_style``; the names below are also here. Numbers
as printed text are ``course_lib.text``, not pictures.
"""

from .fast_render import figure_png
from .notation import row_label, row_labels, row_words
from .style import PALETTE, ROLE_COLORS, course_style, detached_figure, label_point

__all__ = [
    "PALETTE",
    "ROLE_COLORS",
    "course_style",
    "detached_figure",
    "figure_png",
    "label_point",
    "row_label",
    "row_labels",
    "row_words",
]
