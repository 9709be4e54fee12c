"""The general relations: slips nobody listed, named in plain words.

An exercise's own table names the slips its author foresaw. These relations name the rest by
how the learner's answer relates to the right one, whatever the exercise: the right answer
transposed, multiplied by a constant (and which: √d_k, d_k, 2, ½, the number of rows …), with
the sign turned round, moved one position, normalised along the other axis, cut to whole
numbers or rounded, a percentage for a fraction, the reciprocal, squared or square-rooted, the
answer of another case, the input given back, and answers of the wrong kind or shape. Each
states what the answer IS before it suggests a cause, so it stays true whatever the cause.

A relation is seen exactly like a table row (``CodeExercise.follows``): it must hold on every
case where it differs from the right answer. The tier says how specific its words are (1: a
relation; 2: a plain statement about the answer's form); the table always comes first at a tie.
"""

import itertools
import math
import types
from dataclasses import dataclass

import numpy as np

from ._values import copy_args, numeric, same, show
from .feedback import NoPrediction

__all__ = ["CHANGED_INPUT", "PRINTED", "Relation", "for_code", "for_numbers", "refused"]

PRINTED, NO_RETURN = "printed instead of returning", "no return"


@dataclass(frozen=True)
class Relation:
    """A general relation. ``transform(expected, case, exercise)`` gives the answer the
    relation predicts; or ``test(outcome, exercise)`` says whether one wrong outcome shows it.
    ``hint`` is text, or a function ``(exercise, outcome) -> text``."""

    name: str
    hint: object
    transform: object = None
    test: object = None

    def seen(self, exercise, outcomes, wrong):
        """The wrong outcomes this relation accounts for ([] if it does not fit); a tuple of
        transforms is several forms of one relation, the best-fitting one counts."""
        if self.transform is not None:
            forms = self.transform if isinstance(self.transform, tuple) else (self.transform,)
            best = []
            for form in forms:
                telling = exercise.follows(
                    lambda case, f=form: _transformed(f, case, exercise), outcomes,
                    errors_count=False)
                best = telling if len(telling) > len(best) else best
            return best
        return [o for o in wrong if _safe(self.test, o, exercise)]


def _transformed(form, case, exercise):
    """A relation's prediction for one case: nothing where the function must refuse."""
    if case.raises is not None:
        raise NoPrediction
    return form(numeric(case.expected), case, exercise)


def _safe(test, outcome, exercise):
    try:
        return bool(test(outcome, exercise))
    except Exception:
        return False


def _value(outcome):
    return numeric(outcome.value) if outcome.error is None else None


def _expected(outcome):
    return numeric(outcome.case.expected)


# --- the answer transformed ----------------------------------------------------------------

def _needs_2d(e):
    if e.ndim < 2:
        raise NoPrediction
    return np.swapaxes(e, -1, -2)


def _shift(axis, step):
    def transform(e, case, exercise):
        if e.ndim <= axis or e.shape[axis] < 2:
            raise NoPrediction
        return np.roll(e, step, axis=axis)
    return transform


def _drop(axis, which):
    def transform(e, case, exercise):
        if e.ndim <= axis or e.shape[axis] < 2:
            raise NoPrediction
        index = [slice(None)] * e.ndim
        index[axis] = slice(1, None) if which == "first" else slice(None, -1)
        return e[tuple(index)]
    return transform


def _decimals(d):
    return {0: "whole numbers", 1: "1 decimal"}.get(d, f"{d} decimals")


def _rounded(decimals):
    def transform(e, case, exercise):
        return np.round(e, decimals)
    return transform


_AXES = {0: "the first axis (rows)", 1: "the second axis (columns)"}

TRANSFORMED = [
    Relation("sign turned round", "every number has the right size and the wrong sign: look "
             "for a subtraction the wrong way round or a minus sign too many.",
             transform=lambda e, case, ex: -e),
    Relation("the sign dropped", "your numbers are the sizes of the right ones: a negative "
             "answer came out positive (an abs(…), or a square and a root, lost the sign).",
             transform=lambda e, case, ex: np.abs(e)),
    Relation("transposed", "your answer is the right one transposed, rows and columns "
             "swapped: check the order of a product (A @ B is not B @ A) and each `.T`.",
             transform=lambda e, case, ex: _needs_2d(e)),
    Relation("cut to whole numbers", "your numbers are the right ones with the decimals cut "
             "off: an int(…), a `//`, or an array made with dtype=int threw them away.",
             transform=lambda e, case, ex: np.trunc(e)),
    Relation("rounded down", "your numbers are the right ones rounded down to whole numbers "
             "(math.floor or `//`): keep every decimal.",
             transform=lambda e, case, ex: np.floor(e) if np.any((e < 0) & (e % 1 != 0))
             else _no()),
    *[Relation(f"rounded to {_decimals(d)}", f"your numbers are the right ones rounded to "
               f"{_decimals(d)}: keep every decimal (round only when you print).",
               transform=_rounded(d)) for d in range(4)],
    Relation("twice the answer", "every number is twice the right one: something is counted "
             "twice, or multiplied by 2 where it should be squared or halved.",
             transform=lambda e, case, ex: 2 * e),
    Relation("half the answer", "every number is half the right one: a division by 2 too "
             "many (`** 1/2` divides by 2: write `** 0.5`).",
             transform=lambda e, case, ex: e / 2),
    Relation("ten times the answer", "every number is 10 times the right one: a decimal "
             "point moved one place.", transform=lambda e, case, ex: 10 * e),
    Relation("a tenth of the answer", "every number is a tenth of the right one: a decimal "
             "point moved one place.", transform=lambda e, case, ex: e / 10),
    Relation("a percentage", "every number is 100 times the right one: a percentage where a "
             "fraction was asked, or a decimal point moved two places.",
             transform=lambda e, case, ex: 100 * e),
    Relation("a hundredth of the answer", "every number is a hundredth of the right one: a "
             "fraction where a percentage was asked, or a decimal point moved two places.",
             transform=lambda e, case, ex: e / 100),
    Relation("the reciprocal", "every number is 1 divided by the right one: a division the "
             "wrong way round, or a power of −1 too many.",
             transform=lambda e, case, ex: 1 / e if np.all(e != 0) else _no()),
    Relation("squared", "every number is the square of the right one: a square (or a "
             "product of a thing with itself) too many, or a square root forgotten.",
             transform=lambda e, case, ex: e * e),
    Relation("square-rooted", "every number is the square root of the right one: a square "
             "root too many.",
             transform=lambda e, case, ex: np.sqrt(e) if np.all(e >= 0) else _no()),
    *[Relation(f"moved one place along {_AXES[axis].split(' (')[0]}",
               f"your numbers are the right ones moved one place along {_AXES[axis]}: an "
               "index off by one (i + 1 or i − 1, or a loop that starts at 1).",
               transform=_shift(axis, step)) for axis in (0, 1) for step in (1, -1)],
    Relation("in reverse order", "your numbers are the right ones in reverse order: a loop or "
             "an index that runs from the end (or a [::-1], or a product turned round).",
             transform=lambda e, case, ex: e[::-1] if e.ndim >= 1 and e.shape[0] > 1
             else _no()),
    Relation("first entry left out", "your answer is the right one without its first entry "
             "(row): a loop that starts at 1, or a slice [1:], skips position 0.",
             transform=_drop(0, "first")),
    Relation("last entry left out", "your answer is the right one without its last entry "
             "(row): range(len(x) - 1) or a slice [:-1] stops one early.",
             transform=_drop(0, "last")),
    Relation("first column left out", "your answer is the right one without its first "
             "column: a loop over the columns starts at 1.", transform=_drop(1, "first")),
    Relation("last column left out", "your answer is the right one without its last column: "
             "a loop over the columns stops one early.", transform=_drop(1, "last")),
    Relation("only the first row", "your answer is the first row of the right one: a "
             "`return` inside the loop over the rows ends the function after one row (put it "
             "after the loop, level with the `for`).",
             transform=lambda e, case, ex: e[0] if e.ndim >= 2 and e.shape[0] > 1 else _no()),
    Relation("only the last row", "your answer is the last row of the right one: each pass "
             "overwrote the result instead of storing its row (write into row i, or append).",
             transform=lambda e, case, ex: e[-1] if e.ndim >= 2 and e.shape[0] > 1 else _no()),
    Relation("running totals", "each number is the sum of the right ones up to it: a total "
             "that is never reset (set it back to 0 for each new entry), or stored as it grows.",
             transform=lambda e, case, ex: np.cumsum(e, axis=-1) if e.ndim >= 1
             and e.shape[-1] > 1 else _no()),
]


def _no():
    raise NoPrediction


def _quantity_relations(quantities):
    """× and ÷ each named quantity of a case, its square root and its square ("divided by
    √d_k"), with the value it had on the case that shows it."""
    found = []
    for key in quantities:
        for label, power in ((key, 1.0), (f"√{key}", 0.5), (f"{key}²", 2.0)):
            def factor(case, ex, key=key, power=power):
                value = float(ex.quantity_values(case)[key]) ** power
                if value in (0.0, 1.0) or not math.isfinite(value):
                    raise NoPrediction
                return value

            def hint(ex, outcome, label=label, factor=factor, word="multiplied by"):
                return (f"every number is the right one {word} {label} (here {label} = "
                        f"{show(factor(outcome.case, ex))}): look for an extra factor {label}, "
                        "or one on the wrong side of a division.")

            found.append(Relation(f"{label} times too big", hint,
                                  transform=lambda e, case, ex, f=factor: e * f(case, ex)))
            found.append(Relation(f"{label} times too small",
                                  lambda ex, o, h=hint: h(ex, o, word="divided by"),
                                  transform=lambda e, case, ex, f=factor: e / f(case, ex)))
    return found


def _input_dropped(axis, which, all_args):
    """The solution run on the input without its first or last entry along ``axis``: a loop
    that starts at 1 or stops one early, written once for every exercise."""
    def transform(e, case, ex):
        args = list(copy_args(case.args))
        first = numeric(args[0])
        if first is None or first.ndim < (1 if axis == 0 else 2) or first.shape[axis] < 2:
            raise NoPrediction
        size = first.shape[axis]
        cut = slice(1, None) if which == "first" else slice(None, -1)
        changed = 0
        for i, a in enumerate(args):
            arr = np.asarray(a) if isinstance(a, (list, tuple, np.ndarray)) else None
            if arr is None or arr.dtype.kind not in "biuf" or arr.ndim == 0:
                continue
            if axis >= arr.ndim or arr.shape[axis] != size or (i and not all_args):
                continue
            index = [slice(None)] * arr.ndim
            index[axis] = cut
            part = arr[tuple(index)]
            args[i] = part.tolist() if isinstance(a, list) else part
            changed += 1
        if changed == 0 or (all_args and changed < 2):
            raise NoPrediction
        try:
            return ex.solution(*args)
        except Exception as exc:
            raise NoPrediction from exc
    return transform


def _dropped(axis, which, all_args):
    thing = "slot or row" if axis == 0 else "column"
    where = "of every input" if all_args else "of the input"
    if axis == 0:
        name = "skipped position 0" if which == "first" else "stopped one early"
    else:
        name = "skipped the first column" if which == "first" else "stopped one column early"
    name += (" of every input" if which == "first" else " in every input") if all_args else ""
    cause = ("a loop that starts at position 1 skips position 0 (Python counts from 0)"
             if which == "first" else
             "a loop over range(len(x) - 1), or a slice [:-1], leaves the last one out")
    return Relation(name, f"your answer is what you get without the {which} {thing} "
                    f"{where}: {cause}.", transform=_input_dropped(axis, which, all_args))


def _input_rolled(index, step):
    """The solution run with one input moved one position round (``x[i - 1]`` for ``x[i]``)."""
    def transform(e, case, ex):
        args = list(copy_args(case.args))
        if index >= len(args):
            raise NoPrediction
        arr = numeric(args[index])
        if arr is None or arr.ndim == 0 or arr.shape[0] < 2:
            raise NoPrediction
        rolled = np.roll(arr, step, axis=0)
        args[index] = rolled.tolist() if isinstance(args[index], list) else rolled
        try:
            return ex.solution(*args)
        except Exception as exc:
            raise NoPrediction from exc
    return transform


def _positions(start):
    """The solution run on the positions 0, 1, 2, … (or 1, 2, …) instead of the numbers of the
    first input: `for x in range(len(q))` then x used as a slot."""
    def transform(e, case, ex):
        args = list(copy_args(case.args))
        first = numeric(args[0]) if args else None
        if first is None or first.ndim != 1 or first.size < 2:
            raise NoPrediction
        places = [float(start + i) for i in range(first.size)]
        args[0] = places if isinstance(args[0], list) else np.asarray(places)
        try:
            return ex.solution(*args)
        except Exception as exc:
            raise NoPrediction from exc
    return transform


def _plus(amount):
    def transform(e, case, ex):
        return e + amount(case)
    return transform


def _first_entry(case):
    first = numeric(case.args[0]) if case.args else None
    if first is None or first.ndim == 0 or first.size == 0 or first.flat[0] == 0:
        raise NoPrediction
    return float(first.flat[0])


SHIFTED = [
    Relation("one too many", "every answer is the right one plus 1: a total that starts at 1 "
             "instead of 0, or a + 1 too many.", transform=_plus(lambda case: 1.0)),
    Relation("one too few", "every answer is the right one minus 1: a − 1 too many.",
             transform=_plus(lambda case: -1.0)),
    Relation("the first entry counted twice", "every answer is the right one plus the first "
             "entry of the input: a total that starts at x[0] and then adds x[0] again.",
             transform=_plus(_first_entry)),
]

def _first_row_everywhere(index):
    """The solution run with every row of one input replaced by its first row: `K[0]` typed
    where `K[j]` was meant."""
    def transform(e, case, ex):
        args = list(copy_args(case.args))
        if index >= len(args):
            raise NoPrediction
        arr = numeric(args[index])
        if arr is None or arr.ndim < 2 or arr.shape[0] < 2:
            raise NoPrediction
        same_rows = np.repeat(arr[:1], arr.shape[0], axis=0)
        args[index] = same_rows.tolist() if isinstance(args[index], list) else same_rows
        try:
            return ex.solution(*args)
        except Exception as exc:
            raise NoPrediction from exc
    return transform


INPUT_SIDE = [Relation("the first row every time", "your answer is what you get when one "
                       "input's first row stands in for all its rows: an index written as 0 "
                       "(K[0]) where the loop's letter (K[j]) was meant.",
                       transform=tuple(_first_row_everywhere(i) for i in range(3))),
              Relation("used the positions, not the numbers", "your answer is what the "
                       "positions 0, 1, 2, … give in place of the numbers: `for i in "
                       "range(len(q))` gives positions; the number at position i is q[i].",
                       transform=(_positions(0), _positions(1)))] + [
    _dropped(axis, which, all_args) for axis in (0, -1)
              for which in ("first", "last") for all_args in (False, True)] + [
    Relation("an input read one position off", "your answer is what you get when one input is "
             "read one position off (x[i - 1] or x[i + 1] where x[i] was meant): check each "
             "index.", transform=tuple(_input_rolled(index, step) for index in range(3)
                                       for step in (1, -1)))]


# --- what one wrong outcome shows ----------------------------------------------------------

def _error(kind, *words):
    def test(outcome, exercise):
        return (isinstance(outcome.error, kind) and outcome.case.raises is None
                and any(w in str(outcome.error) for w in words))
    return test


def _rows_sum_to_one(e):
    return e is not None and e.ndim >= 2 and e.shape[-1] > 1 and np.allclose(e.sum(-1), 1)


def _other_axis(outcome, exercise):
    v, e = _value(outcome), _expected(outcome)
    return (_rows_sum_to_one(e) and v is not None and v.shape == e.shape and e.shape[-2] > 1
            and np.allclose(v.sum(-2), 1) and not np.allclose(v.sum(-1), 1))


def _whole_grid(outcome, exercise):
    v, e = _value(outcome), _expected(outcome)
    return (_rows_sum_to_one(e) and v is not None and v.shape == e.shape and e.shape[-2] > 1
            and np.isclose(v.sum(), 1) and not np.allclose(v.sum(-1), 1))


def _another_case(outcome, exercise):
    if outcome.error is not None or outcome.case.raises is not None:
        return False
    return any(o.raises is None and o is not outcome.case and not exercise.same(
        o.expected, outcome.case.expected) and exercise.same(outcome.value, o.expected)
        for o in exercise.cases)


def _pair(outcome, exercise):
    v = outcome.value
    return (outcome.error is None and isinstance(v, (tuple, list)) and 2 <= len(v) <= 3
            and any(exercise.same(x, outcome.case.expected) for x in v))


def _name_error(outcome, exercise):
    return isinstance(outcome.error, NameError)


def _name_hint(exercise, outcome):
    name = getattr(outcome.error, "name", None) or str(outcome.error).split("'")[1:2]
    name = name[0] if isinstance(name, list) and name else name
    which = f"`{name}`" if isinstance(name, str) and name else "a name"
    return (f"your function uses {which}, which is not defined where it runs: define it "
            "inside the function from its arguments, or run the cell that imports it.")


def _not_finite(outcome, exercise):
    v, e = _value(outcome), _expected(outcome)
    return (v is not None and e is not None and v.shape == e.shape
            and np.all(np.isfinite(e)) and not np.all(np.isfinite(v)))


def _returned_for_raise(outcome, exercise):
    return (outcome.case.raises is not None and outcome.error is None
            and not isinstance(outcome.value, str))


def _text_for_raise(outcome, exercise):
    return (outcome.case.raises is not None and outcome.error is None
            and isinstance(outcome.value, str))


def _no_message(outcome, exercise):
    return (outcome.case.raises is not None and isinstance(outcome.error, outcome.case.raises)
            and not str(outcome.error).strip())


def _other_error(outcome, exercise):
    return (outcome.case.raises is not None and outcome.error is not None
            and not isinstance(outcome.error, outcome.case.raises))


def _raise_hint(exercise, outcome):
    kind = outcome.case.raises.__name__
    return (f"for these arguments the function must refuse: `raise {kind}(\"…\")` with a "
            "message that says what is wrong, instead of returning an answer.")


def _text_raise_hint(exercise, outcome):
    kind = outcome.case.raises.__name__
    return (f"it returned the message as text. A message that stops the program is raised: "
            f"`raise {kind}(\"…\")`.")


def _kind_hint(exercise, outcome):
    kind, other = outcome.case.raises.__name__, type(outcome.error).__name__
    return (f"this input needs {kind}, and {other} came out: raise {kind}(\"…\") yourself, "
            f"with a message, checking the input before anything else can go wrong (or, if "
            f"you raised {other} on purpose, change its kind).")


SEEN_IN_ONE = [
    Relation("a name never defined", _name_hint, test=_name_error),
    Relation("^ for a power", "in Python `^` is not a power (it works on the bits of whole "
             "numbers): write x ** 2 for a square, x ** 0.5 for a square root.",
             test=_error(TypeError, "^", "bitwise_xor")),
    Relation("arithmetic on lists", "the inputs are Python lists, and lists do no arithmetic "
             "(`a * b` and `a - b` fail; `a + b` glues them together). Turn them into arrays "
             "first, np.asarray(a), or work number by number in a loop.",
             test=_error(TypeError, "'list'", "can't multiply sequence", "can only concatenate")),
    Relation("divided by zero", "on this case the number you divide by is 0: check what it "
             "is made of (a length, a sum, a count).", test=_error(ZeroDivisionError, "")),
    Relation("a position past the end", "positions run from 0 to len(x) − 1: check each x[i], "
             "and each range.", test=_error(IndexError, "out of range", "out of bounds")),
    Relation("sizes that do not fit a product", "A @ B needs as many columns in A as rows in "
             "B: check the two grids' shapes, and whether one of them needs .T.",
             test=_error(ValueError, "matmul", "not aligned", "core dimension")),
    Relation("returned text", "it returned text: return the numbers themselves (str(…) and "
             "f-strings are for printing).",
             test=lambda o, ex: o.error is None and isinstance(o.value, str)
             and o.case.raises is None),
    Relation("returned a generator", "it returned a generator (a `(… for …)` without "
             "brackets, map or filter): collect it in a list, [… for …] or list(…).",
             test=lambda o, ex: o.error is None and isinstance(
                 o.value, (types.GeneratorType, map, filter, range, zip))),
    Relation("no return on some path", "it returned None here: some path through your function "
             "ends without `return` (an `if` without an `else`, or a return inside a loop that "
             "never ran).",
             test=lambda o, ex: o.error is None and o.value is None and o.case.raises is None),
    Relation("returned more than the answer", "it returned several things, and one of them "
             "is the answer: return only that one.", test=_pair),
    Relation("not a finite number", "it gave nan or ∞ where every number should be finite: "
             "something overflowed (e^x passes float's limit near x = 709) or 0 was divided by 0.",
             test=_not_finite),
    Relation("normalised along the other axis", "your COLUMNS add up to 1; each ROW should "
             "(the softmax or the division by the total goes along the last axis, axis=-1).",
             test=_other_axis),
    Relation("normalised over the whole grid", "all your numbers together add up to 1; each "
             "row should, on its own (divide by each row's total, keepdims=True).",
             test=_whole_grid),
    Relation("returned instead of raising", _raise_hint, test=_returned_for_raise),
    Relation("returned the message", _text_raise_hint, test=_text_for_raise),
    Relation("raised another kind of error", _kind_hint, test=_other_error),
    Relation("refused without saying why", lambda ex, o: "it refuses, as it should, but "
             "with no message: give the error a sentence that names the problem, "
             f"raise {o.case.raises.__name__}(f\"…\").", test=_no_message),
]


# --- plain statements about the answer's form (tier 2) -------------------------------------

def _input_back(outcome, exercise):
    v = _value(outcome)
    return v is not None and any(
        same(v, numeric(a)) and not exercise.same(a, outcome.case.expected)
        for a in outcome.case.args)


def _input_hint(exercise, outcome):
    v = numeric(outcome.value)
    pairs = zip(exercise.arg_names, outcome.case.args, strict=False)
    names = [n for n, a in pairs if same(v, numeric(a))]
    which = f"its input {names[0]}" if names else "one of its inputs"
    return (f"it gave back {which} unchanged: the function must compute something from it "
            "and return that.")


def _shape_wrong(outcome, exercise):
    v, e = _value(outcome), _expected(outcome)
    return v is not None and e is not None and v.shape != e.shape


def _shape_hint(exercise, outcome):
    v, e = numeric(outcome.value), numeric(outcome.case.expected)
    return f"the answer has {_describe(e)}, and yours has {_describe(v)}."


def _describe(a):
    if a.ndim == 0:
        return "one number"
    if a.ndim == 1:
        return f"a list of {a.shape[0]} number{'s' if a.shape[0] != 1 else ''}"
    return f"shape {tuple(int(s) for s in a.shape)}"


def _not_numbers(outcome, exercise):
    return (outcome.error is None and outcome.case.raises is None and outcome.value is not None
            and not isinstance(outcome.value, str) and numeric(outcome.value) is None)


class _ConstantFactor:
    """Every wrong answer is the right one times the same number c (not one of the named
    factors): said as it is, with c."""

    name = "off by a constant factor"

    def seen(self, exercise, outcomes, wrong):
        self_ratio = None
        for o in wrong:
            v, e = _value(o), _expected(o)
            if v is None or e is None or v.shape != e.shape or not np.any(e):
                return []
            mask = e != 0
            if not np.allclose(v[~mask], 0):
                return []
            ratios = v[mask] / e[mask]
            if not np.allclose(ratios, ratios.flat[0], rtol=1e-6):
                return []
            if self_ratio is None:
                self_ratio = float(ratios.flat[0])
            elif not math.isclose(self_ratio, ratios.flat[0], rel_tol=1e-6):
                return []
        if self_ratio is None or self_ratio in (0.0, 1.0):
            return []
        if sum(int(np.count_nonzero(_expected(o))) for o in wrong) < 2:
            return []  # one wrong number is always some factor times the right one
        return wrong

    def hint(self, exercise, outcome):
        v, e = numeric(outcome.value), numeric(outcome.case.expected)
        mask = e != 0
        c = float((v[mask] / e[mask]).flat[0])
        return (f"on every case it gets wrong, every number is the right one multiplied by "
                f"{show(c)}: one factor is wrong (a scale, a count or a division).")


class _OnEveryWrong(Relation):
    """A relation that is only said when it holds on every wrong outcome, two at least (one
    coincidence is too easy for it)."""

    def seen(self, exercise, outcomes, wrong):
        hits = [o for o in wrong if _safe(self.test, o, exercise)]
        return hits if len(hits) == len(wrong) >= 2 else []


def _input_times(outcome, exercise):
    v, a = _value(outcome), numeric(outcome.case.args[0]) if outcome.case.args else None
    if v is None or a is None or v.shape != a.shape or not np.any(a):
        return False
    mask = a != 0
    ratios = v[mask] / a[mask]
    return bool(np.allclose(v[~mask], 0) and np.allclose(ratios, ratios.flat[0]))


class _FixedFactorOfInput:
    """The first input times one same number on every wrong case."""

    name = "the input times a fixed number"

    def seen(self, exercise, outcomes, wrong):
        if len(wrong) < 2 or not all(_input_times(o, exercise) for o in wrong):
            return []
        ratios = set()
        for o in wrong:
            v, a = numeric(o.value), numeric(o.case.args[0])
            ratios.add(round(float((v[a != 0] / a[a != 0]).flat[0]), 9))
        return wrong if len(ratios) == 1 and ratios != {1.0} else []

    def hint(self, exercise, outcome):
        v, a = numeric(outcome.value), numeric(outcome.case.args[0])
        c = float((v[a != 0] / a[a != 0]).flat[0])
        return (f"on every case your answer is the input times the same number, {show(c)}: "
                "what the input is multiplied or divided by must be worked out from the input "
                "itself, case by case.")


def _never_filled(outcome, exercise):
    """Right wherever the answer is not 0, and 0 where the right answer is not: some entries
    were never computed (a loop's range too short, a return inside the outer loop)."""
    v, e = _value(outcome), _expected(outcome)
    if v is None or e is None or v.shape != e.shape or v.size < 3 or isinstance(
            outcome.value, tuple):
        return False
    blank = (v == 0) & (e != 0)
    return bool(blank.any() and np.allclose(v[~blank], e[~blank]))


def _never_filled_hint(exercise, outcome):
    v, e = numeric(outcome.value), numeric(outcome.case.expected)
    blank = (v == 0) & (e != 0)
    if blank.ndim == 2 and blank[1:].all() and not blank[0].any():
        where = "every row after the first is still 0 (a return inside the outer loop?)"
    elif blank.ndim == 2 and blank[:, -1].all() and not blank[:, :-1].any():
        where = "the last column is still 0 (a range that stops one early?)"
    elif blank.ndim == 1 and blank[-1] and not blank[:-1].any():
        where = "the last entry is still 0 (a range that stops one early?)"
    else:
        where = f"{int(blank.sum())} of its entries are still 0"
    return (f"every entry you computed is right, but {where}: check which positions the loops "
            "visit.")


class _ChangedInput:
    name = "changed its input"
    hint = ("it changed its input in place (a line like `x[i] = …`, `x += …`, `x.sort()` or "
            "`x.append(…)` writes into the caller's data, which the caller still needs). Build "
            "a new result, or work on a copy (`x = list(x)` or `x = x.copy()`).")

    def seen(self, exercise, outcomes, wrong):
        return [o for o in outcomes if o.changed_input]


CHANGED_INPUT = _ChangedInput()

# messages Python or NumPy itself writes: not a refusal by the learner's own test
_BUILT_IN_ERRORS = ("unpack", "matmul", "broadcast", "inhomogeneous", "could not convert",
                    "invalid literal", "math domain", "truth value")


def refused(outcome, kind):
    """Whether ``outcome`` is a refusal by the learner's own ``raise kind(…)``, not an error
    Python or NumPy raised on the way (an unpacking, a product of the wrong shapes)."""
    return isinstance(outcome.error, kind) and not any(w in str(outcome.error)
                                                       for w in _BUILT_IN_ERRORS)


class _Refusal:
    """Raised the exercise's own kind of error (by a `raise` of the learner's) on every case
    that should give an answer: with some case that must be refused answered, the test before
    ``raise`` is turned round; with none, it refuses everything."""

    def __init__(self, name, answered):
        self.name, self.answered = name, answered

    def seen(self, exercise, outcomes, wrong):
        kinds = tuple({o.case.raises for o in outcomes if o.case.raises is not None})
        good = [o for o in outcomes if o.case.raises is None]
        answered = any(o.case.raises is not None and o.error is None for o in outcomes)
        if not (kinds and good and answered == self.answered):
            return []
        return wrong if all(refused(o, kinds) for o in good) else []

    def hint(self, exercise, outcome):
        kind = next(c.raises for c in exercise.cases if c.raises is not None).__name__
        if self.answered:
            return (f"it raised {kind} on every case that should give an answer, and answered a "
                    "case it should refuse: the test before `raise` says the opposite of what "
                    "it should (`==` where `!=` belongs?), or compares the wrong sizes.")
        return (f"it raised {kind} on every case, also on those that should give an answer: "
                "the test before `raise` lets nothing through. Check which two numbers it "
                "compares, on the case above.")


def _permutations(v, e):
    """The orders p with v == e[p] (1-D, at most 6 numbers)."""
    if v is None or e is None or v.ndim != 1 or v.shape != e.shape or not 2 < e.size <= 6:
        return set()
    return {p for p in itertools.permutations(range(e.size)) if np.allclose(v, e[list(p)])}


class _Reordered:
    """The right numbers in another order, the same order on every wrong case (a reversal or a
    shift by one is named by its own relation)."""

    name = "the right numbers in another order"

    def seen(self, exercise, outcomes, wrong):
        common = None
        for o in wrong:
            found = _permutations(_value(o), _expected(o))
            common = found if common is None else common & found
            if not common:
                return []
        if not common:
            return []
        size = len(next(iter(common)))
        plain = {tuple(range(size)), tuple(range(size))[::-1],
                 *(tuple(np.roll(range(size), k)) for k in (1, -1))}
        return wrong if common - plain else []

    def hint(self, exercise, outcome):
        return ("your numbers are the right ones in another order, the same on every case: "
                "check which value goes in which place of what you return.")


STATEMENTS = [
    _OnEveryWrong("entries never filled", _never_filled_hint, test=_never_filled),
    _OnEveryWrong("the answer of another case", "on every wrong case it gave the answer of a "
                  "different hidden case: does your function use a variable from outside (an "
                  "earlier cell) instead of its own arguments?", test=_another_case),
    _FixedFactorOfInput(),
    _OnEveryWrong("the input given back", _input_hint, test=_input_back),
    Relation("the wrong shape", _shape_hint, test=_shape_wrong),
    Relation("not numbers", "it returned something that is not numbers: return a number, a "
             "list of numbers or an array.", test=_not_numbers),
    _ConstantFactor(),
    _Refusal("the test before raise turned round", answered=True),
    _Refusal("refused every case", answered=False),
    _Reordered(),
]


def for_code(quantities=()):
    """The relations of a code exercise with these named quantities, as (tier, relation)."""
    return ([(1, r) for r in TRANSFORMED + _quantity_relations(quantities) + SHIFTED
             + INPUT_SIDE + SEEN_IN_ONE] + [(2, r) for r in STATEMENTS])


# --- relations of a number worked out by hand ----------------------------------------------

def _significant_digits(x):
    text = f"{abs(float(x)):.10g}".replace(".", "").lstrip("0").rstrip("0")
    return len(text)


def for_numbers(answer, tolerance):
    """The relations of a by-hand answer: (name, value, hint), those that could be told apart
    from the answer. A decimal point moved is only said of an answer with two significant
    digits or more: 5 and 0.5 are too often two different slips."""
    a = np.asarray(answer, dtype=float)
    found = [("sign turned round", -a, "the right size with the wrong sign: check each minus "
              "sign, one step at a time (a negative times a negative is positive).")]
    if a.ndim == 0 and _significant_digits(a) >= 2:
        for factor, words in ((10, "ten times"), (100, "100 times"), (0.1, "a tenth of"),
                              (0.01, "a hundredth of")):
            found.append(("decimal point moved", a * factor, f"{{got}} is {words} the answer: "
                          "the digits are right but the decimal point moved (check a step "
                          "where you multiply or divide by 10, 100 or a square root)."))
    if a.ndim == 0:
        if abs(a - round(float(a))) > 2 * tolerance and round(float(a)) != 0:
            found.append(("rounded to a whole number", np.round(a), "{got} is the answer "
                          "rounded to a whole number: keep the decimals the exercise asks for."))
        if 0 < abs(a) < 1:
            found.append(("a whole-number division", np.zeros(()), "{got} is what a "
                          "whole-number division (//, or int(…)) makes of a fraction: keep the "
                          "fraction."))
        found.append(("squared", a * a, "{got} is the square of the answer: a square root "
                      "forgotten, or a square too many."))
        if a > 0:
            found.append(("square-rooted", math.sqrt(a), "{got} is the square root of the "
                          "answer: a square root too many."))
        if a != 0:
            found.append(("the reciprocal", 1 / a, "{got} is 1 divided by the answer: a "
                          "division turned round."))
    elif a.ndim == 1 and a.size > 1:
        found.append(("the numbers in the wrong order", a[::-1], "the right numbers in the "
                      "wrong order."))
    return [(n, v, h) for n, v, h in found if np.all(np.abs(v - a) > 2 * tolerance)]
