"""Attention as inference servers run it: flash-attention's ``flash_attn_with_kvcache``.

A server decodes many sequences at once, each with its own KV cache, and three ideas make that
fast (notebook 16):

* **the cache is written in place**: each sequence's cache is allocated once, and a step writes
  its new keys and values at positions ``cache_seqlens[b]`` … (``cache_seqlens[b]`` is how many
  tokens sequence b has cached; it is also the new token's position for rotary embeddings);
* **paging** (PagedAttention, Kwon et al. 2023): the cache is a pool of fixed-size *blocks*
  (pages) of ``page_size`` token slots, and a *block table* says which physical blocks hold
  each sequence's logical blocks 0, 1, 2, …, so no sequence reserves memory it may never use;
* **split-KV** (Flash-Decoding, Dao et al. 2023): one query per sequence over a long cache is
  too little work for a whole GPU, so the keys are cut into ``num_splits`` chunks attended to
  separately, and the partial outputs are merged by their logsumexps: the same numbers as one
  pass.

The layout is flash-attention's, tokens before heads: q (batch, seqlen_q, heads, d), the caches
(batch, seqlen_cache, kv_heads, d) or, paged, (num_blocks, page_size, kv_heads, d).
"""

from typing import NamedTuple

import numpy as np

from .backend import get_array_module
from .kv_memory import pages_needed
from .masks import causal_mask, padding_mask
from .rotary import rotary_embedding
from .scaling import check_scale
from .tiled import online_softmax_update, tiled_attention
from .validation import as_float_array, check_count, check_finite, compute_dtype, output_dtype

__all__ = ["CacheCall", "allocate_blocks", "attention_with_kv_cache", "cache_slots",
           "gather_cache", "key_mask", "key_splits", "merge_splits", "new_positions",
           "prepare_kv_cache", "rotate_new_tokens", "used_blocks"]


def attention_with_kv_cache(q, k_cache, v_cache, cache_seqlens, *, k=None, v=None,
                            block_table=None, causal=False, softmax_scale=None, num_splits=1,
                            return_softmax_lse=False):
    """Attention of new queries over each sequence's KV cache, flash-attention's semantics.

    If ``k`` and ``v`` are given, they are first written into ``k_cache`` and ``v_cache``
    **in place**, at positions cache_seqlens[b] … cache_seqlens[b] + seqlen_new − 1. Sequence b
    then attends to its first s_b = cache_seqlens[b] + seqlen_new cached keys:
    softmax(q Kᵀ · scale) V per head, query head h reading key/value head h // (heads / kv_heads).

    Parameters
    ----------
    q : (batch, seqlen_q, heads, d_k), the new tokens' queries (tokens before heads, as in
        flash-attention; the course's other functions put the heads first).
    k_cache, v_cache : arrays (batch, seqlen_cache, kv_heads, d_k or d_v), or, with a
        ``block_table``, (num_blocks, page_size, kv_heads, d_k or d_v). Written in place.
    cache_seqlens : (batch,) integers, or one int for every sequence: tokens already cached.
    k, v : None, or (batch, seqlen_new, kv_heads, d_k) and (…, d_v): the new tokens' keys and
        values (both or neither).
    block_table : None, or (batch, blocks_per_seq) integers: logical block i of sequence b is
        physical block block_table[b, i]. Entries past what a sequence uses are never read.
    causal : the seqlen_q queries are the last seqlen_q of sequence b's s_b tokens: query i sees
        keys j ≤ i + s_b − seqlen_q (bottom-right alignment).
    softmax_scale : multiplier of the scores; default 1/√d_k.
    num_splits : split-KV: cut the keys into this many chunks (at most one per key), attend
        to each alone and merge the partial results (:func:`merge_splits`). 1 (one pass) by
        default; flash-attention's default 0 picks the number of splits by a heuristic, which
        this version does not have (0 is refused here).
    return_softmax_lse : also return the logsumexp of each query row's scaled scores.

    Returns
    -------
    out : (batch, seqlen_q, heads, d_v). A query with no key to see (s_b = 0, or causal with
        seqlen_q > s_b) gets zeros.
    softmax_lse : (batch, heads, seqlen_q) in the compute dtype, only if ``return_softmax_lse``;
        −∞ for a query with no key (log 0; flash-attention's kernel stores +∞ there instead).

    >>> k_cache, v_cache = np.zeros((1, 4, 1, 2)), np.zeros((1, 4, 1, 1))
    >>> out = attention_with_kv_cache(np.ones((1, 1, 1, 2)), k_cache, v_cache, 0,
    ...                               k=np.ones((1, 2, 1, 2)), v=[[[[2.0]], [[4.0]]]])
    >>> out.ravel().tolist(), v_cache.ravel().tolist()   # both keys alike: the mean of 2 and 4
    ([3.0], [2.0, 4.0, 0.0, 0.0])
    """
    c = prepare_kv_cache(q, k_cache, v_cache, cache_seqlens, k, v, block_table, softmax_scale)
    xp, n = c.xp, c.q.shape[1]
    if c.k is not None:  # the new tokens' rows go into the cache first, where they belong
        new = cache_slots(new_positions(c.cache_seqlens, c.k.shape[1]), c.block_table, c.page_size)
        k_cache[new], v_cache[new] = c.k, c.v  # (batch, seqlen_new, kv_heads, d) in place
    keys, values = (xp.swapaxes(gather_cache(cache, c.lengths, c.block_table, c.page_size), 1, 2)
                    .astype(c.dtype) for cache in (k_cache, v_cache))  # (batch, kv_heads, m, d)
    q_heads = xp.swapaxes(c.q, 1, 2)  # (batch, heads, n, d_k): the course's layout
    mask = key_mask(c.lengths, n, keys.shape[-2], causal)  # (batch, 1, n, m)
    partials = [tiled_attention(q_heads, keys[..., a:b, :], values[..., a:b, :],
                                block_size=(n, b - a), attn_mask=mask[..., a:b], scale=c.scale,
                                enable_gqa=True, return_logsumexp=True)  # one tile: one pass
                for a, b in key_splits(keys.shape[-2], num_splits)]
    outputs, logsumexps = zip(*partials, strict=True)  # one (output, logsumexp) per split
    out, lse = merge_splits(outputs, logsumexps)  # (batch, heads, n, d_v), (batch, heads, n)
    out = xp.swapaxes(out, 1, 2).astype(c.out_dtype, copy=False)  # (batch, n, heads, d_v)
    return (out, lse) if return_softmax_lse else out


def merge_splits(outputs, logsumexps):
    """Merge split-KV's partial results: L = log Σ_c e^(L_c), O = Σ_c e^(L_c − L) · O_c.

    Split c attended to its chunk of keys alone: O_c is its output, a blend of its value rows,
    and L_c = log Σ_{j in c} e^(score_j) the logsumexp of its scores. e^(L_c − L) is the share
    of the row's softmax mass that chunk holds, so the blend of the O_c with those weights is
    the one-pass output. That is one online-softmax step (notebook 14,
    :func:`course_lib.tiled.online_softmax_update`) whose scores are the L_c and whose value
    rows are the O_c. A chunk with no key to see (L_c = −∞) weighs nothing.

    Parameters
    ----------
    outputs : sequence of (..., n, d_v) arrays, one per split.
    logsumexps : sequence of (..., n) arrays, the splits' logsumexps (−∞: no key).

    Returns
    -------
    output (..., n, d_v) and logsumexp (..., n); zeros and −∞ where no split saw a key.

    >>> out, lse = merge_splits([np.array([[1.0]]), np.array([[3.0]])], [np.zeros(1), np.zeros(1)])
    >>> out.tolist(), round(float(lse[0]), 4)   # equal mass: the mean; L = log 2
    ([[2.0]], 0.6931)
    """
    xp = get_array_module(*outputs, *logsumexps)
    scores = xp.stack(logsumexps, axis=-1)[..., None, :]  # (..., n, 1, splits): L_c as scores
    rows = xp.stack(outputs, axis=-2)  # (..., n, splits, d_v): O_c as value rows
    top, total, acc, _ = online_softmax_update(scores, rows, -xp.inf, 0.0, 0.0)  # (..., n, 1)
    total = xp.where(total > 0, total, 1.0)  # no split saw a key: output 0, not 0/0
    return acc[..., 0, :] / total, (top + xp.log(total))[..., 0]  # O, L = M + log Σ e^(L_c − M)


def key_splits(m, num_splits):
    """(start, stop) of each of ``num_splits`` chunks of m keys, as equal as can be.

    There are never more chunks than keys: each holds at least one key (flash-attention also
    caps the splits at the number of key blocks).

    >>> key_splits(10, 3), key_splits(2, 5)
    ([(0, 3), (3, 6), (6, 10)], [(0, 1), (1, 2)])
    """
    splits = min(check_count(num_splits, "num_splits"), check_count(m, "m"))
    bounds = [split * m // splits for split in range(splits + 1)]
    return list(zip(bounds[:-1], bounds[1:], strict=True))


def key_mask(lengths, n, m, causal=False):
    """(batch, 1, n, m): query i of sequence b may see key j.

    Key j must hold one of the sequence's s_b = lengths[b] tokens (j < s_b, the padding mask);
    with ``causal``, also j ≤ i + s_b − n: the n queries are the sequence's last n tokens, the
    causal mask aligned to the bottom-right corner of its own (n, s_b) grid.

    >>> key_mask(np.array([3, 1]), 2, 3, causal=True).astype(int)[:, 0].tolist()
    [[[1, 1, 0], [1, 1, 1]], [[0, 0, 0], [1, 0, 0]]]
    """
    xp = get_array_module(lengths)
    mask = padding_mask(lengths, m)[:, None]  # (batch, 1, 1, m): j < s_b
    if causal:
        rows = [causal_mask(n, m, diagonal=s - n, like=lengths) for s in lengths.tolist()]
        mask = mask & xp.stack(rows)[:, None]  # (batch, 1, n, m): j ≤ i + s_b − n
    return xp.broadcast_to(mask, (len(lengths), 1, n, m))


def new_positions(cache_seqlens, seqlen_new):
    """(batch, seqlen_new): the new tokens' positions, cache_seqlens[b] + 0 … seqlen_new − 1.

    They are the slots the new keys and values are written to, and the positions rotary
    embeddings turn the new queries and keys by: a token's position is how many came before it.

    >>> new_positions(np.array([3, 0]), 2).tolist()
    [[3, 4], [0, 1]]
    """
    xp = get_array_module(cache_seqlens)
    return cache_seqlens[:, None] + xp.arange(check_count(seqlen_new, "seqlen_new", minimum=0))


def rotate_new_tokens(x, cache_seqlens, *, base):
    """Rotary embedding of the new tokens' rows x (batch, seqlen_new, heads, d) at their
    positions cache_seqlens[b] + i; every head of a token turns alike.

    ``base`` is the model's own (``ModelShape.rope_base``: 10000 in Llama 2, 100000 in
    SmolLM2, 500000 in Llama 3), so it has no default here.

    >>> x = np.array([[[[1.0, 0.0]]]])   # one token, one head, d = 2
    >>> [round(float(a), 4) for a in rotate_new_tokens(x, [2], base=10000.0).ravel()]
    [-0.4161, 0.9093]
    """
    x = as_float_array(x, "x", min_ndim=4)
    positions = new_positions(_check_seqlens(cache_seqlens, x.shape[0]), x.shape[1])
    return rotary_embedding(x, positions[:, :, None], base=base)  # (batch, seqlen_new, heads, d)


def cache_slots(positions, block_table, page_size):
    """Where logical position p of sequence b lives in the cache, as an index tuple.

    Contiguous cache (no block table): row b, slot p. Paged: block block_table[b, p // page_size],
    slot p % page_size. ``cache[cache_slots(...)]`` reads those slots, (batch, P, kv_heads, d);
    assigning to it writes them.

    >>> table = np.array([[5, 2]])
    >>> [a.tolist() for a in cache_slots(np.array([[0, 1, 2]]), table, 2)]
    [[[5, 5, 2]], [[0, 1, 0]]]
    """
    xp = get_array_module(positions)
    sequences = xp.arange(positions.shape[0])[:, None]  # (batch, 1)
    if block_table is None:
        return sequences, positions  # (batch, P) each
    return block_table[sequences, positions // page_size], positions % page_size  # (batch, P)


def gather_cache(cache, lengths, block_table=None, page_size=None):
    """(batch, m, kv_heads, d): each sequence's cached rows in order, m its longest length.

    Sequence b's slots past its own length s_b = lengths[b] read as 0, whatever the
    allocation left there (``np.empty`` may leave NaN): they are masked anyway.

    >>> cache = np.arange(8.0).reshape(4, 2, 1, 1)   # 4 blocks of 2 slots
    >>> gather_cache(cache, np.array([3, 1]), np.array([[2, 0], [3, 1]]), 2)[..., 0, 0].tolist()
    [[4.0, 5.0, 0.0], [6.0, 0.0, 0.0]]
    """
    xp = get_array_module(cache)
    m = max(int(lengths.max()), 1)  # at least one slot, so that a grid of scores exists
    positions = xp.broadcast_to(xp.arange(m), (len(lengths), m))  # logical slots 0 … m − 1
    held = padding_mask(lengths, m)[:, 0, :, None, None]  # (batch, m, 1, 1): slot j < s_b
    return xp.where(held, cache[cache_slots(positions, block_table, page_size)], 0)


def used_blocks(block_table, lengths, page_size):
    """[(sequence, logical block, physical block, slots filled)] for every block in use.

    >>> used_blocks(np.array([[3, 0], [1, -1]]), [3, 2], 2)
    [(0, 0, 3, 2), (0, 1, 0, 1), (1, 0, 1, 2)]
    """
    table = np.asarray(block_table)
    page_size = check_count(page_size, "page_size")
    return [(b, i, int(table[b, i]), min(page_size, n - i * page_size))
            for b, n in enumerate(int(s) for s in lengths)
            for i in range(pages_needed(n, page_size))]


def allocate_blocks(lengths, page_size):
    """(batch, max blocks) block table for sequences that grew together, one token a step.

    Each time a sequence fills its last block it takes the next free physical block, so the
    sequences take blocks in turn and one sequence's blocks lie scattered in memory. −1 marks
    an entry a sequence does not need.

    >>> allocate_blocks([5, 2, 3], 2).tolist()
    [[0, 3, 5], [1, -1, -1], [2, 4, -1]]
    """
    page_size = check_count(page_size, "page_size")
    need = [pages_needed(check_count(n, "length", minimum=0), page_size) for n in lengths]
    table = np.full((len(need), max(need, default=0)), -1)
    free = 0
    for block in range(table.shape[1]):  # every sequence needs its block-th block at one step
        for b in range(len(need)):
            if block < need[b]:
                table[b, block], free = free, free + 1
    return table


class CacheCall(NamedTuple):
    """What :func:`attention_with_kv_cache` needs, checked at the door."""

    q: object  # (batch, seqlen_q, heads, d_k), in the compute dtype
    k: object  # None or (batch, seqlen_new, kv_heads, d_k)
    v: object  # None or (batch, seqlen_new, kv_heads, d_v)
    cache_seqlens: object  # (batch,) integers ≥ 0
    lengths: object  # (batch,) s_b = cache_seqlens + seqlen_new: the keys each sequence sees
    block_table: object  # None or (batch, blocks_per_seq); entries not in use set to 0
    page_size: int  # slots per block (paged caches only)
    scale: float
    xp: object
    dtype: object  # the compute dtype (float16 caches are attended in float32)
    out_dtype: object


def prepare_kv_cache(q, k_cache, v_cache, cache_seqlens, k=None, v=None, block_table=None,
                     softmax_scale=None):
    """Check every argument of :func:`attention_with_kv_cache` once; return a :class:`CacheCall`.

    Each error names the problem and the shapes.
    """
    xp = get_array_module(q, k_cache, v_cache, k, v, block_table)
    q = as_float_array(q, "q", 2)
    _check_rank(q, "q", "(batch, seqlen_q, heads, d_k)")
    if 0 in q.shape:
        raise ValueError(f"q has an empty axis (shape {q.shape}): no query to attend with")
    for cache, name in ((k_cache, "k_cache"), (v_cache, "v_cache")):
        _check_cache_array(cache, name, xp, paged=block_table is not None)
    if (k is None) != (v is None):
        given, missing = ("k", "v") if v is None else ("v", "k")
        raise ValueError(f"{given} was given without {missing}: the new tokens' keys and values "
                         "are written to the cache together")
    batch, _, heads, d_k = q.shape
    kv_heads = k_cache.shape[2]
    shapes = f"q {q.shape}, k_cache {k_cache.shape}, v_cache {v_cache.shape}"
    if v_cache.shape[:3] != k_cache.shape[:3]:
        what = ("page size (axis 1)" if block_table is not None and
                k_cache.shape[1] != v_cache.shape[1] else "first three axes")
        raise ValueError(f"k_cache and v_cache differ in their {what}: one slot of each per "
                         f"cached token ({shapes})")
    if kv_heads == 0 or heads % kv_heads:
        raise ValueError(f"q has {heads} heads but the cache {kv_heads} key/value heads: the "
                         f"query heads must be a multiple of them (query head h reads key/value "
                         f"head h // (heads / kv_heads)); {shapes}")
    if k_cache.shape[3] != d_k:
        raise ValueError(f"q's head size d_k = {d_k} but k_cache's is {k_cache.shape[3]} "
                         f"({shapes})")
    cache_seqlens = _check_seqlens(cache_seqlens, batch, like=q)
    if k is not None:
        k, v = _check_new(k, v, batch, k_cache, v_cache)
    seqlen_new = 0 if k is None else k.shape[1]
    lengths = cache_seqlens + seqlen_new  # (batch,) keys each sequence will hold
    page_size = k_cache.shape[1]
    if block_table is None:
        if k_cache.shape[0] != batch:
            raise ValueError(f"k_cache holds {k_cache.shape[0]} sequences but q has {batch}: one "
                             f"cache row per sequence, or pass a block_table for a paged cache "
                             f"({shapes})")
        capacity, where = page_size, f"its cache holds {page_size} (k_cache {k_cache.shape})"
    else:
        block_table = _check_block_table(block_table, batch, lengths, k_cache, xp)
        capacity = block_table.shape[1] * page_size
        where = (f"its block_table row holds {block_table.shape[1]} blocks of {page_size} slots "
                 f"= {capacity}")
    too_long = [b for b, s in enumerate(lengths.tolist()) if s > capacity]
    if too_long:
        b = too_long[0]
        raise ValueError(f"sequence {b} needs {int(lengths[b])} slots (cache_seqlens "
                         f"{int(cache_seqlens[b])} + {seqlen_new} new) but {where}")
    if k is not None and block_table is not None:
        _check_distinct_writes(cache_seqlens, seqlen_new, block_table, page_size, xp)
    check_finite(q, "q")
    arrays = [a for a in (q, k_cache, v_cache, k, v) if a is not None]
    dtype = compute_dtype(*arrays)
    return CacheCall(q.astype(dtype, copy=False), k, v, cache_seqlens, lengths, block_table,
                     page_size, check_scale(softmax_scale, d_k), xp, dtype, output_dtype(*arrays))


def _check_rank(x, name, layout, extra=""):
    if x.ndim != 4:
        raise ValueError(f"{name} must have 4 axes {layout}{extra}; got shape {x.shape}")


def _check_cache_array(cache, name, xp, paged):
    if not isinstance(cache, xp.ndarray):
        raise TypeError(f"{name} must be a {xp.__name__} array: the new keys and values are "
                        f"written into it in place (a {type(cache).__name__} would be copied)")
    if not (np.issubdtype(cache.dtype, np.floating) or cache.dtype.name == "bfloat16"):
        raise TypeError(f"{name} must hold floats; got dtype {cache.dtype}")
    if not getattr(cache.flags, "writeable", True):
        raise ValueError(f"{name} is read-only (a broadcast view?): the new keys and values are "
                         "written into it in place; pass a writable copy")
    layout = ("(num_blocks, page_size, kv_heads, d) with a block_table" if paged else
              "(batch, seqlen_cache, kv_heads, d)")
    _check_rank(cache, name, layout, "" if paged else ", or (num_blocks, page_size, kv_heads, "
                "d) with a block_table")
    if 0 in cache.shape:
        raise ValueError(f"{name} has an empty axis (shape {cache.shape}): it can hold no key")


def _check_seqlens(cache_seqlens, batch, like=None):
    """(batch,) integers ≥ 0; one int stands for every sequence."""
    xp = get_array_module(like, cache_seqlens)
    seqlens = xp.asarray(cache_seqlens)
    if seqlens.ndim == 0:
        seqlens = xp.full(batch, seqlens)
    if seqlens.shape != (batch,) or not np.issubdtype(seqlens.dtype, np.integer):
        raise ValueError(f"cache_seqlens must be one int or {batch} integers (one per sequence, "
                         f"the tokens already cached); got shape {seqlens.shape} and dtype "
                         f"{seqlens.dtype}")
    if bool((seqlens < 0).any()):
        raise ValueError(f"cache_seqlens must be ≥ 0; got {seqlens.tolist()}")
    return seqlens


def _check_new(k, v, batch, k_cache, v_cache):
    k, v = as_float_array(k, "k", 2), as_float_array(v, "v", 2)
    for new, cache, name in ((k, k_cache, "k"), (v, v_cache, "v")):
        _check_rank(new, name, "(batch, seqlen_new, kv_heads, d)")
        if new.shape[0] != batch or new.shape[2:] != cache.shape[2:]:
            raise ValueError(f"{name} of shape {new.shape} does not fit: it must be (batch = "
                             f"{batch}, seqlen_new, kv_heads = {cache.shape[2]}, d = "
                             f"{cache.shape[3]}), the cache's heads and head size "
                             f"({name}_cache {cache.shape})")
        check_finite(new, name)
    if k.shape[1] != v.shape[1]:
        raise ValueError(f"k has {k.shape[1]} new tokens but v has {v.shape[1]}: one value per "
                         f"key (shapes {k.shape} and {v.shape})")
    return k, v


def _check_block_table(block_table, batch, lengths, k_cache, xp):
    """Integers (batch, blocks_per_seq); the blocks in use must exist. Unused entries (−1, say)
    become 0: they are read for the longest sequence's slots, then masked."""
    table = xp.asarray(block_table)
    if table.ndim != 2 or table.shape[0] != batch or not np.issubdtype(table.dtype, np.integer):
        raise ValueError(f"block_table must be integers of shape (batch = {batch}, "
                         f"blocks_per_seq); got shape {table.shape} and dtype {table.dtype}")
    page_size, num_blocks = k_cache.shape[1], k_cache.shape[0]
    in_use = xp.arange(table.shape[1]) < xp.asarray(
        [pages_needed(s, page_size) for s in lengths.tolist()])[:, None]  # (batch, blocks)
    outside = in_use & ((table < 0) | (table >= num_blocks))
    if bool(outside.any()):
        b, i = (int(x) for x in np.argwhere(np.asarray(_host(outside)))[0])
        raise ValueError(f"block_table[{b}, {i}] = {int(table[b, i])} points outside the cache's "
                         f"{num_blocks} blocks (0 … {num_blocks - 1}; k_cache {k_cache.shape}); "
                         f"sequence {b} uses its first {pages_needed(int(lengths[b]), page_size)}")
    return xp.where(in_use, table, 0)


def _check_distinct_writes(cache_seqlens, seqlen_new, block_table, page_size, xp):
    """Two sequences writing the same physical slot would overwrite each other's keys."""
    blocks, offsets = cache_slots(new_positions(cache_seqlens, seqlen_new), block_table,
                                  page_size)
    flat = np.asarray(_host(blocks * page_size + offsets)).ravel()  # one number per slot
    values, counts = np.unique(flat, return_counts=True)
    if (counts > 1).any():
        slot = int(values[counts > 1][0])
        raise ValueError(f"two new tokens would be written to slot {slot % page_size} of block "
                         f"{slot // page_size}: give each sequence its own blocks for its new "
                         f"tokens (block_table shared between sequences?)")


def _host(x):
    return x.get() if hasattr(x, "get") and not isinstance(x, np.ndarray) else x
