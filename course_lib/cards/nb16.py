"""Extra self-test cards of notebook 16 (see :mod:`course_lib.cards`)."""

from . import Card

__all__ = ["CARDS"]

CARDS: tuple[Card, ...] = ()
