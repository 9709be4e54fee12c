"""The checker of every code exercise: run the learner's function on hidden cases, then explain
a wrong answer by the exercise's slip table and by the general relations.

The verdict is a :class:`~course_lib.exercises.feedback.Feedback`:

* ``"not attempted"``: the function is still the stub (it raises ``NotImplementedError`` or
  returns ``None`` or ``...``), so "Run All" works and the cell is easy to find;
* ``"passed"``: right on every case, inputs left as they were;
* ``"mistake"``: a slip or a relation explains the answer; the message frames the case that
  shows it ("{call} gave {got}; expected {expected}.") and adds the slip's own hint;
* ``"failed"``: wrong for no reason the checker can name; the message shows the smallest
  failing case.

How an explanation is chosen is :func:`~course_lib.exercises.feedback.pick`: the one that
accounts for the most wrong cases, the exercise's own table before a general relation at a tie,
and every explanation still tied named together. The checker never raises, whatever the learner
wrote: an exception, a print, text, ragged lists, NaN, an input changed in place.
"""

import contextlib
import io
import warnings
from dataclasses import dataclass

import numpy as np

from . import relations
from ._values import copy_args, numeric, same, same_value, show
from .feedback import (
    FAILED,
    MISTAKE,
    NOT_ATTEMPTED,
    PASSED,
    Feedback,
    NoPrediction,
    capital,
    fill,
    pick,
)

__all__ = ["Case", "CodeExercise", "Outcome"]


@dataclass(frozen=True)
class Case:
    """One hidden case: the arguments, and the answer or the exception the function must raise
    (``raises=IndexError``: the function must refuse these arguments)."""

    args: tuple
    expected: object = None
    raises: type | None = None

    def size(self):
        """How many numbers the case shows; the smallest failing case is shown first."""
        return sum(_count(a) for a in self.args)


def _count(x):
    if isinstance(x, np.ndarray):
        return int(x.size)
    if isinstance(x, (list, tuple)):
        return sum(_count(v) for v in x)
    if isinstance(x, dict):
        return sum(_count(v) for v in x.values())
    return 1


@dataclass
class Outcome:
    """What the learner's function did on one case."""

    case: Case
    value: object = None
    error: BaseException | None = None
    correct: bool = False
    changed_input: bool = False


class CodeExercise:
    """A function the learner writes, checked on hidden cases against a worked solution.

    Parameters
    ----------
    name : the name the notebook checks it by, e.g. ``"length"``.
    call : the function as the learner writes it, e.g. ``"length(q)"``.
    cases : the hidden cases: tuples of arguments, or :class:`Case` for one that must raise.
    solution : the worked solution (a learner could have written it); gives every answer.
    slips : the exercise's slip table, a list of :class:`~course_lib.exercises.feedback.Slip`.
    quantities : named numbers of a case, ``{"d_k": lambda Q, K: Q.shape[-1]}``: the general
        relations try the answer multiplied and divided by each (and its square root), and a
        hint may name them (``{d_k}``).
    rtol, atol : the one comparison's tolerance.
    show_args : optional function(args) -> str that writes a case's arguments.
    """

    def __init__(self, name, call, cases, solution, slips=(), *, quantities=None, rtol=1e-9,
                 atol=1e-9, show_args=None):
        self.name, self.call, self.solution = name, call, solution
        self.function = call.split("(")[0]
        self.arg_names = [a.strip() for a in call[call.index("(") + 1:-1].split(",") if a.strip()]
        self.slips, self.quantities = list(slips), dict(quantities or {})
        self.rtol, self.atol, self.show_args = rtol, atol, show_args
        self.relations = relations.for_code(self.quantities)
        self.cases = []
        for case in cases:
            case = case if isinstance(case, Case) else Case(tuple(case))
            if case.raises is None and case.expected is None:
                case = Case(case.args, solution(*copy_args(case.args)))
            self.cases.append(case)
        names = [s.name for s in self.slips]
        if len(set(names)) != len(names):
            raise ValueError(f"{name}: two slips share a name; one slip, one row")

    def same(self, got, expected):
        return same(got, expected, self.rtol, self.atol)

    # -- running -----------------------------------------------------------------------------
    def run(self, func):
        """Call ``func`` on every case, quietly, and record what it did."""
        outcomes = []
        for case in self.cases:
            outcome, args, before = Outcome(case), copy_args(case.args), copy_args(case.args)
            with _quiet():
                try:
                    outcome.value = func(*args)
                except Exception as exc:  # the learner's code may raise anything
                    outcome.error = exc
            kept = all(same_value(a, b) for a, b in zip(args, before, strict=True))
            outcome.changed_input = not kept or "read-only" in str(outcome.error or "")
            if case.raises is not None:  # refused, and with a message that says why
                outcome.correct = (isinstance(outcome.error, case.raises)
                                   and bool(str(outcome.error).strip()))
            else:
                outcome.correct = outcome.error is None and self.same(outcome.value,
                                                                      case.expected)
            outcomes.append(outcome)
        return outcomes

    def call_text(self, case):
        shown = (self.show_args(case.args) if self.show_args is not None
                 else ", ".join(show(a) for a in case.args))
        return f"{self.function}({shown})"

    def quantity_values(self, case):
        values = {}
        for key, func in self.quantities.items():
            try:
                values[key] = func(*case.args)
            except Exception:
                continue
        return values

    # -- the verdict -------------------------------------------------------------------------
    def evaluate(self, func):
        """Run the cases and return a :class:`Feedback`; never raises."""
        try:
            return self._evaluate(func)
        except Exception as exc:  # a checker bug must not reach the learner as a traceback
            return Feedback(FAILED, f"Not yet: the checker could not read what {self.function} "
                            f"gave back ({type(exc).__name__}). Make sure it returns numbers "
                            "(a number, a list or an array), then run the cell again.")

    def _evaluate(self, func):
        first = self._first_look(func)
        if first is not None:
            return first
        outcomes = self.run(func)
        changed = next((o for o in outcomes if o.changed_input), None)
        if all(o.correct for o in outcomes) and changed is None:
            return Feedback(PASSED, f"Correct: {self.call} gives the right answer on all "
                            f"{len(outcomes)} hidden cases.", outcomes=outcomes)
        chosen = pick(self.explanations(outcomes))
        if chosen:
            return self._named(chosen, outcomes)
        if changed is not None:
            return self._named([(1, 2, relations.CHANGED_INPUT.name,
                                 (relations.CHANGED_INPUT, changed))], outcomes)
        failing = min((o for o in outcomes if not o.correct), key=lambda o: o.case.size())
        advice = (" The error's name and message say what went wrong; call your function on "
                  "this case in a cell of its own to see the line." if failing.error is not None
                  else " Check that case by hand, step by step.")
        return Feedback(FAILED, "Not yet: it goes wrong on this case: "
                        + self.frame(failing) + advice, case=failing.case, outcomes=outcomes)

    def _first_look(self, func):
        """The verdicts that need no hidden case: not a function, the stub, a print."""
        if not callable(func):
            return Feedback(FAILED, f"Not yet: the check needs your function itself, "
                            f"{self.function}, not what it returns: write its name without "
                            f"brackets, as in check(\"{self.name}\", {self.function}). You "
                            f"passed {show(func)}.")
        printed = io.StringIO()
        try:
            with contextlib.redirect_stdout(printed), _quiet(stdout=False):
                value = func(*copy_args(self.cases[0].args))
        except NotImplementedError:
            return Feedback(NOT_ATTEMPTED, f"Not attempted yet: {self.call} is still the stub. "
                            "Replace the line `raise NotImplementedError` with your code, then "
                            "run the cell again.")
        except Exception:
            return None  # a real attempt that fails: judged case by case
        if value is None and printed.getvalue().strip():
            said = " ".join(printed.getvalue().split())
            said = said if len(said) <= 60 else said[:57] + "…"
            return Feedback(MISTAKE, f"Not yet: {self.call} printed {said} but returned None. "
                            "The checker, like any code that calls your function, gets only "
                            "what it returns: end it with `return` and the result.",
                            mistake=relations.PRINTED)
        if value is Ellipsis:
            return Feedback(NOT_ATTEMPTED, f"Not attempted yet: {self.call} returns ... . "
                            "Write its body, end it with `return` and the result, then run "
                            "the cell again.")
        if value is None and self.cases[0].raises is None:
            args = copy_args(self.cases[0].args)
            with _quiet(), contextlib.suppress(Exception):
                func(*args)
            changed = not all(same_value(a, b) for a, b in
                              zip(args, self.cases[0].args, strict=True))
            also = (" It also changed its input in place: build a new result instead."
                    if changed else "")
            return Feedback(MISTAKE, f"Not yet: {self.call} returned None. No return: a "
                            "function hands back only what follows `return`; end it with "
                            f"`return` and the result.{also}", mistake=relations.NO_RETURN)
        return None

    def explanations(self, outcomes):
        """Every explanation that fits: (explained, tier, name, (slip, telling outcome))."""
        wrong = [o for o in outcomes if not o.correct]
        found = []
        for slip in self.slips:
            telling = self._seen(slip, outcomes, wrong)
            if telling:  # a formula or an error says more than a predicate: it wins a tie
                tier = 0.5 if slip.when is not None else 0
                found.append((len(telling), tier, slip.name, (slip, telling[0])))
        for tier, rule in self.relations:
            try:
                telling = rule.seen(self, outcomes, wrong)
            except Exception:  # a relation that cannot read this answer does not fit it
                telling = []
            if telling:
                found.append((len(telling), tier, rule.name, (rule, telling[0])))
        return found

    def _seen(self, slip, outcomes, wrong):
        """The wrong outcomes this table row accounts for ([] if it does not fit)."""
        try:
            if slip.raises is not None:
                kind, words = (slip.raises if isinstance(slip.raises, tuple)
                               else (slip.raises, ""))
                return [o for o in wrong if isinstance(o.error, kind) and words in str(o.error)]
            if slip.when is not None:  # a predicate: said only when it holds on every wrong case
                telling = [o for o in wrong if _holds(slip.when, o)]
                return telling if len(telling) == len(wrong) else []
            best = []
            for form in slip.forms():
                telling = self.follows(lambda case, f=form: f(*copy_args(case.args)), outcomes)
                if len(telling) > len(best):
                    best = telling
            return best
        except Exception:
            return []

    def follows(self, predict, outcomes, errors_count=True):
        """The wrong outcomes that equal ``predict(case)``, when the answer equals it on EVERY
        case where it differs from the right answer ([] when one case contradicts it). Where
        a slip's own formula raises, a learner's function that raised the same kind of error
        follows it too (``errors_count``; a relation's error is only its own limit);
        :class:`NoPrediction` means the slip says nothing about that case."""
        telling = []
        for outcome in outcomes:
            case = outcome.case
            if case.raises is not None and outcome.correct:
                continue  # refused as it should: says nothing about a slip in the values
            try:
                with _quiet():
                    wrong_answer = predict(case)
            except NoPrediction:
                continue
            except Exception as exc:  # the slip raises here: so may the learner's function
                if (errors_count and not outcome.correct and outcome.error is not None
                        and type(outcome.error) is type(exc)):
                    telling.append(outcome)
                continue
            if case.raises is None and self.same(wrong_answer, case.expected):
                continue  # the slip does not show on this case
            if numeric(wrong_answer) is None:
                continue
            if outcome.error is not None or not self.same(outcome.value, wrong_answer):
                return []
            telling.append(outcome)
        return telling if any(o.error is None for o in telling) or len(telling) > 1 else []

    # -- the message -------------------------------------------------------------------------
    def frame(self, outcome):
        """The common framing of a case: what the call gave, and what it should give."""
        call, case = self.call_text(outcome.case), outcome.case
        if outcome.correct and outcome.changed_input:
            return f"{call} gave the right answer but changed its input."
        if outcome.error is not None:
            said = str(outcome.error).strip()
            got = f"raised {type(outcome.error).__name__}" + (f": {_short(said)}" if said else "")
        else:
            got = f"gave {show(outcome.value)}"
        if case.raises is not None:
            if isinstance(outcome.error, case.raises):  # the right kind, with no message
                return f"{call} raised {case.raises.__name__} with no message."
            return f"{call} {got}; it should raise {case.raises.__name__}."
        return f"{call} {got}; expected {show(case.expected)}."

    def _named(self, chosen, outcomes):
        parts, names = [], []
        telling = chosen[0][3][1]
        for _, _, name, (rule, outcome) in chosen:
            names.append(name)
            values = {"call": self.call_text(outcome.case), "expected": show(outcome.case.expected),
                      "got": show(outcome.value) if outcome.error is None
                      else type(outcome.error).__name__,
                      **{k: show(v) for k, v in self.quantity_values(outcome.case).items()}}
            hint = rule.hint(self, outcome) if callable(rule.hint) else rule.hint
            parts.append(f"{capital(name)}: {fill(hint, values)}")
        lead = "Not yet: " + self.frame(telling) + " "
        if len(parts) > 1:
            lead += "This fits more than one slip. "
        return Feedback(MISTAKE, lead + " ".join(parts), mistake=" / ".join(names),
                        case=telling.case, outcomes=outcomes)


def _holds(predicate, outcome):
    try:
        with _quiet():
            return bool(predicate(outcome))
    except Exception:
        return False


def _short(text, limit=80):
    text = " ".join(text.split())
    if "mismatch in its core dimension" in text or "not aligned" in text:
        return "the sizes of a matrix product do not fit"  # NumPy's words, for a learner
    return text if len(text) <= limit else text[:limit - 1] + "…"




@contextlib.contextmanager
def _quiet(stdout=True):
    """No NumPy warning, no Python warning and (unless asked) no print reaches the notebook
    while the learner's code or a slip's formula runs: the feedback says what matters."""
    sink = io.StringIO()
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if stdout:
            with contextlib.redirect_stdout(sink), contextlib.redirect_stderr(sink):
                yield
        else:
            with contextlib.redirect_stderr(sink):
                yield

