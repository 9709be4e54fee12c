"""float16 and bfloat16: half the bytes, and why attention kernels still add up in float32.

Both formats store a number in 16 bits. float16 keeps 10 bits of mantissa (about 3 decimal
digits) and 5 of exponent (largest number 65504); bfloat16 keeps float32's 8 exponent bits
(the same range, up to ~3.4·10³⁸) but only 7 bits of mantissa (about 2 digits). Graphics
cards multiply such numbers fast and add the products in float32.

The danger is a long running sum kept in 16 bits: once the sum is large, the spacing between
neighbouring 16-bit numbers is larger than what is added, and the sum stops growing (in
bfloat16, 256 + 1 rounds back to 256). The online softmax adds one term per key to its running
sum lᵢ and its accumulator oᵢ, so kernels keep those (and the running max Mᵢ, the scores it is
subtracted from, and the logsumexp Lᵢ) in float32, and round to 16 bits only the final output.
:func:`rounded_attention` runs the same online softmax both ways so the difference can be
measured (notebook 14). bfloat16 comes from the ``ml_dtypes`` package, imported only here.
"""

import numpy as np

from .validation import check_count

__all__ = ["accumulation_error", "format_facts", "low_precision_dtype", "rounded_attention",
           "sequential_sum"]


def low_precision_dtype(name):
    """The NumPy dtype for "float16", "bfloat16" (from ml_dtypes) or "float32".

    >>> low_precision_dtype("float16").itemsize, low_precision_dtype("bfloat16").name
    (2, 'bfloat16')
    """
    name = getattr(name, "name", None) or getattr(name, "__name__", name)  # a dtype or a type
    if name == "bfloat16":
        import ml_dtypes  # NumPy has no bfloat16 of its own

        return np.dtype(ml_dtypes.bfloat16)
    if name in ("float16", "float32"):
        return np.dtype(name)
    raise ValueError(f"dtype must be 'float16', 'bfloat16' or 'float32'; got {name!r}")


def format_facts(dtype):
    """(mantissa bits, spacing of the numbers just above 1, largest finite number) of a format.

    >>> format_facts("float16")
    (10, 0.0009765625, 65504.0)
    >>> format_facts("bfloat16")[:2]
    (7, 0.0078125)
    """
    import ml_dtypes  # its finfo knows bfloat16 as well as NumPy's types

    info = ml_dtypes.finfo(low_precision_dtype(dtype))
    return int(info.nmant), float(info.eps), float(info.max)


def sequential_sum(terms, dtype):
    """Add the terms one at a time, rounding the running total to ``dtype`` after every step.

    >>> sequential_sum([1.0] * 300, "bfloat16")   # stops at 256: 256 + 1 rounds back to 256
    256.0
    >>> sequential_sum([1.0] * 300, "float32")
    300.0
    """
    dtype = low_precision_dtype(dtype)
    total = np.zeros((), dtype=dtype)
    for term in np.asarray(terms, dtype=np.float32).ravel():
        total = np.asarray(np.float32(total) + term).astype(dtype)  # exact in float32, then rounded
    return float(total)


def rounded_attention(query, key, value, dtype, accumulate="float32"):
    """The online softmax one key at a time, with its running numbers in float32 or in ``dtype``.

    The inputs are rounded to ``dtype`` first (what a 16-bit kernel receives) and the scores
    are their products added in float32 (what the hardware does). Then either
    ``accumulate="float32"`` keeps the running max, sum and accumulator in float32, as kernels
    do, or ``accumulate="low"`` rounds every intermediate to ``dtype``: the scores, each
    weight e^(s − M), the rescaling factor, and the running sum and accumulator after every key.
    The output is rounded to ``dtype`` in both cases.

    Parameters
    ----------
    query : (n, d_k); key : (m, d_k); value : (m, d_v).
    dtype : "float16" or "bfloat16".
    accumulate : "float32" or "low".

    Returns
    -------
    (n, d_v) output in ``dtype``.

    >>> q, k, v = np.eye(2), np.eye(2), np.array([[1.0], [2.0]])
    >>> rounded_attention(q, k, v, "float16").astype(float).round(3).ravel().tolist()
    [1.33, 1.67]
    """
    dtype = low_precision_dtype(dtype)
    if accumulate not in ("float32", "low"):
        raise ValueError(f"accumulate must be 'float32' or 'low'; got {accumulate!r}")

    def keep(x):  # what storing x does: nothing in float32 (every x here is float32 already),
        return x if accumulate == "float32" else x.astype(dtype).astype(np.float32)  # else round

    q, k, v = (np.asarray(a, dtype=np.float64).astype(dtype).astype(np.float32)
               for a in (query, key, value))
    scores = keep(q @ k.T / np.float32(np.sqrt(q.shape[-1])))  # (n, m), added in float32
    running_max = np.full(q.shape[0], -np.inf, dtype=np.float32)  # (n,) Mᵢ
    running_sum = np.zeros(q.shape[0], dtype=np.float32)  # (n,) lᵢ
    acc = np.zeros((q.shape[0], v.shape[-1]), dtype=np.float32)  # (n, d_v) oᵢ
    for j, column in enumerate(np.ascontiguousarray(scores.T)):  # one key at a time: s_:j, (n,)
        new_max = np.maximum(running_max, column)  # (n,) a comparison: exact in any format
        rescale = keep(np.exp(running_max - new_max))  # (n,) e^(M − M′) ≤ 1
        weight = keep(np.exp(keep(column - new_max)))  # (n,) e^(s_ij − M′)
        running_sum = keep(keep(running_sum * rescale) + weight)
        acc = keep(keep(acc * rescale[:, None]) + keep(weight[:, None] * v[j]))  # (n, d_v)
        running_max = new_max
    return (acc / running_sum[:, None]).astype(dtype)  # (n, d_v)


def accumulation_error(m, dtype, accumulate="float32", n=16, d=64, seed=0):
    """Largest error of :func:`rounded_attention` over m keys, relative to the largest output.

    The reference is float64 attention of the same rounded inputs, so only the arithmetic is
    measured, not the rounding of Q, K and V. Rounding the output alone costs up to half the
    spacing of ``dtype`` (:func:`format_facts`): about 5·10⁻⁴ for float16, 4·10⁻³ for bfloat16.

    >>> float16 = accumulation_error(1024, "float16")
    >>> bool(float16 < 1e-3 < accumulation_error(1024, "float16", accumulate="low"))
    True
    """
    m, n, d = check_count(m, "m"), check_count(n, "n"), check_count(d, "d")
    dtype = low_precision_dtype(dtype)
    rng = np.random.default_rng(seed)
    q, k, v = (rng.standard_normal(shape).astype(dtype).astype(np.float64)
               for shape in ((n, d), (m, d), (m, d)))
    scores = q @ k.T / np.sqrt(d)  # (n, m) in float64
    weights = np.exp(scores - scores.max(axis=1, keepdims=True))
    exact = (weights / weights.sum(axis=1, keepdims=True)) @ v  # (n, d)
    got = rounded_attention(q, k, v, dtype, accumulate).astype(np.float64)
    return float(np.abs(got - exact).max() / np.abs(exact).max())
