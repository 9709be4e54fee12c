"""tiled_attention and the online softmax: equal to the plain formula, block by block.

Each math test runs once per array library through the ``xp`` fixture (NumPy, and CuPy on a
GPU machine): inputs are drawn with NumPy, moved with ``xp.asarray`` and compared on the CPU.
"""

import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from course_lib import scaled_dot_product_attention, tiled_attention, to_numpy
from course_lib.reference import attention_loop
from course_lib.tiled import online_softmax_steps

# The xp fixture only hands back a module, so reusing it across hypothesis examples is safe.
HYPOTHESIS = settings(max_examples=60, deadline=None,
                      suppress_health_check=[HealthCheck.function_scoped_fixture])


def on(xp, *arrays):
    return [None if a is None else xp.asarray(np.asarray(a)) for a in arrays]


def both(xp, query, key, value, attn_mask=None, block_size=None, **kwargs):
    """(tiled, plain) outputs on ``xp``, brought back to NumPy."""
    q, k, v, mask = on(xp, query, key, value, attn_mask)
    tiled = tiled_attention(q, k, v, block_size=block_size, attn_mask=mask, **kwargs)
    plain = scaled_dot_product_attention(q, k, v, attn_mask=mask, **kwargs)
    assert type(tiled) is type(q)  # CuPy in, CuPy out
    assert tiled.shape == plain.shape and tiled.dtype == plain.dtype
    return to_numpy(tiled), to_numpy(plain)


def draw(rng, batch, n, m, d_k, d_v):
    return (rng.standard_normal(batch + (n, d_k)), rng.standard_normal(batch + (m, d_k)),
            rng.standard_normal(batch + (m, d_v)))


# ---------------------------------------------------------------------------------------------
# Equal to the plain formula on every shape
# ---------------------------------------------------------------------------------------------

sizes = st.integers(1, 12)
blocks = st.one_of(st.integers(1, 16), st.tuples(st.integers(1, 16), st.integers(1, 16)))


@HYPOTHESIS
@given(n=sizes, m=sizes, d_k=st.integers(1, 6), d_v=st.integers(1, 5), block=blocks,
       causal=st.booleans(), batch=st.sampled_from([(), (2,), (1, 3)]), seed=st.integers(0, 99))
def test_equals_plain_formula_on_every_shape(xp, n, m, d_k, d_v, block, causal, batch, seed):
    query, key, value = draw(np.random.default_rng(seed), batch, n, m, d_k, d_v)
    tiled, plain = both(xp, query, key, value, block_size=block, is_causal=causal)
    np.testing.assert_allclose(tiled, plain, rtol=1e-12, atol=1e-13)


@pytest.mark.parametrize(("n", "m", "block"), [
    (10, 10, 3),  # 3 does not divide 10
    (7, 13, 5),  # nor 5 divides 13
    (4, 3, 8),  # m smaller than one block
    (1, 1, 1),  # the smallest problem
    (20, 6, (4, 4)),  # causal with n > m: late queries see every key
    (6, 20, (4, 4)),  # causal with n < m: late keys are never seen
])
@pytest.mark.parametrize("causal", [False, True])
def test_block_edges(xp, n, m, block, causal):
    query, key, value = draw(np.random.default_rng(n * 100 + m), (), n, m, 4, 3)
    tiled, plain = both(xp, query, key, value, block_size=block, is_causal=causal)
    np.testing.assert_allclose(tiled, plain, rtol=1e-12, atol=1e-13)


def test_matches_the_loop_twin(xp):
    query, key, value = draw(np.random.default_rng(3), (), 6, 9, 3, 2)
    expected, _ = attention_loop(query, key, value, is_causal=True)
    tiled, _ = both(xp, query, key, value, block_size=(4, 2), is_causal=True)
    np.testing.assert_allclose(tiled, np.array(expected), rtol=1e-12, atol=1e-13)


@pytest.mark.parametrize("causal", [False, True])
def test_a_larger_problem_over_many_blocks(xp, causal):
    # 700 × 600 scores in 6 × 6 blocks, the last ones partial
    query, key, value = draw(np.random.default_rng(11), (), 700, 600, 8, 3)
    tiled, plain = both(xp, query, key, value, block_size=(128, 100), is_causal=causal)
    np.testing.assert_allclose(tiled, plain, rtol=1e-12, atol=1e-13)


def test_large_masked_problem(xp):
    rng = np.random.default_rng(12)
    query, key, value = draw(rng, (2,), 500, 400, 8, 3)
    mask = rng.random((2, 500, 400)) < 0.5
    mask[1, 7] = False
    tiled, plain = both(xp, query, key, value, attn_mask=mask, block_size=(64, 96))
    assert np.all(tiled[1, 7] == 0.0)
    np.testing.assert_allclose(tiled, plain, rtol=1e-12, atol=1e-13)


def test_batch_axes_broadcast(xp):
    rng = np.random.default_rng(4)
    query = rng.standard_normal((2, 3, 5, 4))  # (batch, heads, n, d_k)
    key = rng.standard_normal((1, 3, 7, 4))
    value = rng.standard_normal((7, 2))  # shared by every batch element
    tiled, plain = both(xp, query, key, value, block_size=(2, 3))
    assert tiled.shape == (2, 3, 5, 2)
    np.testing.assert_allclose(tiled, plain, rtol=1e-12, atol=1e-13)


def test_float32_within_rounding(xp):
    rng = np.random.default_rng(5)
    query, key, value = (rng.standard_normal((300, 64), dtype=np.float32) for _ in range(3))
    q, k, v = on(xp, query, key, value)
    tiled = to_numpy(tiled_attention(q, k, v, block_size=(64, 100)))
    exact = scaled_dot_product_attention(*(a.astype(np.float64) for a in (query, key, value)))
    assert tiled.dtype == np.float32
    np.testing.assert_allclose(tiled, exact, rtol=1e-4, atol=1e-5)


def test_float16_in_float16_out(xp):
    query, key, value = (a.astype(np.float16) for a in draw(np.random.default_rng(6), (), 5, 6,
                                                             4, 3))
    tiled, plain = both(xp, query, key, value, block_size=4)
    assert tiled.dtype == np.float16
    np.testing.assert_allclose(tiled.astype(np.float32), plain.astype(np.float32), atol=2e-3)


def test_custom_scale(xp):
    query, key, value = draw(np.random.default_rng(7), (), 5, 9, 4, 3)
    tiled, plain = both(xp, query, key, value, block_size=2, scale=3.0)
    np.testing.assert_allclose(tiled, plain, rtol=1e-12, atol=1e-13)


def test_large_scores_do_not_overflow(xp):
    query, key, value = draw(np.random.default_rng(8), (), 4, 10, 3, 2)
    tiled, plain = both(xp, query * 300, key * 300, value, block_size=3)  # scores of ~1e5
    assert np.isfinite(tiled).all()
    np.testing.assert_allclose(tiled, plain, rtol=1e-10, atol=1e-12)


@pytest.mark.filterwarnings("ignore:overflow encountered:RuntimeWarning")
@pytest.mark.filterwarnings("ignore:invalid value encountered:RuntimeWarning")
def test_scores_that_overflow_are_refused_not_turned_into_nan(xp):
    """Finite float32 inputs whose products overflow to +∞: an error, as the plain formula
    gives, instead of a silent NaN (for the fast variant too)."""
    from course_lib import fast

    query = np.full((3, 4), 1e20, dtype=np.float32)  # q·k = 4e40 > float32's 3.4e38
    args = [xp.asarray(a) for a in (query, query, np.ones((3, 2), dtype=np.float32))]
    with pytest.raises(ValueError, match="scores contain NaN or"):
        scaled_dot_product_attention(*args)
    with pytest.raises(ValueError, match="scores contain NaN or"):
        tiled_attention(*args, block_size=2)
    if xp is np:
        with pytest.raises(ValueError, match="scores contain NaN or"):
            fast.tiled_attention(*args, block_size=2)


# ---------------------------------------------------------------------------------------------
# Masks
# ---------------------------------------------------------------------------------------------

@HYPOTHESIS
@given(n=sizes, m=sizes, block=blocks, seed=st.integers(0, 99), as_float=st.booleans())
def test_masks_equal_plain_formula(xp, n, m, block, seed, as_float):
    rng = np.random.default_rng(seed)
    query, key, value = draw(rng, (2,), n, m, 3, 2)
    mask = rng.random((n, m)) < 0.6  # broadcast over the batch axis
    if as_float:
        mask = np.where(mask, rng.standard_normal((n, m)), -np.inf)
    tiled, plain = both(xp, query, key, value, attn_mask=mask, block_size=block)
    np.testing.assert_allclose(tiled, plain, rtol=1e-12, atol=1e-13)


def test_fully_masked_row_gives_zeros(xp):
    query, key, value = draw(np.random.default_rng(9), (), 4, 7, 3, 2)
    mask = np.ones((4, 7), dtype=bool)
    mask[2] = False  # query 2 may attend to nothing
    mask[1, :5] = False  # query 1 sees only the last block's keys
    tiled, plain = both(xp, query, key, value, attn_mask=mask, block_size=(2, 3))
    assert np.all(tiled[2] == 0.0)
    assert not np.isnan(tiled).any()
    np.testing.assert_allclose(tiled, plain, rtol=1e-12, atol=1e-13)


# ---------------------------------------------------------------------------------------------
# The running max and running sum, exactly
# ---------------------------------------------------------------------------------------------

def test_running_statistics_by_hand(xp):
    # One query, scale 1, scores 1, 3, 2, 5 in blocks of two keys, values 0, 1, 2, 3.
    q, k, v = on(xp, [[1.0]], [[1.0], [3.0], [2.0], [5.0]], [[0.0], [1.0], [2.0], [3.0]])
    steps = list(online_softmax_steps(q, k, v, block_size=2, scale=1.0))
    assert [(s.start, s.stop) for s in steps] == [(0, 2), (2, 4)]
    first, second = steps
    e = math.exp
    assert float(first.running_max[0]) == 3.0
    assert float(first.rescale[0]) == 0.0  # nothing was summed before the first block
    assert math.isclose(float(first.running_sum[0]), e(1 - 3) + e(0), rel_tol=1e-15)
    assert math.isclose(float(first.output[0, 0]), 1 / (e(-2) + 1), rel_tol=1e-15)
    assert float(second.block_max[0]) == 5.0 and float(second.running_max[0]) == 5.0
    assert math.isclose(float(second.rescale[0]), e(3 - 5), rel_tol=1e-15)
    total = e(1 - 5) + e(3 - 5) + e(2 - 5) + e(0)
    assert math.isclose(float(second.running_sum[0]), total, rel_tol=1e-15)
    expected = (0 * e(-4) + 1 * e(-2) + 2 * e(-3) + 3 * e(0)) / total
    assert math.isclose(float(second.output[0, 0]), expected, rel_tol=1e-15)


def test_last_step_is_the_full_result(xp):
    query, key, value = draw(np.random.default_rng(10), (), 3, 11, 4, 2)
    q, k, v = on(xp, query, key, value)
    steps = list(online_softmax_steps(q, k, v, block_size=4))
    assert len(steps) == 3
    scores = query @ key.T / 2.0  # d_k = 4: divide by √4
    np.testing.assert_allclose(to_numpy(steps[-1].running_max), scores.max(axis=1), rtol=1e-15)
    np.testing.assert_allclose(to_numpy(steps[-1].output),
                               scaled_dot_product_attention(query, key, value), rtol=1e-12)
    # log Σⱼ e^(S_ij) over the keys seen so far = running max + log(running sum): it only grows
    log_totals = [to_numpy(s.running_max) + np.log(to_numpy(s.running_sum)) for s in steps]
    for earlier, later in zip(log_totals[:-1], log_totals[1:], strict=True):
        assert np.all(later >= earlier - 1e-12)


def test_steps_reject_batch_axes():
    with pytest.raises(ValueError, match="2-D"):
        next(online_softmax_steps(np.ones((2, 3, 4)), np.ones((5, 4)), np.ones((5, 2)), 2))


# ---------------------------------------------------------------------------------------------
# Errors
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("block", [0, -3, (4, 0)])
def test_block_size_must_be_positive(block):
    with pytest.raises(ValueError, match="block_size"):
        tiled_attention(np.ones((2, 3)), np.ones((4, 3)), np.ones((4, 2)), block_size=block)


@pytest.mark.parametrize("block", [2.5, "8", True, (4, None)])
def test_block_size_must_be_an_int(block):
    with pytest.raises(TypeError, match="block_size"):
        tiled_attention(np.ones((2, 3)), np.ones((4, 3)), np.ones((4, 2)), block_size=block)


def test_block_size_pair_has_two_entries():
    with pytest.raises(ValueError, match="pair"):
        tiled_attention(np.ones((2, 3)), np.ones((4, 3)), np.ones((4, 2)), block_size=(1, 2, 3))


def test_shape_errors_name_the_shapes():
    with pytest.raises(ValueError, match=r"\(4, 3\)"):
        tiled_attention(np.ones((2, 3)), np.ones((4, 3)), np.ones((5, 2)))


def test_mask_and_causal_together_rejected():
    with pytest.raises(ValueError, match="not both"):
        tiled_attention(np.ones((2, 3)), np.ones((4, 3)), np.ones((4, 2)),
                        attn_mask=np.ones((2, 4), dtype=bool), is_causal=True)


def test_nan_input_rejected():
    query = np.ones((2, 3))
    query[1, 2] = np.nan
    with pytest.raises(ValueError, match="query contains NaN"):
        tiled_attention(query, np.ones((4, 3)), np.ones((4, 2)))


@pytest.mark.torch
@pytest.mark.parametrize("causal", [False, True])
def test_matches_pytorch_where_installed(causal):
    torch = pytest.importorskip("torch", reason="PyTorch is not installed (optional parity check)")
    query, key, value = draw(np.random.default_rng(13), (2,), 9, 14, 4, 3)
    expected = torch.nn.functional.scaled_dot_product_attention(
        *(torch.from_numpy(a) for a in (query, key, value)), is_causal=causal).numpy()
    tiled = tiled_attention(query, key, value, block_size=(4, 5), is_causal=causal)
    np.testing.assert_allclose(tiled, expected, rtol=1e-10, atol=1e-12)
