"""Rotary position embeddings (RoPE, Su et al. 2021, *RoFormer*): position as a rotation.

Attention alone sees a bag of tokens (notebook 11). Rotary embeddings give each query and key
row its position p by *turning* it: the d slots are cut into d/2 pairs, and pair t is rotated
by the angle p·θ_t in its own plane, with θ_t = base^(−2t/d) (pair 0 turns fastest, the last
pair slowest). A rotation keeps lengths, and turning both rows changes their dot product only
through the *difference* of their angles, so the score of a query at position i and a key at
position j depends on i − j only: attention sees relative positions.

Which slots form a pair is a convention. Here pair t is (slot t, slot t + d/2), the
"half-split" pairing of GPT-NeoX and Hugging Face's Llama (:func:`rotate_half`). Meta's
reference Llama code pairs neighbouring slots (2t, 2t + 1) instead: the same rotation up to a
fixed permutation of the slots (a loop twin of each is in :mod:`course_lib.reference_decoding`).
"""

import numpy as np

from .backend import get_array_module
from .validation import as_float_array, check_count, check_finite, compute_dtype, output_dtype

__all__ = ["rotary_angles", "rotary_cos_sin", "rotary_embedding", "rotary_frequencies", "rotate",
           "rotate_half"]


def rotary_frequencies(d, base=10000.0, like=None):
    """(d/2,) angle per position step of each pair: θ_t = base^(−2t/d), t = 0 … d/2 − 1.

    >>> rotary_frequencies(4, base=100.0).tolist()   # 100^0 and 100^(−2/4)
    [1.0, 0.1]
    """
    xp = get_array_module(like)  # NumPy unless ``like`` is a CuPy array
    d = check_count(d, "the rotated axis's size d", minimum=2)
    if d % 2:
        raise ValueError(f"the rotated axis needs an even size (pairs of slots); got d = {d}")
    base = float(base)
    if not base > 1.0:
        raise ValueError("base must be a number > 1 (the RoPE paper used 10000, SmolLM2 "
                         f"uses 100000); got {base!r}")
    return base ** (-xp.arange(0, d, 2, dtype=float) / d)  # (d/2,)


def rotary_angles(positions, d, base=10000.0):
    """(..., d/2) angles p·θ_t: how far pair t of a row at position p is turned.

    >>> rotary_angles([0, 2], 4, base=100.0).tolist()
    [[0.0, 0.0], [2.0, 0.2]]
    """
    positions = as_float_array(positions, "positions", min_ndim=0)
    check_finite(positions, "positions")
    theta = rotary_frequencies(d, base, like=positions)  # (d/2,)
    return positions[..., None] * theta  # (..., d/2)


def rotate_half(x):
    """(..., d) → (..., d): the half-split pairs (a, b) = (slot t, slot t + d/2) become (−b, a).

    That is each pair turned by a right angle; ``x·cos + rotate_half(x)·sin`` turns it by any
    angle.

    >>> import numpy as np
    >>> rotate_half(np.array([1.0, 2.0, 3.0, 4.0])).tolist()
    [-3.0, -4.0, 1.0, 2.0]
    """
    xp = get_array_module(x)
    half = x.shape[-1] // 2
    return xp.concatenate([-x[..., half:], x[..., :half]], axis=-1)  # (..., d)


def rotary_embedding(x, positions, base=10000.0):
    """Rotate each row of ``x`` by its position: pair t turns by p·θ_t, θ_t = base^(−2t/d).

    For pair t, (a, b) = (x_t, x_{t+d/2}) becomes (a cos φ − b sin φ, a sin φ + b cos φ) with
    φ = p·θ_t. Apply it to the queries and the keys (never the values) before the scores.

    Parameters
    ----------
    x : (..., d) rows to rotate, d even (the queries or the keys of one head).
    positions : the position p of each row, broadcasting against x.shape[:-1]; usually (n,)
        for x of shape (..., n, d). Whole numbers as a rule; any real number works.
    base : sets the slowest angle; 10000 in the RoFormer paper and Llama 2.

    Returns
    -------
    (broadcast of x.shape[:-1] and positions.shape) + (d,), in x's dtype (float16 computed in
    float32). Lengths are kept: ∥rotated row∥ = ∥row∥.

    >>> out = rotary_embedding([[1.0, 0.0, 0.0, 0.0]], [1], base=100.0)
    >>> [round(float(v), 4) for v in out[0]]   # pair 0 turned by 1 radian
    [0.5403, 0.0, 0.8415, 0.0]
    """
    x = as_float_array(x, "x", min_ndim=1)
    check_finite(x, "x")
    cos, sin = rotary_cos_sin(positions, x.shape[-1], base)  # (..., d): angle of slot t, t + d/2
    try:
        np.broadcast_shapes(x.shape[:-1], cos.shape[:-1])
    except ValueError:
        raise ValueError(f"positions of shape {cos.shape[:-1]} do not broadcast against the "
                         f"rows of x (x has shape {x.shape}: one position per row)") from None
    out_dtype = output_dtype(x)
    x = x.astype(compute_dtype(x), copy=False)  # float16 is turned in float32
    rotated = rotate(x, cos, sin)  # (..., d): x·cos φ + rotate_half(x)·sin φ
    return rotated.astype(out_dtype, copy=False)


def rotary_cos_sin(positions, d, base=10000.0):
    """(cos φ, sin φ), each (..., d): the angle φ = p·θ_t of pair t, in slot t and slot t + d/2.

    Everything :func:`rotate` needs for these positions. A model that turns the queries and
    keys of every layer at the same positions computes this once.

    >>> cos, sin = rotary_cos_sin([1], 4, base=100.0)
    >>> [round(float(v), 4) for v in sin[0]]   # pair 0 by 1 radian, pair 1 by 0.1
    [0.8415, 0.0998, 0.8415, 0.0998]
    """
    angles = rotary_angles(positions, d, base)  # (..., d/2)
    xp = get_array_module(angles)
    angles = xp.concatenate([angles, angles], axis=-1)  # (..., d): slot t and t + d/2 alike
    return xp.cos(angles), xp.sin(angles)


def rotate(x, cos, sin):
    """x·cos φ + rotate_half(x)·sin φ: every half-split pair of ``x`` turned by its angle.

    The rotation itself, on arrays that are already checked: :func:`rotary_embedding` checks
    its inputs and calls this; a model calls it directly with the ``cos``, ``sin`` of
    :func:`rotary_cos_sin` and the query and key rows it made itself.

    Parameters
    ----------
    x : (..., d) rows; cos, sin : (..., d) broadcasting against x.

    >>> import numpy as np
    >>> rotate(np.array([1.0, 0.0, 0.0, 0.0]), np.zeros(4), np.ones(4)).tolist()  # a right angle
    [0.0, 0.0, 1.0, 0.0]
    """
    return x * cos + rotate_half(x) * sin  # (..., d)
