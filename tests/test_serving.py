"""Attention as inference servers run it (notebook 16): ``attention_with_kv_cache`` against its
float64 loop twin and against the course's attention over each sequence's concatenated keys,
contiguous and paged caches, the in-place append, bottom-right causal alignment, grouped
heads, split-KV equal to one pass, the logsumexp, the errors, and PyTorch where installed."""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from course_lib import (
    attention_with_kv_cache,
    causal_mask,
    scaled_dot_product_attention,
    tiled_attention,
    to_numpy,
)
from course_lib.kv_memory import LLAMA_3_8B, SMOLLM2_135M, pages_needed
from course_lib.reference_decoding import attention_with_kv_cache_loop
from course_lib.rotary import rotary_embedding
from course_lib.serving import (
    allocate_blocks,
    cache_slots,
    key_mask,
    key_splits,
    merge_splits,
    new_positions,
    rotate_new_tokens,
    used_blocks,
)

HYPOTHESIS = settings(max_examples=40, deadline=None,
                      suppress_health_check=[HealthCheck.function_scoped_fixture])
TIGHT = {"rtol": 1e-12, "atol": 1e-12}


@pytest.fixture
def torch():
    """PyTorch for the live comparisons; skipped with one line where it is not installed."""
    return pytest.importorskip("torch", reason="PyTorch is not installed: live comparisons "
                                               "skipped")


def random_call(*, batch, heads, kv_heads, d_k, d_v, n, cached, new, page_size,
                spare=1, seed=0):
    """Inputs of one call: q, the caches (paged when page_size is given), cache_seqlens, k, v,
    block_table. ``cached``: tokens already in each sequence's cache."""
    rng = np.random.default_rng(seed)
    lengths = [c + new for c in cached]
    q = rng.standard_normal((batch, n, heads, d_k))
    k = rng.standard_normal((batch, new, kv_heads, d_k)) if new else None
    v = rng.standard_normal((batch, new, kv_heads, d_v)) if new else None
    if page_size is None:
        capacity = max(max(lengths), 1) + spare
        k_cache = rng.standard_normal((batch, capacity, kv_heads, d_k))
        v_cache = rng.standard_normal((batch, capacity, kv_heads, d_v))
        table = None
    else:
        per_seq = max(max(pages_needed(s, page_size) for s in lengths), 1) + spare
        num_blocks = batch * per_seq + spare
        table = rng.permutation(num_blocks)[:batch * per_seq].reshape(batch, per_seq)
        k_cache = rng.standard_normal((num_blocks, page_size, kv_heads, d_k))
        v_cache = rng.standard_normal((num_blocks, page_size, kv_heads, d_v))
    return q, k_cache, v_cache, np.array(cached), k, v, table


def sequence_keys(cache, b, length, table, page_size):
    """Sequence b's first ``length`` cache rows, in order, read slot by slot."""
    rows = []
    for p in range(length):
        block, at = (b, p) if table is None else (table[b][p // page_size], p % page_size)
        rows.append(cache[block, at])
    return np.array(rows).reshape((length,) + cache.shape[2:])  # (length, kv_heads, d)


@st.composite
def calls(draw):
    kv_heads, group = draw(st.integers(1, 3)), draw(st.integers(1, 3))
    batch = draw(st.integers(1, 3))
    new = draw(st.integers(0, 3))
    shape = {"batch": batch, "heads": kv_heads * group, "kv_heads": kv_heads,
             "d_k": draw(st.integers(1, 4)), "d_v": draw(st.integers(1, 3)),
             "n": draw(st.integers(1, 4)), "new": new,
             "cached": draw(st.lists(st.integers(0 if new else 1, 6), min_size=batch,
                                     max_size=batch)),
             "page_size": draw(st.one_of(st.none(), st.integers(1, 4))),
             "spare": draw(st.integers(0, 2)), "seed": draw(st.integers(0, 999))}
    return shape, draw(st.booleans()), draw(st.integers(1, 7))


# ---------------------------------------------------------------------------------------------
# The loop twin and the concatenated keys

@HYPOTHESIS
@given(calls())
def test_matches_the_loop_twin_in_place_append_included(call):
    shape, causal, num_splits = call
    q, k_cache, v_cache, seqlens, k, v, table = random_call(**shape)
    k_list, v_list = k_cache.tolist(), v_cache.tolist()
    want_out, want_lse = attention_with_kv_cache_loop(
        q.tolist(), k_list, v_list, seqlens.tolist(), None if k is None else k.tolist(),
        None if v is None else v.tolist(), None if table is None else table.tolist(), causal)
    out, lse = attention_with_kv_cache(q, k_cache, v_cache, seqlens, k=k, v=v, block_table=table,
                                       causal=causal, num_splits=num_splits,
                                       return_softmax_lse=True)
    assert out.shape == q.shape[:3] + (v_cache.shape[-1],)
    assert lse.shape == (q.shape[0], q.shape[2], q.shape[1])
    np.testing.assert_allclose(out, want_out, **TIGHT)
    np.testing.assert_allclose(lse, want_lse, **TIGHT)  # −∞ where a query sees no key
    np.testing.assert_array_equal(k_cache, k_list)  # the caller's caches hold the new rows
    np.testing.assert_array_equal(v_cache, v_list)


@HYPOTHESIS
@given(calls())
def test_equals_the_course_attention_over_each_sequences_concatenated_keys(call):
    shape, causal, num_splits = call
    q, k_cache, v_cache, seqlens, k, v, table = random_call(**shape)
    page = None if table is None else k_cache.shape[1]
    before = [(sequence_keys(k_cache, b, s, table, page), sequence_keys(v_cache, b, s, table, page))
              for b, s in enumerate(seqlens.tolist())]
    out = attention_with_kv_cache(q, k_cache, v_cache, seqlens, k=k, v=v, block_table=table,
                                  causal=causal, num_splits=num_splits)
    n = q.shape[1]
    for b, (keys, values) in enumerate(before):
        if k is not None:
            keys, values = np.concatenate([keys, k[b]]), np.concatenate([values, v[b]])
        if len(keys) == 0:
            assert not out[b].any()  # nothing cached and nothing new: zeros
            continue
        mask = causal_mask(n, len(keys), align="bottom-right") if causal else None
        want = scaled_dot_product_attention(q[b].swapaxes(0, 1), keys.swapaxes(0, 1),
                                            values.swapaxes(0, 1), attn_mask=mask,
                                            enable_gqa=True)  # (heads, n, d_v)
        np.testing.assert_allclose(out[b], want.swapaxes(0, 1), **TIGHT)


def test_the_new_rows_land_at_cache_seqlens_and_nothing_else_moves():
    q, k_cache, v_cache, seqlens, k, v, table = random_call(
        batch=2, heads=4, kv_heads=2, d_k=3, d_v=2, n=2, cached=[3, 0], new=2,
        page_size=2, spare=1, seed=5)
    k_before = k_cache.copy()
    attention_with_kv_cache(q, k_cache, v_cache, seqlens, k=k, v=v, block_table=table)
    written = np.zeros(k_cache.shape[:2], bool)
    for b, start in enumerate(seqlens.tolist()):
        for r in range(2):
            block, at = table[b][(start + r) // 2], (start + r) % 2
            np.testing.assert_array_equal(k_cache[block, at], k[b, r])
            written[block, at] = True
    np.testing.assert_array_equal(k_cache[~written], k_before[~written])  # untouched elsewhere
    assert written.sum() == 4


def test_one_int_cache_seqlens_stands_for_every_sequence():
    q, k_cache, v_cache, _, k, v, _ = random_call(batch=3, heads=2, kv_heads=1, d_k=2,
                                                  d_v=2, n=1, cached=[2, 2, 2], new=1,
                                                  page_size=None)
    a, b = k_cache.copy(), v_cache.copy()
    one = attention_with_kv_cache(q, k_cache, v_cache, 2, k=k, v=v, causal=True)
    each = attention_with_kv_cache(q, a, b, np.array([2, 2, 2]), k=k, v=v, causal=True)
    np.testing.assert_array_equal(one, each)


# ---------------------------------------------------------------------------------------------
# Decoding through the cache equals causal attention of the whole sequence

@pytest.mark.parametrize("paged", [False, True])
def test_prefill_then_one_token_a_step_equals_causal_attention(paged):
    rng = np.random.default_rng(7)
    batch, tokens, heads, kv_heads, d = 2, 9, 6, 2, 4
    q, k, v = (rng.standard_normal((batch, tokens, h, d)) for h in (heads, kv_heads, kv_heads))
    if paged:
        table = allocate_blocks([tokens] * batch, page_size=2)  # blocks taken in turn
        k_cache = np.zeros((table.max() + 1, 2, kv_heads, d))
    else:
        table, k_cache = None, np.zeros((batch, tokens, kv_heads, d))
    v_cache = np.zeros_like(k_cache)
    prompt = 4
    parts = [attention_with_kv_cache(q[:, :prompt], k_cache, v_cache, 0, k=k[:, :prompt],
                                     v=v[:, :prompt], block_table=table, causal=True)]
    for t in range(prompt, tokens):  # one new token per step, at position t
        parts.append(attention_with_kv_cache(q[:, t:t + 1], k_cache, v_cache, t,
                                             k=k[:, t:t + 1], v=v[:, t:t + 1],
                                             block_table=table, causal=True, num_splits=3))
    full = scaled_dot_product_attention(q.swapaxes(1, 2), k.swapaxes(1, 2), v.swapaxes(1, 2),
                                        is_causal=True, enable_gqa=True).swapaxes(1, 2)
    np.testing.assert_allclose(np.concatenate(parts, axis=1), full, **TIGHT)


def test_rotary_positions_with_a_cache_are_cache_seqlens():
    rng = np.random.default_rng(8)
    tokens, d = 7, 8
    q, k, v = (rng.standard_normal((1, tokens, 2, d)) for _ in range(3))
    base = SMOLLM2_135M.rope_base
    k_cache, v_cache = np.zeros((1, tokens, 2, d)), np.zeros((1, tokens, 2, d))
    steps = [attention_with_kv_cache(rotate_new_tokens(q[:, t:t + 1], [t], base=base), k_cache,
                                     v_cache, t, k=rotate_new_tokens(k[:, t:t + 1], [t], base=base),
                                     v=v[:, t:t + 1], causal=True) for t in range(tokens)]
    positions = np.arange(tokens)[:, None]  # (tokens, 1): every head alike
    whole = [rotary_embedding(x[0], positions, base=base).swapaxes(0, 1) for x in (q, k)]
    full = scaled_dot_product_attention(*whole, v[0].swapaxes(0, 1), is_causal=True)
    np.testing.assert_allclose(np.concatenate(steps, axis=1)[0], full.swapaxes(0, 1), **TIGHT)
    other = rotate_new_tokens(q[:, 3:4], [3], base=LLAMA_3_8B.rope_base)
    assert not np.allclose(other, rotate_new_tokens(q[:, 3:4], [3], base=base))  # bases differ
    assert (SMOLLM2_135M.rope_base, LLAMA_3_8B.rope_base) == (100000.0, 500000.0)


def test_new_positions_are_the_slots_written():
    assert new_positions(np.array([0, 5]), 3).tolist() == [[0, 1, 2], [5, 6, 7]]
    assert new_positions(np.array([4]), 0).shape == (1, 0)


# ---------------------------------------------------------------------------------------------
# Split-KV: partial results merged by their logsumexps equal one pass

@pytest.mark.parametrize("num_splits", [2, 3, 5, 16, 40, 1000])
@pytest.mark.parametrize("causal", [False, True])
def test_split_kv_equals_one_pass(num_splits, causal):
    q, k_cache, v_cache, seqlens, k, v, table = random_call(
        batch=3, heads=4, kv_heads=2, d_k=8, d_v=5, n=3, cached=[37, 2, 15], new=1,
        page_size=4, seed=11)
    one = attention_with_kv_cache(q, k_cache.copy(), v_cache.copy(), seqlens, k=k, v=v,
                                  block_table=table, causal=causal, return_softmax_lse=True)
    split = attention_with_kv_cache(q, k_cache, v_cache, seqlens, k=k, v=v, block_table=table,
                                    causal=causal, num_splits=num_splits,
                                    return_softmax_lse=True)
    for a, b in zip(one, split, strict=True):
        np.testing.assert_allclose(b, a, **TIGHT)


@HYPOTHESIS
@given(st.integers(1, 60), st.integers(1, 80))
def test_key_splits_cover_the_keys_in_nearly_equal_chunks(m, num_splits):
    splits = key_splits(m, num_splits)
    assert len(splits) == min(m, num_splits)
    assert splits[0][0] == 0 and splits[-1][1] == m
    assert all(a[1] == b[0] for a, b in zip(splits[:-1], splits[1:], strict=True))
    sizes = [stop - start for start, stop in splits]
    assert min(sizes) >= 1 and max(sizes) - min(sizes) <= 1


def test_merge_splits_is_the_logsumexp_weighted_blend():
    rng = np.random.default_rng(3)
    q, keys, values = rng.standard_normal((4, 3)), rng.standard_normal((11, 3)), \
        rng.standard_normal((11, 2))
    scores = q @ keys.T / np.sqrt(3)  # (4, 11)
    cuts = [(0, 4), (4, 5), (5, 11)]
    parts = [tiled_attention(q, keys[a:b], values[a:b], return_logsumexp=True) for a, b in cuts]
    out, lse = merge_splits([p[0] for p in parts], [p[1] for p in parts])
    np.testing.assert_allclose(out, scaled_dot_product_attention(q, keys, values), **TIGHT)
    np.testing.assert_allclose(lse, np.logaddexp.reduce(scores, axis=1), **TIGHT)
    backwards, _ = merge_splits([p[0] for p in parts[::-1]], [p[1] for p in parts[::-1]])
    np.testing.assert_allclose(backwards, out, **TIGHT)  # the order of the splits is irrelevant
    empty = (np.zeros((4, 2)), np.full(4, -np.inf))  # a split that saw no key weighs nothing
    with_empty = merge_splits([p[0] for p in parts] + [empty[0]], [p[1] for p in parts] +
                              [empty[1]])
    np.testing.assert_allclose(with_empty[0], out, **TIGHT)
    nothing = merge_splits([empty[0], empty[0]], [empty[1], empty[1]])
    assert not nothing[0].any() and np.isneginf(nothing[1]).all()


# ---------------------------------------------------------------------------------------------
# The pieces: masks, slots, block tables

def test_key_mask_is_bottom_right_per_sequence():
    mask = key_mask(np.array([5, 2, 0]), 2, 5, causal=True)[:, 0]
    assert mask[0].astype(int).tolist() == [[1, 1, 1, 1, 0], [1, 1, 1, 1, 1]]
    assert mask[1].astype(int).tolist() == [[1, 0, 0, 0, 0], [1, 1, 0, 0, 0]]
    assert not mask[2].any()  # an empty sequence: nothing to see
    np.testing.assert_array_equal(mask[0], causal_mask(2, 5, align="bottom-right"))
    loose = key_mask(np.array([5, 2, 0]), 2, 5)[:, 0]
    assert loose.sum(axis=-1).tolist() == [[5, 5], [2, 2], [0, 0]]


def test_cache_slots_follow_the_block_table():
    table = np.array([[4, 1, 7], [0, 3, 2]])
    blocks, offsets = cache_slots(np.array([[0, 2, 3, 5], [1, 2, 4, 5]]), table, 2)
    assert blocks.tolist() == [[4, 1, 1, 7], [0, 3, 2, 2]]
    assert offsets.tolist() == [[0, 0, 1, 1], [1, 0, 0, 1]]
    rows, positions = cache_slots(np.array([[0, 1], [2, 3]]), None, 5)
    assert rows.ravel().tolist() == [0, 1] and positions.tolist() == [[0, 1], [2, 3]]


@HYPOTHESIS
@given(st.lists(st.integers(0, 20), min_size=1, max_size=5), st.integers(1, 6))
def test_allocated_blocks_are_distinct_and_enough(lengths, page_size):
    table = allocate_blocks(lengths, page_size)
    used = [(b, i, block) for b, i, block, _ in used_blocks(table, lengths, page_size)]
    blocks = [block for *_, block in used]
    assert len(blocks) == len(set(blocks)) == sum(pages_needed(n, page_size) for n in lengths)
    assert sorted(blocks) == list(range(len(blocks)))  # the pool is filled from block 0
    filled = [f for *_, f in used_blocks(table, lengths, page_size)]
    assert sum(filled) == sum(lengths) and all(1 <= f <= page_size for f in filled)
    assert ((table == -1) | (table >= 0)).all()


def test_used_blocks_and_allocation_in_turn():
    table = allocate_blocks([5, 1, 4], page_size=2)
    assert table.tolist() == [[0, 3, 5], [1, -1, -1], [2, 4, -1]]
    assert used_blocks(table, [5, 1, 4], 2) == [(0, 0, 0, 2), (0, 1, 3, 2), (0, 2, 5, 1),
                                                (1, 0, 1, 1), (2, 0, 2, 2), (2, 1, 4, 2)]


def test_unused_block_table_entries_are_never_read():
    q, k_cache, v_cache, seqlens, k, v, _ = random_call(batch=2, heads=2, kv_heads=1,
                                                        d_k=2, d_v=2, n=1, cached=[3, 1], new=1,
                                                        page_size=2)
    table = allocate_blocks([4, 2], page_size=2)  # [[0, 2], [1, -1]]
    assert table[1, 1] == -1
    k_cache, v_cache = np.zeros((3, 2, 1, 2)), np.zeros((3, 2, 1, 2))
    k_cache[:], v_cache[:] = np.nan, np.nan  # garbage in every slot not yet written
    k_cache[0], v_cache[0] = 1.0, 2.0
    k_cache[2, 0], v_cache[2, 0] = 1.0, 2.0
    k_cache[1, 0], v_cache[1, 0] = 1.0, 3.0
    out = attention_with_kv_cache(q, k_cache, v_cache, seqlens, k=k, v=v, block_table=table)
    assert np.isfinite(out).all()  # slots past each sequence's length are masked, never mixed in


def test_runs_on_each_array_library(xp):
    q, k_cache, v_cache, seqlens, k, v, table = random_call(
        batch=2, heads=4, kv_heads=2, d_k=4, d_v=3, n=2, cached=[5, 2], new=2,
        page_size=3, seed=4)
    want, want_lse = attention_with_kv_cache_loop(q.tolist(), k_cache.tolist(), v_cache.tolist(),
                                                  seqlens.tolist(), k.tolist(), v.tolist(),
                                                  table.tolist(), causal=True)
    before = k_cache.copy()
    gpu_k, gpu_v = xp.asarray(k_cache), xp.asarray(v_cache)
    out, lse = attention_with_kv_cache(xp.asarray(q), gpu_k, gpu_v, xp.asarray(seqlens),
                                       k=xp.asarray(k), v=xp.asarray(v),
                                       block_table=xp.asarray(table), causal=True, num_splits=2,
                                       return_softmax_lse=True)
    assert type(out) is type(gpu_k)
    np.testing.assert_allclose(to_numpy(out), want, **TIGHT)
    np.testing.assert_allclose(to_numpy(lse), want_lse, **TIGHT)
    assert not np.array_equal(to_numpy(gpu_k), before)  # written in place on that library


def test_float16_caches_are_attended_in_float32():
    q, k_cache, v_cache, seqlens, k, v, table = random_call(
        batch=1, heads=2, kv_heads=1, d_k=8, d_v=4, n=1, cached=[30], new=1,
        page_size=None)
    k16, v16 = k_cache.astype(np.float16), v_cache.astype(np.float16)
    out, lse = attention_with_kv_cache(q.astype(np.float16), k16, v16, seqlens,
                                       k=k.astype(np.float16), v=v.astype(np.float16),
                                       num_splits=4, return_softmax_lse=True)
    assert out.dtype == np.float16 and lse.dtype == np.float32
    exact = attention_with_kv_cache(q.astype(np.float16).astype(float), k16.astype(float),
                                    v16.astype(float), seqlens + 1)  # the new row is in k16 now
    np.testing.assert_allclose(out, exact, rtol=2e-3, atol=2e-3)


# ---------------------------------------------------------------------------------------------
# Errors name the problem and the shapes

def _args(**change):
    rng = np.random.default_rng(0)
    args = {"q": rng.standard_normal((2, 1, 4, 3)), "k_cache": np.zeros((2, 6, 2, 3)),
            "v_cache": np.zeros((2, 6, 2, 5)), "cache_seqlens": np.array([2, 3])}
    args.update(change)
    return args


PAGED = {"k_cache": np.zeros((5, 2, 2, 3)), "v_cache": np.zeros((5, 2, 2, 5)),
         "block_table": np.array([[0, 1, 2], [3, 4, -1]])}


@pytest.mark.parametrize(("change", "error", "message"), [
    ({"q": np.zeros((1, 4, 3))}, ValueError, r"q must have 4 axes .*\(1, 4, 3\)"),
    ({"q": np.zeros((2, 0, 4, 3))}, ValueError, "q has an empty axis"),
    ({"k_cache": np.zeros((2, 6, 2, 3)).tolist()}, TypeError, "in place"),
    ({"k_cache": np.zeros((2, 6, 2, 3), dtype=int)}, TypeError, "floats"),
    ({"k_cache": np.zeros((2, 6, 3))}, ValueError, r"k_cache must have 4 axes .*\(2, 6, 3\)"),
    ({"k_cache": np.broadcast_to(0.0, (2, 6, 2, 3))}, ValueError, "read-only"),
    ({"k_cache": np.zeros((2, 6, 3, 3)), "v_cache": np.zeros((2, 6, 3, 5))}, ValueError,
     r"4 heads but the cache 3 key/value heads"),
    ({"k_cache": np.zeros((2, 6, 2, 4))}, ValueError, r"d_k = 3 but k_cache's is 4"),
    ({"v_cache": np.zeros((2, 5, 2, 5))}, ValueError, "first three axes"),
    ({"k_cache": np.zeros((3, 6, 2, 3)), "v_cache": np.zeros((3, 6, 2, 5))}, ValueError,
     "holds 3 sequences but q has 2"),
    ({"cache_seqlens": np.array([2, 3, 1])}, ValueError, "one int or 2 integers"),
    ({"cache_seqlens": np.array([2.0, 3.0])}, ValueError, "dtype float64"),
    ({"cache_seqlens": np.array([2, -1])}, ValueError, "≥ 0"),
    ({"cache_seqlens": np.array([2, 7])}, ValueError, r"sequence 1 needs 7 slots .* holds 6"),
    ({"k": np.zeros((2, 1, 2, 3))}, ValueError, "k was given without v"),
    ({"v": np.zeros((2, 1, 2, 5))}, ValueError, "v was given without k"),
    ({"k": np.zeros((2, 1, 1, 3)), "v": np.zeros((2, 1, 1, 5))}, ValueError,
     r"k of shape \(2, 1, 1, 3\) does not fit"),
    ({"k": np.zeros((2, 2, 2, 3)), "v": np.zeros((2, 1, 2, 5))}, ValueError,
     "2 new tokens but v has 1"),
    ({"k": np.zeros((2, 4, 2, 3)), "v": np.zeros((2, 4, 2, 5))}, ValueError,
     r"sequence 1 needs 7 slots \(cache_seqlens 3 \+ 4 new\)"),
    ({"k": np.full((2, 1, 2, 3), np.nan), "v": np.zeros((2, 1, 2, 5))}, ValueError,
     "k contains NaN"),
    ({"q": np.full((2, 1, 4, 3), np.inf)}, ValueError, "q contains NaN or infinite"),
    ({**PAGED, "v_cache": np.zeros((5, 3, 2, 5))}, ValueError, r"page size \(axis 1\)"),
    ({**PAGED, "block_table": np.array([[0, 9, 2], [3, 4, 1]]), "cache_seqlens": np.array([3, 3])},
     ValueError,
     r"block_table\[0, 1\] = 9 points outside the cache's 5 blocks"),
    ({**PAGED, "block_table": np.array([[0, 1, 2], [-1, 4, 0]])}, ValueError,
     r"block_table\[1, 0\] = -1 points outside"),
    ({**PAGED, "block_table": np.array([[0, 1], [3, 4]]), "cache_seqlens": np.array([2, 5])},
     ValueError, r"sequence 1 needs 5 slots .* 2 blocks of 2 slots = 4"),
    ({**PAGED, "block_table": np.array([0, 1, 2])}, ValueError, "block_table must be integers"),
    ({**PAGED, "block_table": np.array([[0.0, 1.0], [3.0, 4.0]])}, ValueError, "dtype float64"),
    ({**PAGED, "block_table": np.array([[0, 1, 2], [3, 1, 4]]), "k": np.zeros((2, 1, 2, 3)),
      "v": np.zeros((2, 1, 2, 5)), "cache_seqlens": np.array([2, 2])}, ValueError,
     "two new tokens would be written to slot 0 of block 1"),
    ({"num_splits": 0}, ValueError, "num_splits must be a positive integer"),
    ({"softmax_scale": -1.0}, ValueError, "scale must be a positive"),
])
def test_errors_name_the_problem_and_the_shapes(change, error, message):
    args = _args(**change)
    with pytest.raises(error, match=message):
        attention_with_kv_cache(args.pop("q"), args.pop("k_cache"), args.pop("v_cache"),
                                args.pop("cache_seqlens"), **args)


def test_a_failed_check_writes_nothing():
    args = _args(k=np.ones((2, 4, 2, 3)), v=np.ones((2, 4, 2, 5)))  # sequence 1 overflows
    with pytest.raises(ValueError, match="needs 7 slots"):
        attention_with_kv_cache(args["q"], args["k_cache"], args["v_cache"],
                                args["cache_seqlens"], k=args["k"], v=args["v"])
    assert not args["k_cache"].any() and not args["v_cache"].any()


# ---------------------------------------------------------------------------------------------
# PyTorch, where installed: scaled_dot_product_attention with an explicit mask

@pytest.mark.torch
@pytest.mark.parametrize("causal", [False, True])
def test_matches_pytorch_sdpa_with_an_explicit_mask(torch, causal):
    q, k_cache, v_cache, seqlens, k, v, table = random_call(
        batch=3, heads=6, kv_heads=2, d_k=8, d_v=8, n=3, cached=[9, 0, 4], new=2,
        page_size=4, seed=21)
    page = k_cache.shape[1]
    out, lse = attention_with_kv_cache(q, k_cache, v_cache, seqlens, k=k, v=v, block_table=table,
                                       causal=causal, num_splits=3, return_softmax_lse=True)
    lengths = (seqlens + 2).tolist()
    m = max(lengths)
    keys = np.stack([np.pad(sequence_keys(k_cache, b, s, table, page), ((0, m - s), (0, 0),
                                                                        (0, 0)))
                     for b, s in enumerate(lengths)])  # (batch, m, kv_heads, d), after the write
    values = np.stack([np.pad(sequence_keys(v_cache, b, s, table, page), ((0, m - s), (0, 0),
                                                                          (0, 0)))
                       for b, s in enumerate(lengths)])
    n = q.shape[1]
    i, j = torch.arange(n)[:, None], torch.arange(m)[None, :]
    allowed = torch.stack([(j < s) & ((j <= i + s - n) if causal else True) for s in lengths])
    tq, tk, tv = (torch.from_numpy(a).transpose(1, 2) for a in (q, keys, values))
    theirs = torch.nn.functional.scaled_dot_product_attention(
        tq, tk, tv, attn_mask=allowed[:, None], enable_gqa=True).transpose(1, 2)
    np.testing.assert_allclose(out, theirs.numpy(), **TIGHT)
    scores = (tq @ tk.repeat_interleave(3, dim=1).transpose(-1, -2)) / np.sqrt(8)
    their_lse = torch.logsumexp(scores.masked_fill(~allowed[:, None], -torch.inf), dim=-1)
    np.testing.assert_allclose(lse, their_lse.numpy(), **TIGHT)
