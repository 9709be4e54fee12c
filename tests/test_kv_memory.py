"""Memory in decoding (notebook 16): the published model shapes, the bytes and FLOPs of one
decoding step (why it is bound by memory, and why fewer key/value heads make it faster), and
the slots a contiguous allocation wastes against a paged one."""

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from course_lib.kv_memory import (
    LLAMA_2_70B,
    LLAMA_3_8B,
    SMOLLM2_135M,
    Allocation,
    ModelShape,
    StepCost,
    arithmetic_intensity,
    contiguous_allocation,
    decode_step_cost,
    kv_cache_bytes,
    machine_balance,
    paged_allocation,
    pages_needed,
    parameter_count,
    step_seconds,
    wasted_fraction,
)

H200 = {"flops_per_second": 989e12, "bytes_per_second": 4.8e12}  # dense 16-bit, HBM3e


def count_by_loop(shape):
    """Every weight matrix and norm of a Llama-style model, counted one by one."""
    total = 0
    for _layer in range(shape.num_layers):
        total += shape.width * shape.num_heads * shape.head_dim  # W_q
        total += 2 * shape.width * shape.num_kv_heads * shape.head_dim  # W_k, W_v
        total += shape.num_heads * shape.head_dim * shape.width  # W_o
        total += 3 * shape.width * shape.ffn_width  # SwiGLU gate, up, down
        total += 2 * shape.width  # attention and MLP RMSNorm weights
    total += shape.vocab_size * shape.width + shape.width  # embedding, final norm
    return total + (0 if shape.tied_embeddings else shape.vocab_size * shape.width)


@pytest.mark.parametrize(("shape", "published"), [(SMOLLM2_135M, 135e6), (LLAMA_3_8B, 8.03e9),
                                                  (LLAMA_2_70B, 68.98e9)])
def test_parameter_counts_match_the_published_sizes(shape, published):
    assert parameter_count(shape) == count_by_loop(shape)
    assert abs(parameter_count(shape) - published) / published < 0.005


def test_smollm2_numbers():
    assert parameter_count(SMOLLM2_135M) == 134_515_008
    assert kv_cache_bytes(1, 30, 3, 64) == 2 * 30 * 3 * 64 * 2 == 23040  # 22.5 KiB a token
    assert SMOLLM2_135M.num_heads // SMOLLM2_135M.num_kv_heads == 3
    untied = SMOLLM2_135M._replace(tied_embeddings=False)
    assert parameter_count(untied) - parameter_count(SMOLLM2_135M) == 49152 * 576


def test_a_shape_without_its_widths_is_explained():
    bare = ModelShape("bare", num_layers=2, num_heads=4, num_kv_heads=2, head_dim=8)
    with pytest.raises(ValueError, match="bare's width"):
        parameter_count(bare)
    assert kv_cache_bytes(1, bare.num_layers, bare.num_kv_heads, bare.head_dim) == 128


# ---------------------------------------------------------------------------------------------
# One decoding step: bytes read against FLOPs

def test_decode_step_reads_each_weight_once_and_does_two_flops_per_weight():
    cost = decode_step_cost(SMOLLM2_135M, context=0)
    matrices = count_by_loop(SMOLLM2_135M) - 61 * 576 - 49152 * 576  # no norms, no lookup ...
    matrices += 49152 * 576  # ... but the (tied) head is a product
    assert cost.flops == 2 * matrices and cost.cache_bytes == 0
    assert cost.weight_bytes == 2 * parameter_count(SMOLLM2_135M)  # tied: everything is read
    untied = decode_step_cost(LLAMA_2_70B, context=0, bytes_per_number=1)
    assert untied.weight_bytes == parameter_count(LLAMA_2_70B) - 32000 * 8192  # no lookup


def test_decode_step_is_memory_bound_at_batch_one():
    for shape in (SMOLLM2_135M, LLAMA_3_8B, LLAMA_2_70B):
        cost = decode_step_cost(shape, context=4096)
        intensity = arithmetic_intensity(cost)
        assert 0.5 < intensity < 2  # about 2 FLOPs per 2-byte weight (and a little attention)
        assert intensity < machine_balance(**H200) / 100
        bytes_read = cost.weight_bytes + cost.cache_bytes
        assert step_seconds(cost, **H200) == bytes_read / H200["bytes_per_second"]
    seconds = step_seconds(decode_step_cost(LLAMA_2_70B, 4096), **H200)
    assert 0.025 < seconds < 0.035  # ~140 GB of weights at 4.8 TB/s: ~30 tokens a second at most


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 64), st.integers(0, 8192))
def test_batching_shares_the_weights_not_the_caches(batch, context):
    one, many = decode_step_cost(LLAMA_3_8B, context), decode_step_cost(LLAMA_3_8B, context, batch)
    assert many.weight_bytes == one.weight_bytes  # read once for the whole batch
    assert many.cache_bytes == batch * one.cache_bytes and many.flops == batch * one.flops
    assert arithmetic_intensity(many) >= arithmetic_intensity(one)


def test_long_contexts_tend_to_heads_over_kv_heads_flops_per_byte():
    # Attention alone: 4·H·d FLOPs per cached token and layer, 2·2·G·d bytes of K and V (16-bit)
    for shape in (LLAMA_3_8B, SMOLLM2_135M):
        cost = decode_step_cost(shape, context=10**8, batch=64)
        assert math.isclose(arithmetic_intensity(cost), shape.num_heads / shape.num_kv_heads,
                            rel_tol=0.01)


@pytest.mark.parametrize("context", [4096, 32768])
def test_fewer_kv_heads_make_a_step_faster_not_only_smaller(context):
    costs = {kv_heads: decode_step_cost(LLAMA_2_70B._replace(num_kv_heads=kv_heads), context,
                                        batch=16)
             for kv_heads in (64, 8, 1)}  # multi-head, Llama 2 70B's grouped-query, multi-query
    assert costs[64].cache_bytes == 8 * costs[8].cache_bytes == 64 * costs[1].cache_bytes
    attention_flops = {g: c.flops - decode_step_cost(LLAMA_2_70B._replace(num_kv_heads=g), 0,
                                                     batch=16).flops for g, c in costs.items()}
    assert attention_flops[64] == attention_flops[8] == attention_flops[1]  # the same arithmetic
    times = {g: step_seconds(c, **H200) for g, c in costs.items()}
    assert times[64] > 2 * times[8] and times[8] > times[1]  # the time of a step falls too
    read = {g: c.weight_bytes + c.cache_bytes for g, c in costs.items()}
    assert math.isclose(times[64] / times[8], read[64] / read[8])  # in proportion to bytes read


def test_step_seconds_is_the_larger_of_the_two_bounds():
    assert step_seconds(StepCost(flops=10, weight_bytes=1, cache_bytes=1), 1.0, 1.0) == 10
    assert step_seconds(StepCost(flops=1, weight_bytes=6, cache_bytes=4), 1.0, 1.0) == 10
    assert arithmetic_intensity(StepCost(8, 3, 1)) == 2.0


# ---------------------------------------------------------------------------------------------
# Contiguous against paged allocation

def test_pages_needed_rounds_up():
    assert [pages_needed(n, 4) for n in range(10)] == [0, 1, 1, 1, 1, 2, 2, 2, 2, 3]
    with pytest.raises(ValueError, match="page_size"):
        pages_needed(3, 0)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, 2048), min_size=1, max_size=16), st.sampled_from([1, 8, 16, 256]))
def test_paging_wastes_less_than_a_block_per_sequence(lengths, page_size):
    paged = paged_allocation(lengths, page_size)
    contiguous = contiguous_allocation(lengths, max_length=2048)
    assert paged.used == contiguous.used == sum(lengths)
    assert 0 <= paged.reserved - paged.used < len(lengths) * page_size
    assert contiguous.reserved - contiguous.used == sum(2048 - n for n in lengths)
    assert paged.reserved <= contiguous.reserved  # 2048 is a multiple of every page size here
    assert 0 <= wasted_fraction(paged) <= wasted_fraction(contiguous) <= 1


def test_pagedattention_numbers():
    lengths = [100, 3000, 20]
    contiguous = contiguous_allocation(lengths, max_length=4096)
    paged = paged_allocation(lengths, page_size=16)
    assert contiguous == Allocation(used=3120, reserved=3 * 4096)
    assert paged == Allocation(used=3120, reserved=(7 + 188 + 2) * 16)
    assert wasted_fraction(paged) < 0.02 < 0.7 < wasted_fraction(contiguous)
    assert wasted_fraction(Allocation(0, 0)) == 0.0
    with pytest.raises(ValueError, match="does not fit"):
        contiguous_allocation([5000], max_length=4096)
