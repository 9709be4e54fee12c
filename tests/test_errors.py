"""Bad input gives a clear error, never a silent wrong answer.

Each test checks the exception type AND that the message names the argument and the shapes or
values involved, so a learner can fix the call from the message alone.
"""

import math

import numpy as np
import pytest

from course_lib import (
    cosine_similarity,
    default_scale,
    dot,
    get_array_module,
    norm,
    scaled_dot_product_attention,
    scaled_scores,
    score_grid,
    softmax,
    to_numpy,
)
from course_lib.backend import gpu_status


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


@pytest.mark.parametrize("scale", [0.0, -2.0, math.nan, math.inf])
def test_scaled_scores_rejects_bad_scale(scale):
    with pytest.raises(ValueError, match="scale"):
        scaled_scores(np.ones((2, 3)), np.ones((4, 3)), scale=scale)


@pytest.mark.parametrize(("d_k", "error"), [
    (0, ValueError), (-4, ValueError), (2.5, TypeError), ("64", TypeError), (True, TypeError),
    (None, TypeError)])
def test_default_scale_rejects_bad_d_k(d_k, error):
    with pytest.raises(error) as excinfo:
        default_scale(d_k)
    assert "d_k" in message(excinfo)
    assert repr(d_k) in message(excinfo)


# ---------------------------------------------------------------------------------------------
# softmax


def test_softmax_empty_axis(xp):
    with pytest.raises(ValueError) as excinfo:
        softmax(xp.asarray(np.ones((3, 0))))
    assert "empty" in message(excinfo)
    assert "(3, 0)" in message(excinfo)


def test_softmax_empty_other_axis_is_fine(xp):
    # Normalising along a non-empty axis of an array that has an empty one is allowed.
    out = softmax(xp.asarray(np.ones((0, 3))), axis=-1)
    assert out.shape == (0, 3)


@pytest.mark.parametrize("axis", [2, -3, 10])
def test_softmax_axis_out_of_range(xp, axis):
    with pytest.raises(ValueError) as excinfo:
        softmax(xp.asarray(np.ones((3, 4))), axis=axis)
    assert f"axis {axis}" in message(excinfo)
    assert "(3, 4)" in message(excinfo)


@pytest.mark.parametrize("axis", [1.0, "1", None, True])
def test_softmax_axis_not_an_integer(xp, axis):
    with pytest.raises(TypeError) as excinfo:
        softmax(xp.asarray(np.ones((3, 4))), axis=axis)
    assert "axis" in message(excinfo)
    assert repr(axis) in message(excinfo)


@pytest.mark.parametrize("bad", [np.nan, np.inf])
def test_softmax_rejects_nan_and_plus_inf(xp, bad):
    x = np.zeros((2, 3))
    x[1, 2] = bad
    with pytest.raises(ValueError) as excinfo:
        softmax(xp.asarray(x))
    assert "NaN or +∞" in message(excinfo)
    assert "(2, 3)" in message(excinfo)


def test_softmax_accepts_minus_inf(xp):
    x = np.array([[0.0, -np.inf, 0.0], [-np.inf, -np.inf, -np.inf]])
    out = to_numpy(softmax(xp.asarray(x)))
    assert out.tolist() == [[0.5, 0.0, 0.5], [0.0, 0.0, 0.0]]


@pytest.mark.parametrize("bad", [[["a", "b"]], [[True, False]], [[1 + 2j]]],
                         ids=["strings", "bools", "complex"])
def test_softmax_non_numeric(bad):
    with pytest.raises(TypeError, match="scores"):
        softmax(bad)


# ---------------------------------------------------------------------------------------------
# The smaller functions


def test_dot_length_mismatch():
    with pytest.raises(ValueError) as excinfo:
        dot([1.0, 2.0, 3.0], [1.0, 2.0])
    text = message(excinfo)
    assert "q" in text and "k" in text
    assert "(3,)" in text and "(2,)" in text


def test_dot_nan():
    with pytest.raises(ValueError, match="k contains NaN"):
        dot([1.0, 2.0], [np.nan, 2.0])


def test_norm_non_numeric_and_inf():
    with pytest.raises(TypeError, match="q"):
        norm(["a", "b"])
    with pytest.raises(ValueError, match="q contains NaN or infinite"):
        norm([1.0, np.inf])


def test_norm_of_a_scalar_is_an_error():
    with pytest.raises(ValueError, match=r"q must have at least 1 axes"):
        norm(3.0)


def test_cosine_similarity_of_zero_vector():
    with pytest.raises(ValueError, match="zero-length"):
        cosine_similarity([0.0, 0.0], [1.0, 2.0])


def test_score_grid_errors():
    with pytest.raises(ValueError, match=r"query must have at least 2 axes.*\(3,\)"):
        score_grid(np.ones(3), np.ones((2, 3)))
    with pytest.raises(ValueError, match=r"query's last axis is 3 but key's is 2"):
        score_grid(np.ones((4, 3)), np.ones((5, 2)))
    with pytest.raises(ValueError, match="key contains NaN"):
        score_grid(np.ones((4, 3)), np.full((5, 3), np.nan))


# ---------------------------------------------------------------------------------------------
# NumPy and CuPy mixed


class _FakeCupyArray:
    """Looks like a CuPy array to the backend's type check (its module is ``cupy._core``)."""

    __module__ = "cupy._core.core"
    shape = (2, 2)


def test_mixed_numpy_and_cupy_is_named_without_a_gpu():
    # The mix is detected from the types alone, so this runs on every machine.
    with pytest.raises(TypeError) as excinfo:
        get_array_module(np.ones((2, 2)), _FakeCupyArray())
    text = message(excinfo)
    assert "mixed NumPy and CuPy" in text
    assert "argument 0: numpy.ndarray" in text
    assert "argument 1: cupy._core.core._FakeCupyArray" in text


def test_attention_rejects_mixed_inputs_without_a_gpu():
    with pytest.raises(TypeError, match="mixed NumPy and CuPy"):
        scaled_dot_product_attention(np.ones((2, 2)), _FakeCupyArray(), np.ones((2, 2)))


def test_attention_rejects_a_mask_on_the_other_device_without_a_gpu():
    with pytest.raises(TypeError, match="mixed NumPy and CuPy"):
        scaled_dot_product_attention(np.ones((2, 2)), np.ones((2, 2)), np.ones((2, 2)),
                                     attn_mask=_FakeCupyArray())


_GPU_OK, _GPU_REASON = gpu_status()


@pytest.mark.gpu
@pytest.mark.skipif(not _GPU_OK, reason=f"needs a working CuPy: {_GPU_REASON}")
@pytest.mark.parametrize("on_gpu", [
    "query", "key", "value",
    "attn_mask"])
def test_mixed_numpy_and_cupy_on_a_gpu(on_gpu):
    import cupy

    args = {"query": np.ones((3, 4)), "key": np.ones((5, 4)), "value": np.ones((5, 2)),
            "attn_mask": np.ones((3, 5), dtype=bool)}
    args[on_gpu] = cupy.asarray(args[on_gpu])
    with pytest.raises(TypeError, match="mixed NumPy and CuPy"):
        scaled_dot_product_attention(**args)


@pytest.mark.gpu
@pytest.mark.skipif(not _GPU_OK, reason=f"needs a working CuPy: {_GPU_REASON}")
def test_numpy_mask_with_cupy_inputs():
    import cupy

    q = cupy.ones((3, 4))
    with pytest.raises(TypeError, match="mixed NumPy and CuPy"):
        scaled_dot_product_attention(q, q, q, attn_mask=np.ones((3, 3), dtype=bool))


@pytest.mark.gpu
@pytest.mark.skipif(not _GPU_OK, reason=f"needs a working CuPy: {_GPU_REASON}")
def test_mixed_numpy_and_cupy_in_dot_and_softmax_helpers():
    import cupy

    with pytest.raises(TypeError, match="mixed NumPy and CuPy"):
        dot(np.ones(3), cupy.ones(3))
    with pytest.raises(TypeError, match="mixed NumPy and CuPy"):
        score_grid(cupy.ones((2, 3)), np.ones((4, 3)))
