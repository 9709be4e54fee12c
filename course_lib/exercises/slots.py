"""Exercises of notebook 01: the number in slot i, in code and by hand.

Slips
-----
slot(q, i):

- counted from 0: ``q[i]`` gives slot i + 1 (Python counts positions from 0).
- counted from the end: ``q[-i]`` reads the list backwards.
- returned the slot number: ``i`` comes back instead of the number in slot i.
- returned the position: ``i - 1`` comes back instead of the number at that position.
- searched for the value: ``q.index(i)`` looks for the number i in q (ValueError).
- shifted slots: ``q[i - 2]``, ``q[i + 1]``, …: right-looking code, a slot or two off.
- always the last slot / always the first slot: q[-1] or q[0] whatever i is.
- slot 0 wraps round: ``q[i - 1]`` with i = 0 quietly gives the last slot, ``q[-1]``.
- returned a list: a one-slot slice ``q[i - 1:i]`` instead of the number.
- round brackets: ``q(i)`` calls the list like a function (TypeError).
- slot 0 not refused: slot 0 returns something (None, 0, …) instead of raising IndexError.
- wrong error type: a missing slot raises something other than IndexError.
- refused the last slot: a range check one short, ``i < len(q)``, raises for i = len(q).
- returned text: ``str(q[i - 1])`` or an f-string instead of the number.
- rounded the number: ``int(q[i - 1])`` or ``round`` cuts the decimals off.
- changed its input: q was changed in place (named by the framework).

By hand, q₃ of q = [4, −1, 6, 2, 8, 5, 3]: counted from 0 (2), counted from the end (8),
gave the slot number (3), one slot early (−1), first slot (4), gave the number of slots (7).
"""

from ._detect import raised, returned, rounded, text_back
from .by_hand import HandExercise, Slip
from .core import Case, Exercise, Mistake

__all__ = ["SLOT_EXERCISE", "SLOT_HAND", "check_slot", "check_slot_by_hand", "evaluate_slot"]

_Q = [4.0, -1.0, 6.0, 2.0, 8.0, 5.0, 3.0]

def _equal(value, number):
    try:
        return float(value) == number
    except (TypeError, ValueError):
        return False


def _numbers_right(outcomes):
    return all(o.correct for o in outcomes if o.case.raises is None) and not any(
        o.changed_input for o in outcomes)


def _zero_gave(outcomes, test):
    # the slot-0 case returned a value (no error) that passes test
    return next((o for o in outcomes if o.case.raises is not None and o.error is None
                 and test(o)), None)


def _refuses_last(outcomes):
    # right everywhere except an error where i is the last slot, len(q)
    wrong = [o for o in outcomes if not o.correct]
    if wrong and all(o.error is not None and o.case.args[1] == len(o.case.args[0]) for o in wrong):
        return wrong[0]
    return None


def _shifted(outcomes):
    # q[i - 1 + shift] for a small shift: right-looking code, off by a slot or two
    for shift in (-1, 2, -2):
        telling = None
        for o in outcomes:
            q, i = o.case.args
            if o.case.raises is not None or not 0 <= i - 1 + shift < len(q):
                continue
            if o.error is not None or not _equal(o.value, q[i - 1 + shift]):
                break
            telling = telling or (None if o.correct else o)
        else:
            if telling is not None:
                return telling
    return None


SLOT_EXERCISE = Exercise(
    "slot(q, i)",
    cases=[Case((_Q, i)) for i in (1, 3, 5, 7)] + [Case(([9.0, -2.0], 2)), Case(([7.5], 1)),
                                                    Case((_Q, 0), raises=IndexError)],
    reference=lambda q, i: q[i - 1],
    mistakes=[
        Mistake("round brackets",
                "{call} raised TypeError: `q(i)` calls the list like a function. A slot is "
                "read with square brackets, `q[i - 1]`.", detect=raised(TypeError, "not callable")),
        Mistake("returned a list",
                "{call} gave {got}, a list. qᵢ is one number: return q[i - 1], not a slice.",
                detect=returned(lambda o: isinstance(o.value, (list, tuple)))),
        Mistake("returned text",
                "{call} gave {got}, text. qᵢ is a number: return q[i - 1] itself, without "
                "str() or an f-string; expected {expected}.", detect=text_back),
        Mistake("rounded the number",
                "{call} gave {got}: int() or round() cut off the decimals. Return the number "
                "exactly as it sits in slot i; expected {expected}.", detect=rounded),
        Mistake("counted from 0",
                "{call} gave {got}, the number in the NEXT slot: Python counts positions from "
                "0, so slot i lives at q[i - 1] (slot 1 is q[0]); expected {expected}.",
                imitation=lambda q, i: q[i]),
        Mistake("counted from the end",
                "{call} gave {got}: q[-i] counts from the end of the list. Slot i counts from "
                "the start, at q[i - 1]; expected {expected}.", imitation=lambda q, i: q[-i]),
        Mistake("searched for the value",
                "{call} raised ValueError: `q.index(i)` searches q for the NUMBER i. To read "
                "slot i, use its position: q[i - 1].", detect=raised(ValueError, "not in list")),
        Mistake("returned the position",
                "{call} gave {got}, the Python position i − 1 itself. Return the number "
                "sitting there, q[i - 1]; expected {expected}.",
                imitation=lambda q, i: float(i - 1)),
        Mistake("returned the slot number",
                "{call} gave {got}, the slot number i itself. Return the number sitting in "
                "slot i, q[i - 1]; expected {expected}.", imitation=lambda q, i: float(i)),
        Mistake("always the last slot",
                "{call} gave {got}, the LAST slot: q[-1] does not depend on i. Read slot i at "
                "q[i - 1]; expected {expected}.", imitation=lambda q, i: q[-1]),
        Mistake("always the first slot",
                "{call} gave {got}, the FIRST slot: q[0] does not depend on i. Read slot i at "
                "q[i - 1]; expected {expected}.", imitation=lambda q, i: q[0]),
        Mistake("shifted slots",
                "{call} gave {got}, the number in another slot: slot i lives at Python position "
                "i − 1, so return q[i - 1]; expected {expected}.",
                detect=lambda outcomes: _shifted(outcomes)),
        Mistake("slot 0 wraps round",
                "your numbers are right, but {call} returned {got}: q[0 - 1] is q[-1], the "
                "LAST slot, and Python says nothing. There is no slot 0 (slots count from "
                "1): check 1 ≤ i ≤ len(q) first and raise IndexError otherwise.",
                detect=lambda outcomes: _numbers_right(outcomes) and _zero_gave(
                    outcomes, lambda o: _equal(o.value, o.case.args[0][-1]))),
        Mistake("slot 0 not refused",
                "your numbers are right, but {call} returned {got}: there is no slot 0 (slots "
                "count from 1), so slot should refuse it: check 1 ≤ i ≤ len(q) first and "
                "`raise IndexError(...)` otherwise (returning a value hides the mistake).",
                detect=lambda outcomes: _numbers_right(outcomes) and _zero_gave(
                    outcomes, lambda o: True)),
        Mistake("wrong error type",
                "your numbers are right, but {call} {got}: a missing slot should raise "
                "IndexError, the error Python itself uses for a position that does not exist.",
                detect=lambda outcomes: all(o.correct for o in outcomes if o.case.raises is None)
                and next((o for o in outcomes if o.case.raises is not None and o.error is not None
                          and not o.correct), None)),
        Mistake("refused the last slot",
                "{call} raised {got}, but q has a slot there: the check is one short "
                "(`i < len(q)` or `range(1, len(q))` leaves out i = len(q)). Slots run from 1 "
                "to len(q), both ends in: 1 <= i <= len(q).", detect=_refuses_last),
    ],
)

SLOT_HAND = HandExercise("q₃ for q = [4, −1, 6, 2, 8, 5, 3]", 6.0, [
    Slip("counted from 0", 2.0, "{got} is q[3], which Python counts from 0: that is slot 4. "
         "Slot 3 is the third number from the left."),
    Slip("counted from the end", 8.0, "{got} is the third number from the right. Slots are "
         "counted from the left, starting at 1."),
    Slip("gave the slot number", 3.0, "{got} is the slot number i = 3 itself; q₃ is the "
         "number sitting in that slot."),
    Slip("one slot early", -1.0, "{got} is q₂, the slot before: count the slots from the left "
         "as 1, 2, 3 and stop at the third."),
    Slip("first slot", 4.0, "{got} is q₁, the first number. q₃ is the third from the left."),
    Slip("gave the number of slots", 7.0, "{got} is how many slots q has (its L); q₃ is the "
         "number in slot 3."),
], tolerance=0.01)


def evaluate_slot(func):
    """The :class:`~course_lib.exercises.core.Feedback` on a learner's ``slot``."""
    return SLOT_EXERCISE.evaluate(func)


def check_slot(func):
    """Print feedback on a learner's ``slot(q, i)``."""
    SLOT_EXERCISE.check(func)


def check_slot_by_hand(value):
    """Print feedback on the number typed for q₃."""
    SLOT_HAND.check(value)
