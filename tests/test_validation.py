"""The checks at the door of the attention functions (course_lib.validation and
course_lib.prepare): bad input gives a clear error, never a silent wrong answer.

Each test checks the exception type AND that the message names the argument and the shapes or
values involved, so a learner can fix the call from the message alone.
"""

import math

import numpy as np
import pytest

from course_lib import scaled_dot_product_attention
from course_lib.validation import check_count, compute_dtype, output_dtype


def qkv(xp, n=3, m=5, d_k=4, d_v=2, batch=()):
    rng = np.random.default_rng(0)
    return (xp.asarray(rng.standard_normal(batch + (n, d_k))),
            xp.asarray(rng.standard_normal(batch + (m, d_k))),
            xp.asarray(rng.standard_normal(batch + (m, d_v))))


def message(excinfo):
    return str(excinfo.value)


# ---------------------------------------------------------------------------------------------
# Shapes


def test_d_k_mismatch(xp):
    q, _, v = qkv(xp)
    k = xp.asarray(np.ones((5, 3)))
    with pytest.raises(ValueError) as excinfo:
        scaled_dot_product_attention(q, k, v)
    text = message(excinfo)
    assert "query" in text and "key" in text
    assert "(3, 4)" in text and "(5, 3)" in text


def test_m_mismatch(xp):
    q, k, _ = qkv(xp)
    v = xp.asarray(np.ones((6, 2)))
    with pytest.raises(ValueError) as excinfo:
        scaled_dot_product_attention(q, k, v)
    text = message(excinfo)
    assert "key" in text and "value" in text
    assert "(5, 4)" in text and "(6, 2)" in text


@pytest.mark.parametrize("which", ["query", "key", "value"])
def test_fewer_than_two_axes(xp, which):
    q, k, v = qkv(xp)
    args = {"query": q, "key": k, "value": v}
    args[which] = args[which][0]  # drop the row axis: a single vector
    with pytest.raises(ValueError) as excinfo:
        scaled_dot_product_attention(**args)
    text = message(excinfo)
    assert which in text
    assert "2 axes" in text
    assert str(tuple(args[which].shape)) in text


def test_batch_axes_do_not_broadcast(xp):
    q, _, _ = qkv(xp, batch=(2,))
    _, k, v = qkv(xp, batch=(3,))
    with pytest.raises(ValueError) as excinfo:
        scaled_dot_product_attention(q, k, v)
    text = message(excinfo)
    assert "batch" in text
    assert "(2, 3, 4)" in text and "(3, 5, 4)" in text


@pytest.mark.parametrize("shape", [(3, 6), (4, 5), (2, 3, 5), (6,), (5, 3)])
def test_mask_shape_does_not_broadcast(xp, shape):
    q, k, v = qkv(xp)  # scores (3, 5)
    mask = xp.asarray(np.ones(shape, dtype=bool))
    with pytest.raises(ValueError) as excinfo:
        scaled_dot_product_attention(q, k, v, attn_mask=mask)
    text = message(excinfo)
    assert "attn_mask" in text
    assert str(shape) in text
    assert "(3, 5)" in text


@pytest.mark.parametrize("dtype", [np.int64, np.int8, np.uint8, np.complex128])
def test_mask_of_wrong_dtype(xp, dtype):
    q, k, v = qkv(xp)
    mask = xp.asarray(np.ones((3, 5), dtype=dtype))
    with pytest.raises(TypeError) as excinfo:
        scaled_dot_product_attention(q, k, v, attn_mask=mask)
    text = message(excinfo)
    assert "attn_mask" in text
    assert np.dtype(dtype).name in text


@pytest.mark.parametrize("bad", [np.nan, np.inf])
def test_float_mask_with_nan_or_plus_inf(xp, bad):
    q, k, v = qkv(xp)
    mask = np.zeros((3, 5))
    mask[1, 2] = bad
    with pytest.raises(ValueError, match="attn_mask"):
        scaled_dot_product_attention(q, k, v, attn_mask=xp.asarray(mask))


def test_is_causal_with_a_mask(xp):
    q, k, v = qkv(xp)
    mask = xp.asarray(np.ones((3, 5), dtype=bool))
    with pytest.raises(ValueError) as excinfo:
        scaled_dot_product_attention(q, k, v, attn_mask=mask, is_causal=True)
    text = message(excinfo)
    assert "attn_mask" in text and "is_causal" in text


def test_zero_keys(xp):
    q = xp.asarray(np.ones((3, 4)))
    k = xp.asarray(np.ones((0, 4)))
    v = xp.asarray(np.ones((0, 2)))
    with pytest.raises(ValueError) as excinfo:
        scaled_dot_product_attention(q, k, v)
    text = message(excinfo)
    assert "key" in text
    assert "m = 0" in text
    assert "(0, 4)" in text


def test_zero_width_query_and_key(xp):
    # d_k = 0: there is no 1/√d_k. The message must say so rather than divide by zero.
    q = xp.asarray(np.ones((3, 0)))
    k = xp.asarray(np.ones((5, 0)))
    v = xp.asarray(np.ones((5, 2)))
    with pytest.raises(ValueError, match="d_k"):
        scaled_dot_product_attention(q, k, v)


# ---------------------------------------------------------------------------------------------
# Values and types


@pytest.mark.parametrize("which", ["query", "key", "value"])
@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
def test_nan_or_inf_in_qkv(xp, which, bad):
    arrays = dict(zip(["query", "key", "value"], (np.asarray(a) for a in
                                                  (np.ones((3, 4)), np.ones((5, 4)),
                                                   np.ones((5, 2)))), strict=True))
    arrays[which][2, 1] = bad
    args = {name: xp.asarray(a) for name, a in arrays.items()}
    with pytest.raises(ValueError) as excinfo:
        scaled_dot_product_attention(**args)
    text = message(excinfo)
    assert which in text
    assert "NaN or infinite" in text
    assert "(2, 1)" in text  # where the first bad number is
    assert str(arrays[which].shape) in text


@pytest.mark.parametrize("which", ["query", "key", "value"])
@pytest.mark.parametrize("bad", [
    [["a", "b"], ["c", "d"]],
    np.array([[object(), object()]] * 2, dtype=object),
    [[1.0, 2.0], [3.0]],  # ragged
], ids=["strings", "objects", "ragged"])
def test_non_numeric_input(which, bad):
    args = {"query": np.ones((2, 2)), "key": np.ones((2, 2)), "value": np.ones((2, 2))}
    args[which] = bad
    with pytest.raises(TypeError) as excinfo:
        scaled_dot_product_attention(**args)
    assert which in message(excinfo)


@pytest.mark.parametrize("which", ["query", "key", "value"])
def test_complex_input(xp, which):
    args = {"query": np.ones((2, 2)), "key": np.ones((2, 2)), "value": np.ones((2, 2))}
    args[which] = args[which] + 1j
    args = {name: xp.asarray(a) for name, a in args.items()}
    with pytest.raises(TypeError) as excinfo:
        scaled_dot_product_attention(**args)
    assert which in message(excinfo)
    assert "complex128" in message(excinfo)


@pytest.mark.parametrize("which", ["query", "key", "value"])
def test_bool_input(xp, which):
    # True/False as numbers is almost always a mask passed in the wrong place.
    args = {"query": np.ones((2, 2)), "key": np.ones((2, 2)), "value": np.ones((2, 2))}
    args[which] = args[which] > 0
    args = {name: xp.asarray(a) for name, a in args.items()}
    with pytest.raises(TypeError) as excinfo:
        scaled_dot_product_attention(**args)
    assert which in message(excinfo)
    assert "bool" in message(excinfo)


@pytest.mark.parametrize("scale", [0, 0.0, -1.0, -1e-9])
def test_non_positive_scale(xp, scale):
    q, k, v = qkv(xp)
    with pytest.raises(ValueError) as excinfo:
        scaled_dot_product_attention(q, k, v, scale=scale)
    assert "scale" in message(excinfo)
    assert repr(scale) in message(excinfo)


@pytest.mark.parametrize("scale", [math.nan, math.inf, -math.inf, np.float32("nan")])
def test_non_finite_scale(xp, scale):
    q, k, v = qkv(xp)
    with pytest.raises(ValueError) as excinfo:
        scaled_dot_product_attention(q, k, v, scale=scale)
    assert "scale" in message(excinfo)
    assert "finite" in message(excinfo)


@pytest.mark.parametrize("scale", ["0.5", b"0.5", "abc", [0.5], object(), 1j, True],
                         ids=["str", "bytes", "word", "list", "object", "complex", "bool"])
def test_non_numeric_scale(xp, scale):
    q, k, v = qkv(xp)
    with pytest.raises(TypeError) as excinfo:
        scaled_dot_product_attention(q, k, v, scale=scale)
    assert "scale" in message(excinfo)


def test_numpy_scalar_scale_is_accepted(xp):
    q, k, v = qkv(xp)
    a = scaled_dot_product_attention(q, k, v, scale=np.float32(0.5))
    b = scaled_dot_product_attention(q, k, v, scale=0.5)
    assert bool((a == b).all())


# ---------------------------------------------------------------------------------------------
# The one positive-integer check and the one dtype rule


@pytest.mark.parametrize("good", [1, 7, np.int64(3)])
def test_check_count_returns_a_plain_int(good):
    assert check_count(good, "n") == int(good) and type(check_count(good, "n")) is int


@pytest.mark.parametrize(("bad", "error"), [(0, ValueError), (-2, ValueError), (2.0, TypeError),
                                            (True, TypeError), ("3", TypeError), (None, TypeError)])
def test_check_count_names_the_argument_and_the_value(bad, error):
    with pytest.raises(error, match=rf"heads must be a positive integer; got {bad!r}"):
        check_count(bad, "heads")


def test_check_count_without_a_minimum_takes_any_integer():
    assert check_count(-3, "diagonal", minimum=None) == -3
    with pytest.raises(TypeError, match=r"diagonal must be an integer; got 1\.5"):
        check_count(1.5, "diagonal", minimum=None)


def test_check_count_with_another_minimum():
    assert check_count(0, "n", minimum=0) == 0
    with pytest.raises(ValueError, match="n must be an integer ≥ 0; got -1"):
        check_count(-1, "n", minimum=0)


@pytest.mark.parametrize(("dtypes", "computed", "returned"), [
    ((np.float16,), np.float32, np.float16),
    ((np.float16, np.float32), np.float32, np.float32),
    ((np.int8, np.int8), np.float64, np.float64),
    ((np.float32, np.int64), np.float64, np.float64),
    ((np.float32,), np.float32, np.float32),
])
def test_the_dtype_rule(dtypes, computed, returned):
    arrays = [np.ones(1, dtype=d) for d in dtypes]
    assert compute_dtype(*arrays) == computed
    assert output_dtype(*arrays) == returned
