"""How much memory the KV cache takes, and the head layouts that shrink it.

Per token, every layer caches one key row and one value row for each key/value head:

    bytes per token = 2 (K and V) × layers × key/value heads × d_k × bytes per number.

Multi-head attention (MHA) has as many key/value heads as query heads. Multi-query attention
(MQA, Shazeer 2019) keeps one key/value head that all query heads share; grouped-query
attention (GQA, Ainslie et al. 2023) keeps a few, each shared by a group of consecutive query
heads. The cache shrinks by the same factor; the queries and the arithmetic per head do not
change.
"""

from typing import NamedTuple

from .validation import check_count

__all__ = ["LLAMA_2_70B", "ModelShape", "cache_layouts", "kv_cache_bytes", "tokens_that_fit"]


class ModelShape(NamedTuple):
    """The attention shape of a model: what the KV cache size depends on."""

    name: str
    num_layers: int
    num_heads: int  # query heads per layer
    num_kv_heads: int  # key/value heads per layer (= num_heads for multi-head attention)
    head_dim: int  # d_k = d_v of one head


# Published: Touvron et al. 2023, "Llama 2: Open Foundation and Fine-Tuned Chat Models"
# (GQA with 8 key/value heads for the 70B model); the numbers as in its released config
# (num_hidden_layers 80, num_attention_heads 64, num_key_value_heads 8, hidden_size 8192).
LLAMA_2_70B = ModelShape("Llama 2 70B", num_layers=80, num_heads=64, num_kv_heads=8,
                         head_dim=128)


def kv_cache_bytes(tokens, num_layers, num_kv_heads, head_dim, bytes_per_number=2, batch=1):
    """2 × layers × key/value heads × d_k × bytes per number, for every token of every sequence.

    >>> kv_cache_bytes(1, num_layers=80, num_kv_heads=8, head_dim=128)   # Llama 2 70B, 16-bit
    327680
    """
    counts = [check_count(tokens, "tokens", minimum=0), check_count(num_layers, "num_layers"),
              check_count(num_kv_heads, "num_kv_heads"), check_count(head_dim, "head_dim"),
              check_count(bytes_per_number, "bytes_per_number"), check_count(batch, "batch")]
    tokens, num_layers, num_kv_heads, head_dim, bytes_per_number, batch = counts
    return 2 * num_layers * num_kv_heads * head_dim * bytes_per_number * tokens * batch


def cache_layouts(shape):
    """Key/value heads per layer of the three layouts for one model shape, as a dict.

    >>> cache_layouts(LLAMA_2_70B)
    {'multi-head': 64, 'grouped-query': 8, 'multi-query': 1}
    """
    return {"multi-head": shape.num_heads, "grouped-query": shape.num_kv_heads,
            "multi-query": 1}


def tokens_that_fit(budget_bytes, bytes_per_token):
    """How many tokens' keys and values fit in ``budget_bytes`` (whole tokens only).

    >>> tokens_that_fit(2**30, 327680)   # 1 GiB of Llama 2 70B's grouped-query cache
    3276
    """
    budget_bytes = check_count(budget_bytes, "budget_bytes", minimum=0)
    return budget_bytes // check_count(bytes_per_token, "bytes_per_token")
