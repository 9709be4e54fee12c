"""Self-test cards: a question, a "Show answer" button, and "I knew it" / "Not yet" buttons
with a running tally. Built from plain ipywidgets; maths between ``$…$`` is typeset by
``HTMLMath`` with the MathJax that JupyterLab already has (nothing from a CDN).

Each card block has a static twin, :func:`details_markdown`, the same questions and answers
as collapsed ``<details>`` blocks for a markdown cell, so GitHub and the HTML edition show them
too. Notebooks and tests take both from one source, :func:`course_lib.cards.deck` (the
checklist questions of :mod:`course_lib.checklist` plus each notebook's computing cards).
"""

import html

import ipywidgets as widgets

from .cards import deck
from .checklist import CHECKLIST

__all__ = ["Deck", "details_markdown", "self_test"]


class Deck(widgets.VBox):
    """A stack of self-test cards with a tally line on top.

    The button handlers call plain methods (:meth:`reveal`, :meth:`grade`) that tests call
    directly, without a browser. Every control is a real button (Tab and Enter or Space work);
    the tally and a status line are ARIA live regions, so a screen reader announces a shown
    answer and a new tally.
    """

    def __init__(self, questions):
        self.questions = list(questions)
        self.grades = [None] * len(self.questions)  # None, True ("I knew it") or False
        self.tally, self.status = widgets.HTML(), widgets.HTML()
        self.answers, self.cards = [], []
        # Every widget, its Layout and its Style is a model the kernel sends to the browser
        # (about a millisecond each): the cards share the looks that never change. Only an
        # answer's layout is its own (reveal() shows that one answer).
        self._shared = {
            "card": widgets.Layout(border="1px solid #b0b0b0", padding="0.4em",
                                   margin="0.3em 0"),
            "row": widgets.Layout(), "button": widgets.Layout(), "text": widgets.Layout(),
            "show": widgets.ButtonStyle(),
            # white text on dark green / dark orange: over 6:1 (the stock styles are under 3:1)
            "knew": widgets.ButtonStyle(button_color="#1b5e20", text_color="#ffffff"),
            "not_yet": widgets.ButtonStyle(button_color="#8a4b00", text_color="#ffffff"),
        }
        for index, item in enumerate(self.questions):
            self.cards.append(self._card(index, item))
        super().__init__(children=[self.tally, *self.cards, self.status])
        self._update_tally()

    def _card(self, index, item):
        shared = self._shared
        text = html.escape(item.question, quote=False)
        question = widgets.HTMLMath(f"<b>{index + 1}. {text}</b>", layout=shared["text"])
        answer = widgets.HTMLMath(html.escape(item.answer, quote=False),
                                  layout={"display": "none"})
        self.answers.append(answer)
        number = index + 1
        show = widgets.Button(description="Show answer",
                              tooltip=f"Show the answer to card {number}",
                              layout=shared["button"], style=shared["show"])
        knew = widgets.Button(description="I knew it", tooltip=f"I knew card {number}",
                              layout=shared["button"], style=shared["knew"])
        not_yet = widgets.Button(description="Not yet", tooltip=f"Not yet for card {number}",
                                 layout=shared["button"], style=shared["not_yet"])
        show.on_click(lambda _button: self.reveal(index))
        knew.on_click(lambda _button: self.grade(index, True))
        not_yet.on_click(lambda _button: self.grade(index, False))
        row = widgets.HBox([show, knew, not_yet], layout=shared["row"])
        return widgets.VBox([question, row, answer], layout=shared["card"])

    def reveal(self, index):
        """Show the answer of card ``index``."""
        self.answers[index].layout.display = None
        self.status.value = _live(f"Answer to card {index + 1} shown below its question.")

    def grade(self, index, knew_it):
        """Record "I knew it" (True) or "Not yet" (False) for card ``index``; the last click
        counts."""
        self.grades[index] = bool(knew_it)
        self._update_tally()

    def _update_tally(self):
        self.tally.value = _live(f"<b>{self.tally_text()}</b>")

    def tally_text(self):
        """The tally line, e.g. 'Knew 2 of 3 · not yet 1 · not graded 0'."""
        knew = sum(g is True for g in self.grades)
        not_yet = sum(g is False for g in self.grades)
        left = sum(g is None for g in self.grades)
        return (f"Knew {knew} of {len(self.grades)} · not yet {not_yet} · "
                f"not graded {left}")

    def __repr__(self):
        # The plain-text form where widgets cannot render: point to the static twin.
        if len(self.questions) == 1:
            cards = "1 self-test card: run the notebook to use it"
        else:
            cards = f"{len(self.questions)} self-test cards: run the notebook to use them"
        return f"[{cards}. The answers are also in the blocks below.]"


def _live(text):
    """HTML that a screen reader reads out whenever it changes (a polite live region)."""
    return f'<div role="status" aria-live="polite">{text}</div>'


def _questions(notebook):
    if notebook is None:
        return list(CHECKLIST)
    if isinstance(notebook, int):
        return deck(notebook)
    return list(notebook)  # already a sequence of questions (anything with .question, .answer)


def self_test(notebook=None):
    """The cards of one notebook (:func:`course_lib.cards.deck`): ``notebook`` is its number,
    None for the whole checklist, or a sequence of one's own cards (objects with ``question``
    and ``answer``, such as :class:`course_lib.cards.Card`)."""
    return Deck(_questions(notebook))


def details_markdown(notebook=None):
    r"""The static twin of :func:`self_test` (same argument): one collapsed ``<details>``
    block per question, for a markdown cell.

    >>> print(details_markdown(2).splitlines()[0])
    <details><summary><b>How do you compute the norm $\lVert q \rVert$ of a vector?</b></summary>
    >>> details_markdown(2).endswith("</details>")
    True
    """
    questions = _questions(notebook)
    return "\n\n".join(
        f"<details><summary><b>{html.escape(q.question, quote=False)}</b></summary>\n\n"
        f"{html.escape(q.answer, quote=False)}\n\n</details>" for q in questions)
