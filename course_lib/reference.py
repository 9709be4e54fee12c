"""Loop twins: the obviously-correct, plain-Python versions of the vectorised math.

Every function here uses only Python floats, ``for`` loops and the ``math`` module, in float64,
on one vector or one 2-D grid at a time. They are slow on purpose: they are the independent
reference the tests compare the fast versions against, and the first version a notebook shows.
"""

import math

__all__ = [
    "attention_loop",
    "dot_loop",
    "norm_loop",
    "score_grid_loop",
    "softmax_loop",
    "sum_loop",
]


def _rows(grid):
    return [[float(x) for x in row] for row in grid]


def sum_loop(q):
    """Σᵢ qᵢ, one slot at a time.

    >>> sum_loop([1, 2, 3])
    6.0
    """
    total = 0.0
    for x in q:
        total += float(x)
    return total


def norm_loop(q):
    """∥q∥: square every slot, add, take the square root.

    >>> norm_loop([3, 4])
    5.0
    """
    total = 0.0
    for x in q:
        total += float(x) * float(x)
    return math.sqrt(total)


def dot_loop(q, k):
    """q·k = Σᵢ qᵢ kᵢ, one pair of slots at a time.

    >>> dot_loop([1, 2, 3], [4, 5, 6])
    32.0
    """
    q, k = list(q), list(k)
    if len(q) != len(k):
        raise ValueError(f"q has {len(q)} slots but k has {len(k)}")
    total = 0.0
    for i in range(len(q)):
        total += float(q[i]) * float(k[i])
    return total


def score_grid_loop(query, key):
    """S_ij = q_i · k_j for every query row i and key row j.

    >>> score_grid_loop([[1, 0]], [[1, 2], [3, 4]])
    [[1.0, 3.0]]
    """
    return [[dot_loop(q, k) for k in _rows(key)] for q in _rows(query)]


def softmax_loop(row):
    """Softmax of one row: subtract the largest score, exponentiate, divide by the total.

    −∞ entries get weight 0; a row of only −∞ gives all zeros.

    >>> softmax_loop([0.0, 0.0])
    [0.5, 0.5]
    """
    row = [float(x) for x in row]
    top = max(row)
    if top == -math.inf:
        return [0.0] * len(row)
    exps = [math.exp(x - top) for x in row]
    total = math.fsum(exps)
    return [e / total for e in exps]


def attention_loop(query, key, value, attn_mask=None, is_causal=False, scale=None):
    """softmax(QKᵀ · scale) V for 2-D Q (n, d_k), K (m, d_k), V (m, d_v), with loops.

    ``attn_mask`` is an (n, m) nested list: booleans (True = may attend) or floats (added to the
    scores). Returns ``(output, weights)`` as nested lists.

    >>> out, w = attention_loop([[1, 0]], [[1, 0], [0, 1]], [[10], [20]], scale=1.0)
    >>> [round(x, 4) for x in w[0]], round(out[0][0], 4)
    ([0.7311, 0.2689], 12.6894)
    """
    query, key, value = _rows(query), _rows(key), _rows(value)
    d_k = len(query[0]) if query else len(key[0])
    if scale is None:
        scale = 1.0 / math.sqrt(d_k)

    def masked(s, i, j):  # the masks of notebook 11: −∞ where query i may not see key j
        if is_causal and j > i:
            return -math.inf
        cell = attn_mask[i][j] if attn_mask is not None else True
        if type(cell).__name__ in ("bool", "bool_"):  # Python or NumPy 1.x/2.x bools
            return s if cell else -math.inf
        return s + float(cell)

    output, weights = [], []
    for i, q in enumerate(query):
        row = [masked(dot_loop(q, k) * scale, i, j) for j, k in enumerate(key)]  # S_ij · scale
        w = softmax_loop(row)  # row i of A: positive, adds up to 1
        weights.append(w)
        output.append([math.fsum(w[j] * value[j][c] for j in range(len(key)))  # Σⱼ A_ij v_jc
                       for c in range(len(value[0]))])
    return output, weights
