"""The checker behind every "By hand" cell: the learner computes a number (or a few) with pen
and paper and types it in.

A :class:`HandExercise` accepts the answer within a tolerance and recognises the typical
arithmetic slips, each a :class:`Slip` with the wrong value it leads to and a hint. Two slips
are recognised for every exercise unless the exercise lists its own value for them: the sign
turned round, and a decimal point in the wrong place (10× or 100× off). A value close to the
answer but outside the tolerance gets "rounded too early".

Whatever is typed (text, ``None``, a list, ``True``, NaN), the learner gets a sentence back,
never a traceback. ``evaluate(value)`` returns the :class:`~course_lib.exercises.core.Feedback`;
``check(value)`` prints it.
"""

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from .cases import show
from .feedback import FAILED, MISTAKE, NOT_ATTEMPTED, PASSED, Feedback

__all__ = ["HandExercise", "Slip"]

SIGN, DECIMAL, ROUNDED = "sign turned round", "decimal point moved", "rounded too early"


@dataclass(frozen=True)
class Slip:
    """A typical arithmetic slip: the value it gives and the hint that explains it.

    ``value`` is a number (or a tuple of numbers, like the answer); ``hint`` may contain
    ``{got}``, which becomes what the learner typed.
    """

    name: str
    value: object
    hint: str


class HandExercise:
    """A number (or tuple of numbers) computed by hand, checked within ``tolerance``.

    Parameters
    ----------
    title : what the learner computes, e.g. "∥[3, 4]∥".
    answer : the right value: a number or a tuple of numbers (e.g. a shape).
    slips : the typical :class:`Slip` values for this computation, most likely first.
    tolerance : the largest accepted absolute difference (say how many decimals to give).

    >>> ex = HandExercise("∥[3, 4]∥", 5.0, [Slip("no square root", 25.0, "take the root.")])
    >>> ex.evaluate(5.0).status, ex.evaluate("5").status, ex.evaluate(25).mistake
    ('passed', 'passed', 'no square root')
    >>> ex.evaluate(-5.0).mistake, ex.evaluate(None).status
    ('sign turned round', 'not attempted')
    """

    def __init__(self, title, answer, slips=(), tolerance=0.01):
        self.title, self.tolerance = title, float(tolerance)
        self.answer = np.asarray(answer, dtype=float)
        self.slips = list(slips) + self._generic_slips(slips)
        for slip in self.slips:  # a slip that looks like the answer could never be named
            if self._close(np.asarray(slip.value, dtype=float), self.answer, 2):
                raise ValueError(f"slip {slip.name!r} gives {slip.value}, too close to the "
                                 f"answer {answer} to tell apart at tolerance {tolerance}")

    def _generic_slips(self, slips):
        own = [np.asarray(s.value, dtype=float) for s in slips]
        generic = []
        if np.any(np.abs(self.answer) > 2 * self.tolerance):
            generic.append(Slip(SIGN, -self.answer, "you have the right size but the wrong "
                                "sign ({got}): check each minus sign, one step at a time (a "
                                "negative times a negative is positive)."))
            for factor in (10.0, 100.0, 0.1, 0.01):
                generic.append(Slip(DECIMAL, self.answer * factor, "{got} has the right "
                                    "digits but the decimal point is in the wrong place: "
                                    "check the step where you divide or multiply by 10, 100 "
                                    "or a square root."))
        return [s for s in generic if not self._close(np.asarray(s.value), self.answer, 2)
                and not any(self._close(np.asarray(s.value), v, 2) for v in own)]

    def _close(self, a, b, times=1):
        return a.shape == b.shape and bool(np.all(np.abs(a - b) <= times * self.tolerance))

    def evaluate(self, value):
        """The :class:`Feedback` on what the learner typed; never raises."""
        if value is None or value is Ellipsis:
            what = "number" if self.answer.shape == () else "numbers"
            return Feedback(NOT_ATTEMPTED, f"Not attempted yet: replace the `...` with the "
                            f"{what} you worked out for {self.title}, then run the cell again.")
        got, problem = _as_numbers(value, self.answer.shape)
        if problem:
            return Feedback(FAILED, f"Not yet: {problem}")
        if self._close(got, self.answer):
            shown = show(got.tolist()) if got.shape else show(float(got))
            return Feedback(PASSED, f"Correct: {self.title} = {shown}.")
        for slip in self.slips:
            if self._close(got, np.asarray(slip.value, dtype=float)):
                return Feedback(MISTAKE, "Not yet: " + slip.hint.replace("{got}", show(value)),
                                mistake=slip.name)
        if self._close(got, self.answer, 10):
            return Feedback(MISTAKE, f"Not yet: {show(value)} is close, but not within "
                            f"±{self.tolerance:g}: keep more decimals in the middle steps and "
                            "round only the final result.", mistake=ROUNDED)
        return Feedback(FAILED, f"Not yet: {show(value)} is not {self.title}. Go through it "
                        "again one step at a time, writing down each intermediate number.")

    def check(self, value):
        """Print the feedback on ``value`` as one paragraph (and return nothing)."""
        print(self.evaluate(value))


def _as_numbers(value, shape):
    """(array, None) for a usable value, or (None, the sentence that says what is wrong)."""
    want = "one number" if shape == () else f"{shape[0]} numbers, like (2, 3)"
    if isinstance(value, (bool, np.bool_)):
        return None, f"{value} is a truth value; type {want}."
    if isinstance(value, str):
        try:
            return np.asarray(float(Fraction(value.strip().replace(" ", "")))), None
        except (ValueError, ZeroDivisionError):
            return None, f"the text {show(value)} is not a number: type {want}, without quotes."
    try:
        got = np.asarray(value, dtype=float)
    except Exception:
        return None, f"{show(value)} is not {want}."
    if got.shape != shape:
        return None, f"you gave {show(value)}, but the answer is {want}."
    if not np.all(np.isfinite(got)):
        return None, f"{show(value)} is not a finite number: type {want}."
    return got, None
