"""The loop twins of notebooks 11-13 themselves, on answers worked out by hand."""

import math

import numpy as np
import pytest

from course_lib.reference_beyond import (
    attention_gradients_loop,
    causal_mask_loop,
    matmul_loop,
    multi_head_attention_loop,
    padding_mask_loop,
)


def test_causal_mask_loop_is_lower_triangular_also_when_n_differs_from_m():
    assert causal_mask_loop(3) == [[True, False, False], [True, True, False], [True, True, True]]
    assert causal_mask_loop(2, 4) == [[True, False, False, False], [True, True, False, False]]
    assert causal_mask_loop(3, 1) == [[True], [True], [True]]


def test_padding_mask_loop_keeps_the_first_length_keys():
    assert padding_mask_loop([0, 3, 1], 3) == [[[False, False, False]], [[True, True, True]],
                                                [[True, False, False]]]


def test_matmul_loop_by_hand_and_shape_error():
    assert matmul_loop([[1, 2], [3, 4]], [[5, 6], [7, 8]]) == [[19.0, 22.0], [43.0, 50.0]]
    with pytest.raises(ValueError, match="2 columns but B has 3 rows"):
        matmul_loop([[1, 2]], [[1], [2], [3]])


def test_multi_head_attention_loop_with_identity_weights():
    # X = I₂, every W = I₂, 2 heads of width 1: head 0 sees slot 0, head 1 slot 1, scale 1/√1.
    eye = [[1.0, 0.0], [0.0, 1.0]]
    out, weights = multi_head_attention_loop(eye, eye, eye, eye, eye, eye, eye, num_heads=2)
    e = math.e
    assert weights[0][0] == pytest.approx([e / (e + 1), 1 / (e + 1)], rel=1e-15)
    assert weights[1][0] == [0.5, 0.5]  # query 0 has 0 in slot 1: equal scores
    assert out[0] == pytest.approx([e / (e + 1), 0.5], rel=1e-15)  # value slot t of head t


def test_attention_gradients_loop_by_hand():
    # One query q = (1, 0), keys e₁, e₂, values 1 and 3, scale 1, G = 1:
    # A = (a, 1 − a) with a = e/(e + 1); ∂L/∂V = Aᵀ G = A; ∂L/∂A = (1, 3);
    # ∂L/∂S = A ⊙ ((1, 3) − (a + 3(1 − a))) = (−2a(1 − a), 2a(1 − a)); ∂L/∂Q = ∂L/∂S K.
    a = math.e / (math.e + 1)
    dq, dk, dv = attention_gradients_loop([[1, 0]], [[1, 0], [0, 1]], [[1], [3]], [[1]],
                                          scale=1.0)
    s = 2 * a * (1 - a)
    np.testing.assert_allclose(dv, [[a], [1 - a]], rtol=1e-15)
    np.testing.assert_allclose(dq, [[-s, s]], rtol=1e-14)
    np.testing.assert_allclose(dk, [[-s, 0.0], [s, 0.0]], rtol=1e-14, atol=0)
