"""Compare, show, copy and read the values every checker handles; never raising."""

import copy
import math

import numpy as np

WRONG_COUNT = "the wrong number of values"

__all__ = ["WRONG_COUNT", "as_numbers", "copy_args", "frozen_array", "numeric", "same",
           "same_value", "shapes", "show"]


def numeric(x):
    """``x`` as a float array, or None when it is not numbers."""
    if x is None or x is Ellipsis or isinstance(x, (str, bytes, dict)):
        return None
    try:
        array = np.asarray(x)
        if array.dtype.kind not in "biuf":  # text, objects, complex
            return None
        return array.astype(float)
    except Exception:
        return None


def same(got, expected, rtol=1e-9, atol=1e-9):
    """THE comparison: the same shape and numbers within ``rtol``/``atol`` (NaN equals NaN)."""
    a, b = numeric(got), numeric(expected)
    if a is None or b is None or a.shape != b.shape:
        return False
    return bool(np.allclose(a, b, rtol=rtol, atol=atol, equal_nan=True))


def copy_args(args):
    """A fresh deep copy per call; read-only arrays pass as they are (a write raises; the
    checker names it)."""
    return tuple(a if isinstance(a, np.ndarray) and not a.flags.writeable else copy.deepcopy(a)
                 for a in args)


def frozen_array(rows):
    """A read-only float array for a hidden case."""
    array = np.array(rows, float)
    array.setflags(write=False)
    return array


def same_value(a, b):
    """Exact equality for arrays, nested lists and NaN (an input changed in place)."""
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        try:
            return bool(np.array_equal(np.asarray(a), np.asarray(b), equal_nan=True))
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
    except Exception:
        return False


def show(x, depth=0, digits=4):
    """Short text for a value, numbers to ``digits`` significant digits; never raises."""
    try:
        if depth > 4:
            return "…"
        if isinstance(x, str):
            return repr(x) if len(x) < 60 else repr(x[:57]) + "…"
        if isinstance(x, dict):
            return "{" + ", ".join(f"{show(k, depth + 1)}: {show(v, depth + 1)}"
                                   for k, v in list(x.items())[:8]) + "}"
        if isinstance(x, np.ndarray) and x.ndim == 0:
            return show(x.item(), depth, digits)
        if isinstance(x, (list, tuple, np.ndarray)):
            items = [show(v, depth + 1, digits) for v in list(x)[:12]]
            more = ", …" if len(x) > 12 else ""
            if isinstance(x, tuple):  # a pair stays a pair
                return "(" + ", ".join(items) + more + ("," if len(x) == 1 else "") + ")"
            text = "[" + ", ".join(items) + more + "]"
            if depth == 0 and len(text) > 200:  # a big grid: its shape and its start
                shape = np.shape(x) if isinstance(x, np.ndarray) else None
                start = text[:150].rsplit(", ", 1)[0] + ", …"
                return f"{start} (shape {shape})" if shape else start
            return text
        if isinstance(x, (bool, np.bool_)):
            return str(bool(x))
        if isinstance(x, (int, float, np.integer, np.floating)):
            value = float(x)
            if math.isfinite(value) and value == round(value) and abs(value) < 1e15:
                return str(int(value))
            return f"{value:.{digits}g}"
        text = repr(x)
        return text if len(text) < 60 else text[:57] + "…"
    except Exception:
        return f"<a {type(x).__name__}>"


def shapes(names, of=""):
    """A ``show_args``: each grid by name and shape, like "Q 2×3, K 5×3"."""
    return lambda args: ", ".join(f"{n} {of}{a.shape[0]}×{a.shape[1]}"
                                  for n, a in zip(names, args, strict=False))


def as_numbers(value, shape):
    """A typed by-hand answer of ``shape`` as (array, None), or (None, what is wrong with it);
    (numbers, what is wrong) when they are too many or too few."""
    from fractions import Fraction

    want = ("one number" if shape == () else
            f"{shape[0]} numbers, like ({', '.join(str(i + 1) for i in range(shape[0]))})")
    if isinstance(value, (bool, np.bool_)):
        return None, f"{value} is a truth value; type {want}."
    whole = value.strip().split(",") if isinstance(value, str) else []
    if shape == () and len(whole) == 2 and whole[0].lstrip("-").isdigit() \
            and whole[1].isdigit():  # "7,5": a decimal comma
        return None, (f"{show(value)}: Python writes a decimal with a point, "
                      f"{whole[0]}.{whole[1]}, not a comma.")
    if isinstance(value, str):
        try:  # "7", "3/4", "-0.5", "2, 3" or "(2, 3)"
            text = value.strip().strip("()[]").replace(" ", "").replace("−", "-")
            parts = [float(Fraction(t)) for t in text.split(",")]
            value = parts[0] if len(parts) == 1 else parts
        except (ValueError, ZeroDivisionError):
            return None, f"the text {show(value)} is not a number: type {want}, without quotes."
    got = numeric(value)
    if got is None:
        return None, f"{show(value)} is not {want}."
    if got.shape != shape and shape == () and got.size == 1:  # [6] for 6
        return got, f"{show(value)} is a list: type the number alone, without brackets."
    if got.shape != shape:
        return got, (f"you gave {got.size} number{'s' * (got.size != 1)}; the answer is {want}"
                     + (", in order." if shape else "."))
    if not np.all(np.isfinite(got)):
        return None, f"{show(value)} is not a finite number: type {want}."
    return got, None
