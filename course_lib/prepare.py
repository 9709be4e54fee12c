"""Check once, at the door: every attention function starts with one call to
:func:`prepare_attention`, which turns what the learner passed into what the formula needs.

The checks themselves live in :mod:`course_lib.validation`; the causal mask comes from
:mod:`course_lib.masks`. After this call the formula never looks back at its inputs.
"""

from typing import NamedTuple

from .backend import get_array_module
from .masks import causal_mask
from .validation import (
    as_float_array,
    broadcasts_to,
    check_attention_inputs,
    check_finite,
    check_mask,
    check_scale,
    compute_dtype,
    output_dtype,
)

__all__ = ["Prepared", "prepare_attention"]


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
                      grad_output=None, causal_as_mask=True):
    """Check Q, K, V, the mask and the scale; return a :class:`Prepared`.

    ``is_causal`` becomes the boolean mask :func:`course_lib.masks.causal_mask` (n, m), unless
    ``causal_as_mask=False`` (tiled attention builds one block of it at a time instead, and the
    mask is then None). float16 is computed in float32 and integers in float64.

    >>> p = prepare_attention([[1, 0, 0, 0]], [[1, 0, 0, 0], [0, 1, 0, 0]], [[1], [2]],
    ...                       is_causal=True)
    >>> p.query.dtype.name, p.mask.tolist(), p.scale
    ('float64', [[True, False]], 0.5)
    """
    query, key, value, batch = check_attention_inputs(query, key, value)
    n, m, d_v = query.shape[-2], key.shape[-2], value.shape[-1]
    mask = check_mask(attn_mask, is_causal, batch, n, m, like=query)
    if is_causal and causal_as_mask:
        mask = causal_mask(n, m, like=query)  # (n, m): query i sees keys 0 … i
    arrays = (query, key, value)
    if grad_output is not None:
        arrays += (_check_grad_output(grad_output, tuple(batch) + (n, d_v)),)
    xp = get_array_module(*arrays)  # raises on a NumPy/CuPy mix
    dtype = compute_dtype(*arrays)
    q, k, v, *g = (a.astype(dtype, copy=False) for a in arrays)
    if mask is not None and mask.dtype != bool:
        mask = mask.astype(dtype, copy=False)  # a float mask is added in the compute dtype
    g = xp.broadcast_to(g[0], tuple(batch) + (n, d_v)) if g else None  # one row per output row
    return Prepared(q, k, v, mask, check_scale(scale, query.shape[-1]), xp, output_dtype(*arrays),
                    g)


def _check_grad_output(grad_output, out_shape):
    grad_output = as_float_array(grad_output, "grad_output", 2)
    if not broadcasts_to(grad_output.shape, out_shape):
        raise ValueError(f"grad_output of shape {grad_output.shape} must match the output's "
                         f"shape {out_shape} (batch..., n, d_v)")
    check_finite(grad_output, "grad_output")
    return grad_output
