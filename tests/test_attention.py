"""scaled_dot_product_attention: known answers, the loop twin, properties, masks, dtypes.

These tests are the behavioural contract of ``course_lib.attention``: any faster rewrite
(blocks of query rows, threads, in-place work) must keep every one of them passing.
Each math test runs once per array library through the ``xp`` fixture (NumPy, and CuPy on a
GPU machine): inputs are built with NumPy, moved with ``xp.asarray`` and compared on the CPU.
"""

import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from course_lib import scaled_dot_product_attention, to_numpy
from course_lib.reference import attention_loop

# The xp fixture only hands back a module (no per-test state), so reusing it across
# hypothesis examples is safe.
HYPOTHESIS = settings(max_examples=60, deadline=None,
                      suppress_health_check=[HealthCheck.function_scoped_fixture])


def sdpa(xp, query, key, value, attn_mask=None, **kwargs):
    """Call the function on ``xp`` arrays built from NumPy ones; return NumPy results."""
    args = [xp.asarray(np.asarray(a)) for a in (query, key, value)]
    if attn_mask is not None:
        attn_mask = xp.asarray(np.asarray(attn_mask))
    result = scaled_dot_product_attention(*args, attn_mask=attn_mask, **kwargs)
    if isinstance(result, tuple):
        return tuple(to_numpy(r) for r in result)
    return to_numpy(result)


def loop_attention(query, key, value, attn_mask=None, is_causal=False, scale=None):
    """The loop twin over any batch shape: broadcast, then one 2-D loop call per batch slice."""
    query, key, value = (np.asarray(a, dtype=np.float64) for a in (query, key, value))
    batch = np.broadcast_shapes(query.shape[:-2], key.shape[:-2], value.shape[:-2])
    n, m, d_v = query.shape[-2], key.shape[-2], value.shape[-1]
    q = np.broadcast_to(query, batch + query.shape[-2:])
    k = np.broadcast_to(key, batch + key.shape[-2:])
    v = np.broadcast_to(value, batch + value.shape[-2:])
    mask = None if attn_mask is None else np.broadcast_to(np.asarray(attn_mask), batch + (n, m))
    output, weights = np.empty(batch + (n, d_v)), np.empty(batch + (n, m))
    for idx in np.ndindex(*batch):  # a single () when there are no batch axes
        cells = None if mask is None else mask[idx].tolist()
        out, w = attention_loop(q[idx], k[idx], v[idx], cells, is_causal, scale)
        output[idx], weights[idx] = out, w
    return output, weights


def rows_close(actual, expected, rtol=1e-10, atol=1e-12):
    np.testing.assert_allclose(actual, expected, rtol=rtol, atol=atol)


# ---------------------------------------------------------------------------------------------
# Known answers, by hand


def test_hand_computed_two_keys(xp):
    # d_k = 4, so the default scale is 1/√4 = 1/2. Scores: q·k₀ = 2 → 1, q·k₁ = 0 → 0.
    # Weights: e/(e+1) and 1/(e+1). Output = w₀·[1, 0] + w₁·[0, 1] = the weights themselves.
    q = [[2.0, 0.0, 0.0, 0.0]]
    k = [[1.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0]]
    v = [[1.0, 0.0], [0.0, 1.0]]
    out, w = sdpa(xp, q, k, v, return_weights=True)
    e = math.e
    rows_close(w, [[e / (e + 1), 1 / (e + 1)]])
    rows_close(out, [[e / (e + 1), 1 / (e + 1)]])


def test_hand_computed_three_values(xp):
    # scale = 1: scores [ln 1, ln 2, ln 1] → weights [1/4, 1/2, 1/4].
    q = [[1.0]]
    k = [[0.0], [math.log(2.0)], [0.0]]
    v = [[4.0, 0.0], [8.0, 4.0], [0.0, 8.0]]
    out, w = sdpa(xp, q, k, v, scale=1.0, return_weights=True)
    rows_close(w, [[0.25, 0.5, 0.25]])
    rows_close(out, [[5.0, 4.0]])  # 1 + 4 + 0 and 0 + 2 + 2


def test_identical_keys_average_the_values(xp):
    # Every key the same → every score the same → weights 1/m → output = mean of V's rows.
    rng = np.random.default_rng(1)
    k = np.ones((4, 3))
    v = rng.standard_normal((4, 5))
    q = rng.standard_normal((2, 3))
    out, w = sdpa(xp, q, k, v, return_weights=True)
    rows_close(w, np.full((2, 4), 0.25))
    rows_close(out, np.tile(v.mean(axis=0), (2, 1)))


def test_one_dominant_key_selects_its_value(xp):
    q = [[10.0, 0.0]]
    k = [[10.0, 0.0], [0.0, 10.0], [-10.0, 0.0]]  # scores 100/√2, 0, −100/√2
    v = [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]
    out = sdpa(xp, q, k, v)
    rows_close(out, [[1.0, 2.0]], atol=1e-20)


def test_docstring_example_matches_the_loop(xp):
    q, k, v = [[1.0, 0.0]], [[1.0, 0.0], [0.0, 1.0]], [[10.0], [20.0]]
    out, w = sdpa(xp, q, k, v, return_weights=True)
    ref_out, ref_w = attention_loop(q, k, v)
    rows_close(out, ref_out)
    rows_close(w, ref_w)
    # 1/√2 = 0.7071: weights softmax([0.7071, 0]) = [0.6698, 0.3302]
    assert round(float(w[0, 0]), 4) == 0.6698


# ---------------------------------------------------------------------------------------------
# Against the loop twin, on generated shapes and values (float64)

values = st.floats(-3.0, 3.0, allow_nan=False, allow_infinity=False, width=64)


@st.composite
def attention_cases(draw, with_batch=True):
    n, m = draw(st.integers(1, 6)), draw(st.integers(1, 6))
    d_k, d_v = draw(st.integers(1, 6)), draw(st.integers(1, 4))
    batch = tuple(draw(st.lists(st.integers(1, 3), max_size=2))) if with_batch else ()

    def own_batch():
        # Each argument keeps a suffix of the batch axes, some of them shrunk to 1: they must
        # broadcast back to `batch`.
        keep = draw(st.integers(0, len(batch)))
        part = batch[len(batch) - keep:]
        return tuple(draw(st.sampled_from([b, 1])) for b in part)

    q = draw(hnp.arrays(np.float64, own_batch() + (n, d_k), elements=values))
    k = draw(hnp.arrays(np.float64, own_batch() + (m, d_k), elements=values))
    v = draw(hnp.arrays(np.float64, own_batch() + (m, d_v), elements=values))
    return q, k, v


@st.composite
def masks(draw, n, m):
    kind = draw(st.sampled_from(["bool", "float", "row", "column"]))
    if kind == "bool":
        return draw(hnp.arrays(bool, (n, m)))
    if kind == "row":  # (1, m): the same keys hidden from every query (padding)
        return draw(hnp.arrays(bool, (1, m)))
    if kind == "column":  # (n, 1): a query sees all keys or none
        return draw(hnp.arrays(bool, (n, 1)))
    cells = st.sampled_from([0.0, -1.5, 2.0, -np.inf]) | values
    return draw(hnp.arrays(np.float64, (n, m), elements=cells))


@HYPOTHESIS
@given(case=attention_cases())
def test_matches_loop_twin(xp, case):
    q, k, v = case
    out, w = sdpa(xp, q, k, v, return_weights=True)
    ref_out, ref_w = loop_attention(q, k, v)
    assert out.shape == ref_out.shape
    # The weights do not depend on V, so their batch axes may be those of Q and K alone
    # (they broadcast against V's); they must broadcast to the full batch.
    qk_batch = np.broadcast_shapes(q.shape[:-2], k.shape[:-2])
    assert w.shape in (ref_w.shape, qk_batch + ref_w.shape[-2:])
    rows_close(np.broadcast_to(w, ref_w.shape), ref_w)
    rows_close(out, ref_out)


@HYPOTHESIS
@given(case=attention_cases(), data=st.data())
def test_matches_loop_twin_with_masks(xp, case, data):
    q, k, v = case
    mask = data.draw(masks(q.shape[-2], k.shape[-2]))
    out, w = sdpa(xp, q, k, v, attn_mask=mask, return_weights=True)
    ref_out, ref_w = loop_attention(q, k, v, attn_mask=mask)
    rows_close(np.broadcast_to(w, ref_w.shape), ref_w)
    rows_close(out, ref_out)


@HYPOTHESIS
@given(case=attention_cases(), scale=st.floats(0.01, 10.0))
def test_matches_loop_twin_causal_and_scale(xp, case, scale):
    q, k, v = case
    out, w = sdpa(xp, q, k, v, is_causal=True, scale=scale, return_weights=True)
    ref_out, ref_w = loop_attention(q, k, v, is_causal=True, scale=scale)
    rows_close(np.broadcast_to(w, ref_w.shape), ref_w)
    rows_close(out, ref_out)


# ---------------------------------------------------------------------------------------------
# Properties


@HYPOTHESIS
@given(case=attention_cases())
def test_weight_rows_sum_to_one(xp, case):
    q, k, v = case
    _, w = sdpa(xp, q, k, v, return_weights=True)
    assert np.all(w >= 0.0)
    np.testing.assert_allclose(w.sum(axis=-1), 1.0, rtol=0, atol=1e-12)


@HYPOTHESIS
@given(case=attention_cases())
def test_output_lies_between_value_extremes(xp, case):
    # Each output row is a weighted average of V's rows, so every coordinate lies between the
    # smallest and the largest value of that coordinate over V's rows (up to rounding).
    q, k, v = case
    out = sdpa(xp, q, k, v)
    v = np.broadcast_to(v, out.shape[:-2] + v.shape[-2:])
    low = v.min(axis=-2, keepdims=True)
    high = v.max(axis=-2, keepdims=True)
    slack = 1e-12 * (1.0 + np.abs(v).max())
    assert np.all(out >= low - slack)
    assert np.all(out <= high + slack)


@HYPOTHESIS
@given(case=attention_cases(with_batch=False), seed=st.integers(0, 2**32 - 1))
def test_permuting_keys_and_values_together_changes_nothing(xp, case, seed):
    q, k, v = case
    perm = np.random.default_rng(seed).permutation(k.shape[-2])
    assert perm.size > 0
    out = sdpa(xp, q, k, v)
    out_perm, w_perm = sdpa(xp, q, k[perm], v[perm], return_weights=True)
    _, w = sdpa(xp, q, k, v, return_weights=True)
    rows_close(out_perm, out)
    rows_close(w_perm, w[:, perm])  # the weights move with their keys


@HYPOTHESIS
@given(case=attention_cases(with_batch=False), seed=st.integers(0, 2**32 - 1))
def test_permuting_queries_permutes_output_rows(xp, case, seed):
    q, k, v = case
    perm = np.random.default_rng(seed).permutation(q.shape[-2])
    rows_close(sdpa(xp, q[perm], k, v), sdpa(xp, q, k, v)[perm])


def test_permuting_keys_with_a_mask(xp):
    rng = np.random.default_rng(5)
    q, k, v = rng.standard_normal((4, 3)), rng.standard_normal((6, 3)), rng.standard_normal((6, 2))
    mask = rng.random((4, 6)) < 0.6
    perm = rng.permutation(6)
    rows_close(sdpa(xp, q, k[perm], v[perm], attn_mask=mask[:, perm]),
               sdpa(xp, q, k, v, attn_mask=mask))


def test_adding_a_constant_to_all_scores_of_a_row_changes_nothing(xp):
    # A float mask that adds the same number c to every score of a row leaves the row unchanged.
    rng = np.random.default_rng(6)
    q, k, v = rng.standard_normal((3, 4)), rng.standard_normal((5, 4)), rng.standard_normal((5, 2))
    shift = np.array([[-30.0], [0.5], [40.0]]) * np.ones((3, 5))
    rows_close(sdpa(xp, q, k, v, attn_mask=shift), sdpa(xp, q, k, v))


# ---------------------------------------------------------------------------------------------
# Batch axes


def test_batch_axes_broadcast_like_independent_calls(xp):
    rng = np.random.default_rng(7)
    q = rng.standard_normal((2, 1, 3, 4))  # (batch 2, 1, n, d_k)
    k = rng.standard_normal((1, 5, 6, 4))  # (1, heads 5, m, d_k)
    v = rng.standard_normal((5, 6, 2))  # (heads 5, m, d_v): fewer batch axes
    out, w = sdpa(xp, q, k, v, return_weights=True)
    assert out.shape == (2, 5, 3, 2)
    assert w.shape == (2, 5, 3, 6)
    for b in range(2):
        for h in range(5):
            one, one_w = sdpa(xp, q[b, 0], k[0, h], v[h], return_weights=True)
            rows_close(out[b, h], one)
            rows_close(w[b, h], one_w)


def test_batch_mask_per_batch_element(xp):
    rng = np.random.default_rng(8)
    q, k, v = (rng.standard_normal((3, 4, 2)), rng.standard_normal((3, 5, 2)),
               rng.standard_normal((3, 5, 3)))
    mask = rng.random((3, 1, 5)) < 0.7  # a padding mask per batch element
    mask[:, :, 0] = True  # every query keeps at least one key
    out = sdpa(xp, q, k, v, attn_mask=mask)
    for b in range(3):
        rows_close(out[b], sdpa(xp, q[b], k[b], v[b], attn_mask=np.broadcast_to(mask[b], (4, 5))))
    ref, _ = loop_attention(q, k, v, attn_mask=mask)
    rows_close(out, ref)


# ---------------------------------------------------------------------------------------------
# Masks


@pytest.mark.parametrize(("n", "m"), [(4, 4), (3, 6), (6, 3), (1, 5), (5, 1)])
def test_causal_is_top_left_lower_triangle(xp, n, m):
    # Query i sees keys 0..i, also when n ≠ m (PyTorch's convention: top-left aligned).
    rng = np.random.default_rng(n * 10 + m)
    q, k, v = rng.standard_normal((n, 3)), rng.standard_normal((m, 3)), rng.standard_normal((m, 2))
    out, w = sdpa(xp, q, k, v, is_causal=True, return_weights=True)
    allowed = np.arange(m)[None, :] <= np.arange(n)[:, None]  # (n, m)
    assert np.all(w[~allowed] == 0.0)
    np.testing.assert_allclose(w.sum(axis=-1), 1.0, atol=1e-12)
    out_mask, w_mask = sdpa(xp, q, k, v, attn_mask=allowed, return_weights=True)
    rows_close(out, out_mask)
    rows_close(w, w_mask)
    rows_close(out[0], v[0])  # the first query sees only the first key


def test_causal_with_batch_axes(xp):
    rng = np.random.default_rng(9)
    q, k, v = (rng.standard_normal((2, 3, 7, 4)), rng.standard_normal((2, 3, 5, 4)),
               rng.standard_normal((2, 3, 5, 2)))
    out = sdpa(xp, q, k, v, is_causal=True)
    ref, _ = loop_attention(q, k, v, is_causal=True)
    rows_close(out, ref)


def test_bool_mask_all_true_equals_no_mask(xp):
    rng = np.random.default_rng(10)
    q, k, v = rng.standard_normal((3, 4)), rng.standard_normal((5, 4)), rng.standard_normal((5, 2))
    rows_close(sdpa(xp, q, k, v, attn_mask=np.ones((3, 5), dtype=bool)), sdpa(xp, q, k, v))
    rows_close(sdpa(xp, q, k, v, attn_mask=np.zeros((3, 5))), sdpa(xp, q, k, v))


def test_bool_mask_true_means_allowed(xp):
    rng = np.random.default_rng(11)
    q, k, v = rng.standard_normal((2, 4)), rng.standard_normal((5, 4)), rng.standard_normal((5, 3))
    mask = np.zeros((2, 5), dtype=bool)
    mask[0, 3] = True  # query 0 sees key 3 only
    mask[1, [1, 2]] = True
    out, w = sdpa(xp, q, k, v, attn_mask=mask, return_weights=True)
    rows_close(out[0], v[3])
    assert w[0].tolist() == [0.0, 0.0, 0.0, 1.0, 0.0]
    assert np.all(w[1, [0, 3, 4]] == 0.0)
    ref, _ = attention_loop(q, k[1:3], v[1:3])
    rows_close(out[1], ref[1])


def test_bool_and_float_masks_agree(xp):
    rng = np.random.default_rng(12)
    q, k, v = rng.standard_normal((4, 3)), rng.standard_normal((6, 3)), rng.standard_normal((6, 2))
    allowed = rng.random((4, 6)) < 0.5
    allowed[:, 2] = True
    additive = np.where(allowed, 0.0, -np.inf)
    rows_close(sdpa(xp, q, k, v, attn_mask=allowed), sdpa(xp, q, k, v, attn_mask=additive))


def test_float_mask_is_added_to_the_scaled_scores(xp):
    # scale = 1, q·k = 0 for every key, so the weights are softmax(mask row).
    q, k, v = [[0.0, 0.0]], [[1.0, 1.0], [2.0, 2.0]], [[1.0], [3.0]]
    mask = np.array([[0.0, math.log(3.0)]])  # weights [1/4, 3/4]
    out, w = sdpa(xp, q, k, v, attn_mask=mask, scale=1.0, return_weights=True)
    rows_close(w, [[0.25, 0.75]])
    rows_close(out, [[2.5]])


def test_float32_mask_with_float64_inputs(xp):
    rng = np.random.default_rng(13)
    q, k, v = rng.standard_normal((3, 2)), rng.standard_normal((4, 2)), rng.standard_normal((4, 2))
    mask = np.array([[0.0, -np.inf, 1.0, 0.5]] * 3, dtype=np.float32)
    out = sdpa(xp, q, k, v, attn_mask=mask)
    ref, _ = loop_attention(q, k, v, attn_mask=mask.astype(np.float64))
    assert out.dtype == np.float64
    rows_close(out, ref)


@pytest.mark.parametrize("kind", ["bool", "float"])
def test_fully_masked_row_gives_zeros(xp, kind):
    rng = np.random.default_rng(14)
    q, k, v = rng.standard_normal((3, 4)), rng.standard_normal((5, 4)), rng.standard_normal((5, 2))
    allowed = np.ones((3, 5), dtype=bool)
    allowed[1] = False  # query 1 has no key to look at
    mask = allowed if kind == "bool" else np.where(allowed, 0.0, -np.inf)
    out, w = sdpa(xp, q, k, v, attn_mask=mask, return_weights=True)
    assert np.all(np.isfinite(out))
    assert out[1].tolist() == [0.0, 0.0]
    assert w[1].tolist() == [0.0] * 5
    full, full_w = sdpa(xp, q, k, v, return_weights=True)
    rows_close(out[[0, 2]], full[[0, 2]])  # the other rows are untouched
    rows_close(w[[0, 2]], full_w[[0, 2]])


def test_fully_masked_batch_element_gives_zeros(xp):
    rng = np.random.default_rng(15)
    q, k, v = (rng.standard_normal((2, 3, 4)), rng.standard_normal((2, 5, 4)),
               rng.standard_normal((2, 5, 2)))
    mask = np.ones((2, 1, 5), dtype=bool)
    mask[0] = False
    out, w = sdpa(xp, q, k, v, attn_mask=mask, return_weights=True)
    assert np.all(out[0] == 0.0)
    assert np.all(w[0] == 0.0)
    np.testing.assert_allclose(w[1].sum(axis=-1), 1.0, atol=1e-12)


# ---------------------------------------------------------------------------------------------
# dtypes and return values


def test_float16_in_float16_out_computed_in_float32(xp):
    # In float16 the scores here overflow (25·200·64 = 320000 > 65504, float16's largest
    # number) and softmax would see inf; computed in float32 they are fine and key 0 wins.
    q = np.full((2, 64), 200.0, dtype=np.float16)
    k = np.stack([np.full(64, 200.0), np.full(64, 199.0), np.full(64, -200.0)]).astype(np.float16)
    v = np.array([[1.0, -2.0], [3.0, 4.0], [5.0, 6.0]], dtype=np.float16)
    out, w = sdpa(xp, q, k, v, return_weights=True)
    assert out.dtype == np.float16
    assert w.dtype == np.float16
    assert np.all(np.isfinite(out))
    assert out.tolist() == [[1.0, -2.0], [1.0, -2.0]]


def test_float16_matches_float64_reference(xp):
    rng = np.random.default_rng(16)
    q, k, v = (rng.standard_normal((2, 5, 8)).astype(np.float16),
               rng.standard_normal((2, 7, 8)).astype(np.float16),
               rng.standard_normal((2, 7, 3)).astype(np.float16))
    out, w = sdpa(xp, q, k, v, return_weights=True)
    ref_out, ref_w = loop_attention(q, k, v)  # the same float16 numbers, in float64
    assert out.dtype == np.float16
    # float16 keeps about 3 decimal digits (spacing 2⁻¹⁰ ≈ 1e-3 near 1); the work is float32.
    np.testing.assert_allclose(out.astype(np.float64), ref_out, rtol=2e-3, atol=2e-3)
    np.testing.assert_allclose(w.astype(np.float64), ref_w, rtol=2e-3, atol=1e-3)


def test_float16_with_float_mask_and_causal(xp):
    rng = np.random.default_rng(17)
    q, k, v = (rng.standard_normal((5, 4)).astype(np.float16),
               rng.standard_normal((3, 4)).astype(np.float16),
               rng.standard_normal((3, 2)).astype(np.float16))
    out = sdpa(xp, q, k, v, is_causal=True)
    ref, _ = loop_attention(q, k, v, is_causal=True)
    assert out.dtype == np.float16
    np.testing.assert_allclose(out.astype(np.float64), ref, rtol=2e-3, atol=2e-3)


def test_float32_stays_float32(xp):
    rng = np.random.default_rng(18)
    q, k, v = (rng.standard_normal((4, 8)).astype(np.float32),
               rng.standard_normal((6, 8)).astype(np.float32),
               rng.standard_normal((6, 3)).astype(np.float32))
    out, w = sdpa(xp, q, k, v, return_weights=True)
    assert out.dtype == np.float32
    assert w.dtype == np.float32
    ref_out, ref_w = loop_attention(q, k, v)
    np.testing.assert_allclose(out, ref_out, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(w, ref_w, rtol=1e-5, atol=1e-6)


def test_integer_inputs_compute_in_float64(xp):
    q = np.array([[1, 0], [0, 2]], dtype=np.int64)
    k = np.array([[1, 1], [2, 0], [0, 3]], dtype=np.int32)
    v = np.array([[1, 2], [3, 5], [7, 11]], dtype=np.int64)
    out, w = sdpa(xp, q, k, v, return_weights=True)
    assert out.dtype == np.float64
    assert w.dtype == np.float64
    ref_out, ref_w = loop_attention(q, k, v)
    rows_close(out, ref_out)
    rows_close(w, ref_w)


def test_nested_lists_are_accepted():
    out = scaled_dot_product_attention([[1.0, 0.0]], [[1.0, 0.0], [0.0, 1.0]], [[10.0], [20.0]])
    ref, _ = attention_loop([[1.0, 0.0]], [[1.0, 0.0], [0.0, 1.0]], [[10.0], [20.0]])
    assert isinstance(out, np.ndarray)
    rows_close(out, ref)


def test_return_weights_false_gives_one_array(xp):
    rng = np.random.default_rng(19)
    q, k, v = rng.standard_normal((3, 2)), rng.standard_normal((4, 2)), rng.standard_normal((4, 5))
    out = scaled_dot_product_attention(xp.asarray(q), xp.asarray(k), xp.asarray(v))
    assert not isinstance(out, tuple)
    assert type(out) is type(xp.asarray(q))  # NumPy in, NumPy out; CuPy in, CuPy out
    assert out.shape == (3, 5)


def test_return_weights_gives_output_and_weights(xp):
    rng = np.random.default_rng(20)
    q, k, v = (rng.standard_normal((2, 3, 2)), rng.standard_normal((2, 4, 2)),
               rng.standard_normal((2, 4, 5)))
    result = scaled_dot_product_attention(xp.asarray(q), xp.asarray(k), xp.asarray(v),
                                          return_weights=True)
    assert isinstance(result, tuple)
    assert len(result) == 2
    out, w = (to_numpy(r) for r in result)
    assert out.shape == (2, 3, 5)
    assert w.shape == (2, 3, 4)
    rows_close(out, w @ v)  # output = A V
    rows_close(out, sdpa(xp, q, k, v))  # the same output as without weights


# ---------------------------------------------------------------------------------------------
# Extreme but valid inputs


@pytest.mark.parametrize(("dtype", "rtol", "atol"), [
    (np.float64, 1e-10, 1e-12), (np.float32, 3e-3, 3e-3), (np.float16, 5e-3, 5e-3)])
def test_scores_of_ten_thousand(xp, dtype, rtol, atol):
    # Scores near ±1e4 (q·k with scale 1): exp(1e4) overflows in every float type, so this only
    # works if the largest score is subtracted first. In float32 a score of 1e4 is only known
    # to about 1e4·2⁻²³ ≈ 1.2e-3, and a weight's relative error follows its score's absolute
    # error, hence rtol 3e-3 there (float16 inputs are computed in float32 too).
    q = np.array([[100.0], [-100.0]], dtype=dtype)
    k = np.array([[100.0], [99.98], [99.96], [-100.0]], dtype=dtype)
    v = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [-1.0, 2.0]], dtype=dtype)
    out, w = sdpa(xp, q, k, v, scale=1.0, return_weights=True)
    assert out.dtype == dtype
    assert np.all(np.isfinite(out))
    assert np.all(np.isfinite(w))
    ref_out, ref_w = loop_attention(q, k, v, scale=1.0)  # the dtype's numbers, in float64
    np.testing.assert_allclose(out.astype(np.float64), ref_out, rtol=rtol, atol=atol)
    np.testing.assert_allclose(w.astype(np.float64), ref_w, rtol=rtol, atol=atol)
    rows_close(w[1], [0.0, 0.0, 0.0, 1.0])  # −1e4 everywhere but the last key: one-hot


@pytest.mark.parametrize(("dtype", "rtol", "atol"), [
    (np.float64, 1e-9, 1e-12), (np.float32, 1e-3, 1e-4), (np.float16, 2e-2, 1e-2)])
def test_d_k_4096(xp, dtype, rtol, atol):
    rng = np.random.default_rng(21)
    q = rng.standard_normal((3, 4096)).astype(dtype)
    k = rng.standard_normal((4, 4096)).astype(dtype)
    v = rng.standard_normal((4, 3)).astype(dtype)
    out, w = sdpa(xp, q, k, v, return_weights=True)
    assert out.dtype == dtype
    assert np.all(np.isfinite(out))
    ref_out, ref_w = loop_attention(q, k, v)
    np.testing.assert_allclose(out.astype(np.float64), ref_out, rtol=rtol, atol=atol)
    np.testing.assert_allclose(w.astype(np.float64), ref_w, rtol=rtol, atol=atol)


# ---------------------------------------------------------------------------------------------
# Larger inputs: many query rows (a blocked implementation splits them), checked against the
# formula written out in NumPy float64 (itself checked against the loop twin just below).


def numpy_formula(q, k, v, allowed=None, scale=None):
    q, k, v = (np.asarray(a, dtype=np.float64) for a in (q, k, v))
    scale = 1.0 / math.sqrt(q.shape[-1]) if scale is None else scale
    s = (q @ np.swapaxes(k, -1, -2)) * scale
    if allowed is not None:
        s = np.where(allowed, s, -np.inf)
    top = s.max(axis=-1, keepdims=True)
    top = np.where(np.isneginf(top), 0.0, top)
    e = np.exp(s - top)
    total = e.sum(axis=-1, keepdims=True)
    w = e / np.where(total > 0, total, 1.0)
    return w @ v, w


def test_numpy_formula_matches_loop():
    rng = np.random.default_rng(22)
    q, k, v = rng.standard_normal((5, 3)), rng.standard_normal((4, 3)), rng.standard_normal((4, 2))
    allowed = rng.random((5, 4)) < 0.5
    allowed[2] = False
    out, w = numpy_formula(q, k, v, allowed)
    ref_out, ref_w = attention_loop(q, k, v, allowed.tolist())
    rows_close(out, ref_out)
    rows_close(w, ref_w)


@pytest.mark.parametrize(("n", "m", "dtype"), [
    (1031, 257, np.float64), (2100, 64, np.float32), (3, 1500, np.float64),
    (600, 600, np.float32)])
def test_many_rows_match_the_formula(xp, n, m, dtype):
    rng = np.random.default_rng(n + m)
    q = rng.standard_normal((n, 16)).astype(dtype)
    k = rng.standard_normal((m, 16)).astype(dtype)
    v = rng.standard_normal((m, 8)).astype(dtype)
    out, w = sdpa(xp, q, k, v, return_weights=True)
    ref_out, ref_w = numpy_formula(q, k, v)
    assert out.shape == (n, 8)
    assert out.dtype == dtype
    tol = 1e-10 if dtype == np.float64 else 2e-5
    np.testing.assert_allclose(out, ref_out, rtol=tol, atol=tol)
    np.testing.assert_allclose(w, ref_w, rtol=tol, atol=tol)
    np.testing.assert_allclose(w.sum(axis=-1), 1.0, atol=tol)


@pytest.mark.parametrize("return_weights", [False, True])
@pytest.mark.parametrize(("n", "m"), [(1500, 700), (700, 1500), (1024, 1024)])
def test_many_rows_causal(xp, n, m, return_weights):
    rng = np.random.default_rng(n * 3 + m)
    q = rng.standard_normal((n, 8)).astype(np.float32)
    k = rng.standard_normal((m, 8)).astype(np.float32)
    v = rng.standard_normal((m, 4)).astype(np.float32)
    result = sdpa(xp, q, k, v, is_causal=True, return_weights=return_weights)
    out = result[0] if return_weights else result
    allowed = np.arange(m)[None, :] <= np.arange(n)[:, None]
    ref_out, ref_w = numpy_formula(q, k, v, allowed)
    assert out.dtype == np.float32
    np.testing.assert_allclose(out, ref_out, rtol=2e-5, atol=2e-5)
    if return_weights:
        w = result[1]
        assert w.shape == (n, m)
        assert np.all(w[~allowed] == 0.0)
        np.testing.assert_allclose(w, ref_w, rtol=2e-5, atol=2e-6)


@settings(max_examples=30, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(n=st.integers(1, 1300), m=st.integers(1, 400), batch=st.sampled_from([(), (2,), (1, 3)]),
       kind=st.sampled_from(["none", "bool", "float", "causal"]),
       return_weights=st.booleans(), seed=st.integers(0, 2**32 - 1))
def test_medium_shapes_match_the_formula(xp, n, m, batch, kind, return_weights, seed):
    # Sizes that cross block and thread boundaries of a blocked implementation at random.
    rng = np.random.default_rng(seed)
    q = rng.standard_normal(batch + (n, 4))
    k = rng.standard_normal((m, 4))
    v = rng.standard_normal(batch[-1:] + (m, 3))
    allowed = None
    mask = None
    if kind == "causal":
        allowed = np.arange(m)[None, :] <= np.arange(n)[:, None]
    elif kind != "none":
        allowed = rng.random((n, m)) < 0.8
        mask = allowed if kind == "bool" else np.where(allowed, 0.0, -np.inf)
    result = sdpa(xp, q, k, v, attn_mask=mask, is_causal=kind == "causal",
                  return_weights=return_weights)
    out = result[0] if return_weights else result
    ref_out, ref_w = numpy_formula(q, k, v, allowed)
    np.testing.assert_allclose(out, ref_out, rtol=1e-10, atol=1e-12)
    if return_weights:
        np.testing.assert_allclose(np.broadcast_to(result[1], ref_w.shape), ref_w, rtol=1e-10,
                                   atol=1e-12)


def test_many_rows_with_batch_and_masks(xp):
    rng = np.random.default_rng(23)
    q = rng.standard_normal((2, 1, 900, 8))
    k = rng.standard_normal((3, 300, 8))
    v = rng.standard_normal((2, 3, 300, 4))
    allowed = rng.random((900, 300)) < 0.3
    allowed[5] = False  # one fully masked query
    out, w = sdpa(xp, q, k, v, attn_mask=allowed, return_weights=True)
    ref_out, ref_w = numpy_formula(q, k, v, allowed)
    assert out.shape == (2, 3, 900, 4)
    assert np.all(out[..., 5, :] == 0.0)
    np.testing.assert_allclose(out, ref_out, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(w, ref_w, rtol=1e-10, atol=1e-12)
    float_out = sdpa(xp, q, k, v, attn_mask=np.where(allowed, 0.0, -np.inf))
    np.testing.assert_allclose(float_out, ref_out, rtol=1e-10, atol=1e-12)


def test_many_rows_float16(xp):
    rng = np.random.default_rng(24)
    q = rng.standard_normal((1200, 16)).astype(np.float16)
    k = rng.standard_normal((300, 16)).astype(np.float16)
    v = rng.standard_normal((300, 4)).astype(np.float16)
    out = sdpa(xp, q, k, v)
    ref_out, _ = numpy_formula(q, k, v)
    assert out.dtype == np.float16
    np.testing.assert_allclose(out.astype(np.float64), ref_out, rtol=5e-3, atol=5e-3)


# ---------------------------------------------------------------------------------------------
# Layout and side effects


def test_non_contiguous_inputs(xp):
    rng = np.random.default_rng(25)
    q = np.asfortranarray(rng.standard_normal((700, 6)))
    k = rng.standard_normal((6, 40)).T  # a transposed view
    v = rng.standard_normal((40, 10))[:, ::2]  # a strided view
    mask = (rng.random((40, 700)) < 0.8).T
    assert not q.flags.c_contiguous
    assert not k.flags.c_contiguous
    assert not v.flags.c_contiguous
    out = sdpa(xp, q, k, v, attn_mask=mask)
    ref, _ = numpy_formula(q, k, v, mask)
    np.testing.assert_allclose(out, ref, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("mask_kind", ["none", "bool", "float", "causal"])
def test_inputs_are_not_modified(mask_kind):
    rng = np.random.default_rng(26)
    q = rng.standard_normal((800, 8)).astype(np.float32)
    k = rng.standard_normal((200, 8)).astype(np.float32)
    v = rng.standard_normal((200, 3)).astype(np.float32)
    mask = None
    if mask_kind == "bool":
        mask = rng.random((800, 200)) < 0.5
    elif mask_kind == "float":
        mask = np.where(rng.random((800, 200)) < 0.5, 0.0, -np.inf).astype(np.float32)
    copies = [a.copy() for a in (q, k, v)] + ([] if mask is None else [mask.copy()])
    scaled_dot_product_attention(q, k, v, attn_mask=mask, is_causal=mask_kind == "causal",
                                 return_weights=True)
    originals = [q, k, v] + ([] if mask is None else [mask])
    assert len(originals) == len(copies)
    for original, copy in zip(originals, copies, strict=True):
        np.testing.assert_array_equal(original, copy)


def test_weights_do_not_share_memory_with_inputs():
    rng = np.random.default_rng(27)
    q, k, v = rng.standard_normal((4, 2)), rng.standard_normal((4, 2)), rng.standard_normal((4, 2))
    out, w = scaled_dot_product_attention(q, k, v, return_weights=True)
    for arr in (q, k, v):
        assert not np.shares_memory(out, arr)
        assert not np.shares_memory(w, arr)


def test_same_result_when_called_twice():
    rng = np.random.default_rng(28)
    q = rng.standard_normal((1500, 16)).astype(np.float32)
    k = rng.standard_normal((500, 16)).astype(np.float32)
    v = rng.standard_normal((500, 8)).astype(np.float32)
    first = scaled_dot_product_attention(q, k, v)
    second = scaled_dot_product_attention(q, k, v)
    np.testing.assert_array_equal(first, second)  # deterministic, threads or not


# ---------------------------------------------------------------------------------------------
# Edge shapes and more mask layouts


def test_mask_of_shape_m_is_a_padding_mask(xp):
    rng = np.random.default_rng(29)
    q, k, v = rng.standard_normal((4, 3)), rng.standard_normal((5, 3)), rng.standard_normal((5, 2))
    keep = np.array([True, True, False, True, False])
    rows_close(sdpa(xp, q, k, v, attn_mask=keep),
               sdpa(xp, q, k, v, attn_mask=np.broadcast_to(keep, (4, 5))))
    rows_close(sdpa(xp, q, k, v, attn_mask=keep), sdpa(xp, q, k[keep], v[keep]))


@pytest.mark.parametrize("return_weights", [False, True])
def test_mask_with_batch_axes_that_only_value_has(xp, return_weights):
    # Q and K are shared, V and the mask differ per batch element: the output has V's batch.
    rng = np.random.default_rng(30)
    q, k, v = rng.standard_normal((700, 4)), rng.standard_normal((90, 4)), rng.standard_normal(
        (3, 90, 2))
    mask = rng.random((3, 700, 90)) < 0.5
    mask[..., 0] = True
    result = sdpa(xp, q, k, v, attn_mask=mask, return_weights=return_weights)
    out = result[0] if return_weights else result
    assert out.shape == (3, 700, 2)
    for b in range(3):
        ref, _ = numpy_formula(q, k, v[b], mask[b])
        np.testing.assert_allclose(out[b], ref, rtol=1e-10, atol=1e-12)
    if return_weights:
        assert result[1].shape == (3, 700, 90)


def test_float16_mask_with_float32_inputs(xp):
    rng = np.random.default_rng(31)
    q = rng.standard_normal((600, 8)).astype(np.float32)
    k = rng.standard_normal((300, 8)).astype(np.float32)
    v = rng.standard_normal((300, 4)).astype(np.float32)
    mask = np.where(rng.random((600, 300)) < 0.4, -np.inf, rng.standard_normal((600, 300)))
    mask[:, 0] = 0.0
    mask = mask.astype(np.float16)
    out = sdpa(xp, q, k, v, attn_mask=mask)
    assert out.dtype == np.float32
    # the formula with the float mask added, in float64
    scores = (q.astype(np.float64) @ k.T.astype(np.float64)) / math.sqrt(8) + mask
    weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights /= weights.sum(axis=-1, keepdims=True)
    ref = weights @ v
    np.testing.assert_allclose(out, ref, rtol=2e-5, atol=2e-5)


def test_zero_queries(xp):
    out, w = sdpa(xp, np.ones((0, 3)), np.ones((4, 3)), np.ones((4, 2)), return_weights=True)
    assert out.shape == (0, 2)
    assert w.shape == (0, 4)
    assert sdpa(xp, np.ones((0, 3)), np.ones((4, 3)), np.ones((4, 2)), is_causal=True).shape == (
        0, 2)


def test_zero_value_width(xp):
    out = sdpa(xp, np.ones((2, 3)), np.ones((4, 3)), np.ones((4, 0)))
    assert out.shape == (2, 0)


def test_empty_batch_axis(xp):
    out = sdpa(xp, np.ones((2, 0, 5, 3)), np.ones((4, 3)), np.ones((4, 2)))
    assert out.shape == (2, 0, 5, 2)


def test_read_only_inputs(xp):
    rng = np.random.default_rng(32)
    arrays = [rng.standard_normal((900, 8)), rng.standard_normal((100, 8)),
              rng.standard_normal((100, 3)), rng.random((900, 100)) < 0.7]
    for a in arrays:
        a.flags.writeable = False
    q, k, v, mask = arrays
    out = sdpa(xp, q, k, v, attn_mask=mask)
    ref, _ = numpy_formula(q, k, v, mask)
    np.testing.assert_allclose(out, ref, rtol=1e-10, atol=1e-12)


@pytest.mark.filterwarnings("ignore:overflow encountered:RuntimeWarning")  # errstate is
@pytest.mark.filterwarnings("ignore:invalid value encountered:RuntimeWarning")  # per thread
@pytest.mark.parametrize("n", [2, 2000])
def test_overflowing_scores_are_an_error_not_nan(xp, n):
    # Finite inputs whose products overflow: +∞ scores would make NaN weights. The message names
    # the scores (the threads of a blocked implementation must pass the error on).
    m = 3 if n == 2 else 100  # 2000 × 100 scores: enough for several blocks and threads
    q = np.ones((n, 2))
    q[n // 2] = 1e200
    k = np.full((m, 2), 1e200)
    v = np.ones((m, 2))
    with np.errstate(over="ignore", invalid="ignore"), pytest.raises(ValueError, match="scores"):
        sdpa(xp, q, k, v)


def test_concurrent_calls_do_not_interfere():
    # A dashboard callback and a notebook cell may call attention at the same time: any scratch
    # memory or thread pool behind the function must not be shared between calls.
    from concurrent.futures import ThreadPoolExecutor

    rng = np.random.default_rng(33)
    cases = [(rng.standard_normal((900 + 50 * i, 8)), rng.standard_normal((300, 8)),
              rng.standard_normal((300, 2 + i))) for i in range(4)]
    expected = [numpy_formula(q, k, v)[0] for q, k, v in cases]
    with ThreadPoolExecutor(4) as pool:
        results = list(pool.map(lambda c: scaled_dot_product_attention(*c), cases * 3))
    assert len(results) == 12
    for result, ref in zip(results, expected * 3, strict=True):
        np.testing.assert_allclose(result, ref, rtol=1e-10, atol=1e-12)
