"""Multi-head attention: h small attentions side by side, each on its own slice of d_model.

The learned projections turn token vectors (rows of width d_model) into queries, keys and
values: Q = X W_Q, K = Y W_K, V = Y W_V (rows are tokens, so the vector multiplies the matrix
from the left). The columns of Q, K and V are cut into h slices of width d_k = d_model / h; head
t runs scaled dot-product attention on its slice, scaled by 1/√d_k of *that slice* (the width
of the vectors whose dot products it takes), and W_O mixes the h outputs back together.
Self-attention: X and Y are the same sequence. Cross-attention: queries come from one sequence,
keys and values from another.
"""


from .attention import scaled_dot_product_attention
from .backend import get_array_module
from .prepare import check_mask
from .validation import (
    as_float_array,
    batch_shape,
    check_count,
    check_finite,
    check_key_value_rows,
)

__all__ = ["multi_head_attention", "split_heads"]


def split_heads(x, num_heads):
    """(..., n, h·d) → (..., h, n, d): cut the columns into h slices, one per head.

    >>> import numpy as np
    >>> split_heads(np.arange(8.0).reshape(2, 4), 2).tolist()   # head 0 gets columns 0-1
    [[[0.0, 1.0], [4.0, 5.0]], [[2.0, 3.0], [6.0, 7.0]]]
    """
    xp = get_array_module(x)
    *lead, n, width = x.shape
    heads = x.reshape(*lead, n, num_heads, width // num_heads)  # (..., n, h, d)
    return xp.moveaxis(heads, -2, -3)  # (..., h, n, d)


def _merge_heads(x):
    """(..., h, n, d) → (..., n, h·d): the inverse of :func:`split_heads`."""
    xp = get_array_module(x)
    *lead, h, n, d = x.shape
    return xp.moveaxis(x, -3, -2).reshape(*lead, n, h * d)


def _check_weight(w, name, rows, rows_from):
    w = as_float_array(w, name, 2)
    if w.ndim != 2:
        raise ValueError(f"{name} must be a 2-D matrix (in, out); got shape {w.shape}")
    if w.shape[0] != rows:
        raise ValueError(f"{name} has {w.shape[0]} rows but {rows_from} has {rows} columns: "
                         f"x @ {name} needs them equal (shape {w.shape})")
    check_finite(w, name)
    return w


def multi_head_attention(query_input, key_input, value_input, w_q, w_k, w_v, w_o, num_heads,
                         attn_mask=None, is_causal=False, return_weights=False):
    """Concat(head₀, …, head_{h−1}) W_O with head_t = softmax(Q_t K_tᵀ/√d_k) V_t.

    Parameters
    ----------
    query_input : (..., n, d_q) — the sequence the queries come from (X).
    key_input : (..., m, d_kv) — the sequence the keys come from (Y; X itself in self-attention).
    value_input : (..., m, d_kv) — the sequence the values come from (usually the same as Y).
    w_q : (d_q, h·d_k) — Q = X W_Q; head t uses columns t·d_k … (t+1)·d_k − 1.
    w_k : (d_kv, h·d_k) — K = Y W_K.
    w_v : (d_kv, h·d_v) — V = Y W_V.
    w_o : (h·d_v, d_out) — mixes the concatenated head outputs.
    num_heads : h; must divide the widths of W_Q and W_V. Each head's scale is 1/√d_k with
        d_k = w_q.shape[1] / h (the per-head width, not d_model).
    attn_mask : None or a mask for the scores (..., n, m), boolean (True = may attend) or float
        (added); the same mask applies to every head.
    is_causal : query i sees keys 0..i only.
    return_weights : also return every head's weights.

    Returns
    -------
    output : (..., n, d_out).
    weights : (..., h, n, m), only if ``return_weights``.

    >>> import numpy as np
    >>> x = np.eye(4)                       # 4 tokens, d_model = 4, 2 heads of d_k = 2
    >>> w = np.eye(4)
    >>> out = multi_head_attention(x, x, x, w, w, w, w, num_heads=2)
    >>> out.shape
    (4, 4)
    """
    x, y_k, y_v, w_q, w_k, w_v, w_o, h, mask = _check_inputs(
        query_input, key_input, value_input, w_q, w_k, w_v, w_o, num_heads, attn_mask,
        is_causal)
    q = split_heads(x @ w_q, h)  # (..., h, n, d_k)
    k = split_heads(y_k @ w_k, h)  # (..., h, m, d_k)
    v = split_heads(y_v @ w_v, h)  # (..., h, m, d_v)
    heads, weights = scaled_dot_product_attention(q, k, v, attn_mask=mask, is_causal=is_causal,
                                                  return_weights=True)  # scale 1/√d_k per head
    output = _merge_heads(heads) @ w_o  # (..., n, h·d_v) @ (h·d_v, d_out)
    if return_weights:
        return output, weights
    return output


def _check_inputs(query_input, key_input, value_input, w_q, w_k, w_v, w_o, num_heads, attn_mask,
                  is_causal):
    """Check everything once; the mask gets an axis for the heads: (..., 1, n, m)."""
    h = check_count(num_heads, "num_heads")
    x = as_float_array(query_input, "query_input", 2)
    y_k = as_float_array(key_input, "key_input", 2)
    y_v = as_float_array(value_input, "value_input", 2)
    get_array_module(x, y_k, y_v, w_q, w_k, w_v, w_o)  # raises on a NumPy/CuPy mix
    batch = batch_shape((x, y_k, y_v), ("query_input", "key_input", "value_input"))
    check_key_value_rows(y_k, y_v, ("key_input", "value_input"))
    w_q = _check_weight(w_q, "w_q", x.shape[-1], "query_input")
    w_k = _check_weight(w_k, "w_k", y_k.shape[-1], "key_input")
    w_v = _check_weight(w_v, "w_v", y_v.shape[-1], "value_input")
    if w_k.shape[1] != w_q.shape[1]:
        raise ValueError(f"w_q and w_k must give queries and keys of the same width (h·d_k); got "
                         f"shapes {w_q.shape} and {w_k.shape}")
    for w, name in ((w_q, "w_q"), (w_v, "w_v")):
        if w.shape[1] % h:
            raise ValueError(f"{name} has {w.shape[1]} columns, which {h} heads cannot share "
                             f"equally: h must divide the width (d_k = width / h)")
    w_o = _check_weight(w_o, "w_o", w_v.shape[1], "the concatenated heads (h·d_v)")

    n, m = x.shape[-2], y_k.shape[-2]
    mask = check_mask(attn_mask, is_causal, batch, n, m, like=x)
    if mask is not None:
        mask = mask.reshape((1,) * (2 - mask.ndim) + mask.shape)  # at least (n, m)
        mask = mask[..., None, :, :]  # (..., 1, n, m): one mask shared by the h heads
    return x, y_k, y_v, w_q, w_k, w_v, w_o, h, mask
