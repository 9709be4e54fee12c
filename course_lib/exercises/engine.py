"""The code checker: the learner's function on hidden cases; a wrong answer explained by the
slip table and the general relations (``feedback.pick``), else its smallest failing case."""

import contextlib
import inspect
import io
import re
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
    slip_rows,
)

__all__ = ["Case", "CodeExercise", "Outcome"]


@dataclass(frozen=True)
class Case:
    """A hidden case: its arguments and answer, or the exception it must raise (``says``: a
    test of its message)."""

    args: tuple
    expected: object = None
    raises: type | None = None
    says: object = None

    def size(self):
        """How many numbers the case shows."""
        return sum(_count(a) for a in self.args)


def _count(x):
    if isinstance(x, np.ndarray):
        return int(x.size)
    x = list(x.values()) if isinstance(x, dict) else x
    return sum(map(_count, x)) if isinstance(x, (list, tuple)) else 1


@dataclass
class Outcome:
    """What the learner's function did on one case."""

    case: Case
    value: object = None
    error: BaseException | None = None
    correct: bool = False
    changed_input: bool = False


class CodeExercise:
    """A learner's function checked on hidden cases (CONTRIBUTING.md). ``loop_only``: calls
    (``"np.dot"``) that pass with a note that a loop was asked; ``whole``: 64.0 for 64 named."""

    def __init__(self, name, call, cases, solution, slips=(), *, quantities=None, rtol=1e-9,
                 atol=1e-9, show_args=None, loop_only=(), whole=False):
        self.name, self.call, self.solution = name, call, solution
        self.function = call.split("(")[0]
        self.arg_names = [a.strip() for a in call[call.index("(") + 1:-1].split(",") if a.strip()]
        self.slips, self.quantities = slip_rows(slips), dict(quantities or {})
        self.rtol, self.atol, self.show_args = rtol, atol, show_args
        self.loop_only, self.whole = sorted(loop_only, key=len, reverse=True), whole
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

    def run(self, func):
        outcomes = []
        for case in self.cases:
            o, args = Outcome(case), copy_args(case.args)
            with _quiet():
                try:
                    o.value = func(*args)
                except Exception as exc:  # the learner's code may raise anything
                    o.error = exc
            o.changed_input = not _kept(args, case.args) or "read-only" in str(o.error or "")
            if case.raises is not None:  # refused, and with a message that says why
                said = str(o.error).strip()
                o.correct = (isinstance(o.error, case.raises) and " " in said
                             and (case.says is None or bool(case.says(said))))
            else:
                o.correct = o.error is None and self.same(o.value, case.expected)
            outcomes.append(o)
        return outcomes

    def call_text(self, case):
        if self.show_args is not None:
            return f"{self.function}({self.show_args(case.args)})"
        shown = ", ".join(show(a) for a in case.args)
        if len(shown) > LONG and len(self.arg_names) == len(case.args):  # grids: their shapes
            named = zip(self.arg_names, case.args, strict=True)
            shown = ", ".join(f"{name} of shape {np.shape(a)}" if np.ndim(a) > 1 else
                              f"{name} = {show(a)}" for name, a in named)
        return f"{self.function}({shown})"

    def quantity_values(self, case):
        values = {}
        for key, func in self.quantities.items():
            with contextlib.suppress(Exception):
                values[key] = func(*case.args)
        return values

    def evaluate(self, func):
        """Run the cases and return a :class:`Feedback`; never raises."""
        try:
            return self._evaluate(func)
        except Exception as exc:  # a checker bug must not reach the learner
            return Feedback(FAILED, f"Not yet: the checker could not read what {self.function} "
                            f"gave back ({type(exc).__name__}): return a number, a list or an "
                            "array.")

    def _evaluate(self, func):
        if (first := self._first_look(func)) is not None:
            return first
        outcomes = self.run(func)
        changed = next((o for o in outcomes if o.changed_input), None)
        odd = next((o for o in outcomes if self._kind(o)), None)
        right = all(o.correct for o in outcomes) and changed is None
        if right and odd:
            name, said = self._kind(odd)
            return Feedback(MISTAKE, f"Not yet: {self.call_text(odd.case)} gave {said}.",
                            mistake=name, case=odd.case, outcomes=outcomes)
        if right:
            used = self._shortcut(func)
            lead = (f"Correct — though this exercise asked you to write the steps yourself: "
                    f"{used}(…) did the work. " if used else "Correct: ")
            return Feedback(PASSED, f"{lead}{self.call} gives the right answer on all "
                            f"{len(outcomes)} hidden cases.", outcomes=outcomes)
        if said := self._parameters(func):
            return said
        if chosen := pick(self.explanations(outcomes)):
            return self._named(chosen, outcomes)
        if changed is not None:
            return self._named([(1, 2, relations.CHANGED_INPUT.name,
                                 (relations.CHANGED_INPUT, changed))], outcomes)
        failing = min((o for o in outcomes if not o.correct), key=lambda o: o.case.size())
        advice = (" The error says what went wrong; call your function on this case in a cell "
                  "of its own to see the line." if failing.error is not None
                  else " Check that case by hand, step by step.")
        return Feedback(FAILED, "Not yet: it goes wrong on this case: "
                        + self.frame(failing) + advice, case=failing.case, outcomes=outcomes)

    def _kind(self, o):
        """(slip, words) for a right value of the wrong kind, or None."""
        if o.error is not None:
            return None
        if self.whole and isinstance(o.value, (float, np.floating)):
            return WHOLE, (f"{o.value!r}, a float: the answer is a whole number (a `/` where "
                           "`//` keeps it whole?)")
        if isinstance(o.case.expected, tuple) and not isinstance(o.value, tuple):
            return TUPLE, f"{show(o.value)}, not a tuple: `return a, b` makes one"

    def _shortcut(self, func):
        """The first ``loop_only`` name the function's source calls, or None."""
        try:
            source = inspect.getsource(func)
        except (OSError, TypeError):
            return None
        return next((n for n in self.loop_only if re.search(rf"\b{re.escape(n)}\s*\(", source)),
                    None)

    def _first_look(self, func):
        """The verdicts that need no hidden case: not a function, the stub, a print, None."""
        if not callable(func):
            return Feedback(FAILED, f"Not yet: pass the function itself, without brackets: "
                            f"check(\"{self.name}\", {self.function}). You passed {show(func)}.")
        if said := self._parameters(func, order=False):
            return said
        first, printed = self.cases[0], io.StringIO()
        args = copy_args(first.args)
        try:
            with contextlib.redirect_stdout(printed), _quiet(stdout=False):
                value = func(*args)
        except NotImplementedError:
            return Feedback(NOT_ATTEMPTED, f"Not attempted yet: {self.call} is still the stub. "
                            "Replace the line `raise NotImplementedError` with your code, then "
                            "run the cell again.")
        except Exception:
            return None  # a real attempt that fails: judged case by case
        if value is None and printed.getvalue().strip():
            said = " ".join(printed.getvalue().split())
            said = said if len(said) <= 60 else said[:57] + "…"
            return Feedback(MISTAKE, f"Not yet: {self.call} printed {said} but returned None: "
                            "a caller gets only what follows `return`.",
                            mistake=relations.PRINTED)
        if value is Ellipsis:
            return Feedback(NOT_ATTEMPTED, f"Not attempted yet: {self.call} returns ... . "
                            "Write its body, then run the cell again.")
        if value is None and first.raises is None:
            also = "" if _kept(args, first.args) else " It also changed its input in place."
            return Feedback(MISTAKE, f"Not yet: {self.call} returned None: end it with `return` "
                            f"and the result.{also}", mistake=relations.NO_RETURN)
        return None

    def _parameters(self, func, order=True):
        """A verdict on parameters the call cannot fill, or (``order``) its names reordered."""
        try:
            sig = inspect.signature(func)
        except (TypeError, ValueError):
            return None
        names = list(sig.parameters)
        try:
            sig.bind(*self.cases[0].args)
            names = names[:len(self.arg_names)]
            if not order or names == self.arg_names or sorted(names) != sorted(self.arg_names):
                return None
        except TypeError:
            pass
        return Feedback(MISTAKE, f"Not yet: the checker calls {self.call}; yours takes "
                        f"({', '.join(names)}).", mistake=PARAMETERS)

    def explanations(self, outcomes):
        """(explained, tier, name, (slip, telling outcome)) for each that fits."""
        wrong = [o for o in outcomes if not o.correct]
        found = []
        for slip in self.slips:
            telling = self._seen(slip, outcomes, wrong)
            if telling:  # a formula or an error wins a tie against a predicate
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
        """The wrong outcomes this row accounts for."""
        try:
            if slip.raises is not None:
                kind, words = (slip.raises if isinstance(slip.raises, tuple)
                               else (slip.raises, ""))
                return [o for o in wrong if isinstance(o.error, kind) and words in str(o.error)]
            if slip.when is not None:  # said only when it holds on every wrong case
                telling = [o for o in wrong if _holds(slip.when, o)]
                return telling if len(telling) == len(wrong) else []
            return max((self.follows(lambda case, f=form: f(*copy_args(case.args)), outcomes,
                                     key=form) for form in slip.forms()), key=len, default=[])
        except Exception:
            return []

    def follows(self, predict, outcomes, errors_count=True, key=None):
        """The wrong outcomes equal to ``predict(case)``, if the answer equals it on EVERY case
        where it is not the right answer, and is wrong on fewer where it is (else []). Where it
        raises, raising the same kind follows it (``errors_count``); ``key``: memoised."""
        telling, unexplained = [], 0
        for o in outcomes:
            case = o.case
            if case.raises is not None and o.correct:
                continue  # refused as it should: says nothing about a slip in the values
            kind, wrong_answer = self._prediction(predict, case, key)
            if kind is NoPrediction:
                continue
            if kind is not None:  # the slip raises here: so may the learner's function
                unexplained += o.correct
                if errors_count and not o.correct and o.error is not None and type(o.error) is kind:
                    telling.append(o)
                continue
            if case.raises is None and self.same(wrong_answer, case.expected):
                unexplained += not o.correct
                continue  # the slip does not show on this case
            if numeric(wrong_answer) is None:
                continue
            if o.error is not None or not self.same(o.value, wrong_answer):
                return []
            telling.append(o)
        if telling and unexplained >= len(telling):
            return []  # as often wrong where it is right
        return telling if any(o.error is None for o in telling) or len(telling) > 1 else []

    def _prediction(self, predict, case, key):
        """(None, the prediction), (the error type it raises, None) or (NoPrediction, None)."""
        memo = self.__dict__.setdefault("_predictions", {})
        kept = memo.get((key, id(case))) if key is not None else None
        if kept is not None and kept[0] is case:  # the case is kept, so its id is not reused
            return kept[1]
        try:
            with _quiet():
                found = (None, predict(case))
        except NoPrediction:
            found = (NoPrediction, None)
        except Exception as exc:
            found = (type(exc), None)
        if key is not None:
            memo[key, id(case)] = (case, found)
        return found

    def frame(self, o):
        """What the call gave, and what it should give."""
        call, case = self.call_text(o.case), o.case
        if o.correct and o.changed_input:
            return f"{call} gave the right answer but changed its input."
        said = str(o.error or "").strip()
        if o.error is not None:
            got = f"raised {type(o.error).__name__}" + (f": {_short(said)}" if said else "")
        else:
            got = f"gave {show(o.value)}"
            where = (None if case.raises is not None else
                     _first_difference(o.value, case.expected, self.rtol, self.atol))
            if where is not None and len(got) + len(show(case.expected)) > LONG:
                return f"{call} {where}."
        if case.raises is not None:
            if isinstance(o.error, case.raises):  # the right kind, a poor message
                got = got if said else f"raised {case.raises.__name__} with no message"
                return f"{call} {got}."
            return f"{call} {got}; it should raise {case.raises.__name__}."
        return f"{call} {got}; expected {show(case.expected)}."

    def _named(self, chosen, outcomes):
        parts, names = [], []
        telling = chosen[0][3][1]
        for _, _, name, (rule, o) in chosen:
            names.append(name)
            values = {"call": self.call_text(o.case), "expected": show(o.case.expected),
                      "got": show(o.value) if o.error is None else type(o.error).__name__,
                      **{k: show(v) for k, v in self.quantity_values(o.case).items()}}
            hint = rule.hint(self, o) if callable(rule.hint) else rule.hint
            parts.append(f"{capital(name)}: {fill(hint, values)}")
        lead = "Not yet: " + self.frame(telling) + " "
        if len(parts) > 1:
            lead += "This fits more than one slip. "
        return Feedback(MISTAKE, lead + " ".join(parts), mistake=" / ".join(names),
                        case=telling.case, outcomes=outcomes)


def _first_difference(got, expected, rtol, atol):
    """For two big grids: their first difference, in words; else None."""
    try:
        shown = np.asarray(got), np.asarray(expected)
        if np.iscomplexobj(shown[0]):  # a root of a negative number: shown as it is
            return None
        got, expected = (np.asarray(a, float) for a in shown)
    except (TypeError, ValueError):
        return None
    if expected.ndim < 2:
        return None
    if got.shape != expected.shape:
        return f"gave shape {got.shape}; expected shape {expected.shape}"
    wrong = ~np.isclose(got, expected, rtol=rtol, atol=atol, equal_nan=True)
    if not wrong.any():
        return None
    at = tuple(int(i) for i in np.argwhere(wrong)[0])
    return (f"gave an array of shape {got.shape} with {int(wrong.sum())} wrong entries; at index "
            f"{list(at)} it holds {show(shown[0][at])} where {show(shown[1][at])} is expected")


def _kept(args, before):
    return all(same_value(a, b) for a, b in zip(args, before, strict=True))


def _holds(predicate, o):
    try:
        with _quiet():
            return bool(predicate(o))
    except Exception:
        return False


WHOLE = "a float where a whole number is asked"
TUPLE = "a list or array where a tuple is asked"
PARAMETERS = "other parameters"
LONG = 160  # characters: a longer call or answer is shown by shapes and a first wrong entry


def _short(text, limit=80):
    text = " ".join(text.split())
    if "mismatch in its core dimension" in text or "not aligned" in text:
        return "the sizes of a matrix product do not fit"  # NumPy's words, for a learner
    return text if len(text) <= limit else text[:limit - 1] + "…"


@contextlib.contextmanager
def _quiet(stdout=True):
    """No warning, and no print unless ``stdout=False``, reaches the notebook."""
    sink = io.StringIO()
    with np.errstate(all="ignore"), warnings.catch_warnings(), contextlib.redirect_stderr(sink), \
            contextlib.redirect_stdout(sink) if stdout else contextlib.nullcontext():
        warnings.simplefilter("ignore")
        yield

