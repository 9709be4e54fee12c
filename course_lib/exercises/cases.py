"""Hidden cases and what the learner's function did on them, written so nothing the learner
returns (ragged lists, ``None``, strings, NaN, objects) can crash the checker."""

import copy
import math
from dataclasses import dataclass

import numpy as np

__all__ = ["Case", "Outcome", "breaks_only_on", "copy_args", "frozen_array", "same_value", "show"]


@dataclass(frozen=True)
class Case:
    """One hidden test: the arguments, and either the expected value or the expected error."""

    args: tuple
    expected: object = None
    raises: type | None = None  # e.g. ValueError: the function must refuse these arguments

    def size(self):
        """How big the case reads on screen; the smallest failing case is shown first.

        >>> Case(([1.0, 2.0], [[1.0], [2.0, 3.0]])).size()   # ragged rows count too
        5
        """
        return sum(_count_numbers(a) for a in self.args)

    def show_args(self):
        return ", ".join(show(a) for a in self.args)


@dataclass
class Outcome:
    """What the learner's function did on one case."""

    case: Case
    value: object = None
    error: BaseException | None = None
    correct: bool = False
    changed_input: bool = False  # the function wrote into one of its arguments


def _count_numbers(x):
    if isinstance(x, np.ndarray):
        return int(x.size)
    if isinstance(x, (list, tuple)):
        return sum(_count_numbers(v) for v in x)
    if isinstance(x, dict):
        return sum(_count_numbers(v) for v in x.values())
    return 1


def copy_args(args):
    """A fresh deep copy per call, so a function that changes its input cannot spoil later
    cases. Read-only arrays (:func:`frozen_array`) are passed as they are: writing into one
    raises, which the checker names."""
    return tuple(a if isinstance(a, np.ndarray) and not a.flags.writeable else copy.deepcopy(a)
                 for a in args)


def same_value(a, b):
    """Exact equality that also works for arrays, nested lists and NaN (used to notice a
    function that changed its input).

    >>> same_value([1.0, [2.0, float("nan")]], [1.0, [2.0, float("nan")]])
    True
    >>> same_value(np.zeros(2), np.ones(2))
    False
    """
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        try:
            a_arr, b_arr = np.asarray(a), np.asarray(b)
            return a_arr.shape == b_arr.shape and bool(np.array_equal(a_arr, b_arr,
                                                                      equal_nan=True))
        except (TypeError, ValueError):
            return False
    if isinstance(a, (list, tuple)):
        return (type(a) is type(b) and len(a) == len(b)
                and all(same_value(x, y) for x, y in zip(a, b, strict=True)))
    if isinstance(a, dict):
        return (isinstance(b, dict) and a.keys() == b.keys()
                and all(same_value(a[k], b[k]) for k in a))
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    try:
        return bool(a == b)
    except Exception:  # an object whose == misbehaves
        return False


def show(x, depth=0):
    """Short, readable text for a value: numbers with up to 4 significant digits, lists in
    brackets; never raises.

    >>> show([1.0, 2.5, [3, None]])
    '[1, 2.5, [3, None]]'
    """
    try:
        if depth > 4:
            return "…"
        if isinstance(x, str):
            return repr(x) if len(x) < 60 else repr(x[:57]) + "…"
        if isinstance(x, dict):
            return "{" + ", ".join(f"{show(k, depth + 1)}: {show(v, depth + 1)}"
                                   for k, v in x.items()) + "}"
        if isinstance(x, np.ndarray) and x.ndim == 0:
            return show(x.item(), depth)
        if isinstance(x, (list, tuple, np.ndarray)):
            items = [show(v, depth + 1) for v in list(x)[:12]]
            more = ", …" if len(x) > 12 else ""
            return "[" + ", ".join(items) + more + "]"
        if isinstance(x, (bool, np.bool_)):
            return str(bool(x))
        if isinstance(x, (int, float, np.integer, np.floating)):
            value = float(x)
            if math.isfinite(value) and value == round(value) and abs(value) < 1e15:
                return str(int(value))
            return f"{value:.4g}"
        text = repr(x)
        return text if len(text) < 60 else text[:57] + "…"
    except Exception:
        return f"<a {type(x).__name__}>"


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
