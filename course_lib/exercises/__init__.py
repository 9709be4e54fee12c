"""Exercises with feedback: one module per notebook, on the framework in ``core``.

Each module has ``check_x(func)`` (prints one paragraph of feedback) and ``evaluate_x(func)``
(returns the :class:`~course_lib.exercises.core.Feedback` object tests inspect). A new
exercise is an :class:`~course_lib.exercises.core.Exercise`: hidden cases, a reference, and
the typical mistakes with their hints; a number worked out by hand is a
:class:`~course_lib.exercises.by_hand.HandExercise` with its typical :class:`Slip` values.
"""

from .by_hand import HandExercise, Slip
from .core import Case, Exercise, Feedback, Mistake

__all__ = ["Case", "Exercise", "Feedback", "HandExercise", "Mistake", "Slip"]
