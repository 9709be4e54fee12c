"""multi_head_attention: the loop over heads, the per-head scale, W_O, masks, and PyTorch parity."""

import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from course_lib import (
    causal_mask,
    multi_head_attention,
    padding_mask,
    scaled_dot_product_attention,
    softmax,
    to_numpy,
)
from course_lib.multihead import split_heads
from course_lib.reference_beyond import multi_head_attention_loop

HYPOTHESIS = settings(max_examples=30, deadline=None,
                      suppress_health_check=[HealthCheck.function_scoped_fixture])


def weights(rng, d_q, d_kv, h, d_k, d_v, d_out):
    """W_Q (d_q, h·d_k), W_K (d_kv, h·d_k), W_V (d_kv, h·d_v), W_O (h·d_v, d_out)."""
    return (rng.standard_normal((d_q, h * d_k)) / math.sqrt(d_q),
            rng.standard_normal((d_kv, h * d_k)) / math.sqrt(d_kv),
            rng.standard_normal((d_kv, h * d_v)) / math.sqrt(d_kv),
            rng.standard_normal((h * d_v, d_out)) / math.sqrt(h * d_v))


def mha(xp, x, y, z, ws, h, attn_mask=None, **kwargs):
    args = [xp.asarray(np.asarray(a)) for a in (x, y, z, *ws)]
    if attn_mask is not None:
        attn_mask = xp.asarray(np.asarray(to_numpy(attn_mask)))
    result = multi_head_attention(*args, h, attn_mask=attn_mask, **kwargs)
    if isinstance(result, tuple):
        return tuple(to_numpy(r) for r in result)
    return to_numpy(result)


CASES = [  # n, m, d_q, d_kv, h, d_k, d_v, d_out
    (4, 4, 8, 8, 2, 4, 4, 8),     # self-attention shape, d_model = 8, 2 heads
    (3, 5, 6, 6, 3, 2, 2, 6),     # n ≠ m
    (2, 6, 4, 10, 2, 3, 5, 7),    # cross-attention: different widths everywhere
    (5, 5, 8, 8, 1, 8, 8, 8),     # one head
    (1, 1, 4, 4, 4, 1, 1, 4),     # one token, heads of width 1
]


# ---------------------------------------------------------------------------------------------
# The loop over heads

@pytest.mark.parametrize("case", CASES)
def test_matches_loop_over_heads(xp, case):
    n, m, d_q, d_kv, h, d_k, d_v, d_out = case
    rng = np.random.default_rng(sum(case))
    x, y = rng.standard_normal((n, d_q)), rng.standard_normal((m, d_kv))
    ws = weights(rng, d_q, d_kv, h, d_k, d_v, d_out)
    out, w = mha(xp, x, y, y, ws, h, return_weights=True)
    ref_out, ref_w = multi_head_attention_loop(x, y, y, *ws, num_heads=h)
    assert out.shape == (n, d_out)
    assert w.shape == (h, n, m)
    np.testing.assert_allclose(out, ref_out, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(w, ref_w, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("case", CASES[:3])
def test_matches_loop_with_mask_and_causal(xp, case):
    n, m, d_q, d_kv, h, d_k, d_v, d_out = case
    rng = np.random.default_rng(100 + sum(case))
    x, y = rng.standard_normal((n, d_q)), rng.standard_normal((m, d_kv))
    ws = weights(rng, d_q, d_kv, h, d_k, d_v, d_out)
    mask = rng.random((n, m)) < 0.6
    mask[0] = False  # a fully masked query row
    out = mha(xp, x, y, y, ws, h, attn_mask=mask)
    ref, _ = multi_head_attention_loop(x, y, y, *ws, num_heads=h, attn_mask=mask.tolist())
    np.testing.assert_allclose(out, ref, rtol=1e-10, atol=1e-12)
    assert (out[0] == 0).all()  # zero head outputs, then W_O: still zero (no bias)
    out = mha(xp, x, y, y, ws, h, is_causal=True)
    ref, _ = multi_head_attention_loop(x, y, y, *ws, num_heads=h, is_causal=True)
    np.testing.assert_allclose(out, ref, rtol=1e-10, atol=1e-12)


@HYPOTHESIS
@given(seed=st.integers(0, 2**32 - 1), h=st.sampled_from([1, 2, 4]), n=st.integers(1, 5),
       m=st.integers(1, 5), d_k=st.integers(1, 3))
def test_matches_loop_on_generated_shapes(xp, seed, h, n, m, d_k):
    rng = np.random.default_rng(seed)
    x, y = rng.standard_normal((n, 5)), rng.standard_normal((m, 3))
    ws = weights(rng, 5, 3, h, d_k, 2, 4)
    out = mha(xp, x, y, y, ws, h)
    ref, _ = multi_head_attention_loop(x, y, y, *ws, num_heads=h)
    np.testing.assert_allclose(out, ref, rtol=1e-10, atol=1e-12)


# ---------------------------------------------------------------------------------------------
# The per-head scale, the slices, and W_O

def test_scale_uses_the_per_head_d_k_not_d_model(xp):
    rng = np.random.default_rng(11)
    d_model, h = 16, 4  # d_k = 4
    x = rng.standard_normal((5, d_model))
    ws = weights(rng, d_model, d_model, h, 4, 4, d_model)
    _, w = mha(xp, x, x, x, ws, h, return_weights=True)
    q, k = split_heads(x @ ws[0], h), split_heads(x @ ws[1], h)  # (h, n, 4)
    scores = q @ np.swapaxes(k, -1, -2)
    np.testing.assert_allclose(w, softmax(scores / math.sqrt(4)), rtol=1e-12, atol=1e-14)
    assert np.abs(w - softmax(scores / math.sqrt(d_model))).max() > 1e-3


def test_one_head_with_identity_weights_is_plain_attention(xp):
    rng = np.random.default_rng(12)
    x, y = rng.standard_normal((4, 6)), rng.standard_normal((5, 6))
    eye = np.eye(6)
    out = mha(xp, x, y, y, (eye, eye, eye, eye), 1)
    np.testing.assert_allclose(out, scaled_dot_product_attention(x, y, y), rtol=1e-12)


def test_identity_w_o_concatenates_the_heads(xp):
    """With W_O = I the output is [head₀ | head₁]: each head attends on its own column slice."""
    rng = np.random.default_rng(13)
    x = rng.standard_normal((4, 6))
    eye = np.eye(6)
    out = mha(xp, x, x, x, (eye, eye, eye, eye), 2)
    heads = [scaled_dot_product_attention(x[:, s], x[:, s], x[:, s])
             for s in (slice(0, 3), slice(3, 6))]
    np.testing.assert_allclose(out, np.concatenate(heads, axis=-1), rtol=1e-12)


def test_w_o_mixes_the_heads(xp):
    """Swapping W_O's two row blocks swaps which head feeds which output columns."""
    rng = np.random.default_rng(14)
    x = rng.standard_normal((3, 4))
    w_q, w_k, w_v, _ = weights(rng, 4, 4, 2, 2, 2, 4)
    swap = np.zeros((4, 4))
    swap[0:2, 2:4] = np.eye(2)
    swap[2:4, 0:2] = np.eye(2)
    plain = mha(xp, x, x, x, (w_q, w_k, w_v, np.eye(4)), 2)
    swapped = mha(xp, x, x, x, (w_q, w_k, w_v, swap), 2)
    np.testing.assert_allclose(swapped, np.concatenate([plain[:, 2:], plain[:, :2]], axis=-1),
                               rtol=1e-12)


def test_heads_are_independent(xp):
    """Changing head 1's columns of W_Q leaves head 0's weights exactly as they were."""
    rng = np.random.default_rng(15)
    x = rng.standard_normal((4, 6))
    ws = weights(rng, 6, 6, 2, 3, 3, 6)
    w_q2 = ws[0].copy()
    w_q2[:, 3:] += 1.0
    _, a = mha(xp, x, x, x, ws, 2, return_weights=True)
    _, b = mha(xp, x, x, x, (w_q2, *ws[1:]), 2, return_weights=True)
    np.testing.assert_array_equal(a[0], b[0])
    assert np.abs(a[1] - b[1]).max() > 1e-3


def test_self_versus_cross_attention(xp):
    """Cross-attention: Q from X; K and V from Y. The weights are n × m, rows sum to 1."""
    rng = np.random.default_rng(16)
    x, y = rng.standard_normal((2, 4)), rng.standard_normal((7, 5))
    ws = weights(rng, 4, 5, 2, 3, 3, 4)
    out, w = mha(xp, x, y, y, ws, 2, return_weights=True)
    assert out.shape == (2, 4)
    assert w.shape == (2, 2, 7)
    np.testing.assert_allclose(w.sum(axis=-1), 1.0, rtol=1e-12)


def test_split_heads_round_trip():
    x = np.arange(24.0).reshape(2, 3, 4)
    heads = split_heads(x, 2)
    assert heads.shape == (2, 2, 3, 2)
    np.testing.assert_array_equal(heads[:, 1], x[..., 2:])
    np.testing.assert_array_equal(np.moveaxis(heads, -3, -2).reshape(2, 3, 4), x)


# ---------------------------------------------------------------------------------------------
# Batches and masks

def test_batch_axes_equal_independent_calls(xp):
    rng = np.random.default_rng(17)
    x, y = rng.standard_normal((2, 3, 4, 6)), rng.standard_normal((3, 5, 6))
    ws = weights(rng, 6, 6, 3, 2, 2, 6)
    out, w = mha(xp, x, y, y, ws, 3, return_weights=True)
    assert out.shape == (2, 3, 4, 6)
    assert w.shape == (2, 3, 3, 4, 5)
    pairs = [(a, b) for a in range(2) for b in range(3)]
    assert pairs
    for a, b in pairs:
        ref, ref_w = multi_head_attention_loop(x[a, b], y[b], y[b], *ws, num_heads=3)
        np.testing.assert_allclose(out[a, b], ref, rtol=1e-10, atol=1e-12)
        np.testing.assert_allclose(w[a, b], ref_w, rtol=1e-10, atol=1e-12)


def test_padding_mask_per_sequence(xp):
    rng = np.random.default_rng(18)
    lengths = [2, 5]
    x = rng.standard_normal((2, 5, 4))
    ws = weights(rng, 4, 4, 2, 2, 2, 4)
    out, w = mha(xp, x, x, x, ws, 2, attn_mask=padding_mask(lengths, 5), return_weights=True)
    assert lengths
    for b, length in enumerate(lengths):
        short = multi_head_attention(x[b], x[b, :length], x[b, :length], *ws, 2)
        np.testing.assert_allclose(out[b], short, rtol=1e-12, atol=1e-12)
        assert (w[b, :, :, length:] == 0).all()


def test_mask_of_one_key_row_broadcasts(xp):
    rng = np.random.default_rng(19)
    x = rng.standard_normal((3, 4))
    ws = weights(rng, 4, 4, 2, 2, 2, 4)
    keep = np.array([True, False, True])
    a = mha(xp, x, x, x, ws, 2, attn_mask=keep)
    b = mha(xp, x, x, x, ws, 2, attn_mask=np.broadcast_to(keep, (3, 3)))
    np.testing.assert_allclose(a, b, rtol=0, atol=0)


def test_causal_mask_equals_is_causal(xp):
    rng = np.random.default_rng(20)
    x = rng.standard_normal((2, 5, 4))
    ws = weights(rng, 4, 4, 2, 2, 2, 4)
    a = mha(xp, x, x, x, ws, 2, attn_mask=causal_mask(5))
    b = mha(xp, x, x, x, ws, 2, is_causal=True)
    np.testing.assert_allclose(a, b, rtol=0, atol=0)


# ---------------------------------------------------------------------------------------------
# Bad input: clear messages

def _good(rng):
    x = rng.standard_normal((3, 4))
    return x, weights(rng, 4, 4, 2, 2, 2, 4)


@pytest.mark.parametrize(("h", "error", "message"), [
    (3, ValueError, "cannot share"),
    (0, ValueError, "positive integer; got 0"),
    (2.0, TypeError, "positive integer"),
    (True, TypeError, "positive integer"),
])
def test_rejects_bad_head_counts(h, error, message):
    x, ws = _good(np.random.default_rng(0))
    with pytest.raises(error, match=message):
        multi_head_attention(x, x, x, *ws, h)


def test_rejects_mismatched_shapes():
    rng = np.random.default_rng(0)
    x, (w_q, w_k, w_v, w_o) = _good(rng)
    with pytest.raises(ValueError, match="w_q has 5 rows"):
        multi_head_attention(x, x, x, np.ones((5, 4)), w_k, w_v, w_o, 2)
    with pytest.raises(ValueError, match="same width"):
        multi_head_attention(x, x, x, w_q, np.ones((4, 6)), w_v, w_o, 2)
    with pytest.raises(ValueError, match="w_o has 3 rows"):
        multi_head_attention(x, x, x, w_q, w_k, w_v, np.ones((3, 4)), 2)
    with pytest.raises(ValueError, match="every key needs one value"):
        multi_head_attention(x, x, x[:2], w_q, w_k, w_v, w_o, 2)
    with pytest.raises(ValueError, match="2-D matrix"):
        multi_head_attention(x, x, x, w_q[None], w_k, w_v, w_o, 2)
    with pytest.raises(ValueError, match="does not broadcast"):
        multi_head_attention(x, x, x, w_q, w_k, w_v, w_o, 2, attn_mask=np.ones((2, 2), bool))
    with pytest.raises(ValueError, match="batch axes do not broadcast"):
        multi_head_attention(np.ones((2, 3, 4)), np.ones((3, 3, 4)), np.ones((3, 3, 4)),
                             w_q, w_k, w_v, w_o, 2)
    with pytest.raises(ValueError, match="NaN or infinite"):
        multi_head_attention(x, x, x, w_q, w_k, w_v, np.full((4, 4), np.nan), 2)


# ---------------------------------------------------------------------------------------------
# PyTorch's nn.MultiheadAttention with the same weights, where installed

def _torch_mha(torch, ws, h, d_q, d_kv, batch_first):
    """nn.MultiheadAttention holding our W_Q, W_K, W_V, W_O (it computes x @ W.T, so transpose)."""
    w_q, w_k, w_v, w_o = (torch.from_numpy(np.ascontiguousarray(w.T)) for w in ws)
    layer = torch.nn.MultiheadAttention(d_q, h, bias=False, kdim=d_kv, vdim=d_kv,
                                        batch_first=batch_first, dtype=torch.float64)
    with torch.no_grad():
        if layer._qkv_same_embed_dim:
            layer.in_proj_weight.copy_(torch.cat([w_q, w_k, w_v]))  # rows: W_Qᵀ, W_Kᵀ, W_Vᵀ
        else:
            layer.q_proj_weight.copy_(w_q)
            layer.k_proj_weight.copy_(w_k)
            layer.v_proj_weight.copy_(w_v)
        layer.out_proj.weight.copy_(w_o)
    return layer


@pytest.mark.torch
@pytest.mark.parametrize(("d_kv", "batch_first"), [(8, True), (8, False), (5, True)])
def test_matches_pytorch_multihead_attention(d_kv, batch_first):
    torch = pytest.importorskip("torch", reason="PyTorch is not installed (optional parity check)")
    rng = np.random.default_rng(21)
    d_model, h, n, m = 8, 2, 4, 6
    x, y = rng.standard_normal((3, n, d_model)), rng.standard_normal((3, m, d_kv))
    ws = weights(rng, d_model, d_kv, h, d_model // h, d_model // h, d_model)
    layer = _torch_mha(torch, ws, h, d_model, d_kv, batch_first)

    def run(mask=None, **kwargs):
        tx, ty = torch.from_numpy(x), torch.from_numpy(y)
        if not batch_first:  # its default layout is (sequence, batch, features)
            tx, ty = tx.transpose(0, 1), ty.transpose(0, 1)
        tmask = None if mask is None else torch.from_numpy(~mask)  # PyTorch: True = BLOCKED
        out, w = layer(tx, ty, ty, attn_mask=tmask, need_weights=True,
                       average_attn_weights=False, **kwargs)
        out = out if batch_first else out.transpose(0, 1)
        return out.detach().numpy(), w.detach().numpy()

    ours, our_w = multi_head_attention(x, y, y, *ws, h, return_weights=True)
    theirs, their_w = run()
    np.testing.assert_allclose(ours, theirs, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(our_w, their_w, rtol=1e-10, atol=1e-12)

    mask = rng.random((n, m)) < 0.7
    mask[:, 0] = True  # PyTorch returns NaN for a fully masked row; we return zeros
    ours = multi_head_attention(x, y, y, *ws, h, attn_mask=mask)
    np.testing.assert_allclose(ours, run(mask)[0], rtol=1e-10, atol=1e-12)

    lengths = np.array([2, 6, 4])
    keep = padding_mask(lengths, m)  # (3, 1, m), True = may attend
    ours = multi_head_attention(x, y, y, *ws, h, attn_mask=keep)
    tx, ty = torch.from_numpy(x), torch.from_numpy(y)
    if not batch_first:
        tx, ty = tx.transpose(0, 1), ty.transpose(0, 1)
    theirs, _ = layer(tx, ty, ty, key_padding_mask=torch.from_numpy(~keep[:, 0]),
                      need_weights=False)
    theirs = theirs if batch_first else theirs.transpose(0, 1)
    np.testing.assert_allclose(ours, theirs.detach().numpy(), rtol=1e-10, atol=1e-12)
