"""The "do widgets work here?" check at the top of notebook 00."""

import ipywidgets as widgets

__all__ = ["WidgetCheck"]

# ipywidgets cuts a widget's plain-text form after 110 characters: keep this shorter.
NOT_RENDERED = ("Widgets not showing: open in JupyterLab (make lab), then Kernel → Restart "
                "and Run All.")


class WidgetCheck(widgets.HTML):
    """A green box saying "widgets work"; where no widget front end renders it, its plain-text
    form tells the learner what to do instead (the kernel itself cannot know which one shows).

    >>> len(NOT_RENDERED) <= 110 and repr(WidgetCheck()) == NOT_RENDERED
    True
    """

    def __init__(self):
        super().__init__(value=("<span style='background:#009E73;color:white;padding:2px 8px;"
                                "border-radius:4px'>✓ widgets work</span>"))

    def __repr__(self):
        return NOT_RENDERED
