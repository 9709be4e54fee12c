"""The verdict on one attempt, the slip row every table is made of, and the one rule that picks
the explanation when several fit."""

import re
from dataclasses import dataclass, field

__all__ = ["FAILED", "MISTAKE", "NOT_ATTEMPTED", "PASSED", "Feedback", "NoPrediction", "Slip",
           "capital", "fill", "pick"]

PASSED, NOT_ATTEMPTED, MISTAKE, FAILED = "passed", "not attempted", "mistake", "failed"


@dataclass
class Feedback:
    """The verdict on one attempt; ``str(feedback)`` is the paragraph the learner reads.

    ``mistake`` is the name of the slip named (several joined by " / " when they tie), ``case``
    the hidden case that showed it, ``outcomes`` what the function did on every case.
    """

    status: str
    message: str
    mistake: str | None = None
    case: object = None
    outcomes: list = field(default_factory=list, repr=False)

    @property
    def passed(self):
        return self.status == PASSED

    def __str__(self):
        return self.message


class NoPrediction(Exception):
    """Raised by a slip's or a relation's formula when it says nothing about a case (the slip
    cannot be made there); any other exception is what the slip itself would raise."""


@dataclass(frozen=True)
class Slip:
    """One row of a slip table: a typical slip, how to see it, and what to tell the learner.

    Give one way to see it:

    ``gives``
        what the slip returns, as a function of the case's inputs (a code exercise's arguments,
        a by-hand exercise's givens as keywords), or a tuple of such functions for several forms
        of one slip. The slip is seen when the learner's answer equals it on every case where it
        differs from the right answer (and on at least one case).
    ``raises``
        an exception class, or ``(class, "words in its message")``: seen on the cases where the
        learner's function raised it.
    ``when``
        a predicate on an :class:`~course_lib.exercises.engine.Outcome`, for a slip that is not
        one formula: seen when it holds on every wrong outcome (at a tie, a ``gives`` or
        ``raises`` row is named before it).

    ``hint`` is what is specific to the slip; the framework writes the framing ("{call} gave
    {got}; expected {expected}.") before it. It may use ``{call}``, ``{got}``, ``{expected}`` and
    the exercise's named quantities or givens. ``example`` is a learner-style answer that makes
    the slip (the tests check it is named by this row and by no other); a ``gives`` row is its
    own example.
    """

    name: str
    hint: str
    gives: object = None
    raises: object = None
    when: object = None
    example: object = None

    def __post_init__(self):
        if sum(x is not None for x in (self.gives, self.raises, self.when)) != 1:
            raise ValueError(f"slip {self.name!r}: give exactly one of gives, raises or when")

    def forms(self):
        """The functions that compute this slip's answer (several forms of one slip)."""
        if self.gives is None:
            return ()
        return tuple(self.gives) if isinstance(self.gives, (tuple, list)) else (self.gives,)


_SYMBOLS = {"exp", "ln", "log", "np"}  # names that are only symbols (cos, max … are words too)


def capital(name):
    """A slip's name starting a sentence, unless it starts with a symbol (q, d_k, e⁰, p₁, cos θ):
    capitalising those would change what they mean.

    >>> capital("a position past the end"), capital("q with itself"), capital("e⁰ taken as 0")
    ('A position past the end', 'q with itself', 'e⁰ taken as 0')
    >>> capital("square-rooted"), capital("bytes, not KiB"), capital("ln 3 read as 3")
    ('Square-rooted', 'Bytes, not KiB', 'ln 3 read as 3')
    """
    first = name.split(" ", 1)[0].rstrip(",.:;").replace("-", "")
    word = first == "a" or (len(first) > 1 and first.isascii() and first.isalpha()
                            and first not in _SYMBOLS)
    return name[:1].upper() + name[1:] if word else name


_PLACEHOLDER = re.compile(r"\{([^{}\s]+)\}")


def fill(text, values):
    """Put ``values`` into the ``{name}`` placeholders of ``text``; unknown names stay as they
    are (a hint may show braces of its own).

    >>> fill("{got} is not {answer} {x}", {"got": "49", "answer": "7"})
    '49 is not 7 {x}'
    """
    return _PLACEHOLDER.sub(lambda m: str(values.get(m.group(1), m.group(0))), text)


def pick(candidates):
    """THE rule that decides between explanations that fit the same answer.

    ``candidates`` are (explained, tier, name, payload): ``explained`` how many wrong
    outcomes the explanation accounts for, ``tier`` 0 for the exercise's own table, 1 for a
    general relation, 2 for a plain statement about the answer's form. The explanation that
    accounts for the most wins; at a tie the lower tier (the more specific words); explanations
    still tied are all named, so a tie is never broken by the order of a table.

    >>> [c[2] for c in pick([(2, 1, "sign", None), (2, 0, "no root", None),
    ...                      (1, 0, "other", None)])]
    ['no root']
    >>> [c[2] for c in pick([(3, 0, "a", None), (3, 0, "b", None)])]
    ['a', 'b']
    """
    candidates = [c for c in candidates if c[0] > 0]
    if not candidates:
        return []
    best = max((c[0], -c[1]) for c in candidates)
    chosen, names = [], set()
    for c in candidates:
        if (c[0], -c[1]) == best and c[2] not in names:
            chosen.append(c)
            names.add(c[2])
    return chosen


def describe_failure(outcome, call):  # used by core.py until every table is migrated
    """The message for a wrong answer no slip explains: the failing call and the answer."""
    from ._values import show

    case = outcome.case
    if case.raises is not None:
        got = (f"returned {show(outcome.value)}" if outcome.error is None
               else f"raised {type(outcome.error).__name__}")
        return (f"Not yet: {call} {got}, but it should raise {case.raises.__name__} "
                "with a message that says what is wrong with the input.")
    if outcome.error is not None:
        return (f"Not yet: {call} raised {type(outcome.error).__name__}: "
                f"{show(str(outcome.error))}. The answer should be {show(case.expected)}.")
    return (f"Not yet: the smallest case where it goes wrong is {call}, which returned "
            f"{show(outcome.value)}; the answer is {show(case.expected)}.")
