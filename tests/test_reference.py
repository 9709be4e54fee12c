"""The loop twins themselves: hand-computed answers, so the reference is checked too.

These functions are what every vectorised function is compared against, so they are tested
here on their own, with numbers worked out by hand and without any of the vectorised code.
"""

import math

import numpy as np
import pytest

from course_lib.reference import (
    attention_loop,
    dot_loop,
    norm_loop,
    score_grid_loop,
    softmax_loop,
    sum_loop,
)


def close(a, b, tol=1e-15):
    return math.isclose(a, b, rel_tol=tol, abs_tol=tol)


def test_sum_loop():
    assert sum_loop([1, 2, 3]) == 6.0
    assert sum_loop([]) == 0.0
    assert type(sum_loop(np.array([0.5, 0.25]))) is float


def test_norm_loop():
    assert norm_loop([3, 4]) == 5.0
    assert norm_loop([-2.0, 3.0, 6.0]) == 7.0
    assert norm_loop([0.0]) == 0.0


def test_dot_loop():
    assert dot_loop([1, 2, 3], [4, 5, 6]) == 32.0
    assert dot_loop([1.0, 0.0], [0.0, 7.0]) == 0.0
    assert dot_loop([100, 100], np.array([100, 100], dtype=np.int8)) == 20000.0  # no wrap
    with pytest.raises(ValueError, match="q has 3 slots but k has 2"):
        dot_loop([1, 2, 3], [1, 2])


def test_score_grid_loop():
    q = [[1, 0], [0, 1], [2, 2]]
    k = [[1, 2], [3, 4]]
    assert score_grid_loop(q, k) == [[1.0, 3.0], [2.0, 4.0], [6.0, 14.0]]


def test_softmax_loop_hand_computed():
    assert softmax_loop([0.0, 0.0]) == [0.5, 0.5]
    w = softmax_loop([0.0, math.log(3.0)])
    assert close(w[0], 0.25) and close(w[1], 0.75)
    e = math.e
    w = softmax_loop([1, 2, 3])
    total = 1 + e + e * e
    expected = [1 / total, e / total, e * e / total]
    assert len(w) == 3
    assert all(close(a, b) for a, b in zip(w, expected, strict=True))


def test_softmax_loop_large_and_masked_scores():
    assert softmax_loop([1000.0, 1000.0]) == [0.5, 0.5]  # the largest score is subtracted first
    assert softmax_loop([1e4, -1e4]) == [1.0, 0.0]
    assert softmax_loop([0.0, -math.inf, 0.0]) == [0.5, 0.0, 0.5]
    assert softmax_loop([-math.inf, -math.inf]) == [0.0, 0.0]


def test_attention_loop_hand_computed():
    # d_k = 4 → scale 1/2: scores [1, 0], weights [e/(e+1), 1/(e+1)]
    out, w = attention_loop([[2, 0, 0, 0]], [[1, 0, 0, 0], [0, 0, 0, 0]], [[1, 0], [0, 1]])
    e = math.e
    assert close(w[0][0], e / (e + 1)) and close(w[0][1], 1 / (e + 1))
    assert close(out[0][0], e / (e + 1)) and close(out[0][1], 1 / (e + 1))


def test_attention_loop_explicit_scale():
    out, w = attention_loop([[1]], [[0], [math.log(2.0)], [0]], [[4, 0], [8, 4], [0, 8]],
                            scale=1.0)
    assert all(close(a, b) for a, b in zip(w[0], [0.25, 0.5, 0.25], strict=True))
    assert close(out[0][0], 5.0) and close(out[0][1], 4.0)


def test_attention_loop_causal_when_n_differs_from_m():
    # 3 queries, 2 keys: query 0 sees key 0; queries 1 and 2 see both (top-left aligned).
    q = [[0.0], [0.0], [0.0]]
    out, w = attention_loop(q, [[1.0], [2.0]], [[10.0], [20.0]], is_causal=True)
    assert w == [[1.0, 0.0], [0.5, 0.5], [0.5, 0.5]]
    assert out == [[10.0], [15.0], [15.0]]
    # 2 queries, 3 keys: query 0 sees key 0, query 1 sees keys 0 and 1, nobody sees key 2.
    out, w = attention_loop([[0.0], [0.0]], [[1.0], [2.0], [3.0]], [[10.0], [20.0], [30.0]],
                            is_causal=True)
    assert w == [[1.0, 0.0, 0.0], [0.5, 0.5, 0.0]]
    assert out == [[10.0], [15.0]]


def test_attention_loop_masks():
    q, k, v = [[0.0]], [[1.0], [2.0], [3.0]], [[10.0], [20.0], [40.0]]
    _, w = attention_loop(q, k, v, attn_mask=[[True, False, True]])
    assert w == [[0.5, 0.0, 0.5]]
    _, w = attention_loop(q, k, v, attn_mask=np.array([[True, False, True]]))  # numpy bools
    assert w == [[0.5, 0.0, 0.5]]
    out, w = attention_loop(q, k, v, attn_mask=[[0.0, -math.inf, math.log(3.0)]])
    assert close(w[0][0], 0.25) and w[0][1] == 0.0 and close(w[0][2], 0.75)
    assert close(out[0][0], 32.5)
    out, w = attention_loop(q, k, v, attn_mask=[[False, False, False]])
    assert w == [[0.0, 0.0, 0.0]]
    assert out == [[0.0]]  # nothing to attend to: zeros


def test_attention_loop_returns_plain_python_floats():
    out, w = attention_loop(np.ones((2, 3)), np.ones((4, 3)), np.ones((4, 2)))
    assert len(out) == 2 and len(w) == 2
    assert all(type(x) is float for row in out + w for x in row)
    assert all(close(sum(row), 1.0) for row in w)
