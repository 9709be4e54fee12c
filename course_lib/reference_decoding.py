"""Loop twins for notebook 16: causal alignment, sliding windows, rotary embeddings,
grouped-query attention and decoding with a cache.

Like :mod:`course_lib.reference`, plain Python floats, ``for`` loops and the ``math`` module,
one 2-D grid at a time (nested lists in, nested lists out): the independent reference the tests
compare the vectorised versions in ``masks``, ``sliding_window``, ``rotary`` and ``decoding``
against.
"""

import math

from .reference import attention_loop
from .reference_beyond import causal_mask_loop  # both alignments; re-exported here for 16

__all__ = [
    "causal_mask_loop",
    "decode_loop",
    "grouped_query_attention_loop",
    "rotary_embedding_interleaved_loop",
    "rotary_embedding_loop",
    "sliding_window_mask_loop",
]


def sliding_window_mask_loop(n, window, m=None):
    """Query i (position p = i + m − n) sees the keys p − window + 1 … p.

    >>> sliding_window_mask_loop(3, 2)
    [[True, False, False], [True, True, False], [False, True, True]]
    """
    m = n if m is None else m
    rows = []
    for i in range(n):
        p = i + m - n
        rows.append([p - window < j <= p for j in range(m)])
    return rows


def _turn(a, b, angle):
    """The pair (a, b) turned by ``angle`` radians."""
    return a * math.cos(angle) - b * math.sin(angle), a * math.sin(angle) + b * math.cos(angle)


def rotary_embedding_loop(rows, positions, base=10000.0):
    """Half-split pairs (GPT-NeoX, Hugging Face Llama): slot t pairs with slot t + d/2 and
    turns by p · base^(−2t/d).

    >>> [round(x, 4) for x in rotary_embedding_loop([[1, 0, 0, 0]], [1], base=100.0)[0]]
    [0.5403, 0.0, 0.8415, 0.0]
    """
    out = []
    for row, p in zip(rows, positions, strict=True):
        d = len(row)
        half = d // 2
        new = [0.0] * d
        for t in range(half):
            angle = float(p) * base ** (-2 * t / d)
            new[t], new[t + half] = _turn(float(row[t]), float(row[t + half]), angle)
        out.append(new)
    return out


def rotary_embedding_interleaved_loop(rows, positions, base=10000.0):
    """Neighbouring pairs (Meta's reference Llama code): slot 2t pairs with slot 2t + 1 and
    turns by p · base^(−2t/d).

    >>> [round(x, 4) for x in rotary_embedding_interleaved_loop([[1, 0, 0, 0]], [1], 100.0)[0]]
    [0.5403, 0.8415, 0.0, 0.0]
    """
    out = []
    for row, p in zip(rows, positions, strict=True):
        d = len(row)
        new = [0.0] * d
        for t in range(d // 2):
            angle = float(p) * base ** (-2 * t / d)
            new[2 * t], new[2 * t + 1] = _turn(float(row[2 * t]), float(row[2 * t + 1]), angle)
        out.append(new)
    return out


def grouped_query_attention_loop(query_heads, key_heads, value_heads, is_causal=False):
    """Query head h attends with key/value head h // (H / G): G key/value heads, each shared
    by H / G consecutive query heads. Lists of heads, each an (n, d) or (m, d) grid.

    >>> out = grouped_query_attention_loop([[[1.0]], [[2.0]]], [[[1.0]]], [[[7.0]]])
    >>> out
    [[[7.0]], [[7.0]]]
    """
    group = len(query_heads) // len(key_heads)
    return [attention_loop(q, key_heads[h // group], value_heads[h // group],
                           is_causal=is_causal)[0] for h, q in enumerate(query_heads)]


def decode_loop(query, key, value):
    """One token per step: append its key and value rows to the cache lists, attend with its
    query row over the whole cache, keep the output row.

    >>> decode_loop([[0.0], [0.0]], [[1.0], [1.0]], [[2.0], [4.0]])
    [[2.0], [3.0]]
    """
    key_cache, value_cache, outputs = [], [], []
    for q_row, k_row, v_row in zip(query, key, value, strict=True):
        key_cache.append(k_row)
        value_cache.append(v_row)
        out, _ = attention_loop([q_row], key_cache, value_cache)
        outputs.append(out[0])
    return outputs
