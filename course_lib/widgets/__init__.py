"""Dashboards: ipywidgets sliders wired to the course's pictures, one module per notebook.

Every dashboard is a :class:`course_lib.widgets.base.Dashboard` (an ``ipywidgets.VBox``):
the notebook displays it; its callbacks are plain functions tests call without a browser.
Import the one you need, e.g. ``from course_lib.widgets.vectors import vector_dashboard``.
"""

from .base import Dashboard, float_slider, int_slider

__all__ = ["Dashboard", "float_slider", "int_slider"]
