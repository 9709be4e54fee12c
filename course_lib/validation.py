"""Input checks shared by the math functions.

Each check raises ``TypeError`` or ``ValueError`` with a message that names the argument and
the shapes or values involved, so a mistake is caught where it is made instead of turning
into a silently wrong answer (or a NaN) three steps later.
"""

import operator

import numpy as np

from .backend import get_array_module

__all__ = [
    "as_float_array",
    "broadcasts_to",
    "batch_shape",
    "check_axis",
    "check_count",
    "check_key_value_rows",
    "check_finite",
    "check_gqa_heads",
    "check_same_last_axis",
    "compute_dtype",
    "output_dtype",
]


LOW_PRECISION = ("float16", "bfloat16")  # 16-bit floats: computed in float32, returned as given


def _common_dtype(arrays):
    """NumPy's common dtype of the arrays; bfloat16 with float16 is refused, clearly."""
    dtypes = {a.dtype for a in arrays}  # usually one: the names are read only for a mix
    if len(dtypes) > 1 and {"bfloat16", "float16"} <= {d.name for d in dtypes}:
        raise TypeError("bfloat16 and float16 inputs do not mix (neither format holds all of "
                        "the other's numbers); convert them to one dtype first, e.g. "
                        "x.astype(np.float32)")
    return np.result_type(*dtypes)


def _compute(dtype):
    """compute_dtype's rule for one (common) dtype."""
    if dtype.kind == "f" and dtype.itemsize >= 4:  # float32 and wider: as they are
        return dtype
    if dtype.name in LOW_PRECISION:
        return np.dtype(np.float32)
    return dtype if np.issubdtype(dtype, np.floating) else np.dtype(np.float64)


def compute_dtype(*arrays):
    """The float dtype to compute in: float16 and bfloat16 are widened to float32, integers
    become float64.

    >>> compute_dtype(np.ones(2, dtype=np.float16)).name
    'float32'
    >>> compute_dtype(np.ones(2, dtype=np.int64)).name
    'float64'
    """
    return _compute(_common_dtype(arrays))


def output_dtype(*arrays):
    """The dtype of the answer: float16 or bfloat16 in → the same out, else :func:`compute_dtype`.

    >>> output_dtype(np.ones(2, dtype=np.float16)).name, output_dtype(np.ones(2, int)).name
    ('float16', 'float64')
    """
    given = _common_dtype(arrays)
    return given if given.name in LOW_PRECISION else _compute(given)


def check_count(value, name, minimum=1):
    """A count of things (rows, heads, slots, bytes): an integer ≥ ``minimum``, returned as int.

    ``minimum=None`` accepts any integer (an offset such as a diagonal may be negative).

    >>> check_count(3, "n")
    3
    >>> check_count(0, "num_heads")
    Traceback (most recent call last):
    ...
    ValueError: num_heads must be a positive integer; got 0
    """
    kind = ("an integer" if minimum is None else
            "a positive integer" if minimum == 1 else f"an integer ≥ {minimum}")
    if isinstance(value, bool) or not hasattr(value, "__index__"):
        raise TypeError(f"{name} must be {kind}; got {value!r}")
    if minimum is not None and operator.index(value) < minimum:
        raise ValueError(f"{name} must be {kind}; got {value!r}")
    return operator.index(value)


def as_float_array(x, name, min_ndim=1, *, xp=None):
    """Turn ``x`` into an array of real numbers with at least ``min_ndim`` axes, or explain why not.

    ``xp`` is the array library to make it in when the caller has chosen it already (the door
    of the attention functions does, once per call); by default it follows ``x``.

    >>> as_float_array([[1, 2]], "query", min_ndim=2).shape
    (1, 2)
    >>> as_float_array([1, 2], "query", min_ndim=2)
    Traceback (most recent call last):
    ...
    ValueError: query must have at least 2 axes (..., rows, columns); got shape (2,)
    """
    if xp is None:  # called on its own: follow the input
        xp = get_array_module(x)
    try:
        arr = xp.asarray(x)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"{name} must be an array of numbers; could not convert it "
                        f"({exc})") from None
    kind = arr.dtype.kind  # "f" floating, "i"/"u" integer; "b" bool, "c" complex, … refused
    if kind not in "fiu" and arr.dtype.name != "bfloat16":  # ml_dtypes' bfloat16: kind "V"
        raise TypeError(f"{name} must hold real numbers (int or float); got dtype {arr.dtype}")
    if arr.ndim < min_ndim:
        axes = "(..., rows, columns)" if min_ndim == 2 else "(..., length)"
        raise ValueError(f"{name} must have at least {min_ndim} axes {axes}; got shape {arr.shape}")
    if kind in "iu":
        arr = arr.astype(np.float64)  # int8·int8 wraps around silently; float64 does not
    return arr


def check_finite(x, name, *, xp=None):
    """Reject NaN and ±∞: they would spread silently through every later step."""
    if xp is None:  # called on its own: follow the input
        xp = get_array_module(x)
    finite = xp.isfinite(x)
    if not bool(finite.all()):
        bad = tuple(int(i) for i in xp.argwhere(~finite)[0])  # the first bad number's index
        raise ValueError(f"{name} contains NaN or infinite values (first at index {bad}); "
                         f"shape {x.shape}")


def check_same_last_axis(a, b, name_a, name_b):
    """Both vectors (or rows) must have the same number of slots."""
    if a.shape[-1] != b.shape[-1]:
        if a.ndim == b.ndim == 1:  # two vectors: say it in the course's words, slots
            problem = f"{name_a} has {a.shape[-1]} slots but {name_b} has {b.shape[-1]}"
        else:
            problem = f"{name_a}'s last axis is {a.shape[-1]} but {name_b}'s is {b.shape[-1]}"
        raise ValueError(f"{problem}: they must match (shapes {a.shape} and {b.shape})")


def check_axis(x, axis, name):
    """``axis`` must exist in ``x`` and be non-empty; returns it as a non-negative index."""
    if not isinstance(axis, (int, np.integer)) or isinstance(axis, bool):
        raise TypeError(f"axis must be an integer; got {axis!r}")
    if not -x.ndim <= axis < x.ndim:
        raise ValueError(f"axis {axis} is out of range for {name} of shape {x.shape}")
    axis = int(axis) % x.ndim
    if x.shape[axis] == 0:
        raise ValueError(f"{name} has an empty axis {axis} (shape {x.shape}): nothing to normalise")
    return axis


def check_gqa_heads(query, key, value):
    """Grouped-query attention's shapes: H query heads on axis −3 sharing G key/value heads.

    Returns H / G, the number of consecutive query heads that share each key/value head.

    >>> check_gqa_heads(np.zeros((8, 3, 4)), np.zeros((2, 5, 4)), np.zeros((2, 5, 1)))
    4
    """
    shapes = f"query {query.shape}, key {key.shape}, value {value.shape}"
    if min(query.ndim, key.ndim, value.ndim) < 3:
        raise ValueError(f"enable_gqa=True needs query, key and value with at least 3 axes "
                         f"(..., heads, rows, columns); got {shapes}")
    heads, kv_heads = query.shape[-3], key.shape[-3]
    if value.shape[-3] != kv_heads:
        raise ValueError(f"key has {kv_heads} heads (axis −3) but value has {value.shape[-3]}: "
                         f"each key head needs its value head ({shapes})")
    if kv_heads == 0 or heads % kv_heads:
        raise ValueError(f"enable_gqa=True needs the query heads ({heads}) to be a multiple of "
                         f"the key/value heads ({kv_heads}) on axis −3 ({shapes})")
    return heads // kv_heads


def broadcasts_to(shape, target):
    """True when an array of ``shape`` broadcasts to ``target`` without enlarging it.

    >>> broadcasts_to((1, 3), (2, 3)), broadcasts_to((2, 3), (3,)), broadcasts_to((4,), (3,))
    (True, False, False)
    """
    try:
        return np.broadcast_shapes(tuple(shape), tuple(target)) == tuple(target)
    except ValueError:
        return False


def check_key_value_rows(key, value, names=("key", "value")):
    """Every key needs one value: the second-last axes of ``key`` and ``value`` must agree."""
    if key.shape[-2] != value.shape[-2]:
        raise ValueError(f"{names[0]} has {key.shape[-2]} rows (m) but {names[1]} has "
                         f"{value.shape[-2]}: every key needs one value (shapes {key.shape} and "
                         f"{value.shape})")


def batch_shape(arrays, names):
    """The broadcast shape of the arrays' batch axes (all but the last two), or explain.

    >>> batch_shape([np.ones((2, 1, 3, 4)), np.ones((5, 3, 4))], ["query", "key"])
    (2, 5)
    """
    try:
        return np.broadcast_shapes(*(a.shape[:-2] for a in arrays))
    except ValueError:
        shapes = ", ".join(f"{name} {a.shape}" for a, name in zip(arrays, names, strict=True))
        parts = ", ".join(str(a.shape[:-2]) for a in arrays)
        raise ValueError(f"batch axes do not broadcast: {shapes} (batch parts {parts})") from None
