"""float16 and bfloat16: computed in float32, returned in the input dtype, with clear errors.

Tolerances are derived, not tuned: a result computed in float32 and rounded once to a 16-bit
format is off by at most half the format's spacing, eps/2 relative (plus the smallest
subnormal near zero), on top of float32's own rounding (a few times 2⁻²⁴ of the largest value
summed). ``ml_dtypes.finfo`` gives eps for both formats.
"""

import ml_dtypes
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from course_lib import (
    attention_gradients,
    backend,
    scaled_dot_product_attention,
    softmax,
    tiled_attention,
    tiled_attention_gradients,
)
from course_lib.low_precision import (
    accumulation_error,
    format_facts,
    low_precision_dtype,
    rounded_attention,
    sequential_sum,
)

BF16, F16 = np.dtype(ml_dtypes.bfloat16), np.dtype(np.float16)
LOW = [pytest.param(BF16, id="bfloat16"), pytest.param(F16, id="float16")]


def tolerance(dtype, scale_of_values):
    """(rtol, atol) for one rounding to ``dtype`` after float32 work on numbers of this size."""
    info = ml_dtypes.finfo(dtype)
    float32_work = 16 * np.finfo(np.float32).eps * scale_of_values  # a few roundings per sum
    return float(info.eps) / 2, float(info.smallest_subnormal) + float32_work


def draw(seed, shapes, dtype):
    rng = np.random.default_rng(seed)
    return [rng.standard_normal(shape).astype(dtype) for shape in shapes]


def exact(query, key, value, **kwargs):
    """float64 attention of the very numbers given (their rounding is not the error measured)."""
    return scaled_dot_product_attention(*(a.astype(np.float64) for a in (query, key, value)),
                                        **kwargs)


@settings(max_examples=40, deadline=None)
@given(n=st.integers(1, 9), m=st.integers(1, 40), d=st.integers(1, 8), causal=st.booleans(),
       block=st.integers(1, 16), seed=st.integers(0, 999),
       dtype=st.sampled_from([BF16, F16]))
def test_formula_and_tiled_are_float64_up_to_one_rounding(n, m, d, causal, block, seed, dtype):
    query, key, value = draw(seed, ((2, n, d), (m, d), (m, 3)), dtype)
    expected = exact(query, key, value, is_causal=causal)
    rtol, atol = tolerance(dtype, np.abs(value.astype(np.float64)).max())
    for got in (scaled_dot_product_attention(query, key, value, is_causal=causal),
                tiled_attention(query, key, value, block_size=block, is_causal=causal)):
        assert got.dtype == dtype
        np.testing.assert_allclose(got.astype(np.float64), expected, rtol=rtol, atol=atol)


@pytest.mark.parametrize("dtype", LOW)
def test_computed_in_float32_then_rounded_once(dtype):
    query, key, value = draw(1, ((4, 8), (6, 8), (6, 5)), dtype)
    in_float32 = [a.astype(np.float32) for a in (query, key, value)]
    got = scaled_dot_product_attention(query, key, value)
    assert np.array_equal(got, scaled_dot_product_attention(*in_float32).astype(dtype))
    got_weights = softmax(query)
    assert np.array_equal(got_weights, softmax(in_float32[0]).astype(dtype))


@pytest.mark.parametrize("dtype", LOW)
def test_gradients_keep_the_dtype(dtype):
    query, key, value, grad = draw(2, ((5, 4), (7, 4), (7, 3), (5, 3)), dtype)
    plain = attention_gradients(query, key, value, grad)
    tiled = tiled_attention_gradients(query, key, value, grad, block_size=3)
    expected = attention_gradients(*(a.astype(np.float64) for a in (query, key, value, grad)))
    for p, t, e in zip(plain, tiled, expected, strict=True):
        assert p.dtype == t.dtype == dtype
        rtol, atol = tolerance(dtype, np.abs(e).max())
        np.testing.assert_allclose(t.astype(np.float64), e, rtol=rtol, atol=2 * atol)


def test_bfloat16_with_a_wider_type_computes_in_the_wider_type():
    query, key, value = draw(3, ((3, 4), (5, 4), (5, 2)), BF16)
    assert scaled_dot_product_attention(query, key.astype(np.float32), value).dtype == np.float32
    assert tiled_attention(query, key, value.astype(np.float64)).dtype == np.float64


@pytest.mark.parametrize("function", [scaled_dot_product_attention, tiled_attention])
def test_bfloat16_and_float16_do_not_mix(function):
    query, key, value = draw(4, ((3, 4), (5, 4), (5, 2)), BF16)
    with pytest.raises(TypeError, match="bfloat16 and float16 inputs do not mix"):
        function(query, key.astype(np.float16), value)


def test_a_bfloat16_array_is_refused_on_the_gpu_backend(monkeypatch):
    """CuPy has no bfloat16: course_lib.asarray says so instead of failing inside CuPy."""
    monkeypatch.setattr(backend, "current_backend", lambda: "cupy")
    monkeypatch.setattr(backend, "_module", lambda name: object())  # stands in for CuPy
    with pytest.raises(TypeError, match="CuPy has no bfloat16"):
        backend.asarray(np.ones(3, dtype=BF16))
    with pytest.raises(TypeError, match="CuPy has no bfloat16"):
        backend.asarray([1.0, 2.0], dtype=ml_dtypes.bfloat16)


def test_nan_in_bfloat16_is_still_caught():
    query = np.ones((2, 3), dtype=BF16)
    query[1, 1] = np.nan
    with pytest.raises(ValueError, match="query contains NaN"):
        scaled_dot_product_attention(query, np.ones((4, 3), BF16), np.ones((4, 2), BF16))


# ---------------------------------------------------------------------------------------------
# course_lib.low_precision: why the running sums stay in float32
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["float16", "bfloat16"])
def test_a_sum_of_ones_stalls_where_the_spacing_reaches_two(name):
    mantissa_bits, eps, _ = format_facts(name)
    assert eps == 2.0**-mantissa_bits
    stall = 2.0 ** (mantissa_bits + 1)  # above it the numbers are 2 apart: stall + 1 rounds down
    assert sequential_sum([1.0] * int(stall + 50), name) == stall
    assert sequential_sum([1.0] * int(stall + 50), "float32") == stall + 50


@pytest.mark.parametrize("name", ["float16", "bfloat16"])
def test_float32_accumulators_stay_at_one_rounding_while_16_bit_ones_drift(name):
    half_spacing = format_facts(name)[1] / 2
    for m in (64, 1024):
        assert accumulation_error(m, name) <= 1.5 * half_spacing  # the output's rounding
    low_small, low_large = (accumulation_error(m, name, accumulate="low") for m in (64, 2048))
    assert low_large > 10 * half_spacing  # the 16-bit running sum has drifted far
    assert low_large > 2 * low_small  # and drifts further the more keys are summed


def test_rounded_attention_with_float32_accumulators_is_the_formula():
    query, key, value = draw(5, ((6, 16), (50, 16), (50, 4)), np.float64)
    got = rounded_attention(query, key, value, "float16")
    rounded = [a.astype(np.float16) for a in (query, key, value)]
    expected = exact(*rounded)
    rtol, atol = tolerance(F16, np.abs(value).max())
    assert got.dtype == F16
    np.testing.assert_allclose(got.astype(np.float64), expected, rtol=rtol, atol=atol)


def test_bad_names_are_refused():
    with pytest.raises(ValueError, match="'float8'"):
        low_precision_dtype("float8")
    with pytest.raises(ValueError, match="accumulate must be"):
        rounded_attention(np.eye(2), np.eye(2), np.eye(2), "bfloat16", accumulate="float16")
    assert low_precision_dtype(BF16) == BF16 and low_precision_dtype(np.float16) == F16
