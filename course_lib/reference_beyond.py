"""Loop twins for the notebooks beyond the formula: masks, multi-head attention, the gradient.

Like :mod:`course_lib.reference`, every function uses only Python floats, ``for`` loops and the
``math`` module, in float64, on one 2-D grid at a time (nested lists in, nested lists out). They
are the independent reference the tests compare the vectorised versions against.
"""

import math

from .reference import attention_loop

__all__ = [
    "attention_gradients_loop",
    "causal_mask_loop",
    "matmul_loop",
    "multi_head_attention_loop",
    "padding_mask_loop",
]


def _rows(grid):
    return [[float(x) for x in row] for row in grid]


def causal_mask_loop(n, m=None, align="top-left"):
    """Cell (i, j) is True when key j is not later than query i; query i sits at position i
    (top-left) or i + m − n (bottom-right).

    >>> causal_mask_loop(2), causal_mask_loop(1, 3, align="bottom-right")
    ([[True, False], [True, True]], [[True, True, True]])
    """
    m = n if m is None else m
    shift = m - n if align == "bottom-right" else 0
    return [[j <= i + shift for j in range(m)] for i in range(n)]


def padding_mask_loop(lengths, m):
    """Sequence b may attend to keys 0 .. lengths[b] − 1; shape (batch, 1, m) as nested lists.

    >>> padding_mask_loop([1, 2], 3)
    [[[True, False, False]], [[True, True, False]]]
    """
    return [[[j < int(length) for j in range(m)]] for length in lengths]


def matmul_loop(a, b):
    """C = A B with C_ij = Σ_t A_it B_tj, one entry at a time.

    >>> matmul_loop([[1, 2]], [[3], [4]])
    [[11.0]]
    """
    a, b = _rows(a), _rows(b)
    if len(a[0]) != len(b):
        raise ValueError(f"A has {len(a[0])} columns but B has {len(b)} rows")
    return [[math.fsum(row[t] * b[t][j] for t in range(len(b))) for j in range(len(b[0]))]
            for row in a]


def multi_head_attention_loop(query_input, key_input, value_input, w_q, w_k, w_v, w_o,
                              num_heads, attn_mask=None, is_causal=False):
    """Multi-head attention one head at a time: project, slice the columns, attend, concat, W_O.

    Returns ``(output, weights)``: output (n, d_out), weights[t] the (n, m) weights of head t.

    >>> eye = [[1.0, 0.0], [0.0, 1.0]]
    >>> out, w = multi_head_attention_loop(eye, eye, eye, eye, eye, eye, eye, num_heads=2)
    >>> [round(x, 4) for x in w[0][0]], [round(x, 4) for x in w[1][0]]
    ([0.7311, 0.2689], [0.5, 0.5])
    """
    q_all = matmul_loop(query_input, w_q)  # (n, h·d_k)
    k_all = matmul_loop(key_input, w_k)  # (m, h·d_k)
    v_all = matmul_loop(value_input, w_v)  # (m, h·d_v)
    d_k = len(q_all[0]) // num_heads
    d_v = len(v_all[0]) // num_heads
    concat = [[] for _ in q_all]
    weights = []
    for t in range(num_heads):
        q_t = [row[t * d_k:(t + 1) * d_k] for row in q_all]
        k_t = [row[t * d_k:(t + 1) * d_k] for row in k_all]
        v_t = [row[t * d_v:(t + 1) * d_v] for row in v_all]
        out_t, w_t = attention_loop(q_t, k_t, v_t, attn_mask=attn_mask, is_causal=is_causal,
                                    scale=1.0 / math.sqrt(d_k))  # the head's own d_k
        weights.append(w_t)
        for i, row in enumerate(out_t):
            concat[i].extend(row)
    return matmul_loop(concat, w_o), weights


def attention_gradients_loop(query, key, value, grad_output, attn_mask=None, is_causal=False,
                             scale=None):
    """∂L/∂Q, ∂L/∂K, ∂L/∂V of O = softmax(Q Kᵀ · scale) V given G = ∂L/∂O, entry by entry.

    >>> dq, dk, dv = attention_gradients_loop([[1, 0]], [[1, 0], [0, 1]], [[1], [3]], [[1]],
    ...                                       scale=1.0)
    >>> [round(x, 4) for x in dq[0]]
    [-0.3932, 0.3932]
    """
    query, key, value, grad = _rows(query), _rows(key), _rows(value), _rows(grad_output)
    if scale is None:
        scale = 1.0 / math.sqrt(len(query[0]))
    _, a = attention_loop(query, key, value, attn_mask=attn_mask, is_causal=is_causal,
                          scale=scale)
    n, m, d_k, d_v = len(query), len(key), len(query[0]), len(value[0])
    grad_value = [[math.fsum(a[i][j] * grad[i][c] for i in range(n)) for c in range(d_v)]
                  for j in range(m)]
    grad_weights = [[math.fsum(grad[i][c] * value[j][c] for c in range(d_v)) for j in range(m)]
                    for i in range(n)]
    grad_scores = []
    for i in range(n):
        row_total = math.fsum(a[i][j] * grad_weights[i][j] for j in range(m))
        grad_scores.append([a[i][j] * (grad_weights[i][j] - row_total) for j in range(m)])
    grad_query = [[scale * math.fsum(grad_scores[i][j] * key[j][t] for j in range(m))
                   for t in range(d_k)] for i in range(n)]
    grad_key = [[scale * math.fsum(grad_scores[i][j] * query[i][t] for i in range(n))
                 for t in range(d_k)] for j in range(m)]
    return grad_query, grad_key, grad_value
