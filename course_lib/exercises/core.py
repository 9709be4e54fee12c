"""The checker behind every "Your turn" cell.

An :class:`Exercise` runs the learner's function on hidden cases and compares with a
reference answer. Its verdict is a :class:`Feedback`:

* ``"not attempted"``: the function is still the stub (it raises ``NotImplementedError`` or
  returns ``None`` or ``...``): no error, so "run all" works and the cell is easy to find;
* ``"passed"``: every case is right;
* ``"mistake"``: a known, typical mistake was recognised; the message is its specific hint;
* ``"failed"``: wrong, for no recognised reason; the message shows the smallest failing case.

``exercise.evaluate(func)`` returns the Feedback (tests inspect it); ``exercise.check(func)``
prints it as one paragraph and returns None, so no object repr is printed in the notebook.
"""

import math
from dataclasses import dataclass, field

import numpy as np

__all__ = ["Case", "Exercise", "Feedback", "Mistake", "Outcome", "breaks_only_on", "frozen_array"]

PASSED, NOT_ATTEMPTED, MISTAKE, FAILED = "passed", "not attempted", "mistake", "failed"


@dataclass(frozen=True)
class Case:
    """One hidden test: the arguments, and either the expected value or the expected error."""

    args: tuple
    expected: object = None
    raises: type | None = None  # e.g. ValueError: the function must refuse these arguments

    def size(self):
        """How big the case reads on screen; the smallest failing case is shown first."""
        return sum(np.size(a) for a in self.args)

    def show_args(self):
        return ", ".join(_show(a) for a in self.args)


@dataclass
class Outcome:
    """What the learner's function did on one case."""

    case: Case
    value: object = None
    error: BaseException | None = None
    correct: bool = False


@dataclass(frozen=True)
class Mistake:
    """A typical mistake, how to recognise it, and the hint to give.

    Give one of:
    ``imitation``: a function that makes the mistake on purpose; the learner's function is
    recognised when it agrees with the imitation on every case where the imitation is wrong
    (so the learner's answers are "wrong in exactly that way");
    ``detect``: a function(outcomes) -> bool for mistakes that are not a single wrong
    formula (returning a list instead of a number, not refusing bad input).
    """

    name: str
    hint: str
    imitation: object = None
    detect: object = None

    def matches(self, exercise, outcomes):
        if self.detect is not None:
            return bool(self.detect(outcomes))
        telling = 0
        for outcome in outcomes:
            case = outcome.case
            if case.raises is not None:
                continue
            try:
                wrong = self.imitation(*_copy_args(case.args))
            except Exception:
                continue
            if exercise.same(wrong, case.expected):
                continue  # the mistake does not show on this case
            telling += 1
            if outcome.error is not None or not exercise.same(outcome.value, wrong):
                return False
        return telling > 0


@dataclass
class Feedback:
    """The verdict on one attempt; ``str(feedback)`` is the paragraph the learner reads."""

    status: str
    message: str
    mistake: str | None = None
    case: Case | None = None
    outcomes: list = field(default_factory=list, repr=False)

    @property
    def passed(self):
        return self.status == PASSED

    def __str__(self):
        return self.message


class Exercise:
    """Hidden cases, a reference solution, and the mistakes worth recognising.

    Parameters
    ----------
    title : the function the learner writes, as it is called, e.g. "dot_loop(q, k)".
    cases : list of :class:`Case`; the expected values are filled in from ``reference``
        when left as None.
    reference : the correct function.
    mistakes : list of :class:`Mistake`, most specific first; the first match is reported.
    rtol, atol : tolerance when comparing numbers.

    show_args : optional function(args) -> str that writes a case's arguments for the
        learner (e.g. to name a big table instead of printing it).
    """

    def __init__(self, title, cases, reference, mistakes=(), rtol=1e-9, atol=1e-9,
                 show_args=None):
        self.title = title
        self.show_args = show_args
        self.reference = reference
        self.mistakes = list(mistakes)
        self.rtol, self.atol = rtol, atol
        self.cases = [c if c.expected is not None or c.raises is not None
                      else Case(c.args, reference(*_copy_args(c.args))) for c in cases]

    def same(self, got, expected):
        """Whether ``got`` equals ``expected`` (numbers within tolerance, same shape)."""
        if got is None or got is Ellipsis:
            return False
        try:
            got_arr = np.asarray(got, dtype=float)
            expected_arr = np.asarray(expected, dtype=float)
        except (TypeError, ValueError):
            return False
        if got_arr.shape != expected_arr.shape:
            return False
        return bool(np.allclose(got_arr, expected_arr, rtol=self.rtol, atol=self.atol))

    def run(self, func):
        """Call ``func`` on every case and record what happened."""
        outcomes = []
        for case in self.cases:
            outcome = Outcome(case)
            try:
                outcome.value = func(*_copy_args(case.args))
            except Exception as exc:  # the learner's code may raise anything
                outcome.error = exc
            if case.raises is not None:
                outcome.correct = isinstance(outcome.error, case.raises)
            else:
                outcome.correct = outcome.error is None and self.same(outcome.value,
                                                                      case.expected)
            outcomes.append(outcome)
        return outcomes

    def evaluate(self, func):
        """Run the cases and return a :class:`Feedback`."""
        first = self.cases[0]
        try:
            value = func(*_copy_args(first.args))
        except NotImplementedError:
            return Feedback(NOT_ATTEMPTED, f"Not attempted yet: {self.title} is still the "
                            "stub. Replace the line `raise NotImplementedError` with your code, "
                            "then run the cell again.")
        except Exception:
            value = 0  # a real attempt that fails: judged below, case by case
        if value is None or value is Ellipsis:
            returned = "None" if value is None else "..."
            return Feedback(NOT_ATTEMPTED, f"Not attempted yet: {self.title} returns "
                            f"{returned}. Write its body, end it with `return` and the result, "
                            "then run the cell again.")
        outcomes = self.run(func)
        if all(o.correct for o in outcomes):
            return Feedback(PASSED, f"Correct: your function gives the right answer on all "
                            f"{len(outcomes)} hidden cases, including the tricky ones.",
                            outcomes=outcomes)
        for mistake in self.mistakes:
            if mistake.matches(self, outcomes):
                return Feedback(MISTAKE, f"Not yet: {mistake.hint}", mistake=mistake.name,
                                outcomes=outcomes)
        failing = min((o for o in outcomes if not o.correct), key=lambda o: o.case.size())
        shown = (self.show_args(failing.case.args) if self.show_args is not None
                 else failing.case.show_args())
        call = f"{self.title.split('(')[0]}({shown})"
        return Feedback(FAILED, _describe_failure(failing, call), case=failing.case,
                        outcomes=outcomes)

    def check(self, func):
        """Print the feedback on ``func`` as one paragraph (and return nothing)."""
        print(self.evaluate(func))


def _describe_failure(outcome, call):
    case = outcome.case
    if case.raises is not None:
        if outcome.error is None:
            got = f"returned {_show(outcome.value)}"
        else:
            got = f"raised {type(outcome.error).__name__}"
        return (f"Not yet: {call} {got}, but it should raise {case.raises.__name__} "
                "with a message that says what is wrong with the input.")
    if outcome.error is not None:
        return (f"Not yet: {call} raised {type(outcome.error).__name__}: {outcome.error}. "
                f"The answer should be {_show(case.expected)}.")
    return (f"Not yet: the smallest case where it goes wrong is {call}, which returned "
            f"{_show(outcome.value)}; the answer is {_show(case.expected)}.")


def _copy_args(args):
    # a fresh copy per call, so a function that changes its input cannot spoil later cases
    return tuple(list(a) if isinstance(a, list) else
                 ({k: list(v) for k, v in a.items()} if isinstance(a, dict) else a)
                 for a in args)


def _show(x):
    """Short, readable text for a value: numbers with up to 4 decimals, lists in brackets."""
    if isinstance(x, str):
        return repr(x)
    if isinstance(x, dict):
        return "{" + ", ".join(f"{_show(k)}: {_show(v)}" for k, v in x.items()) + "}"
    if isinstance(x, (list, tuple, np.ndarray)):
        return "[" + ", ".join(_show(v) for v in x) + "]"
    if isinstance(x, (bool, np.bool_)):
        return str(bool(x))
    if isinstance(x, (int, float, np.integer, np.floating)):
        value = float(x)
        if math.isfinite(value) and value == round(value):
            return str(int(value))
        return f"{value:.4g}"
    return repr(x)


def breaks_only_on(outcomes, index):
    """A detector's test: every case but ``index`` is right, and that one raised or gave
    NaN or ±∞ (the mark of an overflowing softmax, or 0/0 on a fully masked row).

    >>> ok, bad = Outcome(Case((1,)), 1.0, None, True), Outcome(Case((2,)), float("nan"))
    >>> breaks_only_on([ok, bad], 1), breaks_only_on([ok, bad], 0)
    (True, False)
    """
    if not all(o.correct for i, o in enumerate(outcomes) if i != index):
        return False
    outcome = outcomes[index]
    if outcome.error is not None:
        return True
    try:
        return not np.isfinite(np.asarray(outcome.value, dtype=float)).all()
    except (TypeError, ValueError):
        return False


def frozen_array(rows):
    """A read-only float array for a hidden case: a function that changes its input in place
    fails on it instead of spoiling the cases after it.

    >>> frozen_array([[1, 2]]).flags.writeable
    False
    """
    array = np.array(rows, dtype=float)
    array.setflags(write=False)
    return array
