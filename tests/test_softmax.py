"""softmax, softmax_naive and softmax_jacobian: known answers, the loop twin, properties."""

import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from course_lib import jacobian_norm, softmax, softmax_jacobian, softmax_naive, to_numpy
from course_lib.reference import softmax_loop

# The xp fixture only hands back a module, so reusing it across hypothesis examples is safe.
HYPOTHESIS = settings(max_examples=80, deadline=None,
                      suppress_health_check=[HealthCheck.function_scoped_fixture])

scores = st.floats(-50.0, 50.0, allow_nan=False, allow_infinity=False, width=64)
grids = hnp.arrays(np.float64, hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=6),
                   elements=scores)


def on(xp, x):
    return xp.asarray(np.asarray(x))


def loop_softmax(x, axis=-1):
    """The loop twin applied to every 1-D slice along ``axis``."""
    x = np.moveaxis(np.asarray(x, dtype=np.float64), axis, -1)
    out = np.empty_like(x)
    for idx in np.ndindex(*x.shape[:-1]):
        out[idx] = softmax_loop(x[idx].tolist())
    return np.moveaxis(out, -1, axis)


# ---------------------------------------------------------------------------------------------
# Known answers


def test_equal_scores_give_equal_weights(xp):
    assert to_numpy(softmax(on(xp, [2.0, 2.0, 2.0, 2.0]))).tolist() == [0.25] * 4


def test_hand_computed(xp):
    # softmax([0, ln 3]) = [1/(1+3), 3/(1+3)]
    out = to_numpy(softmax(on(xp, [0.0, math.log(3.0)])))
    np.testing.assert_allclose(out, [0.25, 0.75], rtol=1e-15)
    # softmax([1, 2, 3]) = [1, e, e²] / (1 + e + e²)
    e = math.e
    total = 1 + e + e * e
    out = to_numpy(softmax(on(xp, [1.0, 2.0, 3.0])))
    np.testing.assert_allclose(out, [1 / total, e / total, e * e / total], rtol=1e-15)


def test_axis_zero(xp):
    x = np.array([[0.0, 5.0], [math.log(3.0), 5.0]])
    out = to_numpy(softmax(on(xp, x), axis=0))
    np.testing.assert_allclose(out, [[0.25, 0.5], [0.75, 0.5]], rtol=1e-15)


def test_large_scores_do_not_overflow(xp):
    out = to_numpy(softmax(on(xp, [1000.0, 1000.0])))
    assert out.tolist() == [0.5, 0.5]
    out = to_numpy(softmax(on(xp, [1e4, -1e4, 1e4 - math.log(3.0)])))
    np.testing.assert_allclose(out, [0.75, 0.0, 0.25], rtol=1e-12, atol=0)


def test_naive_softmax_overflows_where_the_stable_one_does_not(xp):
    # softmax_naive exists to show the problem: e¹⁰⁰⁰ is inf in float64, inf/inf is NaN.
    with np.errstate(over="ignore", invalid="ignore"):
        naive = to_numpy(softmax_naive(on(xp, [1000.0, 1000.0])))
    assert np.all(np.isnan(naive))
    assert to_numpy(softmax(on(xp, [1000.0, 1000.0]))).tolist() == [0.5, 0.5]


def test_naive_softmax_agrees_on_small_scores(xp):
    x = np.array([[0.5, -1.0, 2.0], [3.0, 3.0, -4.0]])
    np.testing.assert_allclose(to_numpy(softmax_naive(on(xp, x))), to_numpy(softmax(on(xp, x))),
                               rtol=1e-14)


def test_minus_inf_is_a_masked_score(xp):
    out = to_numpy(softmax(on(xp, [[0.0, -np.inf, math.log(3.0)], [-np.inf] * 3])))
    np.testing.assert_allclose(out[0], [0.25, 0.0, 0.75], rtol=1e-15)
    assert out[0, 1] == 0.0
    assert out[1].tolist() == [0.0, 0.0, 0.0]  # all −∞: nothing to attend to


def test_single_entry_is_one(xp):
    assert to_numpy(softmax(on(xp, [[-7.0], [123.0]]))).tolist() == [[1.0], [1.0]]


# ---------------------------------------------------------------------------------------------
# dtypes


def test_float16_in_float16_out(xp):
    # 20 and 10 in float16 would give e²⁰ (> 65504, float16's largest) if exponentiated
    # directly; the stable softmax works in float32 and returns float16.
    x = np.array([20.0, 10.0, 0.0], dtype=np.float16)
    out = to_numpy(softmax(on(xp, x)))
    assert out.dtype == np.float16
    np.testing.assert_allclose(out.astype(np.float64), softmax_loop(x.tolist()), atol=1e-3)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_float_dtype_kept(xp, dtype):
    out = to_numpy(softmax(on(xp, np.array([1.0, 2.0], dtype=dtype))))
    assert out.dtype == dtype


@pytest.mark.parametrize("dtype", [np.int8, np.int32, np.int64, np.uint16])
def test_integers_become_float64(xp, dtype):
    out = to_numpy(softmax(on(xp, np.array([0, 1, 2], dtype=dtype))))
    assert out.dtype == np.float64
    np.testing.assert_allclose(out, softmax_loop([0, 1, 2]), rtol=1e-15)


def test_lists_are_accepted():
    out = softmax([[1, 1], [0, 0]])
    assert isinstance(out, np.ndarray)
    assert out.tolist() == [[0.5, 0.5], [0.5, 0.5]]


def test_input_not_modified():
    x = np.array([[3.0, 1.0, -np.inf]])
    before = x.copy()
    softmax(x)
    np.testing.assert_array_equal(x, before)


# ---------------------------------------------------------------------------------------------
# Against the loop twin, and properties


@HYPOTHESIS
@given(x=grids, data=st.data())
def test_matches_loop_twin(xp, x, data):
    axis = data.draw(st.integers(-x.ndim, x.ndim - 1))
    out = to_numpy(softmax(on(xp, x), axis=axis))
    assert out.shape == x.shape
    np.testing.assert_allclose(out, loop_softmax(x, axis), rtol=1e-12, atol=1e-300)


@HYPOTHESIS
@given(x=grids)
def test_rows_are_weights_that_sum_to_one(xp, x):
    out = to_numpy(softmax(on(xp, x)))
    assert np.all(out >= 0.0)
    assert np.all(out <= 1.0)
    np.testing.assert_allclose(out.sum(axis=-1), 1.0, rtol=0, atol=1e-12)


@HYPOTHESIS
@given(x=grids, shift=st.floats(-1e3, 1e3))
def test_adding_a_constant_to_a_row_changes_nothing(xp, x, shift):
    out = to_numpy(softmax(on(xp, x)))
    # A different constant for every row: the last axis is normalised, so each row shifts alone.
    shifts = shift * np.arange(1, x[..., :1].size + 1).reshape(x[..., :1].shape)
    shifted = to_numpy(softmax(on(xp, x + shifts)))
    # Adding c rounds each score to within |c|·2⁻⁵² of itself, so the weights' relative error is
    # about that much times a few (the score difference moves by at most twice the rounding).
    tol = 8 * np.finfo(np.float64).eps * (np.abs(x).max() + np.abs(shifts).max() + 1.0)
    np.testing.assert_allclose(shifted, out, rtol=tol, atol=1e-300)


@HYPOTHESIS
@given(x=grids)
def test_order_preserved(xp, x):
    # A larger score never gets a smaller weight.
    out = to_numpy(softmax(on(xp, x)))
    order = np.argsort(x, axis=-1, kind="stable")
    sorted_weights = np.take_along_axis(out, order, axis=-1)
    assert np.all(np.diff(sorted_weights, axis=-1) >= 0.0)


@HYPOTHESIS
@given(x=hnp.arrays(np.float64, (3, 5), elements=scores | st.just(-np.inf)))
def test_minus_inf_entries_match_loop_twin(xp, x):
    out = to_numpy(softmax(on(xp, x)))
    np.testing.assert_allclose(out, loop_softmax(x), rtol=1e-12, atol=1e-300)
    assert np.all(out[np.isneginf(x)] == 0.0)


# ---------------------------------------------------------------------------------------------
# The Jacobian


def test_jacobian_hand_computed(xp):
    assert to_numpy(softmax_jacobian(on(xp, [0.5, 0.5]))).tolist() == [[0.25, -0.25],
                                                                      [-0.25, 0.25]]
    # p = [1, 0]: saturated, so every slope is 0.
    assert to_numpy(softmax_jacobian(on(xp, [1.0, 0.0]))).tolist() == [[0.0, 0.0], [0.0, 0.0]]


def test_jacobian_matches_finite_differences(xp):
    rng = np.random.default_rng(3)
    x = rng.standard_normal(5)
    jac = to_numpy(softmax_jacobian(softmax(on(xp, x))))
    h = 1e-6
    numeric = np.empty((5, 5))
    for j in range(5):
        step = np.zeros(5)
        step[j] = h
        plus = to_numpy(softmax(on(xp, x + step)))
        minus = to_numpy(softmax(on(xp, x - step)))
        numeric[:, j] = (plus - minus) / (2 * h)  # column j: ∂p/∂x_j
    # central differences: error ~h² for the curvature plus ~eps/h for rounding, both < 1e-9
    np.testing.assert_allclose(jac, numeric, atol=1e-9)


def test_jacobian_rows_sum_to_zero_and_is_symmetric(xp):
    rng = np.random.default_rng(4)
    p = to_numpy(softmax(on(xp, rng.standard_normal((3, 6)))))
    jac = to_numpy(softmax_jacobian(on(xp, p)))
    assert jac.shape == (3, 6, 6)
    np.testing.assert_allclose(jac.sum(axis=-1), 0.0, atol=1e-15)  # weights always sum to 1
    np.testing.assert_allclose(jac, np.swapaxes(jac, -1, -2), atol=0)


def test_jacobian_norm_is_the_root_of_the_summed_squared_slopes(xp):
    rng = np.random.default_rng(5)
    p = to_numpy(softmax(on(xp, rng.standard_normal((2, 3, 5)))))
    norms = to_numpy(jacobian_norm(on(xp, p)))
    assert norms.shape == (2, 3)
    # the closed form ‖diag(p) − p pᵀ‖² = Σ pᵢ² − 2 Σ pᵢ³ + (Σ pᵢ²)², written independently
    squares = (p ** 2).sum(-1)
    np.testing.assert_allclose(norms, np.sqrt(squares - 2 * (p ** 3).sum(-1) + squares ** 2),
                               rtol=1e-12)
    assert float(jacobian_norm(on(xp, [0.5, 0.5]))) == pytest.approx(0.5, rel=1e-15)


def test_jacobian_norm_of_a_one_hot_row_is_zero_and_of_uniform_is_largest(xp):
    assert float(jacobian_norm(on(xp, [0.0, 1.0, 0.0]))) == 0.0
    assert float(jacobian_norm(on(xp, [0.5, 0.5]))) > float(jacobian_norm(on(xp, [0.9, 0.1])))


def message(excinfo):
    return str(excinfo.value)


# ---------------------------------------------------------------------------------------------
# Errors (moved from test_errors.py)


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
