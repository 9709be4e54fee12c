"""Decoding with a KV cache: attention as a language model runs it while it writes.

A model that writes text produces one token per step. At step t the new token's query row
𝐪ₜ needs the keys and values of every token so far, 0 … t. Those of the earlier tokens were
already computed at the earlier steps, so the model keeps them in a *KV cache* and, per step,
computes one new key row and one new value row, appends them, and attends with the single
new query: one row of scores instead of the whole grid. The outputs are exactly those of full
causal attention, row by row.

When several new queries attend at once (the prompt, or a few drafted tokens), they are the
*last* n of the m cached positions: query i sits at position i + m − n and may see keys
j ≤ i + m − n. That is the causal mask aligned to the bottom-right corner,
``causal_mask(n, m, align="bottom-right")``; the top-left mask of ``is_causal=True`` would let
the newest token see only the first keys.
"""

from typing import NamedTuple

from .attention import scaled_dot_product_attention
from .backend import get_array_module
from .masks import causal_mask
from .validation import as_float_array, check_count

__all__ = ["DecodeStep", "KVCache", "append_to_cache", "attend_with_cache", "decode",
           "decode_steps", "empty_cache"]


class KVCache(NamedTuple):
    """The keys and values of every token so far (t of them), one row per token."""

    key: object  # (..., t, d_k)
    value: object  # (..., t, d_v)


def empty_cache(d_k, d_v, batch=(), like=None):
    """A cache holding no token yet: keys (..., 0, d_k) and values (..., 0, d_v).

    >>> cache = empty_cache(4, 2)
    >>> cache.key.shape, cache.value.shape
    ((0, 4), (0, 2))
    """
    xp = get_array_module(like)
    d_k, d_v = check_count(d_k, "d_k"), check_count(d_v, "d_v")
    return KVCache(xp.zeros((*batch, 0, d_k)), xp.zeros((*batch, 0, d_v)))


def append_to_cache(cache, key, value):
    """The cache with new rows added at the end: keys (..., t + r, d_k), values (..., t + r, d_v).

    Parameters
    ----------
    cache : a :class:`KVCache`.
    key : (..., r, d_k) the new tokens' key rows; value : (..., r, d_v) their value rows.

    >>> cache = append_to_cache(empty_cache(2, 1), [[1.0, 0.0]], [[5.0]])
    >>> cache.key.tolist(), cache.value.tolist()
    ([[1.0, 0.0]], [[5.0]])
    """
    key, value = as_float_array(key, "key", 2), as_float_array(value, "value", 2)
    xp = get_array_module(cache.key, key, value)
    if key.shape[-2] != value.shape[-2]:
        raise ValueError(f"key has {key.shape[-2]} new rows but value has {value.shape[-2]}: one "
                         f"value per key (shapes {key.shape} and {value.shape})")
    for new, old, name in ((key, cache.key, "key"), (value, cache.value, "value")):
        if new.shape[:-2] != old.shape[:-2] or new.shape[-1] != old.shape[-1]:
            raise ValueError(f"new {name} rows of shape {new.shape} do not fit the cached "
                             f"{name}s of shape {old.shape} (only the row count may differ)")
    return KVCache(xp.concatenate([cache.key, key], axis=-2),  # (..., t + r, d_k)
                   xp.concatenate([cache.value, value], axis=-2))  # (..., t + r, d_v)


def attend_with_cache(query, cache, *, enable_gqa=False, return_weights=False):
    """The n newest tokens' queries attend to all m cached keys, bottom-right causal.

    Query i is the token at position i + m − n, so it sees keys j ≤ i + m − n.

    Parameters
    ----------
    query : (..., n, d_k), the last n tokens' query rows (n ≤ m; 1 when decoding).
    cache : a :class:`KVCache` that already holds these n tokens' keys and values.
    enable_gqa : query heads share key/value heads (grouped-query attention).

    >>> import numpy as np
    >>> cache = KVCache(np.eye(2), np.array([[1.0], [3.0]]))
    >>> attend_with_cache(np.array([[0.0, 0.0]]), cache).tolist()   # the newest sees both keys
    [[2.0]]
    """
    query, key, value = _check_query_and_cache(query, cache)  # arrays (..., rows, columns)
    n, m = query.shape[-2], key.shape[-2]
    if n > m:
        raise ValueError(f"{n} new queries but only {m} cached keys: append the new tokens' keys "
                         f"and values to the cache first")
    mask = causal_mask(n, m, align="bottom-right", like=key)  # (n, m)
    return scaled_dot_product_attention(query, key, value, attn_mask=mask,
                                        enable_gqa=enable_gqa, return_weights=return_weights)


def _check_query_and_cache(query, cache):
    """The query (..., n, d_k), the cache's keys (..., m, d_k) and values (..., m, d_v) as
    arrays, or explain."""
    try:
        key, value = cache
    except (TypeError, ValueError):
        raise TypeError(f"cache must be a KVCache(key, value) (or a pair of arrays); got "
                        f"{type(cache).__name__}") from None
    return (as_float_array(query, "query", 2), as_float_array(key, "cache.key", 2),
            as_float_array(value, "cache.value", 2))


class DecodeStep(NamedTuple):
    """What one step of decoding computed."""

    start: int  # this step computed the outputs of the tokens start … stop − 1
    stop: int
    cache: KVCache  # the cache after the step: stop tokens
    output: object  # (..., stop − start, d_v) the new tokens' output rows
    weights: object  # (..., stop − start, stop) their weights over the cached keys


def decode_steps(query, key, value, prompt_length=1, *, enable_gqa=False):
    """Yield each step of decoding: the prompt at once, then one token per step.

    Step 0 handles tokens 0 … prompt_length − 1 together (the "prefill"); every later step
    writes one token's key and value into the cache and attends with its query only. The cache
    is allocated once, with room for all n tokens, and filled in place: each step's
    ``step.cache`` is a view of the rows written so far, never a copy.

    Parameters
    ----------
    query : (..., n, d_k); key : (..., n, d_k); value : (..., n, d_v): the rows of all n
        tokens, as the model would produce them one step at a time.
    prompt_length : how many tokens the first step handles (1 ≤ prompt_length ≤ n).

    >>> import numpy as np
    >>> x = np.arange(6.0).reshape(3, 2)
    >>> [(s.start, s.stop, s.cache.key.shape[0]) for s in decode_steps(x, x, x, prompt_length=2)]
    [(0, 2, 2), (2, 3, 3)]
    """
    query, key = as_float_array(query, "query", 2), as_float_array(key, "key", 2)
    value = as_float_array(value, "value", 2)
    n = query.shape[-2]
    if key.shape[-2] != n or value.shape[-2] != n:
        raise ValueError(f"decoding needs one key and one value row per token: query "
                         f"{query.shape}, key {key.shape}, value {value.shape}")
    prompt_length = check_count(prompt_length, "prompt_length")
    if prompt_length > n:
        raise ValueError(f"prompt_length {prompt_length} is longer than the {n} tokens")
    xp = get_array_module(query, key, value)
    keys, values = xp.zeros_like(key), xp.zeros_like(value)  # room for all n tokens, filled in turn
    start = 0
    for stop in [prompt_length, *range(prompt_length + 1, n + 1)]:
        keys[..., start:stop, :] = key[..., start:stop, :]  # the new tokens' rows, in place
        values[..., start:stop, :] = value[..., start:stop, :]
        cache = KVCache(keys[..., :stop, :], values[..., :stop, :])  # views: tokens 0 … stop − 1
        output, weights = attend_with_cache(query[..., start:stop, :], cache,
                                            enable_gqa=enable_gqa, return_weights=True)
        yield DecodeStep(start, stop, cache, output, weights)
        start = stop


def decode(query, key, value, prompt_length=1, *, enable_gqa=False):
    """(..., n, d_v): every token's output, computed step by step with a KV cache.

    Equal to ``scaled_dot_product_attention(query, key, value, is_causal=True)``.

    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> q, k, v = rng.normal(size=(5, 4)), rng.normal(size=(5, 4)), rng.normal(size=(5, 3))
    >>> bool(np.allclose(decode(q, k, v), scaled_dot_product_attention(q, k, v, is_causal=True)))
    True
    """
    xp = get_array_module(query, key, value)
    outputs = [step.output for step in decode_steps(query, key, value, prompt_length,
                                                    enable_gqa=enable_gqa)]  # one step at a time
    return xp.concatenate(outputs, axis=-2)  # (..., n, d_v)
