"""Loop twins for notebook 16: causal alignment, sliding windows, rotary embeddings,
grouped-query attention, decoding with a cache, and attention over a server's (paged) cache.

Like :mod:`course_lib.reference`, plain Python floats, ``for`` loops and the ``math`` module,
nested lists in, nested lists out: the independent reference the tests compare the vectorised
versions in ``masks``, ``sliding_window``, ``rotary``, ``decoding`` and ``serving`` against.
"""

import math

from .reference import attention_loop
from .reference_beyond import causal_mask_loop  # both alignments; re-exported here for 16

__all__ = [
    "attention_with_kv_cache_loop",
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


def attention_with_kv_cache_loop(q, k_cache, v_cache, cache_seqlens, k=None, v=None,
                                 block_table=None, causal=False, scale=None):
    """Sequence by sequence, head by head, query by query: write the new keys and values into
    the cache lists (in place), then attend over the sequence's first s_b keys.

    Nested lists in flash-attention's layout: q[b][i][h] is a row of d_k numbers, the caches
    k_cache[b][p][g] (or k_cache[block][slot][g] with a block table). Returns (out, lse):
    out[b][i][h] a row of d_v numbers, lse[b][h][i] the logsumexp (−∞ when no key is seen).

    >>> k_cache, v_cache = [[[[0.0]], [[0.0]]]], [[[[0.0]], [[0.0]]]]
    >>> out, lse = attention_with_kv_cache_loop([[[[1.0]]]], k_cache, v_cache, [1],
    ...                                         k=[[[[0.0]]]], v=[[[[6.0]]]])
    >>> out, v_cache   # keys 0 and 1 both score 0: the mean of 0 and 6
    ([[[[3.0]]]], [[[[0.0]], [[6.0]]]])
    """
    def slot(b, p):  # (sequence or block, slot) where sequence b keeps position p
        if block_table is None:
            return b, p
        page_size = len(k_cache[0])
        return block_table[b][p // page_size], p % page_size

    out, lse = [], []
    for b, queries in enumerate(q):
        cached = int(cache_seqlens[b])
        new = [] if k is None else k[b]
        for r in range(len(new)):  # append first: the new tokens see themselves
            block, at = slot(b, cached + r)
            k_cache[block][at] = [[float(x) for x in head] for head in k[b][r]]
            v_cache[block][at] = [[float(x) for x in head] for head in v[b][r]]
        length, n, heads = cached + len(new), len(queries), len(queries[0])
        group = heads // len(k_cache[0][0])  # query heads per key/value head
        out_b = [[None] * heads for _ in range(n)]
        lse_b = [[None] * n for _ in range(heads)]
        for h in range(heads):
            for i in range(n):
                row = [float(x) for x in queries[i][h]]
                scale_i = 1 / math.sqrt(len(row)) if scale is None else scale
                seen = [j for j in range(length) if not causal or j <= i + length - n]
                keys = [k_cache[blk][at][h // group] for blk, at in (slot(b, j) for j in seen)]
                values = [v_cache[blk][at][h // group] for blk, at in (slot(b, j) for j in seen)]
                d_v = len(v_cache[0][0][0])
                if not seen:
                    out_b[i][h], lse_b[h][i] = [0.0] * d_v, -math.inf
                    continue
                scores = [scale_i * sum(a * c for a, c in zip(row, key, strict=True))
                          for key in keys]
                top = max(scores)
                weights = [math.exp(s - top) for s in scores]
                total = sum(weights)
                out_b[i][h] = [sum(w * value[t] for w, value in zip(weights, values, strict=True))
                               / total for t in range(d_v)]
                lse_b[h][i] = top + math.log(total)
        out.append(out_b)
        lse.append(lse_b)
    return out, lse
