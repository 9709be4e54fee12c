"""Memory in decoding: what the KV cache takes, what one step reads, and how it is allocated.

Per token, every layer caches one key row and one value row for each key/value head:

    bytes per token = 2 (K and V) × layers × key/value heads × d_k × bytes per number.

Multi-head attention (MHA) has as many key/value heads as query heads. Multi-query attention
(MQA, Shazeer 2019) keeps one key/value head that all query heads share; grouped-query
attention (GQA, Ainslie et al. 2023) keeps a few, each shared by a group of consecutive query
heads. The cache shrinks by the same factor; the queries and the arithmetic per head do not
change.

A decoding step is bound by memory: to write one token per sequence it reads every weight
matrix once and every sequence's whole cache once, and does about 2 floating-point operations
per weight and 4 per cached key per query head. That is about 1 operation per byte at batch 1,
where a GPU can do hundreds per byte it reads (:func:`decode_step_cost`). So the time of a step
is the bytes it reads over the memory bandwidth, and fewer key/value heads make decoding
*faster*, not only smaller.

Allocating each sequence's cache as one contiguous piece means reserving its longest possible
length up front; a paged cache (PagedAttention, Kwon et al. 2023) hands out fixed-size blocks
as a sequence grows, so at most one partly filled block per sequence is wasted
(:func:`contiguous_allocation`, :func:`paged_allocation`).
"""

from typing import NamedTuple

from .validation import check_count

__all__ = ["LLAMA_2_70B", "LLAMA_3_8B", "SMOLLM2_135M", "Allocation", "ModelShape", "StepCost",
           "arithmetic_intensity", "cache_layouts", "contiguous_allocation", "decode_step_cost",
           "kv_cache_bytes", "machine_balance", "paged_allocation", "pages_needed",
           "parameter_count", "step_seconds", "tokens_that_fit", "wasted_fraction"]


class ModelShape(NamedTuple):
    """The shape of a Llama-style model: what its cache, weights and step costs depend on."""

    name: str
    num_layers: int
    num_heads: int  # query heads per layer
    num_kv_heads: int  # key/value heads per layer (= num_heads for multi-head attention)
    head_dim: int  # d_k = d_v of one head
    width: int = 0  # the residual stream's width (hidden_size); 0 where not given
    ffn_width: int = 0  # SwiGLU's inner width (intermediate_size)
    vocab_size: int = 0
    tied_embeddings: bool = False  # the output head reuses the token embedding matrix
    rope_base: float = 10000.0  # rotary embedding's base (rope_theta)


# Published: Touvron et al. 2023, "Llama 2: Open Foundation and Fine-Tuned Chat Models"
# (GQA with 8 key/value heads for the 70B model); the numbers as in its released config
# (num_hidden_layers 80, num_attention_heads 64, num_key_value_heads 8, hidden_size 8192,
# intermediate_size 28672, vocab_size 32000, rope_theta 10000).
LLAMA_2_70B = ModelShape("Llama 2 70B", num_layers=80, num_heads=64, num_kv_heads=8,
                         head_dim=128, width=8192, ffn_width=28672, vocab_size=32000,
                         rope_base=10000.0)
# Meta's released config of Llama 3 8B (2024): 32 layers, 32 heads over 8 key/value heads,
# hidden_size 4096, intermediate_size 14336, vocab_size 128256, rope_theta 500000.
LLAMA_3_8B = ModelShape("Llama 3 8B", num_layers=32, num_heads=32, num_kv_heads=8,
                        head_dim=128, width=4096, ffn_width=14336, vocab_size=128256,
                        rope_base=500000.0)
# SmolLM2-135M (Hugging Face, 2024), as its GGUF file's llama.* metadata states: 30 layers, width
# 576, 9 query heads over 3 key/value heads of 64, SwiGLU 1536, vocabulary 49152, the output
# head tied to the embedding, rope freq_base 100000.
SMOLLM2_135M = ModelShape("SmolLM2-135M", num_layers=30, num_heads=9, num_kv_heads=3,
                          head_dim=64, width=576, ffn_width=1536, vocab_size=49152,
                          tied_embeddings=True, rope_base=100000.0)


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


def _layer_matrices(shape):
    """Weights of one layer's matrix products: W_q, W_o (width × heads·d), W_k, W_v
    (width × kv_heads·d), and SwiGLU's gate, up and down (width × ffn_width)."""
    for field in ("width", "ffn_width", "vocab_size"):
        check_count(getattr(shape, field), f"{shape.name}'s {field}")
    attention = shape.width * shape.head_dim * 2 * (shape.num_heads + shape.num_kv_heads)
    return attention + 3 * shape.width * shape.ffn_width


def parameter_count(shape):
    """Numbers in the model: per layer its matrices and two RMSNorm weights, the embedding, a
    final norm and the output head (none of its own when tied to the embedding).

    >>> parameter_count(SMOLLM2_135M)   # "135M"
    134515008
    """
    embedding = shape.vocab_size * shape.width
    layers = shape.num_layers * (_layer_matrices(shape) + 2 * shape.width)
    return layers + embedding + shape.width + (0 if shape.tied_embeddings else embedding)


class StepCost(NamedTuple):
    """What one decoding step (one new token for each of ``batch`` sequences) does."""

    flops: int  # multiplications and additions of the matrix products and of attention
    weight_bytes: int  # every weight read once, shared by the whole batch
    cache_bytes: int  # every sequence's keys and values read once


def decode_step_cost(shape, context, batch=1, bytes_per_number=2):
    """FLOPs and bytes read by one decoding step with ``context`` tokens in each cache.

    Per token: 2 FLOPs per weight of the layers' matrices and of the output head (vocab ×
    width), and per layer 4 · heads · d_k · context for attention (q·k and the weighted sum of
    the values, 2 each per cached token and query head). Read once per step: the weights (the
    embedding only through the head: looking up a row costs nothing) and each cache.

    >>> cost = decode_step_cost(SMOLLM2_135M, context=1024)
    >>> round(arithmetic_intensity(cost), 2)   # FLOPs per byte read: a GPU can do ~200
    1.16
    """
    context = check_count(context, "context", minimum=0)
    batch = check_count(batch, "batch")
    matrices = shape.num_layers * _layer_matrices(shape) + shape.vocab_size * shape.width
    attention = shape.num_layers * 4 * shape.num_heads * shape.head_dim * context
    read = matrices + (2 * shape.num_layers + 1) * shape.width  # + the RMSNorm weights
    cache = kv_cache_bytes(context, shape.num_layers, shape.num_kv_heads, shape.head_dim,
                           bytes_per_number, batch)
    return StepCost(batch * (2 * matrices + attention), read * bytes_per_number, cache)


def arithmetic_intensity(cost):
    """FLOPs per byte read from memory: cost.flops / (weight bytes + cache bytes).

    >>> arithmetic_intensity(StepCost(flops=600, weight_bytes=200, cache_bytes=100))
    2.0
    """
    return cost.flops / (cost.weight_bytes + cost.cache_bytes)


def machine_balance(flops_per_second, bytes_per_second):
    """FLOPs a machine can do per byte it reads: below this intensity, memory sets the pace.

    >>> machine_balance(989e12, 4.8e12)   # an H200's dense 16-bit peak over its bandwidth
    206.04166666666666
    """
    return flops_per_second / bytes_per_second


def step_seconds(cost, flops_per_second, bytes_per_second):
    """The roofline: a step takes at least its bytes over the bandwidth and its FLOPs over the
    peak; the larger of the two is the bound.

    >>> step_seconds(StepCost(10**12, 10**11, 0), 10**15, 10**12)   # 0.1 s of reading
    0.1
    """
    return max(cost.flops / flops_per_second,
               (cost.weight_bytes + cost.cache_bytes) / bytes_per_second)


def pages_needed(length, page_size):
    """⌈length / page_size⌉: blocks of ``page_size`` token slots that hold ``length`` tokens.

    >>> pages_needed(0, 16), pages_needed(16, 16), pages_needed(17, 16)
    (0, 1, 2)
    """
    length = check_count(length, "length", minimum=0)
    return -(-length // check_count(page_size, "page_size"))


class Allocation(NamedTuple):
    """Token slots of a batch's KV cache: those holding a token, and those set aside."""

    used: int
    reserved: int


def contiguous_allocation(lengths, max_length):
    """Every sequence reserves ``max_length`` slots in one piece, however long it turns out.

    >>> contiguous_allocation([100, 3000, 20], max_length=4096)
    Allocation(used=3120, reserved=12288)
    """
    max_length = check_count(max_length, "max_length")
    lengths = [check_count(n, "length", minimum=0) for n in lengths]
    if any(n > max_length for n in lengths):
        raise ValueError(f"a sequence of {max(lengths)} tokens does not fit the contiguous "
                         f"allocation of max_length = {max_length} slots")
    return Allocation(sum(lengths), len(lengths) * max_length)


def paged_allocation(lengths, page_size):
    """Every sequence holds ⌈length / page_size⌉ blocks: less than one block wasted each.

    >>> paged_allocation([100, 3000, 20], page_size=16)
    Allocation(used=3120, reserved=3152)
    """
    return Allocation(sum(check_count(n, "length", minimum=0) for n in lengths),
                      sum(pages_needed(n, page_size) for n in lengths) * page_size)


def wasted_fraction(allocation):
    """The share of reserved slots that hold no token: 1 − used / reserved (0 if none).

    >>> round(wasted_fraction(Allocation(used=3120, reserved=12288)), 3)
    0.746
    """
    return 0.0 if allocation.reserved == 0 else 1 - allocation.used / allocation.reserved
