"""Decoding with a KV cache (notebook 16): step-by-step outputs equal full causal attention,
bottom-right causal alignment and sliding windows against their loop twins (and PyTorch where
installed), grouped-query attention's head sharing, and the cache's memory per token."""

import math
import tracemalloc

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from course_lib import causal_mask, scaled_dot_product_attention, tiled_attention, to_numpy
from course_lib.decoding import (
    KVCache,
    append_to_cache,
    attend_with_cache,
    decode,
    decode_steps,
    empty_cache,
)
from course_lib.kv_memory import LLAMA_2_70B, cache_layouts, kv_cache_bytes, tokens_that_fit
from course_lib.reference_decoding import (
    causal_mask_loop,
    decode_loop,
    grouped_query_attention_loop,
    sliding_window_mask_loop,
)
from course_lib.sliding_window import sliding_window_mask

HYPOTHESIS = settings(max_examples=30, deadline=None,
                      suppress_health_check=[HealthCheck.function_scoped_fixture])


@pytest.fixture
def torch():
    """PyTorch for the live comparisons; skipped with one line where it is not installed."""
    return pytest.importorskip("torch", reason="PyTorch is not installed: live comparisons "
                                               "skipped")


def rows(seed, *shapes):
    rng = np.random.default_rng(seed)
    return [rng.standard_normal(shape) for shape in shapes]


# ---------------------------------------------------------------------------------------------
# The KV cache: step by step equals full causal attention

@HYPOTHESIS
@given(st.integers(1, 7), st.integers(1, 4), st.integers(1, 3), st.data(), st.integers(0, 99))
def test_decoding_equals_full_causal_attention_at_every_step(n, d_k, d_v, data, seed):
    q, k, v = rows(seed, (n, d_k), (n, d_k), (n, d_v))
    prompt = data.draw(st.integers(1, n))
    full = scaled_dot_product_attention(q, k, v, is_causal=True)
    steps = list(decode_steps(q, k, v, prompt_length=prompt))
    assert steps and steps[0].stop == prompt and steps[-1].stop == n
    assert len(steps) == n - prompt + 1  # the prompt at once, then one token per step
    for step in steps:
        assert step.cache.key.shape == (step.stop, d_k)  # the cache grows by the new rows
        np.testing.assert_allclose(step.output, full[step.start:step.stop], rtol=1e-12,
                                   atol=1e-12)
        assert step.weights.shape == (step.stop - step.start, step.stop)
    np.testing.assert_allclose(decode(q, k, v, prompt), full, rtol=1e-12, atol=1e-12)


def test_decoding_matches_its_loop_twin_and_runs_on_each_library(xp):
    q, k, v = rows(1, (6, 4), (6, 4), (6, 3))
    got = decode(xp.asarray(q), xp.asarray(k), xp.asarray(v))
    assert type(got) is type(xp.asarray(q))
    np.testing.assert_allclose(to_numpy(got), decode_loop(q.tolist(), k.tolist(), v.tolist()),
                               rtol=1e-12, atol=1e-12)


def test_decoding_with_batch_axes_and_shared_heads():
    q, k, v = rows(2, (2, 4, 5, 3), (2, 2, 5, 3), (2, 2, 5, 2))  # 4 query heads over 2
    full = scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=True)
    np.testing.assert_allclose(decode(q, k, v, prompt_length=2, enable_gqa=True), full,
                               rtol=1e-12, atol=1e-12)


def test_new_queries_see_the_cache_bottom_right():
    q, k, v = rows(3, (6, 4), (6, 4), (6, 2))
    cache = KVCache(k, v)
    full = scaled_dot_product_attention(q, k, v, is_causal=True)
    np.testing.assert_allclose(attend_with_cache(q[3:], cache), full[3:], rtol=1e-12)
    top_left = scaled_dot_product_attention(q[3:], k, v, is_causal=True)
    assert not np.allclose(top_left, full[3:])  # is_causal would hide keys 1 … 5 from 𝐪₃


def test_cache_errors_are_explained():
    cache = append_to_cache(empty_cache(2, 1), [[1.0, 0.0]], [[2.0]])
    assert cache.key.shape == (1, 2) and empty_cache(3, 2, (4,)).value.shape == (4, 0, 2)
    with pytest.raises(ValueError, match="only the row count"):
        append_to_cache(cache, [[1.0, 0.0, 0.0]], [[2.0]])
    with pytest.raises(ValueError, match="one value per key"):
        append_to_cache(cache, [[1.0, 0.0]], [[2.0], [3.0]])
    with pytest.raises(ValueError, match="append the new tokens"):
        attend_with_cache(np.ones((2, 2)), cache)
    with pytest.raises(ValueError, match="prompt_length"):
        decode(np.ones((2, 2)), np.ones((2, 2)), np.ones((2, 1)), prompt_length=3)
    with pytest.raises(ValueError, match="one key and one value row per token"):
        decode(np.ones((2, 2)), np.ones((3, 2)), np.ones((3, 1)))


def test_attend_with_cache_takes_lists_and_explains_a_bad_cache():
    cache = KVCache([[1.0, 0.0], [0.0, 1.0]], [[1.0], [3.0]])  # nested lists, not arrays
    got = attend_with_cache([[0.0, 0.0]], cache)
    assert got.tolist() == [[2.0]]
    assert attend_with_cache([[0.0, 0.0]], (np.eye(2), np.array([[1.0], [3.0]]))).tolist() == \
        [[2.0]]  # any (key, value) pair
    with pytest.raises(ValueError, match=r"query must have at least 2 axes .*\(2,\)"):
        attend_with_cache([0.0, 0.0], cache)
    with pytest.raises(TypeError, match="cache must be a KVCache"):
        attend_with_cache([[0.0, 0.0]], np.eye(3))
    with pytest.raises(TypeError, match="query must hold real numbers"):
        attend_with_cache([["a", "b"]], cache)


def _decode_peak_bytes(n, width=8):
    """Peak bytes allocated while ``decode`` writes n tokens (inputs made beforehand)."""
    q, k, v = rows(9, (n, width), (n, width), (n, width))
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        before = tracemalloc.get_traced_memory()[0]
        decode(q, k, v)
        return tracemalloc.get_traced_memory()[1] - before
    finally:
        tracemalloc.stop()


def test_decode_memory_grows_linearly_with_the_tokens():
    inputs = 3 * 400 * 8 * 8  # q, k, v of 400 tokens × 8 float64 slots
    small, large = _decode_peak_bytes(200), _decode_peak_bytes(400)
    assert large < 5 * inputs  # one cache and the outputs: a few copies of the inputs
    assert large / small < 2.6  # twice the tokens, about twice the memory (a cache per step: 4×)


def test_each_step_sees_the_tokens_so_far_through_one_cache():
    q, k, v = rows(10, (5, 3), (5, 3), (5, 2))
    steps = list(decode_steps(q, k, v, prompt_length=2))
    assert [s.cache.key.shape[0] for s in steps] == [2, 3, 4, 5]
    np.testing.assert_array_equal(steps[0].cache.key, k[:2])  # earlier views still right
    assert all(np.shares_memory(s.cache.key, steps[-1].cache.key) for s in steps)  # one buffer
    assert not np.shares_memory(steps[-1].cache.key, k)  # the cache is its own, written in turn


# ---------------------------------------------------------------------------------------------
# Causal alignment and sliding windows

@pytest.mark.parametrize(("n", "m"), [(1, 1), (1, 5), (3, 6), (4, 4), (6, 3)])
def test_bottom_right_matches_its_loop_twin(n, m):
    got = to_numpy(causal_mask(n, m, align="bottom-right")).tolist()
    assert got == causal_mask_loop(n, m, align="bottom-right")
    assert to_numpy(causal_mask(n, m)).tolist() == causal_mask_loop(n, m)


@pytest.mark.torch
@pytest.mark.filterwarnings("ignore:Lower right causal bias")  # n > m: rows with no key
@pytest.mark.parametrize(("n", "m"), [(1, 5), (3, 6), (4, 4), (6, 3)])
def test_bottom_right_matches_pytorch_causal_lower_right(torch, n, m):
    from torch.nn.attention.bias import causal_lower_right

    q, k, v = rows(4, (n, 4), (m, 4), (m, 3))
    tq, tk, tv = (torch.from_numpy(a) for a in (q, k, v))
    theirs = torch.nn.functional.scaled_dot_product_attention(
        tq, tk, tv, attn_mask=causal_lower_right(n, m)).numpy()
    ours = scaled_dot_product_attention(q, k, v, attn_mask=causal_mask(n, m, align="bottom-right"))
    np.testing.assert_allclose(ours, np.nan_to_num(theirs), rtol=1e-12, atol=1e-12)
    bias = causal_lower_right(n, m)._materialize(device=torch.device("cpu")).numpy()
    np.testing.assert_array_equal(to_numpy(causal_mask(n, m, align="bottom-right")), bias)


@pytest.mark.parametrize(("n", "window", "m"), [(5, 1, None), (5, 2, None), (6, 3, None),
                                                (2, 3, 7), (1, 4, 9), (4, 10, None)])
def test_sliding_window_matches_its_loop_twin(n, window, m):
    mask = to_numpy(sliding_window_mask(n, window, m))
    assert mask.tolist() == sliding_window_mask_loop(n, window, m)
    assert (mask.sum(axis=-1) <= window).all()  # never more than the window


def test_a_wide_window_is_the_causal_mask_and_bad_windows_are_explained():
    np.testing.assert_array_equal(sliding_window_mask(3, 8, m=5),
                                  causal_mask(3, 5, align="bottom-right"))
    for bad in (0, -1, 1.5, True):
        with pytest.raises((TypeError, ValueError), match="window"):
            sliding_window_mask(4, bad)


# ---------------------------------------------------------------------------------------------
# Grouped-query attention: query heads share key/value heads

@pytest.mark.parametrize(("heads", "kv_heads"), [(4, 4), (4, 2), (6, 3), (8, 1)])
def test_grouped_query_attention_matches_its_loop_twin(heads, kv_heads):
    q, k, v = rows(5, (heads, 3, 4), (kv_heads, 5, 4), (kv_heads, 5, 2))
    want = grouped_query_attention_loop(q.tolist(), k.tolist(), v.tolist())
    got = scaled_dot_product_attention(q, k, v, enable_gqa=True)
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)
    tiled = tiled_attention(q, k, v, block_size=2, enable_gqa=True)
    np.testing.assert_allclose(tiled, want, rtol=1e-12, atol=1e-12)


@pytest.mark.torch
@pytest.mark.parametrize("is_causal", [False, True])
def test_grouped_query_attention_matches_pytorch(torch, is_causal):
    q, k, v = rows(6, (2, 8, 5, 4), (2, 2, 5, 4), (2, 2, 5, 3))
    theirs = torch.nn.functional.scaled_dot_product_attention(
        *(torch.from_numpy(a) for a in (q, k, v)), is_causal=is_causal, enable_gqa=True)
    ours = scaled_dot_product_attention(q, k, v, is_causal=is_causal, enable_gqa=True)
    np.testing.assert_allclose(ours, theirs.numpy(), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize(("shapes", "message"), [
    (((3, 4), (3, 4), (3, 2)), "at least 3 axes"),
    (((6, 3, 4), (4, 3, 4), (4, 3, 2)), "multiple"),
    (((4, 3, 4), (2, 3, 4), (1, 3, 2)), "value"),
])
def test_grouped_query_errors_are_explained(shapes, message):
    with pytest.raises(ValueError, match=message):
        scaled_dot_product_attention(*rows(7, *shapes), enable_gqa=True)


# ---------------------------------------------------------------------------------------------
# The cache's memory

def test_llama_2_70b_bytes_per_token():
    per_layout = {name: kv_cache_bytes(1, LLAMA_2_70B.num_layers, heads, LLAMA_2_70B.head_dim)
                  for name, heads in cache_layouts(LLAMA_2_70B).items()}
    by_loop = sum(2 * 128 * 2 for _layer in range(80) for _head in range(8))  # K and V, 16-bit
    assert per_layout["grouped-query"] == by_loop == 327680
    assert per_layout["multi-head"] == 8 * per_layout["grouped-query"] == 2_621_440
    assert per_layout["multi-query"] * 8 == per_layout["grouped-query"]
    assert kv_cache_bytes(4096, 80, 8, 128, batch=8) == 4096 * 8 * 327680


def test_tokens_that_fit_and_bad_counts():
    per_token = kv_cache_bytes(1, 80, 8, 128)
    fit = tokens_that_fit(40 * 2**30, per_token)
    assert fit * per_token <= 40 * 2**30 < (fit + 1) * per_token
    assert math.isclose(fit, 40 * 2**30 / per_token, rel_tol=1e-3)
    with pytest.raises(ValueError, match="num_kv_heads"):
        kv_cache_bytes(1, 80, 0, 128)
    with pytest.raises(TypeError, match="tokens"):
        kv_cache_bytes(1.5, 80, 8, 128)
