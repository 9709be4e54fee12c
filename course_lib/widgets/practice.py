""""Another one": a fresh variant of a by-hand exercise, with new numbers, checked the same way.

The box shows the question with this variant's numbers, a field for the answer, a "Check"
button and an "Another one" button. Its handlers call plain methods (:meth:`Practice.check`,
:meth:`Practice.another`) that tests call without a browser; the feedback line is a live
region, read out by a screen reader when it changes.
"""

import html
import re

import ipywidgets as widgets

from ..exercises import exercise

__all__ = ["Practice", "another_one"]

_TRIES = 20  # seeds tried for a question other than the one shown
_DECIMAL_COMMA = re.compile(r"\s*[-−]?\d+,\d+\s*")  # "7,5": one number written the European way


class Practice(widgets.VBox):
    """Fresh variants of one by-hand exercise, numbered from ``seed``."""

    def __init__(self, name, seed=1):
        self.base = exercise(name)
        if getattr(self.base, "draw", None) is None:
            raise ValueError(f"{name!r} has no fresh variants (it is not a by-hand exercise "
                             "with a draw function)")
        self.seed = seed
        self.question = widgets.HTMLMath()
        self.answer = widgets.Text(placeholder="your number", description="Answer:",
                                   continuous_update=False)
        self.feedback = widgets.HTML()
        check = widgets.Button(description="Check", tooltip="Check this answer")
        fresh = widgets.Button(description="Another one", tooltip="New numbers, same question")
        check.on_click(lambda _button: self.check())
        fresh.on_click(lambda _button: self.another())
        self.answer.observe(lambda _change: self.check(), names="value")
        super().__init__(children=[self.question, widgets.HBox([self.answer, check, fresh]),
                                   self.feedback],
                         layout={"border": "1px solid #b0b0b0", "padding": "0.4em"})
        self._show(self.base.variant(self.seed))

    def _show(self, variant):
        self.variant = variant
        self.question.value = (f"<b>Another one:</b> work out {html.escape(variant.title)} "
                               f"(answers within ±{variant.tolerance:g} count).")
        self.answer.value = ""
        self.feedback.value = ""

    def check(self, text=None):
        """Check ``text`` (or what the field holds) against this variant; returns the
        feedback sentence."""
        text = self.answer.value if text is None else text
        if not str(text).strip():
            return ""
        message = str(self.variant.evaluate(str(text)))
        one_number = getattr(self.variant, "answer", None) is not None \
            and self.variant.answer.ndim == 0
        if one_number and _DECIMAL_COMMA.fullmatch(str(text)) and not message.startswith("Correct"):
            message += f" (Write decimals with a dot: {str(text).strip().replace(',', '.')}.)"
        self.feedback.value = (f"<span role='status' aria-live='polite'>"
                               f"{html.escape(message)}</span>")
        return message

    def another(self):
        """A new variant (the next seed whose question differs from the one shown); returns
        its question."""
        shown = self.variant.title
        for _ in range(_TRIES):  # a draw may repeat the question just asked: skip it
            self.seed += 1
            variant = self.base.variant(self.seed)
            if variant.title != shown:
                break
        self._show(variant)
        return self.variant.title

    def __repr__(self):
        # what nbval compares and a reader without a kernel sees
        return "[Another one: the same question with fresh numbers. Run the notebook to use it.]"


def another_one(name, seed=1):
    """The "Another one" box for the by-hand exercise ``name``."""
    return Practice(name, seed)
