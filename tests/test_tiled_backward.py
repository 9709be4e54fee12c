"""The tiled backward pass, the logsumexp it starts from, the causal tiles and the traffic count.

tiled_attention_gradients must give the numbers of attention_gradients (which is checked
against finite differences, its loop twin and PyTorch in test_gradients.py) on every shape:
causal with n ≠ m, masks, fully masked rows, broadcast batch axes, blocks that do not divide n
or m. Each math test runs once per array library through the ``xp`` fixture.
"""

import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from course_lib import attention_gradients, causal_mask, tiled_attention, to_numpy
from course_lib.fast.tiled_backward import tiled_attention_gradients as fast_tiled_gradients
from course_lib.reference_beyond import attention_gradients_loop
from course_lib.tiled_backward import tiled_attention_gradients
from course_lib.tiles import DIAGONAL, FULL, SKIPPED, causal_tiles, memory_traffic

HYPOTHESIS = settings(max_examples=60, deadline=None,
                      suppress_health_check=[HealthCheck.function_scoped_fixture])
DATA = Path(__file__).resolve().parent / "data"


def on(xp, *arrays):
    return [None if a is None else xp.asarray(np.asarray(a)) for a in arrays]


def both(xp, query, key, value, grad, attn_mask=None, block_size=None, **kwargs):
    """(tiled, plain) gradient triples on ``xp``, brought back to NumPy."""
    q, k, v, g, mask = on(xp, query, key, value, grad, attn_mask)
    tiled = tiled_attention_gradients(q, k, v, g, block_size=block_size, attn_mask=mask,
                                      **kwargs)
    plain = attention_gradients(q, k, v, g, attn_mask=mask, **kwargs)
    for t, p, given_array in zip(tiled, plain, (q, k, v), strict=True):
        assert type(t) is type(q)  # CuPy in, CuPy out
        assert t.shape == p.shape == given_array.shape and t.dtype == p.dtype
    return [to_numpy(t) for t in tiled], [to_numpy(p) for p in plain]


def assert_gradients_close(tiled, plain, rtol=1e-10, atol=1e-12):
    assert len(tiled) == len(plain) == 3
    for name, t, p in zip(("grad_query", "grad_key", "grad_value"), tiled, plain, strict=True):
        np.testing.assert_allclose(t, p, rtol=rtol, atol=atol, err_msg=name)


def draw(rng, n, m, d_k, d_v, q_batch=(), kv_batch=()):
    return (rng.standard_normal(q_batch + (n, d_k)), rng.standard_normal(kv_batch + (m, d_k)),
            rng.standard_normal(kv_batch + (m, d_v)),
            rng.standard_normal(np.broadcast_shapes(q_batch, kv_batch) + (n, d_v)))


# ---------------------------------------------------------------------------------------------
# Equal to the whole-grid backward
# ---------------------------------------------------------------------------------------------

sizes = st.integers(1, 11)
blocks = st.one_of(st.integers(1, 13), st.tuples(st.integers(1, 13), st.integers(1, 13)))
batches = st.sampled_from([((), ()), ((2,), ()), ((), (3,)), ((2, 1), (3,))])


@HYPOTHESIS
@given(n=sizes, m=sizes, d_k=st.integers(1, 5), d_v=st.integers(1, 4), block=blocks,
       causal=st.booleans(), batch=batches, seed=st.integers(0, 999))
def test_equals_attention_gradients_on_every_shape(xp, n, m, d_k, d_v, block, causal, batch,
                                                   seed):
    args = draw(np.random.default_rng(seed), n, m, d_k, d_v, *batch)
    assert_gradients_close(*both(xp, *args, block_size=block, is_causal=causal))


@HYPOTHESIS
@given(n=sizes, m=sizes, block=blocks, seed=st.integers(0, 999), kind=st.sampled_from(
    ["bool", "float", "padding"]))
def test_equals_attention_gradients_with_masks(xp, n, m, block, seed, kind):
    rng = np.random.default_rng(seed)
    query, key, value, grad = draw(rng, n, m, 3, 2, (2,))
    allowed = rng.random((2, n, m)) < 0.6
    allowed[0, 0, :] = False  # query 0 of batch 0 sees nothing
    mask = {"bool": allowed,
            "float": np.where(allowed, rng.normal(size=allowed.shape), -np.inf),
            "padding": allowed[:, :1, :]}[kind]  # (2, 1, m): broadcast over the queries
    assert_gradients_close(*both(xp, query, key, value, grad, attn_mask=mask, block_size=block))


@pytest.mark.parametrize(("n", "m", "block"), [
    (20, 6, (4, 4)),  # causal with n > m: late queries see every key
    (6, 20, (4, 4)),  # causal with n < m: keys 6 … 19 are never seen, their gradient is 0
    (7, 13, (3, 5)),  # blocks that divide neither n nor m
    (1, 1, 1),  # the smallest problem
])
def test_causal_with_n_not_m(xp, n, m, block):
    args = draw(np.random.default_rng(n * 31 + m), n, m, 4, 3)
    tiled, plain = both(xp, *args, block_size=block, is_causal=True)
    assert_gradients_close(tiled, plain)
    if m > n:
        assert np.all(tiled[1][n:] == 0) and np.all(tiled[2][n:] == 0)  # never seen, no gradient


def test_fully_masked_rows_pass_no_gradient(xp):
    query, key, value, grad = draw(np.random.default_rng(5), 4, 6, 3, 2)
    mask = np.ones((4, 6), dtype=bool)
    mask[1] = False  # query 1 sees no key: its output is the constant 0
    tiled, plain = both(xp, query, key, value, grad, attn_mask=mask, block_size=(2, 4))
    assert_gradients_close(tiled, plain)
    assert np.all(tiled[0][1] == 0)  # no gradient reaches query 1
    assert np.all(np.isfinite(tiled[1])) and np.all(np.isfinite(tiled[2]))  # and no NaN elsewhere


def test_matches_the_loop_twin():
    query, key, value, grad = draw(np.random.default_rng(8), 5, 7, 3, 2)
    expected = attention_gradients_loop(query, key, value, grad, is_causal=True)
    tiled = tiled_attention_gradients(query, key, value, grad, block_size=(2, 3), is_causal=True)
    assert_gradients_close(tiled, [np.array(e) for e in expected])


def test_matches_recorded_pytorch_gradients():
    with np.load(DATA / "torch_gradients.npz") as stored:
        arrays = {key: stored[key] for key in stored.files}
    cases = sorted({key.rsplit("/", 1)[0] for key in arrays} - {"meta"})
    assert cases
    for case in cases:
        a = {key.rsplit("/", 1)[1]: value for key, value in arrays.items()
             if key.startswith(case + "/")}
        kwargs = json.loads(str(a["kwargs"]))
        ours = tiled_attention_gradients(a["query"], a["key"], a["value"], a["grad_output"],
                                         attn_mask=a.get("attn_mask"), block_size=(2, 3),
                                         **kwargs)
        tol = {"rtol": 1e-10, "atol": 1e-12} if a["query"].dtype == np.float64 else \
            {"rtol": 2e-5, "atol": 2e-6}
        for name, got in zip(("grad_query", "grad_key", "grad_value"), ours, strict=True):
            assert got.dtype == a[name].dtype, (case, name)
            np.testing.assert_allclose(got, a[name], err_msg=f"{case}: {name}", **tol)


def test_a_wrong_row_total_is_caught():
    """The tests can fail: the backward with D = 0 (forgetting rowsum(G ⊙ O)) is far off."""
    query, key, value, grad = draw(np.random.default_rng(2), 4, 5, 3, 2)
    plain = attention_gradients(query, key, value, grad)
    weights = np.exp(query @ key.T / np.sqrt(3))
    weights /= weights.sum(axis=1, keepdims=True)
    wrong_grad_scores = weights * (grad @ value.T)  # the slip: no "− D"
    wrong_grad_query = wrong_grad_scores @ key / np.sqrt(3)
    with pytest.raises(AssertionError):
        np.testing.assert_allclose(wrong_grad_query, plain[0], rtol=1e-6)


def test_bad_grad_output_shape_is_named():
    query, key, value, _ = draw(np.random.default_rng(0), 3, 4, 2, 2)
    with pytest.raises(ValueError, match=r"grad_output of shape \(3, 5\)"):
        tiled_attention_gradients(query, key, value, np.ones((3, 5)))


def test_arguments_after_grad_output_are_keyword_only():
    query, key, value, grad = draw(np.random.default_rng(0), 3, 4, 2, 2)
    with pytest.raises(TypeError):
        tiled_attention_gradients(query, key, value, grad, 2)  # a block size by position


# ---------------------------------------------------------------------------------------------
# The logsumexp the forward pass keeps
# ---------------------------------------------------------------------------------------------

@HYPOTHESIS
@given(n=sizes, m=sizes, block=blocks, causal=st.booleans(), seed=st.integers(0, 999))
def test_logsumexp_is_log_of_the_row_total(xp, n, m, block, causal, seed):
    rng = np.random.default_rng(seed)
    query, key, value, _ = draw(rng, n, m, 3, 2, (2,))
    output, logsumexp = tiled_attention(*on(xp, query, key, value), block_size=block,
                                        is_causal=causal, return_logsumexp=True)
    scores = query @ np.swapaxes(key, -1, -2) / np.sqrt(3)  # (2, n, m)
    allowed = causal_mask(n, m, like=query) if causal else np.ones((n, m), dtype=bool)
    expected = np.log(np.where(allowed, np.exp(scores), 0.0).sum(axis=-1))  # small scores: safe
    assert logsumexp.shape == (2, n) and type(logsumexp) is type(output)
    np.testing.assert_allclose(to_numpy(logsumexp), expected, rtol=1e-12, atol=1e-12)


def test_logsumexp_of_a_fully_masked_row_is_minus_infinity():
    mask = np.array([[True, False], [False, False]])
    output, logsumexp = tiled_attention(np.ones((2, 2)), np.eye(2), np.eye(2), attn_mask=mask,
                                        return_logsumexp=True)
    assert np.isneginf(logsumexp[1]) and np.all(output[1] == 0)
    assert logsumexp[0] == pytest.approx(1 / np.sqrt(2))  # log e^(1/√2): one key seen


def test_logsumexp_is_off_by_default():
    out = tiled_attention(np.ones((2, 2)), np.eye(2), np.eye(2))
    assert isinstance(out, np.ndarray) and out.shape == (2, 2)


# ---------------------------------------------------------------------------------------------
# The causal tiles
# ---------------------------------------------------------------------------------------------

@settings(max_examples=80, deadline=None)
@given(n=st.integers(1, 40), m=st.integers(1, 40), block=blocks)
def test_tile_states_say_what_the_mask_holds(n, m, block):
    tiles = causal_tiles(n, m, block)
    mask = causal_mask(n, m, like=np.ones(1))
    block_q, block_k = (block, block) if isinstance(block, int) else block
    assert tiles.states.shape == (len(range(0, n, block_q)), len(range(0, m, block_k)))
    for a, i0 in enumerate(tiles.row_starts):
        for b, j0 in enumerate(tiles.col_starts):
            inside = mask[i0:i0 + block_q, j0:j0 + block_k]
            expected = SKIPPED if not inside.any() else FULL if inside.all() else DIAGONAL
            assert tiles.states[a, b] == expected, (i0, j0)
    assert tiles.skipped_share == pytest.approx(np.mean(tiles.states == SKIPPED))


def test_about_half_the_tiles_are_skipped_on_a_square_grid():
    tiles = causal_tiles(4096, 4096, 128)  # 32 × 32 tiles: 32·31/2 above the diagonal
    assert tiles.skipped_share == pytest.approx(31 / 64)


# ---------------------------------------------------------------------------------------------
# Memory traffic
# ---------------------------------------------------------------------------------------------

def traffic_loop(n, m, d_k, d_v, block, itemsize, is_causal):
    """The bytes of the docstring's accounting, added up tile by tile (the twin of the formula)."""
    mask = causal_mask(n, m, like=np.ones(1)) if is_causal else np.ones((n, m), dtype=bool)
    forward = itemsize * (n * d_k + n * d_v) + 4 * n  # read Q, write O and L
    backward = itemsize * 2 * n * d_v + 4 * n  # read O and G, write D
    for j0 in range(0, m, block):
        cols = min(block, m - j0)
        backward += itemsize * 2 * cols * (d_k + d_v)  # read K_j, V_j; write dK_j, dV_j
        for i0 in range(0, n, block):
            rows = min(block, n - i0)
            if mask[i0:i0 + block, j0:j0 + block].any():
                forward += itemsize * cols * (d_k + d_v)  # K_j and V_j again for this tile
                backward += rows * (itemsize * (d_k + d_v) + 4 * 2 + 4 * 2 * d_k)
    return forward, backward


@pytest.mark.parametrize("is_causal", [False, True])
@pytest.mark.parametrize(("n", "m", "block"), [(100, 70, 16), (64, 64, 64), (5, 300, 7)])
def test_tiled_traffic_matches_the_tile_by_tile_count(n, m, block, is_causal):
    traffic = memory_traffic(n, m, 24, 8, block_size=block, itemsize=2, is_causal=is_causal)
    assert (traffic.forward_tiled, traffic.backward_tiled) == traffic_loop(
        n, m, 24, 8, block, 2, is_causal)


def test_whole_grid_traffic_grows_with_the_grid_and_tiled_with_fewer_rereads():
    small, big = memory_traffic(2048, 2048, 64, 64), memory_traffic(4096, 4096, 64, 64)
    assert big.forward_grid / small.forward_grid == pytest.approx(4, rel=0.02)  # n·m dominates
    assert big.forward_grid > 3 * big.forward_tiled  # 4·n·m against (n / 128)·m·2d numbers
    assert big.backward_grid > 2 * big.backward_tiled
    larger_blocks = memory_traffic(4096, 4096, 64, 64, block_size=256)
    assert larger_blocks.forward_tiled < big.forward_tiled  # fewer query blocks, fewer rereads
    causal = memory_traffic(4096, 4096, 64, 64, is_causal=True)
    assert causal.forward_tiled < 0.6 * big.forward_tiled  # about half the tiles skipped


# ---------------------------------------------------------------------------------------------
# The fast variant: the same numbers on every core
# ---------------------------------------------------------------------------------------------

@settings(max_examples=40, deadline=None)
@given(n=sizes, m=sizes, block=blocks, causal=st.booleans(), batch=batches,
       seed=st.integers(0, 999), masked=st.booleans())
def test_fast_variant_equals_the_teaching_one(n, m, block, causal, batch, seed, masked):
    rng = np.random.default_rng(seed)
    args = draw(rng, n, m, 3, 2, *batch)
    mask = None
    if masked and not causal:
        mask = rng.random((n, m)) < 0.6
        mask[0] = False  # query 0 sees nothing
    fast_grads = fast_tiled_gradients(*args, block_size=block, attn_mask=mask, is_causal=causal)
    plain = tiled_attention_gradients(*args, block_size=block, attn_mask=mask, is_causal=causal)
    for f, p, given_array in zip(fast_grads, plain, args[:3], strict=True):
        assert f.shape == given_array.shape and f.dtype == p.dtype
    assert_gradients_close(fast_grads, plain)


@pytest.mark.parametrize("causal", [False, True])
def test_fast_variant_on_several_threads(causal):
    """Big enough that thread_count gives every core work: the ∂L/∂Q copies add up right."""
    args = [a.astype(np.float32) for a in draw(np.random.default_rng(4), 600, 500, 16, 8, (2,))]
    float_mask = None if causal else np.where(np.random.default_rng(5).random((600, 500)) < 0.9,
                                              0.0, -np.inf).astype(np.float32)
    fast_grads = fast_tiled_gradients(*args, block_size=64, attn_mask=float_mask,
                                      is_causal=causal)
    plain = attention_gradients(*args, attn_mask=float_mask, is_causal=causal)
    assert all(f.dtype == np.float32 for f in fast_grads)
    assert_gradients_close(fast_grads, plain, rtol=2e-4, atol=2e-5)


@pytest.mark.parametrize("causal", [False, True])
def test_the_fast_forward_gives_the_same_logsumexp(causal):
    from course_lib import fast

    rng = np.random.default_rng(12)
    q, k, v = rng.standard_normal((2, 37, 5)), rng.standard_normal((29, 5)), rng.standard_normal(
        (29, 3))
    mask = None if causal else rng.random((37, 29)) < 0.4
    if mask is not None:
        mask[4] = False  # a row with no key: logsumexp −∞
    plain = tiled_attention(q, k, v, block_size=(8, 6), attn_mask=mask, is_causal=causal,
                            return_logsumexp=True)
    quick = fast.tiled_attention(q, k, v, block_size=(8, 6), attn_mask=mask, is_causal=causal,
                                 return_logsumexp=True)
    for a, b in zip(quick, plain, strict=True):
        assert a.shape == b.shape and a.dtype == b.dtype
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-12)
    if mask is not None:
        assert np.all(np.isneginf(quick[1][:, 4]))
