"""Masks: causal and padding masks (True = may attend), the −∞ rule, and what a mask cannot fix.

The math runs once per array library through the ``xp`` fixture (NumPy, and CuPy on a GPU).
"""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from course_lib import (
    additive_mask,
    causal_mask,
    padding_mask,
    scaled_dot_product_attention,
    softmax,
    to_numpy,
)
from course_lib.masks import apply_mask
from course_lib.reference import attention_loop
from course_lib.reference_beyond import causal_mask_loop, padding_mask_loop

HYPOTHESIS = settings(max_examples=40, deadline=None,
                      suppress_health_check=[HealthCheck.function_scoped_fixture])


def qkv(rng, batch=(), n=4, m=5, d_k=3, d_v=2):
    return (rng.standard_normal(batch + (n, d_k)), rng.standard_normal(batch + (m, d_k)),
            rng.standard_normal(batch + (m, d_v)))


def on(xp, *arrays):
    return [xp.asarray(np.asarray(a)) for a in arrays]


# ---------------------------------------------------------------------------------------------
# The causal mask

@pytest.mark.parametrize(("n", "m"), [(1, 1), (3, 3), (2, 5), (5, 2), (7, 7)])
def test_causal_mask_matches_loop(n, m):
    mask = to_numpy(causal_mask(n, m))
    assert mask.dtype == bool
    assert mask.shape == (n, m)
    assert mask.tolist() == causal_mask_loop(n, m)


def test_causal_mask_default_is_square():
    assert to_numpy(causal_mask(4)).shape == (4, 4)


def test_causal_mask_each_row_sees_itself_and_the_past():
    mask = to_numpy(causal_mask(6))
    rows = list(range(6))
    assert rows
    for i in rows:
        assert mask[i, : i + 1].all()
        assert not mask[i, i + 1:].any()


@pytest.mark.parametrize(("n", "m"), [(4, 4), (3, 6), (6, 3)])
def test_causal_mask_equals_is_causal(xp, n, m):
    q, k, v = on(xp, *qkv(np.random.default_rng(1), n=n, m=m))
    with_mask = scaled_dot_product_attention(q, k, v, attn_mask=xp.asarray(to_numpy(
        causal_mask(n, m))))
    with_flag = scaled_dot_product_attention(q, k, v, is_causal=True)
    np.testing.assert_allclose(to_numpy(with_mask), to_numpy(with_flag), rtol=0, atol=0)


def test_causal_output_row_ignores_later_tokens(xp):
    """Changing token 3's key and value cannot change what tokens 0..2 computed."""
    rng = np.random.default_rng(2)
    q, k, v = qkv(rng, n=5, m=5)
    k2, v2 = k.copy(), v.copy()
    k2[3:] += 10.0
    v2[3:] -= 7.0
    a = to_numpy(scaled_dot_product_attention(*on(xp, q, k, v), is_causal=True))
    b = to_numpy(scaled_dot_product_attention(*on(xp, q, k2, v2), is_causal=True))
    np.testing.assert_allclose(a[:3], b[:3], rtol=1e-13, atol=1e-13)
    assert np.abs(a[3:] - b[3:]).max() > 1.0


@pytest.mark.parametrize("bad", [0, -1])
def test_causal_mask_rejects_non_positive_key_counts(bad):
    with pytest.raises(ValueError, match="m must be a positive integer"):
        causal_mask(2, bad)


def test_causal_mask_takes_zero_queries_but_not_negative():
    assert causal_mask(0, 3).shape == (0, 3)  # no queries: an empty mask, as attention allows
    with pytest.raises(ValueError, match="n must be an integer ≥ 0"):
        causal_mask(-1)


def test_causal_mask_block_is_a_slice_of_the_whole(xp):
    whole = to_numpy(causal_mask(7, 9))
    block = to_numpy(causal_mask(3, 4, diagonal=4 - 2, like=xp.zeros(1)))
    np.testing.assert_array_equal(block, whole[4:7, 2:6])  # queries 4-6, keys 2-5
    assert block.any() and not block.all()


@pytest.mark.parametrize("bad", [2.5, True, "3", None])
def test_causal_mask_rejects_non_integers(bad):
    with pytest.raises(TypeError, match="n must be an integer"):
        causal_mask(bad)


# ---------------------------------------------------------------------------------------------
# The padding mask

@pytest.mark.parametrize(("lengths", "m"), [([1], 1), ([2, 3], 4), ([0, 5, 3], 5), ([], 3)])
def test_padding_mask_matches_loop(lengths, m):
    mask = to_numpy(padding_mask(np.asarray(lengths, dtype=int), m))
    assert mask.dtype == bool
    assert mask.shape == (len(lengths), 1, m)
    assert mask.tolist() == padding_mask_loop(lengths, m)


def test_padding_equals_attention_on_the_unpadded_keys(xp):
    """Padding keys out must give exactly the answer of never having had them."""
    rng = np.random.default_rng(3)
    lengths = [2, 5, 4]
    q, k, v = qkv(rng, batch=(3,), n=4, m=5)
    mask = xp.asarray(to_numpy(padding_mask(lengths, 5)))
    out, weights = scaled_dot_product_attention(*on(xp, q, k, v), attn_mask=mask,
                                                return_weights=True)
    out, weights = to_numpy(out), to_numpy(weights)
    assert lengths
    for b, length in enumerate(lengths):
        short = scaled_dot_product_attention(q[b], k[b, :length], v[b, :length])
        np.testing.assert_allclose(out[b], short, rtol=1e-12, atol=1e-12)
        assert (weights[b, :, length:] == 0).all()
        np.testing.assert_allclose(weights[b].sum(axis=-1), 1.0, rtol=1e-12)


def test_padding_length_zero_gives_zero_output(xp):
    q, k, v = qkv(np.random.default_rng(4), batch=(2,), n=3, m=4)
    mask = xp.asarray(to_numpy(padding_mask([0, 4], 4)))
    out, weights = scaled_dot_product_attention(*on(xp, q, k, v), attn_mask=mask,
                                                return_weights=True)
    out, weights = to_numpy(out), to_numpy(weights)
    assert (out[0] == 0).all()
    assert (weights[0] == 0).all()
    assert np.isfinite(out).all()
    np.testing.assert_allclose(weights[1].sum(axis=-1), 1.0, rtol=1e-12)


def test_padding_mask_combines_with_causal_by_and(xp):
    rng = np.random.default_rng(5)
    q, k, v = qkv(rng, batch=(2,), n=5, m=5)
    both = to_numpy(padding_mask([3, 5], 5)) & to_numpy(causal_mask(5))  # (2, 5, 5)
    out, weights = scaled_dot_product_attention(*on(xp, q, k, v), attn_mask=xp.asarray(both),
                                                return_weights=True)
    weights = to_numpy(weights)
    assert (weights[~both] == 0).all()
    np.testing.assert_allclose(weights.sum(axis=-1), 1.0, rtol=1e-12)


@pytest.mark.parametrize(("lengths", "message"), [
    ([-1, 2], "between 0 and m"),
    ([2, 6], "between 0 and m"),
    ([[1, 2]], "1-D array of integers"),
    ([1.5, 2.0], "1-D array of integers"),
])
def test_padding_mask_rejects_bad_lengths(lengths, message):
    with pytest.raises(ValueError, match=message):
        padding_mask(lengths, 5)


def test_padding_mask_rejects_bad_m():
    with pytest.raises(ValueError, match="m must be a positive integer"):
        padding_mask([1], 0)


# ---------------------------------------------------------------------------------------------
# −∞ on the scores before the softmax versus zeroing and renormalising after

def test_additive_mask_values():
    got = additive_mask(np.array([[True, False], [False, True]]))
    assert got.dtype == np.float64
    assert got.tolist() == [[0.0, -np.inf], [-np.inf, 0.0]]
    assert additive_mask(np.array([True]), dtype=np.float32).dtype == np.float32


def test_additive_mask_rejects_non_boolean():
    with pytest.raises(TypeError, match="must be boolean"):
        additive_mask(np.array([[1.0, 0.0]]))


@pytest.mark.parametrize("kind", ["bool", "float", "none"])
def test_apply_mask_in_place_equals_the_new_array(xp, kind):
    """out=scores (the fast functions' in-place form) gives the same numbers as a new array,
    written into the buffer itself; a mask that broadcasts (1, m) works either way."""
    rng = np.random.default_rng(9)
    scores = xp.asarray(rng.standard_normal((2, 4, 6)))
    allowed = rng.random((1, 6)) < 0.5
    mask = {"bool": allowed, "float": additive_mask(allowed) + 0.25, "none": None}[kind]
    mask = None if mask is None else xp.asarray(mask)
    fresh = apply_mask(scores, mask)
    buffer = scores.copy()
    assert apply_mask(buffer, mask, out=buffer) is buffer
    np.testing.assert_array_equal(to_numpy(buffer), to_numpy(fresh))
    blocked = ~np.broadcast_to(allowed, (2, 4, 6))
    if kind != "none":
        assert np.all(np.isneginf(to_numpy(buffer)[blocked]))
        assert not np.isneginf(to_numpy(buffer)[~blocked]).any()
    elsewhere = xp.empty((3, 2, 4, 6))  # out of the broadcast shape of scores and mask
    apply_mask(scores, mask, out=elsewhere)
    np.testing.assert_array_equal(to_numpy(elsewhere[1]), to_numpy(fresh))


def test_additive_and_boolean_masks_agree(xp):
    rng = np.random.default_rng(6)
    q, k, v = qkv(rng, n=4, m=6)
    mask = rng.random((4, 6)) < 0.6
    mask[:, 0] = True
    a = scaled_dot_product_attention(*on(xp, q, k, v), attn_mask=xp.asarray(mask))
    b = scaled_dot_product_attention(*on(xp, q, k, v),
                                     attn_mask=xp.asarray(additive_mask(mask)))
    np.testing.assert_allclose(to_numpy(a), to_numpy(b), rtol=0, atol=0)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(1, 5), m=st.integers(1, 7))
def test_minus_infinity_first_equals_zeroing_and_renormalising_after(seed, n, m):
    """The same maths two ways, wherever a row keeps at least one key."""
    rng = np.random.default_rng(seed)
    scores = rng.normal(scale=3.0, size=(n, m))
    mask = rng.random((n, m)) < 0.5
    mask[np.arange(n), rng.integers(0, m, size=n)] = True  # every row keeps a key
    first = softmax(np.where(mask, scores, -np.inf))
    after = softmax(scores) * mask
    after = after / after.sum(axis=-1, keepdims=True)
    np.testing.assert_allclose(first, after, rtol=1e-12, atol=1e-300)


def test_minus_infinity_first_survives_where_renormalising_after_divides_by_zero():
    """Softmax underflows to 0 for the kept key; renormalising after gives 0/0, −∞ first works."""
    scores = np.array([[0.0, -800.0]])  # the kept key is far below the blocked one
    mask = np.array([[False, True]])
    after = softmax(scores) * mask
    assert after.sum() == 0.0  # nothing left to renormalise by
    first = softmax(np.where(mask, scores, -np.inf))
    assert first.tolist() == [[0.0, 1.0]]


def test_fully_masked_row_is_zero_in_the_loop_twin_too():
    out, weights = attention_loop([[1.0, 0.0]], [[1.0, 0.0], [0.0, 1.0]], [[1.0], [2.0]],
                                  attn_mask=[[False, False]])
    assert weights == [[0.0, 0.0]]
    assert out == [[0.0]]


# ---------------------------------------------------------------------------------------------
# What attention cannot see: the order of the keys

@HYPOTHESIS
@given(seed=st.integers(0, 2**32 - 1), m=st.integers(2, 8))
def test_permuting_keys_values_and_mask_columns_changes_nothing(xp, seed, m):
    rng = np.random.default_rng(seed)
    q, k, v = qkv(rng, n=3, m=m)
    mask = rng.random((3, m)) < 0.7
    perm = rng.permutation(m)
    a = scaled_dot_product_attention(*on(xp, q, k, v), attn_mask=xp.asarray(mask))
    b = scaled_dot_product_attention(*on(xp, q, k[perm], v[perm]),
                                     attn_mask=xp.asarray(mask[:, perm]))
    np.testing.assert_allclose(to_numpy(a), to_numpy(b), rtol=1e-12, atol=1e-12)


def test_self_attention_of_a_shuffled_sentence_is_the_shuffled_output(xp):
    """Without positions, "dog bites man" and "man bites dog" give the same vectors, reordered."""
    rng = np.random.default_rng(7)
    x = rng.standard_normal((3, 4))
    perm = np.array([2, 1, 0])
    a = to_numpy(scaled_dot_product_attention(*on(xp, x, x, x)))
    b = to_numpy(scaled_dot_product_attention(*on(xp, x[perm], x[perm], x[perm])))
    np.testing.assert_allclose(b, a[perm], rtol=1e-12, atol=1e-12)


# ---------------------------------------------------------------------------------------------
# PyTorch, where installed: the same masks under its conventions

@pytest.mark.torch
def test_masks_match_pytorch():
    torch = pytest.importorskip("torch", reason="PyTorch is not installed (optional parity check)")
    functional = torch.nn.functional
    rng = np.random.default_rng(8)
    q, k, v = qkv(rng, batch=(2,), n=4, m=6)
    tq, tk, tv = (torch.from_numpy(a) for a in (q, k, v))

    ours = scaled_dot_product_attention(q, k, v, attn_mask=causal_mask(4, 6))
    theirs = functional.scaled_dot_product_attention(tq, tk, tv, is_causal=True).numpy()
    np.testing.assert_allclose(ours, theirs, rtol=1e-12, atol=1e-12)

    pad = padding_mask([3, 6], 6)
    ours = scaled_dot_product_attention(q, k, v, attn_mask=pad)
    theirs = functional.scaled_dot_product_attention(tq, tk, tv,
                                                     attn_mask=torch.from_numpy(pad)).numpy()
    np.testing.assert_allclose(ours, theirs, rtol=1e-12, atol=1e-12)


def test_bottom_right_causal_mask_lets_the_last_query_see_every_key(xp):
    like = xp.zeros(1)
    mask = to_numpy(causal_mask(2, 5, align="bottom-right", like=like))
    assert mask.tolist() == [[True, True, True, True, False], [True] * 5]
    square = to_numpy(causal_mask(4, align="bottom-right", like=like))
    np.testing.assert_array_equal(square, to_numpy(causal_mask(4)))  # n = m: the same mask
    with pytest.raises(ValueError, match="align"):
        causal_mask(2, 3, align="bottom")
