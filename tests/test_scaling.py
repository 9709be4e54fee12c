"""Scaling by 1/√d_k: default_scale, scaled_scores, and the variance facts behind them.

The statistical tests use a fixed seed, so they are deterministic; their tolerances are also
wide enough that ANY seed passes with overwhelming probability, so changing the seed or the
random generator cannot make them flaky. See ``variance_tolerance`` for the derivation.
"""

import math

import numpy as np
import pytest

from course_lib import (
    default_scale,
    sample_dot_products,
    scaled_dot_product_attention,
    scaled_scores,
    score_grid,
    to_numpy,
)
from course_lib.reference import attention_loop, score_grid_loop

SAMPLE_SIZE = 40_000  # (q, k) pairs per variance estimate
SIGMAS = 6  # a 6-standard-deviation miss has probability ~2e-9 for a normal estimate


def on(xp, x):
    return xp.asarray(np.asarray(x))


def variance_tolerance(d_k, size=SAMPLE_SIZE, sigmas=SIGMAS):
    """Relative tolerance for the sample variance of ``size`` draws of X = q·k.

    The variance of a sample variance s² of N independent draws is about (μ₄ − σ⁴)/N, with
    μ₄ = E[X⁴] and σ² = Var X. For X = Σᵢ qᵢkᵢ with independent N(0, 1) slots, each product
    Yᵢ = qᵢkᵢ has E[Yᵢ²] = 1 and E[Yᵢ⁴] = E[q⁴]·E[k⁴] = 3·3 = 9, so
        σ² = d_k,
        μ₄ = Σᵢ E[Yᵢ⁴] + 3 Σ_{i≠j} E[Yᵢ²]E[Yⱼ²] = 9 d_k + 3 d_k(d_k − 1) = 3 d_k² + 6 d_k,
    and SD(s²)/σ² = √((2 + 6/d_k)/N). Scaling X by c scales s² by c², so the relative error is
    the same after scaling. With N = 40 000 one standard deviation is 1.4 % at d_k = 1 and 0.7 %
    at d_k = 256; we allow ``sigmas`` of them.
    """
    return sigmas * math.sqrt((2.0 + 6.0 / d_k) / size)


# ---------------------------------------------------------------------------------------------
# default_scale and scaled_scores


@pytest.mark.parametrize(("d_k", "expected"), [
    (1, 1.0), (4, 0.5), (64, 0.125), (2, 1 / math.sqrt(2.0)), (np.int64(16), 0.25)])
def test_default_scale(d_k, expected):
    assert default_scale(d_k) == pytest.approx(expected, rel=1e-15)


def test_default_scale_is_one_over_root_d_k_not_one_over_d_k():
    # The course's source text lost its square roots: the scale is 1/√d_k, never 1/d_k.
    assert default_scale(100) == 0.1
    assert default_scale(100) != 1 / 100


def test_scaled_scores_known_answer(xp):
    # q·k = 8 with d_k = 4: 8/√4 = 4
    out = to_numpy(scaled_scores(on(xp, [[2.0, 2.0, 2.0, 2.0]]), on(xp, [[1.0, 1.0, 1.0, 1.0]])))
    assert out.tolist() == [[4.0]]


def test_scaled_scores_explicit_scale(xp):
    q, k = [[1.0, 2.0], [3.0, 4.0]], [[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]
    out = to_numpy(scaled_scores(on(xp, q), on(xp, k), scale=0.5))
    assert out.tolist() == [[0.5, 1.0, 1.5], [1.5, 2.0, 3.5]]


def test_scaled_scores_match_loop(xp):
    rng = np.random.default_rng(0)
    q, k = rng.standard_normal((2, 3, 9)), rng.standard_normal((2, 4, 9))
    out = to_numpy(scaled_scores(on(xp, q), on(xp, k)))
    assert out.shape == (2, 3, 4)
    for b in range(2):
        expected = np.array(score_grid_loop(q[b], k[b])) / 3.0  # √9 = 3
        np.testing.assert_allclose(out[b], expected, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(out, to_numpy(score_grid(on(xp, q), on(xp, k))) / 3.0,
                               rtol=1e-15, atol=0)


# ---------------------------------------------------------------------------------------------
# Var(q·k) ≈ d_k, and ≈ 1 after scaling


@pytest.mark.parametrize("d_k", [1, 4, 16, 64, 256])
def test_variance_of_dot_products_is_d_k(d_k):
    samples = sample_dot_products(d_k, SAMPLE_SIZE, np.random.default_rng(2024 + d_k))
    assert samples.shape == (SAMPLE_SIZE,)
    tol = variance_tolerance(d_k)
    assert tol < 0.1  # the check is sharp enough to tell d_k from, say, 0.9·d_k
    assert abs(samples.var() / d_k - 1.0) < tol
    # the mean is 0: SD of the sample mean is √(d_k/N)
    assert abs(samples.mean()) < SIGMAS * math.sqrt(d_k / SAMPLE_SIZE)


@pytest.mark.parametrize("d_k", [1, 4, 16, 64, 256])
def test_variance_after_scaling_is_one(d_k):
    scale = default_scale(d_k)
    samples = sample_dot_products(d_k, SAMPLE_SIZE, np.random.default_rng(7 + d_k), scale=scale)
    assert abs(samples.var() - 1.0) < variance_tolerance(d_k)


def test_unscaled_variance_grows_with_d_k():
    # The reason for the scale: without it, d_k = 256 gives scores with spread √256 = 16.
    small = sample_dot_products(4, SAMPLE_SIZE, np.random.default_rng(1)).var()
    large = sample_dot_products(256, SAMPLE_SIZE, np.random.default_rng(2)).var()
    assert large / small > 40  # expected 64, each within a few per cent


def test_sample_dot_products_follow_the_rng():
    a = sample_dot_products(8, 100, np.random.default_rng(5))
    b = sample_dot_products(8, 100, np.random.default_rng(5))
    c = sample_dot_products(8, 100, np.random.default_rng(6))
    np.testing.assert_array_equal(a, b)
    assert not np.array_equal(a, c)
    np.testing.assert_allclose(sample_dot_products(8, 100, np.random.default_rng(5), scale=0.5),
                               0.5 * a, rtol=1e-15)


def test_sample_dot_products_rejects_bad_d_k():
    with pytest.raises(ValueError, match="d_k"):
        sample_dot_products(0, 10, np.random.default_rng(0))


# ---------------------------------------------------------------------------------------------
# d_k, not the model width or the number of heads, sets the scale

D_MODEL, HEADS = 96, 4
D_K = D_MODEL // HEADS  # 24: every candidate scale below is different
WRONG_SCALES = {
    "1/√d_model": 1 / math.sqrt(D_MODEL),
    "1/√heads": 1 / math.sqrt(HEADS),
    "1/d_k (square root lost)": 1 / D_K,
    "1/d_model": 1 / D_MODEL,
    "no scale": 1.0,
}


def split_heads(x):
    """(n, d_model) → (heads, n, d_k): each head gets its own d_k = d_model / heads slots."""
    n = x.shape[0]
    return x.reshape(n, HEADS, D_K).transpose(1, 0, 2)


def test_head_size_sets_the_scale(xp):
    rng = np.random.default_rng(11)
    n, m = 5, 7
    # Slots of spread 1.5: a head's q·k has spread 1.5²·√24 ≈ 11, so the scale matters a lot.
    q = split_heads(1.5 * rng.standard_normal((n, D_MODEL)))
    k = split_heads(1.5 * rng.standard_normal((m, D_MODEL)))
    v = split_heads(rng.standard_normal((m, D_MODEL)))
    assert q.shape == (HEADS, n, D_K)

    out = to_numpy(scaled_dot_product_attention(on(xp, q), on(xp, k), on(xp, v)))
    right = 1 / math.sqrt(D_K)
    explicit = to_numpy(scaled_dot_product_attention(on(xp, q), on(xp, k), on(xp, v),
                                                     scale=right))
    np.testing.assert_allclose(out, explicit, rtol=1e-13, atol=1e-13)
    for h in range(HEADS):
        ref, _ = attention_loop(q[h], k[h], v[h], scale=right)
        np.testing.assert_allclose(out[h], ref, rtol=1e-10, atol=1e-12)

    assert len(WRONG_SCALES) == 5
    for name, wrong in WRONG_SCALES.items():
        assert not math.isclose(wrong, right, rel_tol=0.05), name
        bad = to_numpy(scaled_dot_product_attention(on(xp, q), on(xp, k), on(xp, v),
                                                    scale=wrong))
        # outputs are averages of N(0, 1) values: a gap of 0.1 is far beyond rounding (1e-15)
        assert np.abs(bad - out).max() > 0.1, name


def test_scaled_scores_use_the_head_size(xp):
    rng = np.random.default_rng(12)
    q = split_heads(rng.standard_normal((3, D_MODEL)))
    k = split_heads(rng.standard_normal((4, D_MODEL)))
    out = to_numpy(scaled_scores(on(xp, q), on(xp, k)))
    raw = to_numpy(score_grid(on(xp, q), on(xp, k)))
    np.testing.assert_allclose(out, raw / math.sqrt(24.0), rtol=1e-15, atol=0)
    assert not np.allclose(out, raw / math.sqrt(96.0))


def message(excinfo):
    return str(excinfo.value)


# ---------------------------------------------------------------------------------------------
# Errors (moved from test_errors.py)


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


def test_the_default_scale_of_the_attention_functions_is_default_scale():
    """One rule: check_scale(None, d_k), which every attention function's door calls, is
    default_scale(d_k), and a d_k of 0 is refused by the same words."""
    from course_lib.scaling import check_scale

    for d_k in (1, 3, 64, 100):
        assert check_scale(None, d_k) == default_scale(d_k)
    with pytest.raises(ValueError) as excinfo:
        check_scale(None, 0)
    assert str(excinfo.value) == str(pytest.raises(ValueError, default_scale, 0).value)
