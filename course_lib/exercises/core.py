"""The checker behind every "Your turn" cell that asks for a function.

An :class:`Exercise` runs the learner's function on hidden cases and compares with a
reference answer. Its verdict is a :class:`Feedback`:

* ``"not attempted"``: the function is still the stub (it raises ``NotImplementedError`` or
  returns ``None`` or ``...``): no error, so "run all" works and the cell is easy to find;
* ``"passed"``: every case is right;
* ``"mistake"``: a known slip was recognised; the message is its hint, filled in with the
  hidden case on which the slip showed (``{call}``, ``{got}`` and ``{expected}`` in a hint);
* ``"failed"``: wrong, for no recognised reason; the message shows the smallest failing case.

The checker never crashes, whatever the function returns or raises; it names a function
that writes into its input (:data:`CHANGED_INPUT`) and one that prints its answer instead of
returning it (:data:`PRINTED`). ``exercise.evaluate(func)`` returns the
Feedback (tests inspect it); ``exercise.check(func)`` prints it as one paragraph.
"""

import contextlib
import io
from dataclasses import dataclass

import numpy as np

from .cases import Case, Outcome, breaks_only_on, copy_args, frozen_array, same_value, show
from .feedback import FAILED, MISTAKE, NOT_ATTEMPTED, PASSED, Feedback, describe_failure

__all__ = ["CHANGED_INPUT", "PRINTED", "Case", "Exercise", "Feedback", "Mistake", "Outcome",
           "breaks_only_on", "frozen_array"]

CHANGED_INPUT, PRINTED = "changed its input", "printed instead of returning"


@dataclass(frozen=True)
class Mistake:
    """A typical slip, how to recognise it, and the hint to give.

    Give one of:
    ``imitation``: a function that makes the slip on purpose; the learner's function is
    recognised when it agrees with the imitation on every case where the imitation is wrong
    (its answers are "wrong in exactly that way");
    ``detect``: a function(outcomes) -> bool, or the telling :class:`Outcome`, for slips that
    are not one wrong formula (returning a list instead of a number, not refusing bad input).
    """

    name: str
    hint: str
    imitation: object = None
    detect: object = None

    def telling_outcome(self, exercise, outcomes):
        """The first outcome that shows this slip, or None if the answer does not make it."""
        if self.detect is not None:
            found = self.detect(outcomes)
            if isinstance(found, Outcome):
                return found
            return next((o for o in outcomes if not o.correct), outcomes[0]) if found else None
        telling = None
        for outcome in outcomes:
            case = outcome.case
            if case.raises is not None:
                continue
            try:
                wrong = self.imitation(*copy_args(case.args))
            except Exception:
                continue
            if exercise.same(wrong, case.expected):
                continue  # the slip does not show on this case
            if outcome.error is not None or not exercise.same(outcome.value, wrong):
                return None
            telling = telling or outcome
        return telling


class Exercise:
    """Hidden cases, a reference solution, and the slips worth recognising.

    Parameters
    ----------
    title : the function the learner writes, as it is called, e.g. "dot_loop(q, k)".
    cases : list of :class:`Case`; expected values are filled in from ``reference``.
    reference : the correct function.
    mistakes : list of :class:`Mistake`, most specific first; the first match is reported.
    rtol, atol : tolerance when comparing numbers.
    show_args : optional function(args) -> str that writes a case's arguments for the learner.
    """

    def __init__(self, title, cases, reference, mistakes=(), rtol=1e-9, atol=1e-9,
                 show_args=None):
        self.title, self.name = title, title.split("(")[0]
        self.show_args, self.reference = show_args, reference
        self.mistakes = list(mistakes)
        self.rtol, self.atol = rtol, atol
        self.cases = [c if c.expected is not None or c.raises is not None
                      else Case(c.args, reference(*copy_args(c.args))) for c in cases]

    def same(self, got, expected):
        """Whether ``got`` equals ``expected`` (numbers within tolerance, same shape)."""
        if got is None or got is Ellipsis or isinstance(got, (str, bytes)):
            return False
        try:
            if np.asarray(got).dtype.kind in "USO":  # text ("0.5" parses) or mixed objects
                return False
            got_arr = np.asarray(got, dtype=float)
            expected_arr = np.asarray(expected, dtype=float)
            return got_arr.shape == expected_arr.shape and bool(
                np.allclose(got_arr, expected_arr, rtol=self.rtol, atol=self.atol))
        except Exception:  # ragged lists, strings, objects: not a match
            return False

    def run(self, func):
        """Call ``func`` on every case and record what happened."""
        outcomes = []
        for case in self.cases:
            outcome, args, before = Outcome(case), copy_args(case.args), copy_args(case.args)
            try:
                outcome.value = func(*args)
            except Exception as exc:  # the learner's code may raise anything
                outcome.error = exc
            unchanged = all(same_value(a, b) for a, b in zip(args, before, strict=True))
            outcome.changed_input = not unchanged or "read-only" in str(outcome.error or "")
            if case.raises is not None:
                outcome.correct = isinstance(outcome.error, case.raises)
            else:
                outcome.correct = outcome.error is None and self.same(outcome.value,
                                                                      case.expected)
            outcomes.append(outcome)
        return outcomes

    def call_text(self, case):
        shown = self.show_args(case.args) if self.show_args is not None else case.show_args()
        return f"{self.name}({shown})"

    def evaluate(self, func):
        """Run the cases and return a :class:`Feedback`; never raises."""
        try:
            return self._evaluate(func)
        except Exception as exc:  # a checker bug must not reach the learner as a traceback
            return Feedback(FAILED, f"Not yet: the checker could not read what {self.name} "
                            f"gave back ({type(exc).__name__}). Make sure it returns numbers "
                            "(a number, a list or an array), then run the cell again.")

    def _evaluate(self, func):
        if not callable(func):
            return Feedback(FAILED, f"Not yet: the check needs your function itself, "
                            f"{self.name}, not what it returns: write the name without "
                            f"brackets, as in check_…({self.name}) rather than "
                            f"check_…({self.name}(…)). You passed {show(func)}.")
        printed = io.StringIO()
        try:
            with contextlib.redirect_stdout(printed):
                value = func(*copy_args(self.cases[0].args))
        except NotImplementedError:
            return Feedback(NOT_ATTEMPTED, f"Not attempted yet: {self.title} is still the "
                            "stub. Replace the line `raise NotImplementedError` with your code, "
                            "then run the cell again.")
        except Exception:
            value = 0  # a real attempt that fails: judged below, case by case
        if value is None and printed.getvalue().strip():
            said = " ".join(printed.getvalue().split())
            said = said if len(said) <= 60 else said[:57] + "…"
            return Feedback(MISTAKE, f"Not yet: {self.title} printed {said} but returned None: "
                            "the checker "
                            "(and any code that calls your function) gets only what it "
                            "returns. End it with `return` and the result instead of print.",
                            mistake=PRINTED)
        if value is None or value is Ellipsis:
            returned = "None" if value is None else "..."
            return Feedback(NOT_ATTEMPTED, f"Not attempted yet: {self.title} returns "
                            f"{returned}. Write its body, end it with `return` and the result, "
                            "then run the cell again.")
        outcomes = self.run(func)
        changed = next((o for o in outcomes if o.changed_input), None)
        if all(o.correct for o in outcomes) and changed is None:
            return Feedback(PASSED, f"Correct: your function gives the right answer on all "
                            f"{len(outcomes)} hidden cases, including the tricky ones.",
                            outcomes=outcomes)
        for mistake in self.mistakes:
            try:
                telling = mistake.telling_outcome(self, outcomes)
            except Exception:  # a recogniser that cannot read this answer: not this slip
                continue
            if telling is not None:
                return Feedback(MISTAKE, "Not yet: " + self._fill(mistake.hint, telling),
                                mistake=mistake.name, case=telling.case, outcomes=outcomes)
        if changed is not None:
            hint = ("{call} changed its input in place (a line like `x[i] = …`, `x += …`, "
                    "`x.sort()` or `x.append(…)` writes into the caller's data, which the "
                    "caller still needs). Leave the inputs as they are: build a new result, or "
                    "work on a copy (`x = list(x)` or `x = x.copy()`).")
            return Feedback(MISTAKE, "Not yet: " + self._fill(hint, changed),
                            mistake=CHANGED_INPUT, case=changed.case, outcomes=outcomes)
        failing = min((o for o in outcomes if not o.correct), key=lambda o: o.case.size())
        return Feedback(FAILED, describe_failure(failing, self.call_text(failing.case)),
                        case=failing.case, outcomes=outcomes)

    def _fill(self, hint, outcome):
        """Put the telling case into a hint's ``{call}``, ``{got}`` and ``{expected}``."""
        got = (f"raised {type(outcome.error).__name__}" if outcome.error is not None
               else show(outcome.value))
        return (hint.replace("{call}", self.call_text(outcome.case)).replace("{got}", got)
                .replace("{expected}", show(outcome.case.expected)))

    def check(self, func):
        """Print the feedback on ``func`` as one paragraph (and return nothing)."""
        print(self.evaluate(func))
