"""The general relations: what no table lists, named by how the answer relates to the right
one; each says what the answer IS, then a cause (tier 1: a relation, 2: about its form)."""

import itertools
import math
import re
import types
from dataclasses import dataclass

import numpy as np

from .. import softmax
from ._values import copy_args, numeric, same, show
from .feedback import NoPrediction
from .feedback import no_prediction as _no

__all__ = ["CHANGED_INPUT", "PRINTED", "Relation", "for_code", "for_numbers", "refused"]

PRINTED, NO_RETURN = "printed instead of returning", "no return"


@dataclass(frozen=True)
class Relation:
    """``transform(expected, case, exercise)`` predicts the answer (a tuple: several forms), or
    ``test(o, ex)`` tells a wrong outcome; ``least``: the wrong cases it needs."""

    name: str
    hint: object
    transform: object = None
    test: object = None
    least: int = 1
    errors: bool = False  # the same kind of error as the prediction's counts

    def seen(self, ex, outcomes, wrong):
        if self.transform is None:
            return [o for o in wrong if _safe(self.test, o, ex)]
        best = []
        for form in self.transform if isinstance(self.transform, tuple) else (self.transform,):
            telling = ex.follows(lambda case, f=form: _transformed(f, case, ex), outcomes,
                                 errors_count=self.errors, key=form)
            telling = sorted(telling, key=lambda o: o.error is not None)  # a value shown first
            best = telling if len(telling) > len(best) and telling[0].error is None else best
        return best if len(best) >= self.least else []


def _transformed(form, case, ex):
    if case.raises is not None:  # nothing to predict where the function must refuse
        raise NoPrediction
    return form(numeric(case.expected), case, ex)


def _safe(test, o, ex):
    try:
        return bool(test(o, ex))
    except Exception:
        return False


def _value(o):
    return numeric(o.value) if o.error is None else None


def _expected(o):
    return numeric(o.case.expected)


def _alike(o):
    """The answer and the right one as arrays of one shape, else (None, None)."""
    v, e = _value(o), _expected(o)
    return (v, e) if v is not None and e is not None and v.shape == e.shape else (None, None)


def _t(name, hint, of):
    """A relation whose answer is ``of(expected)``."""
    return Relation(name, hint, lambda e, case, ex: of(e))


# --- the answer transformed

def _along(axis, change):
    """``change(e)`` where ``e`` has two entries at least along ``axis``."""
    def of(e):
        if e.ndim <= axis or e.shape[axis] < 2:
            raise NoPrediction
        return change(e)
    return of


def _cut(which):
    return slice(1, None) if which == "first" else slice(None, -1)


def _drop(axis, which):
    return _along(axis, lambda e: e[(slice(None),) * axis + (_cut(which),)])


class _Floored(Relation):
    """Rounded down, not cut: below 0 on a telling case."""

    def seen(self, ex, outcomes, wrong):
        best = super().seen(ex, outcomes, wrong)
        return best if any(np.any((e < 0) & (e % 1 != 0)) for e in map(_expected, best)) else []


TRANSFORMED = [
    _t("sign turned round", "right sizes, wrong sign: a subtraction the wrong way round, or a "
       "minus too many?", lambda e: -e),
    _t("the sign dropped", "an abs(…), or a square and a root, lost a sign.", np.abs),
    _t("transposed", "rows and columns swapped: check each product's order (A @ B is not B @ A) "
       "and each `.T`.", lambda e: np.swapaxes(e, -1, -2) if e.ndim >= 2 else _no()),
    _t("cut to whole numbers", "the decimals are gone: an int(…), a `//`, or dtype=int?", np.trunc),
    _Floored("rounded down", "math.floor or `//` drops the decimals: divide with `/`.",
             lambda e, case, ex: np.floor(e)),
    *[_t("rounded to " + {0: "whole numbers", 1: "1 decimal"}.get(d, f"{d} decimals"),
         "round only when you print.", lambda e, d=d: np.round(e, d)) for d in range(4)],
    *[_t(name, hint, lambda e, f=f: e * f) for name, f, hint in (
        ("twice the answer", 2, "something counted twice?"),
        ("half the answer", 0.5, "a ÷ 2 too many (`** 1/2` is one)?"),
        ("ten times the answer", 10, "a decimal point moved."),
        ("a tenth of the answer", 0.1, "a decimal point moved."),
        ("a percentage", 100, "100 times the right answer: a fraction was asked."),
        ("a hundredth of the answer", 0.01, "a fraction where a percentage was asked?"))],
    _t("the reciprocal", "1 divided by the right answer: a division the wrong way round?",
       lambda e: 1 / e if np.all(e != 0) else _no()),
    _t("squared", "a root forgotten?", lambda e: e * e),
    _t("square-rooted", "a root too many.", lambda e: np.sqrt(e) if np.all(e >= 0) else _no()),
    _t("applied the softmax", "each row adds up to 1: return the scores, not their softmax.",
       lambda e: softmax(e, axis=-1) if e.ndim == 2 and not _rows_sum_to_one(e) else _no()),
    *[_t(f"moved one place along the {('first', 'second')[axis]} axis", "an index off by one?",
         _along(axis, lambda e, a=axis, s=step: np.roll(e, s, axis=a)))
      for axis in (0, 1) for step in (1, -1)],
    _t("in reverse order", "an index from the end?", _along(0, lambda e: e[::-1])),
    _t("sorted", "a sort(…) changed their order.",
       _along(0, lambda e: np.sort(e) if e.ndim == 1 else _no())),
    *[_t(f"{end} {what} left out", f"the right answer without its {end} {what}: {why}.",
         _drop(axis, end))
      for axis, what, of_rows in ((0, "entry", ""), (1, "column", " over the columns"))
      for end, why in (("first", f"the loop{of_rows} starts at 1"),
                       ("last", f"the loop{of_rows} stops one early"))],
    *[_t(f"only the {end} row", f"it is the right answer's {end} row: {why}.",
         lambda e, i=i: e[i] if e.ndim >= 2 and e.shape[0] > 1 else _no())
      for end, i, why in (("first", 0, "a `return` inside the loop over the rows (put it after "
                           "the loop, level with the `for`)"),
                          ("last", -1, "each pass overwrote the result instead of storing its "
                           "row (write row i, or append)"))],
    Relation("summed along an axis", lambda ex, o: "it is the right answer added up along "
             f"axis {_summed(o)}: a .sum(…) too many?", tuple(
                 lambda e, c, x, a=a: e.sum(a) if e.ndim > 1 else _no() for a in (-1, 0))),
    _t("a size-1 axis missing", lambda ex, o: "it is the right numbers without the size-1 axis, "
       f"{np.shape(o.value)} for {_expected(o).shape}: keep it ([rows], [None], keepdims=True).",
       lambda e: np.squeeze(e) if 1 in e.shape[e.ndim < 2:] else _no()),
    Relation("joined, not stacked", lambda ex, o: "it is the right grids end to end, shape "
             f"{np.shape(o.value)}: np.stack(…) gives them a new first axis.", tuple(
                 lambda e, c, x, a=a: np.concatenate(list(e), a) if e.ndim > 2 and e.shape[1] > 1
                 else _no() for a in (0, -1))),
    _t("running totals", "each number is the sum of the right ones up to it: a total never reset "
       "to 0?", lambda e: np.cumsum(e, -1) if e.ndim and e.shape[-1] > 1 else _no()),
]


def _summed(o):
    return next(a for a in (-1, 0) if same(_value(o), _expected(o).sum(a)))


def _quantity_relations(quantities):
    """× and ÷ each named quantity of a case, its square root and its square."""
    found = []
    for key in quantities:
        for label, power in ((key, 1.0), (f"√{key}", 0.5), (f"{key}²", 2.0)):
            def factor(case, ex, key=key, power=power):
                value = float(ex.quantity_values(case)[key]) ** power
                if value in (0.0, 1.0) or not math.isfinite(value):
                    raise NoPrediction
                return value

            def hint(ex, o, label=label, factor=factor, word="multiplied by"):
                return (f"it is the right answer {word} {label} (here {label} = "
                        f"{show(factor(o.case, ex))}): a factor {label} extra or missing, or on "
                        "the wrong side of a division?")

            found.append(Relation(f"{label} times too big", hint,
                                  lambda e, case, ex, f=factor: e * f(case, ex)))
            found.append(Relation(f"{label} times too small",
                                  lambda ex, o, h=hint: h(ex, o, word="divided by"),
                                  lambda e, case, ex, f=factor: e / f(case, ex)))
    return found


def _solved(change):
    """The solution run on the case's arguments after ``change(args)`` edits them in place."""
    def transform(e, case, ex):
        args = list(copy_args(case.args))
        change(args)
        try:
            return ex.solution(*args)
        except Exception as exc:
            raise NoPrediction from exc
    return transform


def _put(args, i, array):
    args[i] = array.tolist() if isinstance(args[i], list) else array


def _input_dropped(axis, which, all_args):
    """Without the first or last entry along ``axis`` of the first input (or every input)."""
    def change(args):
        first = numeric(args[0])
        if first is None or first.ndim < (1 if axis == 0 else 2) or first.shape[axis] < 2:
            raise NoPrediction
        changed = 0
        for i, a in enumerate(args if all_args else args[:1]):
            arr = np.asarray(a) if isinstance(a, (list, tuple, np.ndarray)) else None
            if (arr is None or arr.dtype.kind not in "biuf" or arr.ndim == 0
                    or arr.shape[axis] != first.shape[axis]):
                continue
            _put(args, i, arr[(slice(None),) * (axis % arr.ndim) + (_cut(which),)])
            changed += 1
        if changed == 0 or (all_args and changed < 2):
            raise NoPrediction
    return _solved(change)


def _dropped(axis, which, all_args):
    first = which == "first"
    name = (("stopped one early", "skipped position 0"),
            ("stopped one column early", "skipped the first column"))[axis != 0][first]
    name += (" of every input" if first else " in every input") if all_args else ""
    cause = ("a loop from 1 skips position 0" if first else
             "range(len(x) - 1) leaves the last one out")
    return Relation(name, f"it is what you get without the {which} "
                    f"{'column' if axis else 'slot or row'} of {'every' if all_args else 'the'} "
                    f"input: {cause}.", _input_dropped(axis, which, all_args))


def _one_input(index, change):
    """``change(array)`` in place of input ``index`` (2 entries or more)."""
    def edit(args):
        arr = numeric(args[index]) if index < len(args) else None
        if arr is None or arr.ndim == 0 or arr.shape[0] < 2:
            raise NoPrediction
        _put(args, index, change(arr))
    return _solved(edit)


def _each_input(change, dicts=False):
    """``change(array)`` (or NoPrediction) in place of every numeric input (a dict's too,
    with ``dicts``); one must change."""
    def edit(args):
        changed = False
        for i, a in enumerate(args):
            table = dicts and isinstance(a, dict)
            arr = numeric(list(a.values()) if table else a) if isinstance(
                a, (list, np.ndarray)) or table else None
            if arr is not None and arr.ndim and arr.size:
                new = change(arr)
                changed = changed or new.shape != arr.shape or not np.array_equal(new, arr)
                if table:
                    args[i] = dict(zip(a, new.tolist(), strict=True))
                else:
                    _put(args, i, new)
        if not changed:
            raise NoPrediction
    return _solved(edit)


def _cut_inputs(e, case, ex):  # where that is not the answer cut
    found = _each_input(np.trunc, dicts=True)(e, case, ex)
    if same(found, np.trunc(e)):
        raise NoPrediction
    return found


def _first_entry(case):
    first = numeric(case.args[0]) if case.args else None
    if first is None or not first.ndim or not first.size or first.flat[0] == 0:
        raise NoPrediction
    return float(first.flat[0])


SHIFTED = [
    _t("one too many", "every answer is the right one plus 1: a total that starts at 1?",
       lambda e: e + 1.0),
    _t("one too few", "every answer is the right one minus 1: a − 1 too many?", lambda e: e - 1.0),
    Relation("the first entry counted twice", "every answer is the right one plus x[0]: a total "
             "starting at x[0] adds it again.", lambda e, case, ex: e + _first_entry(case)),
]


def _swapped(i, j):
    """Inputs ``i`` and ``j`` exchanged (not the answer transposed)."""
    def transform(e, case, ex):
        args = list(copy_args(case.args))
        if j >= len(args) or type(args[i]) is not type(args[j]):
            raise NoPrediction
        args[i], args[j] = args[j], args[i]
        found = ex.solution(*args)  # where it raises, the answer may raise the same
        if e.ndim >= 2 and same(found, np.swapaxes(e, -1, -2)):
            raise NoPrediction
        return found
    return transform


def _rows(rows, field="test"):
    """Relations from rows (name, hint, ``field``); any other row is kept as it is."""
    return [Relation(r[0], r[1], **{field: r[2]}) if isinstance(r, tuple) else r for r in rows]


INPUT_SIDE = _rows([
    Relation("two inputs exchanged", "it is what two inputs exchanged give: f(k, q) for f(q, k)?",
             tuple(_swapped(i, j) for i, j in itertools.combinations(range(4), 2)),
             errors=True),  # swapped shapes may raise
    ("the first row every time", "it is what one input's first row in every row gives: K[0] for "
     "K[j]?", tuple(_one_input(i, lambda a: np.repeat(a[:1], len(a), 0) if a.ndim > 1 else _no())
                    for i in range(3))),
    ("used the positions, not the numbers", "it is what the positions 0, 1, 2, … give: "
     "`range(len(q))` gives positions; the number is q[i].",
     tuple(_one_input(0, lambda a, s=s: np.arange(s, s + a.size, dtype=float) if a.ndim == 1
                      else _no()) for s in (0, 1))),
    *[_dropped(axis, which, all_args) for axis in (0, -1) for which in ("first", "last")
      for all_args in (False, True)],
    ("stopped after one pass", "it is what the first entry (row) alone gives: a `return` in the "
     "loop?", (*(_one_input(i, lambda a: a[:1]) for i in range(3)),
               _each_input(lambda a: a[:1] if len(a) > 1 else _no()))),
    Relation("inputs cut to whole numbers", "it is what the inputs give without decimals: an "
             "int(…) on each?", _cut_inputs, least=2),
    Relation("the signs dropped", "it is what the sizes |x| give: an abs(…), or a square and a "
             "root, lost the minus signs.", _each_input(np.abs), least=2),
    Relation("repeated numbers counted once", "it is what each value once gives: a set(…) drops "
             "repeats; loop over every slot.", _each_input(
                 lambda a: a[np.sort(np.unique(a, return_index=True)[1])] if a.ndim == 1
                 else _no()), least=2),
    Relation("only the first two slots", "it is what the first two slots alone give: loop over all "
             "of them.", _each_input(lambda a: a[:2] if len(a) > 2 else _no()), least=2),
    ("an input read one position off", "it is what x[i ± 1] for x[i] gives.",
     tuple(_one_input(i, lambda a, s=step: np.roll(a, s, axis=0)) for i in range(3)
           for step in (1, -1))),
], "transform")


class _OnEveryWrong(Relation):
    """Said only when it holds on every wrong outcome, two at least."""

    def seen(self, ex, outcomes, wrong):
        hits = [o for o in wrong if _safe(self.test, o, ex)]
        return hits if len(hits) == len(wrong) >= 2 else []


# --- what one wrong outcome shows

def _error(kind, *words):
    def test(o, ex):
        return (isinstance(o.error, kind) and o.case.raises is None
                and any(w in str(o.error) for w in words))
    return test


class _AllAxesT(Relation):
    """Each wrong case raised what `a @ b.T` raises (3-D inputs; b.swapaxes(-1, -2) fits), one
    at least not what `a @ b` raises."""

    def seen(self, ex, outcomes, wrong):
        said = [_t_said(o) for o in wrong]
        return wrong if wrong and all(t for t, _ in said) and not all(p for _, p in said) else []


def _t_said(o):
    xs = [a for a in o.case.args if isinstance(a, np.ndarray) and a.ndim > 2]
    pairs = [p for p in itertools.permutations(xs, 2) if not _said(lambda a=p[0], b=p[1]:
                                                                  a @ b.swapaxes(-1, -2))]
    said = str(o.error) if isinstance(o.error, ValueError) else None
    return [any(_said(lambda a=a, b=b, f=f: a @ f(b)) == said for a, b in pairs)
            for f in (np.transpose, np.asarray)]


def _said(f):
    try:
        f()
    except ValueError as exc:
        return str(exc)
    return ""


def _rows_sum_to_one(e):
    return e is not None and e.ndim >= 2 and e.shape[-1] > 1 and np.allclose(e.sum(-1), 1)


def _normalised(total):
    """The right rows sum to 1; the answer's do not, but ``total(answer)`` is all 1."""
    def test(o, ex):
        v, e = _alike(o)
        return (_rows_sum_to_one(e) and e.shape[-2] > 1 and np.allclose(total(v), 1)
                and not np.allclose(v.sum(-1), 1))
    return test


def _another_case(o, ex):
    if o.error is not None or o.case.raises is not None:
        return False
    return any(c.raises is None and c is not o.case and not ex.same(c.expected, o.case.expected)
               and ex.same(o.value, c.expected) for c in ex.cases)


def _pair(o, ex):
    v = o.value
    return (o.error is None and isinstance(v, (tuple, list)) and 2 <= len(v) <= 3
            and any(ex.same(x, o.case.expected) for x in v))


def _name_hint(ex, o):
    name = getattr(o.error, "name", None) or str(o.error).split("'")[1:2]
    name = name[0] if isinstance(name, list) and name else name
    which = f"`{name}`" if isinstance(name, str) and name else "a name it uses"
    return f"{which} is not defined where it runs: define it, or run the cell that imports it."


def _not_finite(o, ex):
    v, e = _alike(o)
    return v is not None and np.all(np.isfinite(e)) and not np.all(np.isfinite(v))


def _must_raise(when):
    return lambda o, ex: o.case.raises is not None and when(o, o.case.raises)


def _pair_hint(ex, o):
    """The two shapes of a broadcasting error, and what they suggest: a lost axis, a grid turned
    over."""
    text = "the two sides of a +, −, × or ÷ do not pair up"
    shapes = [tuple(int(x) for x in t.split(",") if x.strip())
              for t in re.findall(r"\(([\d, ]*)\)", str(o.error))]
    if len(shapes) != 2:
        return text + ": print their .shape."
    text += f", {shapes[0]} with {shapes[1]}"
    a, b = sorted(shapes, key=len)
    if len(a) == 1 and len(b) == 2 and a[0] == b[0]:
        return text + ": a row max or total needs keepdims=True."
    if any(_broadcasts(x[::-1], y) for x, y in ((a, b), (b, a)) if len(x) == 2):
        return text + ": one of them turned over would pair up (a .T missing or too many?)."
    return text + ": print the .shape of each step."


def _broadcasts(a, b):
    return all(x == y or 1 in (x, y) for x, y in zip(a[::-1], b[::-1], strict=False))


def _kind(o):
    return o.case.raises.__name__


SEEN_IN_ONE = _rows([
    ("a name never defined", _name_hint, lambda o, ex: isinstance(o.error, NameError)),
    ("^ for a power", "in Python `^` works on the bits, not a power: x ** 2 for a square, x ** 0.5 "
     "for a root.", _error(TypeError, "^", "bitwise_xor")),
    ("arithmetic on lists", "lists do no arithmetic (`a + b` glues them): np.asarray(a), or number "
     "by number.", _error(TypeError, "'list'", "can't multiply sequence", "can only concatenate")),
    ("divided by zero", "here the number you divide by is 0: what is it made of?",
     _error(ZeroDivisionError, "")),
    ("a position past the end", "an index went past the end (positions run from 0 to the length "
     "− 1): check each index and range.", _error(IndexError, "out of range", "out of bounds")),
    ("sizes that do not fit a product", "A @ B needs as many columns in A as rows in B: check each "
     ".T (one missing or too many?).",
     _error(ValueError, "matmul", "not aligned", "core dimension")),
    ("shapes that do not line up", _pair_hint, _error(ValueError, "could not be broadcast")),
    ("a float for a whole number", "`/` always gives a float (4 / 2 is 2.0); range(…), an index or "
     "a slice needs a whole number: `//`.",
     _error(TypeError, "interpreted as an integer", "indices must be integers")),
    ("an empty input", "an empty input must give {expected}: start from 0, not x[0] or max(x).",
     lambda o, ex: o.error is not None and o.case.raises is None
     and any(len(a) == 0 for a in o.case.args if isinstance(a, (list, tuple)))),
    ("returned text", "return the numbers (str(…) and f-strings are for printing).",
     lambda o, ex: o.error is None and isinstance(o.value, str) and o.case.raises is None),
    ("returned a generator", "collect it: [… for …] or list(…).", lambda o, ex: o.error is None
     and isinstance(o.value, (types.GeneratorType, map, filter, range, zip))),
    ("no return on some path", "a path ends without `return` (an `if` with no `else`?).",
     lambda o, ex: o.error is None and o.value is None and o.case.raises is None),
    ("returned more than the answer", "several things came back, the answer among them: return "
     "only it.", _pair),
    ("not a finite number", "nan or ∞: an overflow (e^x past x ≈ 709) or 0 / 0?", _not_finite),
    _OnEveryWrong("all zeros", "every number is 0: decimals cut off, terms that cancel, or a "
                  "result never filled?",
                  test=lambda o, ex: np.allclose(_value(o), 0, rtol=0, atol=1e-12)
                  and np.any(_expected(o))
                  and _value(o).shape == _expected(o).shape),
    ("normalised along the other axis", "your COLUMNS add up to 1; each ROW should (axis=-1).",
     _normalised(lambda v: v.sum(-2))),
    ("normalised over the whole grid", "all your numbers together add up to 1; each row should, on "
     "its own.", _normalised(lambda v: v.sum())),
    ("returned instead of raising", lambda ex, o: "these arguments must be refused: `raise "
     f"{_kind(o)}(\"…\")` with a message.",
     _must_raise(lambda o, kind: o.error is None and not isinstance(o.value, str))),
    ("returned the message", lambda ex, o: "it returned the message as text; a message that stops "
     f"the program is raised: `raise {_kind(o)}(\"…\")`.",
     _must_raise(lambda o, kind: o.error is None and isinstance(o.value, str))),
    ("raised another kind of error", lambda ex, o: f"this input needs {_kind(o)}, not "
     f"{type(o.error).__name__}: check the input first and raise {_kind(o)}(\"…\") yourself.",
     _must_raise(lambda o, k: o.error is not None and not isinstance(o.error, k))),
    ("refused without saying why", lambda ex, o: "say why, in a few words: raise "
     f"{_kind(o)}(f\"…\").",
     _must_raise(lambda o, k: isinstance(o.error, k) and " " not in str(o.error))),
])


# --- plain statements about the answer's form (tier 2)

def _input_back(o, ex):
    v = _value(o)
    return v is not None and any(same(v, numeric(a)) and not ex.same(a, o.case.expected)
                                 for a in o.case.args)


def _input_hint(ex, o):
    v = numeric(o.value)
    names = [n for n, a in zip(ex.arg_names, o.case.args, strict=False) if same(v, numeric(a))]
    which = f"its input {names[0]}" if names else "one of its inputs"
    return f"it gave back {which} unchanged."


def _shape_wrong(o, ex):
    v, e = _value(o), _expected(o)
    return v is not None and e is not None and v.shape != e.shape


def _describe(a):
    if a.ndim == 0:
        return "one number"
    if a.ndim == 1:
        return f"a list of {a.shape[0]} number{'s' if a.shape[0] != 1 else ''}"
    if a.ndim == 2:
        r, c = a.shape
        return f"{r} row{'s' * (r != 1)} of {c} number{'s' * (c != 1)}"
    return f"shape {tuple(int(s) for s in a.shape)}"


def _shape_hint(ex, o):
    v, e = numeric(o.value), numeric(o.case.expected)
    said = f"the answer is {_describe(e)}; yours is {_describe(v)}."
    if e.ndim >= 1 and 0 < v.size < e.size and v.ndim >= e.ndim - 1 \
            and np.allclose(v.ravel(), e.ravel()[:v.size]):
        said += (" It is the answer without its last entry: a range that stops early, or a "
                 "`return` in the loop?" if v.size == e.size - 1 else " It starts as the "
                 "answer does: a `return` inside the loop stops it early?")
    return said


def _not_numbers(o, ex):
    return (o.error is None and o.case.raises is None and o.value is not None
            and not isinstance(o.value, str) and numeric(o.value) is None)


def _ratio(v, e, rtol=1e-6):
    """The c with v == c·e, or None."""
    if v is None or e is None or v.shape != e.shape or not np.any(e):
        return None
    mask = e != 0
    ratios = v[mask] / e[mask]
    if not (np.allclose(v[~mask], 0) and np.allclose(ratios, ratios.flat[0], rtol=rtol)):
        return None
    return float(ratios.flat[0])


class _Factor:
    """Every wrong answer is ``base(o)`` times one number c, not 0 or 1."""

    def __init__(self, name, base, hint, least, rtol):
        self.name, self.base, self.words, self.least, self.rtol = name, base, hint, least, rtol

    def ratio(self, o):
        return _ratio(_value(o), self.base(o), rtol=self.rtol)

    def seen(self, ex, outcomes, wrong):
        rs = [self.ratio(o) for o in wrong]
        if len(wrong) < self.least or None in rs or rs[0] in (0.0, 1.0) or not all(
                math.isclose(r, rs[0], rel_tol=1e-6) for r in rs):
            return []  # one wrong number is always a factor times the right one
        return wrong if sum(np.count_nonzero(self.base(o)) for o in wrong) > 1 else []

    def hint(self, ex, o):
        return self.words.format(show(self.ratio(o)))


def _never_filled(o, ex):
    """Right wherever it is not 0, and 0 where the answer is not."""
    v, e = _alike(o)
    if v is None or v.size < 3 or isinstance(o.value, tuple):
        return False
    blank = (v == 0) & (e != 0)
    return bool(blank.any() and np.allclose(v[~blank], e[~blank]))


def _never_filled_hint(ex, o):
    v, e = numeric(o.value), numeric(o.case.expected)
    blank = (v == 0) & (e != 0)
    if blank.ndim == 2 and blank[1:].all() and not blank[0].any():
        where = "every row after the first is still 0 (a return in the outer loop?)"
    elif blank.ndim == 2 and blank[:, -1].all() and not blank[:, :-1].any():
        where = "the last column is still 0 (a range that stops one early?)"
    elif blank.ndim == 1 and blank[-1] and not blank[:-1].any():
        where = "the last entry is still 0 (a range that stops one early?)"
    else:
        where = f"{int(blank.sum())} of its entries are still 0"
    return f"every entry you computed is right, but {where}: check which positions the loops visit."


CHANGED_INPUT = Relation("changed its input", "`x[i] = …`, `x += …` and `x.sort()` write into "
                         "the caller's list: work on a copy (`list(x)`, `x.copy()`).")

# messages Python or NumPy itself writes: not a refusal by the learner's own test
_BUILT_IN_ERRORS = ("unpack", "matmul", "broadcast", "inhomogeneous", "could not convert",
                    "invalid literal", "math domain", "truth value")


def refused(o, kind):
    """``o`` is the learner's own ``raise kind(…)``, not Python's or NumPy's."""
    return isinstance(o.error, kind) and not any(w in str(o.error) for w in _BUILT_IN_ERRORS)


class _Refusal:
    """Its own error raised on every case to answer (``answered``: and a case to refuse
    answered)."""

    def __init__(self, name, answered):
        self.name, self.answered = name, answered

    def seen(self, ex, outcomes, wrong):
        kinds = tuple({o.case.raises for o in outcomes if o.case.raises is not None})
        good = [o for o in outcomes if o.case.raises is None]
        answered = any(o.case.raises is not None and o.error is None for o in outcomes)
        if not (kinds and good and answered == self.answered):
            return []
        return wrong if all(refused(o, kinds) for o in good) else []

    def hint(self, ex, o):
        kind = next(c.raises for c in ex.cases if c.raises is not None).__name__
        if self.answered:
            return ("it refused where it should answer and answered where it should refuse: "
                    "`==` for `!=`, or the wrong things compared?")
        return f"check what the test before `raise {kind}` compares, on this case."


def _permutations(v, e):
    """The orders p with v == e[p] (1-D, at most 6 numbers)."""
    if v is None or e is None or v.ndim != 1 or v.shape != e.shape or not 2 < e.size <= 6:
        return set()
    return {p for p in itertools.permutations(range(e.size)) if np.allclose(v, e[list(p)])}


class _Reordered:
    """The right numbers in one other order on every wrong case (not a reversal or roll)."""

    name = "the right numbers in another order"
    hint = "the same order on every case: check which index goes where."

    def seen(self, ex, outcomes, wrong):
        found = [_permutations(_value(o), _expected(o)) for o in wrong]
        common = set.intersection(*found) if found else set()
        if not common:
            return []
        size = len(next(iter(common)))
        plain = {tuple(range(size)), tuple(range(size))[::-1],
                 *(tuple(np.roll(range(size), k)) for k in (1, -1))}
        return wrong if common - plain else []


def _kept_zeros(o, ex):
    v, e = _alike(o)
    off = v is not None and v.size > 2 and ~np.isclose(v, e)
    return bool(np.any(off) and np.all(e[off] == 0))


def _other_size(o, ex):
    v, e = _alike(o)
    if v is None or e.ndim != 1 or np.any(e % 1):
        return False
    sizes = {int(n) for a in o.case.args for n in (a.shape if isinstance(a, np.ndarray)
             else a if isinstance(a, tuple) else ()) if isinstance(n, int)}
    return bool(np.any(v != e) and set(v[v != e].tolist()) <= sizes) and sorted(v) != sorted(e)


def _fractions_for_whole(o, ex):
    """Fractions, in an exercise whose every answer is ints."""
    v = _value(o)
    return v is not None and bool(np.any(v != np.round(v))) and all(
        np.asarray(c.expected).dtype.kind in "iu" for c in ex.cases if c.raises is None)


def _all_equal(o, ex):
    v, e = _alike(o)
    return (v is not None and v.shape[-1:] > (1,) and v.size > 2 and np.allclose(v, v[..., :1])
            and np.any(v) and not np.allclose(e, e[..., :1]))


STATEMENTS = _rows([
    ("fractions where whole numbers are asked", lambda ex, o: "the answer is always whole "
     f"numbers; yours is {show(o.value)}: `/` for `//`, or a division too many?",
     _fractions_for_whole),
    _OnEveryWrong("every entry the same", "each row of yours repeats one number; the "
                  "answer's do not: an index that never moves?", test=_all_equal),
    _OnEveryWrong("not 0 where the answer is 0", "right except where the answer is 0 (False): a "
                  "masked or skipped place kept a value.", test=_kept_zeros),
    _OnEveryWrong("a size read from the wrong place", "each wrong number is another size of the "
                  "inputs: which input and axis hold it?", test=_other_size),
    _OnEveryWrong("entries never filled", _never_filled_hint, test=_never_filled),
    _OnEveryWrong("the answer of another case", "each is right for other inputs: an earlier cell's "
                  "variable used for an argument?", test=_another_case),
    _Factor("the input times a fixed number", lambda o: numeric(o.case.args[0]), "on every "
            "case it is the input times {}: work the factor out from the input.", 2, 1e-5),
    _OnEveryWrong("the input given back", _input_hint, test=_input_back),
    ("the wrong shape", _shape_hint, _shape_wrong),
    ("not numbers", "return a number, a list of numbers or an array.", _not_numbers),
    _Factor("off by a constant factor", _expected, "every wrong number is the right one times {}: "
            "a factor is wrong.", 1, 1e-6),
    _Refusal("the test before raise turned round", answered=True),
    _Refusal("refused every case", answered=False),
    _Reordered(),
])


ALL_AXES_T = _AllAxesT("`.T` on a 3-D array", "`.T` reverses ALL the axes, (H, m, d) → (d, m, H): "
                       "swap only the last two, x.swapaxes(-1, -2).")


def for_code(quantities=()):
    """The relations of a code exercise with these named quantities, as (tier, relation)."""
    tier_1 = TRANSFORMED + _quantity_relations(quantities) + SHIFTED + INPUT_SIDE + SEEN_IN_ONE
    return [(0.75, ALL_AXES_T)] + [(1, r) for r in tier_1] + [(2, r) for r in STATEMENTS]


# --- relations of a number worked out by hand

def _significant_digits(x):
    return len(f"{abs(float(x)):.10g}".replace(".", "").lstrip("0").rstrip("0"))


def for_numbers(answer, tolerance):
    """(name, value, hint) of a by-hand answer, those told apart from it (a decimal point moved:
    two significant digits or more)."""
    a = np.asarray(answer, float)
    found = [("sign turned round", -a, "the right size with the wrong sign: check each minus.")]
    if a.ndim == 0 and _significant_digits(a) >= 2:
        found += [("decimal point moved", a * f, "The digits are right.")
                  for f in (10, 100, 0.1, 0.01)]
    if a.ndim == 0:
        if abs(a - round(float(a))) > 2 * tolerance and round(float(a)) != 0:
            found.append(("rounded to a whole number", np.round(a), "Keep the decimals asked "
                          "for."))
        if 0 < abs(a) < 1:
            found.append(("a whole-number division", np.zeros(()), "{got} is what // or int(…) "
                          "makes of a fraction."))
        found.append(("squared", a * a, "A root forgotten."))
        if a > 0:
            found.append(("square-rooted", math.sqrt(a), "One root too many."))
        if a != 0:
            found.append(("the reciprocal", 1 / a, "A division turned upside down."))
    elif a.ndim == 1 and a.size > 1:
        found.append(("the numbers in the wrong order", a[::-1], "Keep the order asked."))
    if _significant_digits(a) >= 2 if a.ndim == 0 else a.size > 1:  # one digit: by chance
        found += [("off by a factor", a * f, "Check each factor and division.")
                  for f in (2, 3, 4, 0.5, 1 / 3, 0.25)]
    if np.all((a > 0) & (a < 1)):
        found.append(("the other part's share", 1 - a, "Check which part is asked."))
    kept = []
    for n, v, h in found:
        if np.all(np.abs(v - a) > 2 * tolerance) and not any(
                np.allclose(v, w, rtol=1e-9, atol=0) for _, w, _ in kept):
            kept.append((n, v, h))
    return kept
