"""attention_gradients: finite differences, the loop twin, saturation, masks, PyTorch autograd."""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from course_lib import (
    additive_mask,
    attention_gradients,
    causal_mask,
    scaled_dot_product_attention,
    score_gradients,
    softmax,
    softmax_backward,
    softmax_jacobian,
    to_numpy,
)
from course_lib.reference_beyond import attention_gradients_loop

HYPOTHESIS = settings(max_examples=30, deadline=None,
                      suppress_health_check=[HealthCheck.function_scoped_fixture])


def grads(xp, query, key, value, grad_output, attn_mask=None, **kwargs):
    args = [xp.asarray(np.asarray(a)) for a in (query, key, value, grad_output)]
    if attn_mask is not None:
        attn_mask = xp.asarray(np.asarray(to_numpy(attn_mask)))
    return tuple(to_numpy(g) for g in attention_gradients(*args, attn_mask=attn_mask, **kwargs))


def finite_differences(query, key, value, grad_output, step=1e-6, **kwargs):
    """Central differences of L = Σ G ⊙ O, one input number at a time, in float64."""
    inputs = [np.array(a, dtype=np.float64) for a in (query, key, value)]

    def loss():
        out = scaled_dot_product_attention(*inputs, **kwargs)
        return float((grad_output * out).sum())

    result = []
    for arr in inputs:
        grad = np.zeros_like(arr)
        assert arr.size > 0
        for idx in np.ndindex(*arr.shape):
            keep = arr[idx]
            arr[idx] = keep + step
            up = loss()
            arr[idx] = keep - step
            down = loss()
            arr[idx] = keep
            grad[idx] = (up - down) / (2 * step)
        result.append(grad)
    return result


def relative_error(actual, expected):
    return np.linalg.norm(actual - expected) / max(np.linalg.norm(expected), 1e-300)


def problem(seed, batch=(), n=3, m=4, d_k=3, d_v=2):
    rng = np.random.default_rng(seed)
    return (rng.standard_normal(batch + (n, d_k)), rng.standard_normal(batch + (m, d_k)),
            rng.standard_normal(batch + (m, d_v)), rng.standard_normal(batch + (n, d_v)))


FD_CASES = {
    "square": ({}, {}),
    "n<m, d_v≠d_k": ({"n": 2, "m": 5, "d_k": 4, "d_v": 3}, {}),
    "n>m": ({"n": 5, "m": 2}, {}),
    "batch": ({"batch": (2,)}, {}),
    "causal": ({"n": 4, "m": 4}, {"is_causal": True}),
    "scale": ({}, {"scale": 0.7}),
    "bool mask": ({}, {"attn_mask": np.array([[1, 0, 1, 1], [0, 1, 1, 0], [1, 1, 1, 1]],
                                             dtype=bool)}),
    "float mask": ({}, {"attn_mask": np.array([[0.5, -1.0, 0.0, 2.0]] * 3)}),
}


# ---------------------------------------------------------------------------------------------
# Finite differences in float64: relative error below 1e-6

@pytest.mark.parametrize("name", sorted(FD_CASES))
def test_matches_finite_differences(name):
    shape_args, kwargs = FD_CASES[name]
    q, k, v, g = problem(len(name), **shape_args)
    analytic = attention_gradients(q, k, v, g, **kwargs)
    numeric = finite_differences(q, k, v, g, **kwargs)
    assert len(analytic) == 3
    for a, fd, arr in zip(analytic, numeric, (q, k, v), strict=True):
        assert a.shape == arr.shape
        assert np.linalg.norm(fd) > 1e-3  # a real gradient, not 0 = 0
        assert relative_error(a, fd) < 1e-6


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(1, 4), m=st.integers(1, 4),
       d_k=st.integers(1, 3), d_v=st.integers(1, 3))
def test_matches_finite_differences_on_generated_shapes(seed, n, m, d_k, d_v):
    q, k, v, g = problem(seed, n=n, m=m, d_k=d_k, d_v=d_v)
    analytic = attention_gradients(q, k, v, g)
    numeric = finite_differences(q, k, v, g)
    for a, fd in zip(analytic, numeric, strict=True):
        assert np.abs(a - fd).max() <= 1e-6 * max(np.abs(fd).max(), 1.0)


# ---------------------------------------------------------------------------------------------
# The loop twin and the pieces

@pytest.mark.parametrize("name", sorted(n for n in FD_CASES if "batch" not in FD_CASES[n][0]))
def test_matches_loop_twin(xp, name):  # the loop twin is 2-D: batches are checked per slice
    shape_args, kwargs = FD_CASES[name]
    q, k, v, g = problem(2 * len(name), **shape_args)
    got = grads(xp, q, k, v, g, **kwargs)
    mask = kwargs.get("attn_mask")
    loop_kwargs = dict(kwargs, attn_mask=None if mask is None else mask.tolist())
    want = attention_gradients_loop(q, k, v, g, **loop_kwargs)
    for a, b in zip(got, want, strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-10, atol=1e-12)


@HYPOTHESIS
@given(seed=st.integers(0, 2**32 - 1), m=st.integers(1, 6))
def test_softmax_backward_is_the_jacobian_product(xp, seed, m):
    rng = np.random.default_rng(seed)
    a = softmax(rng.normal(scale=2.0, size=(3, m)))
    da = rng.standard_normal((3, m))
    got = to_numpy(softmax_backward(xp.asarray(a), xp.asarray(da)))
    jac = softmax_jacobian(a)  # (3, m, m), symmetric
    want = np.einsum("rij,rj->ri", jac, da)
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(got.sum(axis=-1), 0.0, atol=1e-12)  # shifting a row: no change


def test_softmax_backward_rejects_mismatched_shapes():
    with pytest.raises(ValueError, match="same shape"):
        softmax_backward(np.ones((2, 3)) / 3, np.ones((2, 4)))


def test_grad_value_is_weights_transposed_times_grad_output(xp):
    q, k, v, g = problem(3)
    _, weights = scaled_dot_product_attention(q, k, v, return_weights=True)
    _, _, dv = grads(xp, q, k, v, g)
    np.testing.assert_allclose(dv, weights.T @ g, rtol=1e-12)


def test_batch_gradients_equal_per_slice_calls(xp):
    q, k, v, g = problem(4, batch=(3,))
    got = grads(xp, q, k, v, g)
    assert q.shape[0] == 3
    for b in range(3):
        for a, want in zip(got, attention_gradients(q[b], k[b], v[b], g[b]), strict=True):
            np.testing.assert_allclose(a[b], want, rtol=1e-12, atol=1e-14)


def test_broadcast_key_gets_the_sum_of_its_gradients(xp):
    """One key/value set shared by a batch of 2 queries: its gradient adds both contributions."""
    rng = np.random.default_rng(5)
    q, g = rng.standard_normal((2, 3, 4)), rng.standard_normal((2, 3, 2))
    k, v = rng.standard_normal((5, 4)), rng.standard_normal((5, 2))
    dq, dk, dv = grads(xp, q, k, v, g)
    assert dq.shape == q.shape
    assert dk.shape == k.shape
    assert dv.shape == v.shape
    parts = [attention_gradients(q[b], k, v, g[b]) for b in range(2)]
    np.testing.assert_allclose(dk, parts[0][1] + parts[1][1], rtol=1e-12)
    np.testing.assert_allclose(dv, parts[0][2] + parts[1][2], rtol=1e-12)
    numeric = finite_differences(q, k, v, g)
    assert relative_error(dk, numeric[1]) < 1e-6


def test_grad_output_broadcasts_over_batch_axes(xp):
    q, k, v, _ = problem(6, batch=(2,))
    g = np.random.default_rng(6).standard_normal((3, 2))
    got = grads(xp, q, k, v, g)
    want = attention_gradients(q, k, v, np.broadcast_to(g, (2, 3, 2)))
    for a, b in zip(got, want, strict=True):
        np.testing.assert_allclose(a, b, rtol=0, atol=0)


# ---------------------------------------------------------------------------------------------
# Masks

def test_fully_masked_row_passes_no_gradient(xp):
    q, k, v, g = problem(7)
    mask = np.ones((3, 4), dtype=bool)
    mask[1] = False
    dq, dk, dv = grads(xp, q, k, v, g, attn_mask=mask)
    assert (dq[1] == 0).all()
    assert np.isfinite(dq).all() and np.isfinite(dk).all() and np.isfinite(dv).all()
    numeric = finite_differences(q, k, v, g, attn_mask=mask)
    for a, fd in zip((dq, dk, dv), numeric, strict=True):
        assert relative_error(a, fd) < 1e-6


def test_key_nobody_may_see_gets_no_gradient(xp):
    q, k, v, g = problem(8)
    mask = np.ones((3, 4), dtype=bool)
    mask[:, 2] = False
    _, dk, dv = grads(xp, q, k, v, g, attn_mask=mask)
    assert (dk[2] == 0).all()
    assert (dv[2] == 0).all()
    assert np.abs(dk[[0, 1, 3]]).max() > 1e-3


def test_causal_flag_mask_and_additive_mask_agree(xp):
    q, k, v, g = problem(9, n=4, m=4)
    a = grads(xp, q, k, v, g, is_causal=True)
    b = grads(xp, q, k, v, g, attn_mask=causal_mask(4))
    c = grads(xp, q, k, v, g, attn_mask=additive_mask(to_numpy(causal_mask(4))))
    for x, y, z in zip(a, b, c, strict=True):
        np.testing.assert_allclose(x, y, rtol=0, atol=0)
        np.testing.assert_allclose(x, z, rtol=1e-14, atol=1e-15)


# ---------------------------------------------------------------------------------------------
# Saturation: what the √d_k protects

def test_saturated_softmax_passes_almost_no_gradient(xp):
    """Blow the scores up (scale 50 instead of 1/√d_k): the gradient reaching Q collapses."""
    q, k, v, g = problem(10, n=4, m=6, d_k=8)
    normal = grads(xp, q, k, v, g)[0]
    saturated = grads(xp, q, k, v, g, scale=50.0)[0]
    assert np.linalg.norm(saturated) < 1e-2 * np.linalg.norm(normal)


def test_without_the_scale_the_score_gradient_vanishes_as_d_k_grows():
    """The typical (median) gradient reaching a score: flat with √d_k, collapsing without it."""
    rng = np.random.default_rng(11)
    typical = {}
    for d_k in (4, 256):
        q, k = rng.standard_normal((64, d_k)), rng.standard_normal((64, d_k))
        v, g = rng.standard_normal((64, 4)), rng.standard_normal((64, 4))
        scores, grad_weights = q @ k.T, g @ v.T  # (64, 64) each
        raw = softmax_backward(softmax(scores), grad_weights)
        scaled = softmax_backward(softmax(scores / np.sqrt(d_k)), grad_weights)
        typical[d_k] = (np.median(np.abs(raw)), np.median(np.abs(scaled)))
    assert typical[256][0] < 1e-10 * typical[4][0]
    assert 0.3 < typical[256][1] / typical[4][1] < 3.0


# ---------------------------------------------------------------------------------------------
# dtypes, inputs, errors

def test_float32_in_float32_out(xp):
    q, k, v, g = (a.astype(np.float32) for a in problem(12))
    got = grads(xp, q, k, v, g)
    want = attention_gradients(*problem(12))
    assert [a.dtype for a in got] == [np.float32] * 3
    for a, b in zip(got, want, strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-4, atol=1e-5)


def test_float16_in_float16_out(xp):
    q, k, v, g = (a.astype(np.float16) for a in problem(13))
    got = grads(xp, q, k, v, g)
    want = attention_gradients(*(a.astype(np.float64) for a in (q, k, v, g)))
    assert [a.dtype for a in got] == [np.float16] * 3
    for a, b in zip(got, want, strict=True):
        np.testing.assert_allclose(a.astype(np.float64), b, rtol=1e-2, atol=1e-2)


def test_inputs_are_not_modified():
    arrays = problem(14)
    copies = [a.copy() for a in arrays]
    mask = np.ones((3, 4), dtype=bool)
    attention_gradients(*arrays, attn_mask=mask)
    for a, b in zip(arrays, copies, strict=True):
        np.testing.assert_array_equal(a, b)
    assert mask.all()


def test_docstring_example_matches_the_loop():
    q, k, v, g = [[1.0, 0.0]], [[1.0, 0.0], [0.0, 1.0]], [[1.0], [3.0]], [[1.0]]
    got = attention_gradients(q, k, v, g, scale=1.0)
    want = attention_gradients_loop(q, k, v, g, scale=1.0)
    for a, b in zip(got, want, strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-14)


def test_rejects_bad_grad_output():
    q, k, v, g = problem(15)
    with pytest.raises(ValueError, match="grad_output of shape"):
        attention_gradients(q, k, v, g[:, :1].repeat(3, axis=1))
    with pytest.raises(ValueError, match="grad_output contains NaN"):
        attention_gradients(q, k, v, np.full_like(g, np.nan))
    with pytest.raises(ValueError, match="at least 2 axes"):
        attention_gradients(q, k, v, g[0])


def test_rejects_what_attention_rejects():
    q, k, v, g = problem(16)
    with pytest.raises(ValueError, match="every key needs one value"):
        attention_gradients(q, k, v[:2], g)
    with pytest.raises(ValueError, match="not both"):
        attention_gradients(q, k, v, g, attn_mask=np.ones((3, 4), bool), is_causal=True)
    with pytest.raises(ValueError, match="scale must be a positive"):
        attention_gradients(q, k, v, g, scale=-1.0)


# ---------------------------------------------------------------------------------------------
# PyTorch's autograd, where installed

@pytest.mark.torch
@pytest.mark.parametrize("name", sorted(FD_CASES))
def test_matches_pytorch_autograd(name):
    torch = pytest.importorskip("torch", reason="PyTorch is not installed (optional parity check)")
    shape_args, kwargs = FD_CASES[name]
    q, k, v, g = problem(3 * len(name), **shape_args)
    tq, tk, tv = (torch.tensor(a, requires_grad=True) for a in (q, k, v))
    tkwargs = dict(kwargs)
    if "attn_mask" in tkwargs:
        tkwargs["attn_mask"] = torch.from_numpy(kwargs["attn_mask"])  # bool: True = may attend
    out = torch.nn.functional.scaled_dot_product_attention(tq, tk, tv, **tkwargs)
    out.backward(torch.from_numpy(g))
    ours = attention_gradients(q, k, v, g, **kwargs)
    for a, t in zip(ours, (tq, tk, tv), strict=True):
        np.testing.assert_allclose(a, t.grad.numpy(), rtol=1e-10, atol=1e-12)


# ---------------------------------------------------------------------------------------------
# score_gradients: steps 1 and 2 alone

def test_score_gradients_match_the_pieces(xp):
    q, k, v, g = problem(17, n=3, m=5)
    mask = np.ones((3, 5), dtype=bool)
    mask[0, 1:] = False
    args = [xp.asarray(a) for a in (q, k, v, g)]
    weights, grad_scores = (to_numpy(a) for a in score_gradients(*args,
                                                                 attn_mask=xp.asarray(mask)))
    _, want_weights = scaled_dot_product_attention(q, k, v, attn_mask=mask, return_weights=True)
    np.testing.assert_allclose(weights, want_weights, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(grad_scores, softmax_backward(want_weights, g @ v.T), rtol=1e-12,
                               atol=1e-15)
    np.testing.assert_allclose(grad_scores.sum(axis=-1), 0.0, atol=1e-12)
    assert (grad_scores[0] == 0).all()  # one allowed key: a one-hot row passes nothing


def test_score_gradients_chain_to_grad_query(xp):
    """∂L/∂Q = scale · (∂L/∂S) K: the last step, checked against attention_gradients."""
    q, k, v, g = problem(18, n=4, m=3, d_k=5)
    _, grad_scores = score_gradients(q, k, v, g, scale=0.3)
    dq, dk, _ = attention_gradients(q, k, v, g, scale=0.3)
    np.testing.assert_allclose(dq, 0.3 * grad_scores @ k, rtol=1e-12)
    np.testing.assert_allclose(dk, 0.3 * grad_scores.T @ q, rtol=1e-12)


@pytest.mark.parametrize(("shape", "stretched"), [((4,), (2, 3, 4)), ((1, 4), (2, 3, 4)),
                                                   ((3, 1), (2, 3, 4)), ((2, 3, 4), (2, 3, 4))])
def test_sum_to_shape_adds_one_copy_per_broadcast(shape, stretched):
    from course_lib.gradients import sum_to_shape

    rng = np.random.default_rng(0)
    grad = rng.standard_normal(stretched)
    got = sum_to_shape(grad, shape)
    assert got.shape == shape
    # the gradient of x ↦ Σ grad ⊙ broadcast(x) is exactly what sum_to_shape returns
    x = rng.standard_normal(shape)
    h, basis = 1e-6, np.zeros(shape)
    basis.flat[0] = 1.0
    slope = ((grad * np.broadcast_to(x + h * basis, stretched)).sum()
             - (grad * np.broadcast_to(x - h * basis, stretched)).sum()) / (2 * h)
    assert slope == pytest.approx(got.flat[0], rel=1e-6)
