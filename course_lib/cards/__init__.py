"""Self-test cards, notebook by notebook: the source's checklist questions plus cards that make
the learner compute.

Each notebook group keeps its extra cards in one module (``nb00`` for 00_python, ``nb01_04``,
``nb05_07``, …) as a tuple ``CARDS``; :func:`deck` gathers a notebook's cards in course order
(notebook 0 is 00_python, the one 00 with cards). Card text may hold
LaTeX between ``$…$``: the cards widget (:mod:`course_lib.quiz`) and the static
``<details>`` twin both typeset it. Plain data, no imports beyond the standard library.
"""

from dataclasses import dataclass

from ..checklist import CHECKLIST

__all__ = ["Card", "all_cards", "deck"]


@dataclass(frozen=True)
class Card:
    """One self-test card: a question, its answer, the notebook it belongs to, and whether
    answering it means computing something (True) rather than recalling it."""

    question: str
    answer: str
    notebook: int
    computes: bool = False


def all_cards():
    """Every extra card of the course (the checklist questions not included), in module order."""
    from . import nb00, nb01_04, nb05_07, nb08_10, nb11_13, nb14_16, nb16, nb17

    return [card for module in (nb00, nb01_04, nb05_07, nb08_10, nb11_13, nb14_16, nb16,
                                          nb17)
            for card in module.CARDS]


def deck(notebook):
    """The cards of one notebook: its checklist questions first, then its extra cards.

    >>> deck(2)[0].notebook, deck(2)[0].question.startswith("How do you compute the norm")
    (2, True)
    """
    checklist = [Card(q.question, q.answer, q.notebook) for q in CHECKLIST
                 if q.notebook == notebook]
    return checklist + [card for card in all_cards() if card.notebook == notebook]
