"""Parity with torch.nn.functional.scaled_dot_product_attention, where PyTorch is installed.

PyTorch is never required: without it this whole file is skipped, with the reason. With it,
the course's function must agree with PyTorch's on the conventions the course promises to
share: ``scale`` multiplies the scores (default 1/√d_k), a boolean mask is True where
attention is allowed, a float mask is added to the scores, ``is_causal`` is the top-left
aligned lower triangle also when n ≠ m, and a row whose keys are all masked gives zeros.
"""

import math

import numpy as np
import pytest

from course_lib import scaled_dot_product_attention

torch = pytest.importorskip(
    "torch", reason="PyTorch is not installed: the parity checks against "
    "torch.nn.functional.scaled_dot_product_attention are optional")
F = torch.nn.functional

TOLERANCE = {np.float64: {"rtol": 1e-12, "atol": 1e-13}, np.float32: {"rtol": 2e-5, "atol": 2e-6}}
DTYPES = pytest.mark.parametrize("dtype", [np.float64, np.float32])
SHAPES = [  # (batch, n, m, d_k, d_v)
    ((), 4, 4, 8, 8),
    ((), 3, 7, 5, 2),
    ((2,), 6, 3, 4, 5),
    ((2, 3), 5, 9, 16, 4),
    ((1, 2), 1, 1, 1, 1),
]


def make(shape, dtype, seed):
    batch, n, m, d_k, d_v = shape
    rng = np.random.default_rng(seed)
    return (rng.standard_normal(batch + (n, d_k)).astype(dtype),
            rng.standard_normal(batch + (m, d_k)).astype(dtype),
            rng.standard_normal(batch + (m, d_v)).astype(dtype))


def torch_sdpa(query, key, value, attn_mask=None, **kwargs):
    t = [torch.from_numpy(np.ascontiguousarray(a)) for a in (query, key, value)]
    mask = None if attn_mask is None else torch.from_numpy(np.ascontiguousarray(attn_mask))
    with torch.no_grad():
        return F.scaled_dot_product_attention(*t, attn_mask=mask, **kwargs).numpy()


def assert_same(ours, theirs, dtype):
    assert ours.shape == theirs.shape
    assert ours.dtype == theirs.dtype
    np.testing.assert_allclose(ours, theirs, **TOLERANCE[dtype])


@DTYPES
@pytest.mark.parametrize("shape", SHAPES)
def test_default_scale(shape, dtype):
    q, k, v = make(shape, dtype, seed=1)
    assert_same(scaled_dot_product_attention(q, k, v), torch_sdpa(q, k, v), dtype)


@DTYPES
@pytest.mark.parametrize("scale", [0.05, 1.0, 3.0])
def test_explicit_scale_multiplies_the_scores(dtype, scale):
    q, k, v = make(((2,), 4, 6, 8, 3), dtype, seed=2)
    ours = scaled_dot_product_attention(q, k, v, scale=scale)
    assert_same(ours, torch_sdpa(q, k, v, scale=scale), dtype)
    # and the scale matters here: the default 1/√8 gives something else
    assert not np.allclose(ours, torch_sdpa(q, k, v), rtol=1e-3, atol=1e-3)


@DTYPES
@pytest.mark.parametrize("mask_shape", [(5, 7), (1, 7), (2, 1, 5, 7), (3, 5, 7)])
def test_bool_mask_true_is_allowed(dtype, mask_shape):
    # (A 1-D (m,) mask also works in the course, but torch 2.13 rejects it for 4-D queries.)
    q, k, v = make(((2, 3), 5, 7, 4, 2), dtype, seed=3)
    rng = np.random.default_rng(4)
    mask = rng.random(mask_shape) < 0.6
    mask[..., 0] = True  # every query keeps a key (fully masked rows: tested below)
    assert_same(scaled_dot_product_attention(q, k, v, attn_mask=mask),
                torch_sdpa(q, k, v, attn_mask=mask), dtype)


@DTYPES
def test_float_mask_is_added(dtype):
    q, k, v = make(((2,), 4, 6, 3, 3), dtype, seed=5)
    rng = np.random.default_rng(6)
    mask = rng.standard_normal((4, 6)).astype(dtype)
    mask[rng.random((4, 6)) < 0.3] = -np.inf
    mask[:, 1] = 0.5  # every query keeps a key
    assert_same(scaled_dot_product_attention(q, k, v, attn_mask=mask),
                torch_sdpa(q, k, v, attn_mask=mask), dtype)


@DTYPES
@pytest.mark.parametrize(("n", "m"), [(5, 5), (3, 7), (7, 3), (1, 4), (4, 1)])
def test_is_causal_top_left_also_when_n_differs_from_m(dtype, n, m):
    q, k, v = make(((2,), n, m, 4, 3), dtype, seed=7 + n * m)
    ours = scaled_dot_product_attention(q, k, v, is_causal=True)
    assert_same(ours, torch_sdpa(q, k, v, is_causal=True), dtype)
    assert_same(scaled_dot_product_attention(q, k, v, is_causal=True, scale=0.3),
                torch_sdpa(q, k, v, is_causal=True, scale=0.3), dtype)


@DTYPES
def test_batch_axes_broadcast_like_torch(dtype):
    rng = np.random.default_rng(8)
    q = rng.standard_normal((2, 1, 5, 8)).astype(dtype)
    k = rng.standard_normal((3, 7, 8)).astype(dtype)
    v = rng.standard_normal((3, 7, 2)).astype(dtype)
    assert_same(scaled_dot_product_attention(q, k, v), torch_sdpa(q, k, v), dtype)


@DTYPES
@pytest.mark.parametrize("kind", ["bool", "float"])
def test_fully_masked_row(dtype, kind):
    # What PyTorch's CPU kernel returns for a query with every key masked out has changed over
    # versions: some older releases gave NaN; 2.13.0+cpu, checked on the development machine,
    # gives a row of zeros for bool and float masks, float32 and float64. The course promises
    # zeros; compare only when this torch agrees, and say why not otherwise.
    q, k, v = make(((2,), 4, 5, 3, 2), dtype, seed=9)
    allowed = np.ones((4, 5), dtype=bool)
    allowed[2] = False
    mask = allowed if kind == "bool" else np.where(allowed, 0.0, -np.inf).astype(dtype)
    theirs = torch_sdpa(q, k, v, attn_mask=mask)
    ours = scaled_dot_product_attention(q, k, v, attn_mask=mask)
    assert np.all(ours[:, 2] == 0.0)
    if np.isnan(theirs[:, 2]).any():
        pytest.skip(f"torch {torch.__version__} returns NaN for a fully masked row (the course "
                    "returns zeros, like newer PyTorch CPU kernels)")
    assert np.all(theirs[:, 2] == 0.0)
    assert_same(ours, theirs, dtype)


@DTYPES
def test_weights_match_torch_softmax(dtype):
    q, k, v = make(((3,), 4, 6, 5, 2), dtype, seed=10)
    rng = np.random.default_rng(11)
    mask = rng.random((4, 6)) < 0.7
    mask[:, 3] = True
    _, weights = scaled_dot_product_attention(q, k, v, attn_mask=mask, return_weights=True)
    tq, tk = torch.from_numpy(q), torch.from_numpy(k)
    scores = tq @ tk.transpose(-1, -2) / math.sqrt(5)
    scores = scores.masked_fill(~torch.from_numpy(mask), float("-inf"))
    assert_same(weights, torch.softmax(scores, dim=-1).numpy(), dtype)


def test_float16_close_to_torch():
    # Both compute half-precision attention in a wider type on the CPU and round at the end;
    # the results may differ by a couple of float16 steps (2⁻¹⁰ ≈ 1e-3 near 1).
    q, k, v = make(((2,), 5, 7, 8, 3), np.float16, seed=12)
    ours = scaled_dot_product_attention(q, k, v, is_causal=True)
    theirs = torch_sdpa(q, k, v, is_causal=True)
    assert ours.dtype == theirs.dtype == np.float16
    np.testing.assert_allclose(ours.astype(np.float64), theirs.astype(np.float64),
                               rtol=5e-3, atol=5e-3)


def test_extreme_scores_and_wide_keys():
    rng = np.random.default_rng(13)
    q = rng.standard_normal((3, 4096))
    k = rng.standard_normal((5, 4096))
    v = rng.standard_normal((5, 2))
    assert_same(scaled_dot_product_attention(q, k, v), torch_sdpa(q, k, v), np.float64)
    big_q = np.array([[100.0], [-100.0]])
    big_k = np.array([[100.0], [99.98], [-100.0]])
    big_v = np.array([[1.0], [2.0], [3.0]])
    assert_same(scaled_dot_product_attention(big_q, big_k, big_v, scale=1.0),
                torch_sdpa(big_q, big_k, big_v, scale=1.0), np.float64)
