"""Exercises of notebook 01: a sentence as its list of vectors, the number in slot i, and
slot 3 read by hand.

Slips
-----
embed(sentence, table):

- table order: the vectors come out in the table's order, not the sentence's.
- dropped repeats: a repeated word gives its vector only once (a set or dict was used).
- flattened: all the numbers joined into one long list instead of one list per word.
- return inside the loop: only the first word's vector comes back.
- whole sentence as a key: ``table[sentence]`` looks the list itself up (TypeError).
- returned the words: the words come back instead of their vectors.
- returned a dict: a dict word → vector instead of a list in the sentence's order.
- changed its input: the sentence or the table was changed in place (named by the framework).

slot(q, i):

- counted from 0: ``q[i]`` gives slot i + 1 (Python counts positions from 0).
- counted from the end: ``q[-i]`` reads the list backwards.
- returned the slot number: ``i`` comes back instead of the number in slot i.
- slot 0 wraps round: ``q[i - 1]`` with i = 0 quietly gives the last slot, ``q[-1]``.
- returned a list: a one-slot slice ``q[i - 1:i]`` instead of the number.
- changed its input: q was changed in place (named by the framework).

By hand, q₃ of q = [4, −1, 6, 2, 8, 5, 3]: counted from 0 (2), counted from the end (8),
gave the slot number (3), one slot early (−1), gave the number of slots (7).
"""

from .by_hand import HandExercise, Slip
from .core import Case, Exercise, Mistake

__all__ = ["EMBEDDING_EXERCISE", "SLOT_EXERCISE", "SLOT_HAND", "check_embed", "check_slot",
           "check_slot_by_hand", "evaluate_embed", "evaluate_slot"]

_TABLE = {"the": [0.5, -1.0], "cat": [2.0, 1.5], "sat": [-1.0, 0.5], "on": [0.0, -2.0],
          "mat": [1.5, 2.5]}


def _error_says(kind, words):
    # a detector: every case raised `kind` with these words in its message
    def detect(outcomes):
        return all(isinstance(o.error, kind) and words in str(o.error) for o in outcomes)
    return detect


def _returned(test):
    # a detector: the first outcome whose value passes `test`
    def detect(outcomes):
        return next((o for o in outcomes if o.error is None and test(o)), None)
    return detect


def _words_back(outcome):
    value = outcome.value
    return (isinstance(value, (list, tuple)) and len(value) > 0
            and all(isinstance(v, str) for v in value))


EMBEDDING_EXERCISE = Exercise(
    "embed(sentence, table)",
    cases=[Case(s) for s in (
        (["cat"], _TABLE), (["the", "cat"], _TABLE), (["cat", "the"], _TABLE),
        (["mat", "on", "sat"], _TABLE), (["the", "cat", "sat", "on", "the", "mat"], _TABLE))],
    reference=lambda sentence, table: [table[word] for word in sentence],
    show_args=lambda args: f"{args[0]!r}, table",
    mistakes=[
        Mistake("whole sentence as a key",
                "{call} raised TypeError: `table[sentence]` looks the whole list up as one "
                "word. Look up one word at a time: loop over the sentence.",
                detect=_error_says(TypeError, "unhashable")),
        Mistake("returned the words",
                "{call} gave back the words themselves, {got}. Look each word up in the table "
                "and return its vector: {expected}.", detect=_returned(_words_back)),
        Mistake("returned a dict",
                "{call} returned a dict. A dict keeps each word once and forgets the "
                "sentence's order: return a list with one vector per word, {expected}.",
                detect=_returned(lambda o: isinstance(o.value, dict))),
        Mistake("return inside the loop",
                "{call} gave {got}, only the first word's vector: the `return` sits inside "
                "the loop, so the function stops after one word. Return after the loop.",
                imitation=lambda sentence, table: [table[sentence[0]]]),
        Mistake("table order",
                "{call} gave the vectors in the table's order, not the sentence's. Position "
                "matters: 'cat the' and 'the cat' must give their vectors in opposite orders, "
                "so loop over the words of the sentence.",
                imitation=lambda sentence, table: [v for w, v in table.items() if w in sentence]),
        Mistake("dropped repeats",
                "{call} gave {got}: a word that appears twice must give its vector twice "
                "(a set or dict drops repeats); expected {expected}.",
                imitation=lambda sentence, table: [table[w] for w in dict.fromkeys(sentence)]),
        Mistake("flattened",
                "{call} joined all the numbers into one long list, {got}. Keep one vector (one "
                "list) per word, so the result is a list of lists: {expected}.",
                imitation=lambda sentence, table: [x for w in sentence for x in table[w]]),
    ],
)

_Q = [4.0, -1.0, 6.0, 2.0, 8.0, 5.0, 3.0]

SLOT_EXERCISE = Exercise(
    "slot(q, i)",
    cases=[Case((_Q, i)) for i in (1, 3, 5, 7)] + [Case(([9.0, -2.0], 2)), Case(([7.5], 1)),
                                                    Case((_Q, 0), raises=IndexError)],
    reference=lambda q, i: q[i - 1],
    mistakes=[
        Mistake("returned a list",
                "{call} gave {got}, a list. qᵢ is one number: return q[i - 1], not a slice.",
                detect=_returned(lambda o: isinstance(o.value, (list, tuple)))),
        Mistake("counted from 0",
                "{call} gave {got}, the number in the NEXT slot: Python counts positions from "
                "0, so slot i lives at q[i - 1] (slot 1 is q[0]); expected {expected}.",
                imitation=lambda q, i: q[i]),
        Mistake("counted from the end",
                "{call} gave {got}: q[-i] counts from the end of the list. Slot i counts from "
                "the start, at q[i - 1]; expected {expected}.", imitation=lambda q, i: q[-i]),
        Mistake("returned the slot number",
                "{call} gave {got}, the slot number i itself. Return the number sitting in "
                "slot i, q[i - 1]; expected {expected}.", imitation=lambda q, i: float(i)),
        Mistake("slot 0 wraps round",
                "your numbers are right, but slot(q, 0) returned a number: q[0 - 1] is q[-1], "
                "the LAST slot, and Python says nothing. There is no slot 0 (slots count from "
                "1): check 1 ≤ i ≤ len(q) first and raise IndexError otherwise.",
                detect=lambda outcomes: all(o.correct for o in outcomes if o.case.raises is None)
                and any(o.error is None for o in outcomes if o.case.raises is not None)),
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
    Slip("gave the number of slots", 7.0, "{got} is how many slots q has (its L); q₃ is the "
         "number in slot 3."),
], tolerance=0.01)


def evaluate_embed(func):
    """The :class:`~course_lib.exercises.core.Feedback` on a learner's ``embed``."""
    return EMBEDDING_EXERCISE.evaluate(func)


def check_embed(func):
    """Print feedback on a learner's ``embed(sentence, table)``."""
    EMBEDDING_EXERCISE.check(func)


def evaluate_slot(func):
    """The :class:`~course_lib.exercises.core.Feedback` on a learner's ``slot``."""
    return SLOT_EXERCISE.evaluate(func)


def check_slot(func):
    """Print feedback on a learner's ``slot(q, i)``."""
    SLOT_EXERCISE.check(func)


def check_slot_by_hand(value):
    """Print feedback on the number typed for q₃."""
    SLOT_HAND.check(value)
