"""The verdict on one attempt, the slip row every table is made of, and the one rule that picks
the explanation when several fit."""

import re
from dataclasses import dataclass, field

__all__ = ["FAILED", "MISTAKE", "NOT_ATTEMPTED", "PASSED", "Feedback", "NoPrediction", "Slip",
           "capital", "fill", "no_prediction", "pick", "slip_rows"]

PASSED, NOT_ATTEMPTED, MISTAKE, FAILED = "passed", "not attempted", "mistake", "failed"


@dataclass
class Feedback:
    """The verdict on one attempt; ``str(feedback)`` is what the learner reads. ``mistake``:
    the slip named (" / " between tied ones); ``case``: the case that showed it."""

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
    """A slip's formula says nothing about this case; any other exception is the slip's own."""


def no_prediction():
    """Raise :class:`NoPrediction`: for a formula written as one expression (``… else``)."""
    raise NoPrediction


@dataclass(frozen=True)
class Slip:
    """One row of a slip table (CONTRIBUTING.md says what each field holds); ``when`` must hold
    on every wrong outcome, ``example`` is a learner's answer (tested)."""

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
        if self.gives is None:
            return ()
        return tuple(self.gives) if isinstance(self.gives, (tuple, list)) else (self.gives,)


def slip_rows(rows, make=lambda form: form):
    """Slips from rows (name, hint, forms) or :class:`Slip` rows: ``make(form)`` is a function
    of the case for each form (``forms``: a list or tuple, else one form)."""
    slips = []
    for row in rows:
        if not isinstance(row, Slip):
            name, hint, forms = row
            many = isinstance(forms, (list, tuple))
            row = Slip(name, hint, gives=tuple(map(make, forms)) if many else make(forms))
        slips.append(row)
    return slips


_SYMBOLS = {"exp", "ln", "log", "np"}  # names that are only symbols (cos, max … are words too)


def capital(name):
    """A slip's name starting a sentence; a symbol (q, d_k, e⁰, cos θ) keeps its case."""
    first = name.split(" ", 1)[0].rstrip(",.:;").replace("-", "")
    word = first == "a" or (len(first) > 1 and first.isascii() and first.isalpha()
                            and first not in _SYMBOLS)
    return name[:1].upper() + name[1:] if word else name


_PLACEHOLDER = re.compile(r"\{([^{}\s]+)\}")


def fill(text, values):
    """``values`` in the ``{name}`` placeholders of ``text``; unknown names stay as they are."""
    return _PLACEHOLDER.sub(lambda m: str(values.get(m.group(1), m.group(0))), text)


def pick(candidates):
    """THE rule between explanations of one answer, ``(explained, tier, name, payload)``: the
    most wrong outcomes explained wins; at a tie the lower tier (0: the table, 1: a relation,
    2: the form); those still tied are all named, never table order."""
    best = max(((c[0], -c[1]) for c in candidates if c[0] > 0), default=None)
    chosen = {}
    for c in candidates:
        if (c[0], -c[1]) == best:
            chosen.setdefault(c[2], c)  # a name once
    return list(chosen.values())
