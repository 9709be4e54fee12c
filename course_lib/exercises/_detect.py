"""Detectors shared by the exercise checkers: Python slips that are not one wrong formula.

A detector takes the list of :class:`~course_lib.exercises.cases.Outcome` of a learner's
function and returns the outcome that shows the slip (or None); ``Mistake(detect=...)``
fills its hint from that outcome. This module defines no exercise (its name starts with _).
"""

import numpy as np

from .core import Mistake

__all__ = ["CARET_RAISED", "LISTS_HINT", "LIST_SQUARED", "everywhere_like", "first_of",
           "lists_used_as_arrays", "matches_everywhere", "power_with_caret", "quiet", "raised",
           "raised_everywhere", "raised_name_error", "returned", "rounded", "text_back"]


def raised(kind, words):
    """A detector for a Python slip that raises: the first case on which the learner's
    function raised ``kind`` with ``words`` in its message.

    >>> from .cases import Case, Outcome
    >>> slip = Outcome(Case(([1.0],)), error=TypeError("'list' object is not callable"))
    >>> raised(TypeError, "not callable")([slip]) is slip
    True
    """
    def detect(outcomes):
        return next((o for o in outcomes if isinstance(o.error, kind) and words in str(o.error)),
                    None)
    return detect


def returned(test):
    """A detector: the first case whose returned value passes ``test(outcome)`` (a test that
    raises on an odd value, a ragged list say, counts as not passed)."""
    def passes(outcome):
        try:
            return outcome.error is None and bool(test(outcome))
        except Exception:
            return False

    def detect(outcomes):
        return next((o for o in outcomes if passes(o)), None)
    return detect


def quiet(detector):
    """``detector`` that gives None instead of raising on a value it cannot read, so the
    checker goes on to the next slip."""
    def detect(outcomes):
        try:
            return detector(outcomes)
        except Exception:
            return None
    return detect


def first_of(exercise, outcomes, *imitations):
    """The first outcome showing one of these slips, each an ``imitation`` as in
    :class:`~course_lib.exercises.core.Mistake` (several forms of one slip)."""
    for imitation in imitations:
        found = Mistake("", "", imitation=imitation).telling_outcome(exercise, outcomes)
        if found is not None:
            return found
    return None


def text_back(outcomes):
    """The first case that returned text (``str(x)`` or an f-string) instead of numbers."""
    return next((o for o in outcomes if o.error is None and isinstance(o.value, str)), None)


def lists_used_as_arrays(outcomes):
    """The first case that raised a TypeError about a Python list (``a * g``, ``x @ w``,
    ``s - top`` or ``~allowed`` on lists), when at least half the cases did."""
    raised_ = [o for o in outcomes if isinstance(o.error, TypeError) and "list" in str(o.error)]
    return raised_[0] if raised_ and 2 * len(raised_) >= len(outcomes) else None


LISTS_HINT = ("{call} raised TypeError: the inputs are Python lists, and lists do no "
              "arithmetic (`a * g`, `x @ w`, `s - top` and `~allowed` all fail on them). Convert "
              "them first, e.g. `a = np.asarray(a)`, or work number by number in a loop.")


def _close(a, b):
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    return a.shape == b.shape and bool(np.allclose(a, b, rtol=1e-7, atol=1e-9, equal_nan=True))


def matches_everywhere(outcomes, func):
    """The first outcome where the slip ``func(case)`` shows, when the answer makes it on
    every case where it shows (a detector for slips whose imitation needs the expected
    value; a case where ``func`` raises or gives the right answer tells nothing)."""
    telling = None
    for outcome in outcomes:
        if outcome.case.raises is not None:
            continue
        try:
            wrong = np.asarray(func(outcome.case), dtype=float)
            if _close(wrong, outcome.case.expected):
                continue  # the slip does not show on this case
        except Exception:
            continue
        try:
            if outcome.error is not None or not _close(outcome.value, wrong):
                return None
        except Exception:
            return None
        telling = telling or outcome
    return telling


def everywhere_like(outcomes, imitation):
    """The first wrong outcome when the answer equals ``imitation(*args)`` on EVERY case, right
    or wrong (for a slip that coincides with another on the cases where it shows)."""
    for outcome in outcomes:
        try:
            if outcome.error is not None or not _close(outcome.value,
                                                       imitation(*outcome.case.args)):
                return None
        except Exception:
            return None
    return next((o for o in outcomes if not o.correct), None)


def raised_name_error(outcomes):
    """The first outcome, when every case raised NameError (a name never defined)."""
    if outcomes and all(isinstance(o.error, NameError) for o in outcomes):
        return outcomes[0]
    return None


def power_with_caret(outcomes, xor_version):
    """``^`` used as a power: a TypeError that names ^ on every case, or the XOR answer."""
    if outcomes and all(isinstance(o.error, TypeError)
                        and ("^" in str(o.error) or "bitwise_xor" in str(o.error))
                        for o in outcomes):
        return outcomes[0]
    return matches_everywhere(outcomes, lambda case: xor_version(*case.args))


def rounded(outcomes):
    """The first wrong outcome, when every answer is the right one rounded to 0–3 decimals
    (``round``, ``np.round`` or ``int``, which cuts the decimals off)."""
    for cut in [lambda x, d=d: np.round(x, d) for d in range(4)] + [np.trunc]:
        found = matches_everywhere(outcomes, lambda case, f=cut: f(np.asarray(case.expected,
                                                                               float)))
        if found is not None:
            return found
    return None


def raised_everywhere(kind):
    """A detector: ``kind`` raised on every case (a loop that always runs one step too far),
    not only on the short inputs a fixed-size answer cannot handle."""
    def detect(outcomes):
        return outcomes[0] if outcomes and all(isinstance(o.error, kind) for o in outcomes) \
            else None
    return detect


# Two slips of squaring the slots of a list q, shared by length(q) and sum_of_squares(q).
CARET_RAISED = Mistake(
    "caret for power",
    "{call} raised TypeError: `^` is not a power in Python (it is a bitwise operation on whole "
    "numbers). Write x ** 2 or x * x for a square.", detect=raised(TypeError, "^"))
LIST_SQUARED = Mistake(
    "squared the whole list",
    "{call} raised TypeError: `q ** 2` tries to square the whole list, which Python cannot do. "
    "Square one slot at a time inside a loop: `x ** 2` for x in q.",
    detect=raised(TypeError, "pow(): 'list'"))
