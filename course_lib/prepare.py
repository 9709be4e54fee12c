"""Check once, at the door: every attention function starts with one call to
:func:`prepare_attention`, which turns what the learner passed into what the formula needs.

It reads in the order the formula uses its inputs: the array library (chosen once, from all the
arrays given), then Q, K, V (and G = ∂L/∂O for the gradients) in the compute dtype, then the
mask, then the scale. The generic checks it calls live in :mod:`course_lib.validation`, the
causal mask in :mod:`course_lib.masks`, the default scale in :mod:`course_lib.scaling`. After
this call the formula never looks back at its inputs.
"""

from typing import NamedTuple

import numpy as np

from .backend import get_array_module
from .masks import causal_mask
from .scaling import check_scale
from .validation import (
    as_float_array,
    batch_shape,
    broadcasts_to,
    check_finite,
    check_gqa_heads,
    check_key_value_rows,
    check_same_last_axis,
    compute_dtype,
    output_dtype,
)

__all__ = ["Prepared", "check_attention_inputs", "check_mask", "prepare_attention"]


class Prepared(NamedTuple):
    """What the formula needs, checked: arrays in the compute dtype, the mask, the scale."""

    query: object  # (..., n, d_k)
    key: object  # (..., m, d_k)
    value: object  # (..., m, d_v)
    mask: object  # None, boolean (True = may attend) or float (added), broadcasting to (..., n, m)
    scale: float  # multiplies the scores; 1/√d_k unless given
    xp: object  # numpy or cupy: the library every array lives in
    out_dtype: object  # float16 in → float16 out; otherwise the compute dtype
    grad_output: object = None  # (..., n, d_v) ∂L/∂output, only for the gradient functions


def prepare_attention(query, key, value, attn_mask=None, is_causal=False, scale=None, *,
                      enable_gqa=False, grad_output=None, causal_as_mask=True):
    """Check Q, K, V, the mask and the scale; return a :class:`Prepared`.

    ``is_causal`` becomes the boolean mask :func:`course_lib.masks.causal_mask` (n, m), unless
    ``causal_as_mask=False`` (tiled attention builds one block of it at a time instead, and the
    mask is then None). float16 is computed in float32 and integers in float64. With
    ``enable_gqa`` the key/value heads (axis −3) are repeated for the query heads sharing them.

    >>> p = prepare_attention([[1, 0, 0, 0]], [[1, 0, 0, 0], [0, 1, 0, 0]], [[1], [2]],
    ...                       is_causal=True)
    >>> p.query.dtype.name, p.mask.tolist(), p.scale
    ('float64', [[True, False]], 0.5)
    """
    given = [a for a in (attn_mask, grad_output) if a is not None]
    xp = get_array_module(query, key, value, *given)  # once per call; raises on a NumPy/CuPy mix

    # 1. the arrays: Q, K, V (and G), all in the compute dtype
    query, key, value, batch = check_attention_inputs(query, key, value, enable_gqa, xp=xp)
    n, m, d_v = query.shape[-2], key.shape[-2], value.shape[-1]
    arrays = (query, key, value)
    if grad_output is not None:  # G = ∂L/∂O: one number per output number
        grad_output = as_float_array(grad_output, "grad_output", 2, xp=xp)
        if not broadcasts_to(grad_output.shape, tuple(batch) + (n, d_v)):
            raise ValueError(f"grad_output of shape {grad_output.shape} must match the output's "
                             f"shape {tuple(batch) + (n, d_v)} (batch..., n, d_v)")
        check_finite(grad_output, "grad_output", xp=xp)
        arrays += (grad_output,)
    dtype = compute_dtype(*arrays)
    q, k, v, *g = (a.astype(dtype, copy=False) for a in arrays)
    g = xp.broadcast_to(g[0], tuple(batch) + (n, d_v)) if g else None  # one row per output row

    # 2. the mask: given, causal, or none
    if is_causal and causal_as_mask and attn_mask is None:
        mask = causal_mask(n, m, like=q)  # (n, m): query i sees keys 0 … i
    else:
        mask = _check_mask(attn_mask, is_causal, batch, n, m, xp)
    if mask is not None and mask.dtype != bool:
        mask = mask.astype(dtype, copy=False)  # a float mask is added in the compute dtype

    # 3. the scale: 1/√d_k unless given
    scale = check_scale(scale, query.shape[-1])
    return Prepared(q, k, v, mask, scale, xp, output_dtype(*arrays), g)


def check_attention_inputs(query, key, value, enable_gqa=False, *, xp=None):
    """Convert and check Q, K, V; return them with the broadcast batch shape.

    Shapes: query (..., n, d_k), key (..., m, d_k), value (..., m, d_v). With ``enable_gqa``
    (grouped-query attention, PyTorch's convention) the H query heads sit on axis −3 and each
    of the G key/value heads is repeated for the H / G consecutive query heads sharing it.
    ``xp`` is the array library when the caller has chosen it; by default it follows the inputs.
    """
    if xp is None:  # called on its own: follow the inputs (raises on a NumPy/CuPy mix)
        xp = get_array_module(query, key, value)
    query = as_float_array(query, "query", 2, xp=xp)
    key = as_float_array(key, "key", 2, xp=xp)
    value = as_float_array(value, "value", 2, xp=xp)
    if enable_gqa:
        group = check_gqa_heads(query, key, value)
        key = xp.repeat(key, group, axis=-3)  # (..., H, m, d_k): head h uses head h // group
        value = xp.repeat(value, group, axis=-3)  # (..., H, m, d_v)
    check_same_last_axis(query, key, "query", "key")
    check_key_value_rows(key, value)
    if key.shape[-2] == 0:
        raise ValueError(f"key has zero rows (m = 0, shape {key.shape}): there is nothing to "
                         "attend to")
    batch = batch_shape((query, key, value), ("query", "key", "value"))
    for arr, name in ((query, "query"), (key, "key"), (value, "value")):
        check_finite(arr, name, xp=xp)
    return query, key, value, batch


def check_mask(attn_mask, is_causal, batch, n, m, like):
    """A mask is boolean (True = may attend) or float (added to the scores; −∞ allowed).

    ``like`` is one of the data arrays: a mask given as an array must live in the same array
    library (NumPy or CuPy) as the data; a nested list counts as NumPy. Returns the mask as an
    array, or None.
    """
    if attn_mask is None:
        return None
    return _check_mask(attn_mask, is_causal, batch, n, m, get_array_module(like, attn_mask))


def _check_mask(attn_mask, is_causal, batch, n, m, xp):
    """:func:`check_mask` once the array library is known."""
    if attn_mask is None:
        return None
    if is_causal:
        raise ValueError("pass either attn_mask or is_causal=True, not both (as in PyTorch)")
    mask = xp.asarray(attn_mask)
    if mask.dtype != bool and not np.issubdtype(mask.dtype, np.floating):
        raise TypeError(f"attn_mask must be boolean (True = may attend) or float (added to the "
                        f"scores); got dtype {mask.dtype}")
    target = tuple(batch) + (n, m)
    if not broadcasts_to(mask.shape, target):
        raise ValueError(f"attn_mask of shape {mask.shape} does not broadcast to the scores' "
                         f"shape {target} (batch..., n, m)")
    if mask.dtype != bool and bool(xp.isnan(mask).any() | xp.isposinf(mask).any()):
        raise ValueError("a float attn_mask may hold −∞ (blocked) but not NaN or +∞")
    return mask
