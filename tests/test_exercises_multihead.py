"""Notebook 12's exercises (course_lib/exercises/multihead.py): wrong answers written the way
beginners write them, each named by its own slip or relation, and right answers in other
styles accepted."""

import math

import numpy as np
from slip_checks import assert_named, assert_passes

import course_lib as cl
from course_lib.exercises import evaluate
from course_lib.multihead import split_heads


def heads(x, w_q, w_k, num_heads, divisor=lambda d_k, d_model: math.sqrt(d_k), axis=-1,
          cols=None, combine=np.stack):
    """A loop over the heads, the way the notebook's steps read, with one slip switched on."""
    q, k = x @ w_q, x @ w_k
    d_k = q.shape[1] // num_heads
    out = []
    for t in range(num_heads):
        c = cols(t, d_k, num_heads) if cols else slice(t * d_k, (t + 1) * d_k)
        scores = q[:, c] @ k[:, c].T / divisor(d_k, q.shape[1])
        out.append(cl.softmax(scores, axis=axis))
    return combine(out)


def heads_vectorised(x, w_q, w_k, num_heads):
    q, k = split_heads(x @ w_q, num_heads), split_heads(x @ w_k, num_heads)  # (h, n, d_k)
    return cl.softmax(q @ np.swapaxes(k, -1, -2) / math.sqrt(q.shape[-1]))


def test_head_weights_slips():
    assert_named("head_weights", {
        "the full width in the scale": [lambda x, a, b, h: heads(x, a, b, h, lambda d, D:
                                                                 math.sqrt(D))],
        "no scale": [lambda x, a, b, h: heads(x, a, b, h, lambda d, D: 1)],
        "divided by d_k": [lambda x, a, b, h: heads(x, a, b, h, lambda d, D: d)],
        "** 1/2": [lambda x, a, b, h: heads(x, a, b, h, lambda d, D: d ** 1/2)],
        "head 0 for every head": [lambda x, a, b, h: heads(x, a, b, h,
                                                           cols=lambda t, d, h: slice(0, d))],
        "no projections": [lambda x, a, b, h: heads(x, np.eye(len(a)), np.eye(len(a)), h)],
        "interleaved columns": [lambda x, a, b, h: heads(x, a, b, h,
                                                         cols=lambda t, d, h: slice(t, None, h))],
        "one column too many": [lambda x, a, b, h: heads(
            x, a, b, h, cols=lambda t, d, h: slice(t * d, (t + 1) * d + 1))],
        "softmax down the columns": [lambda x, a, b, h: heads(x, a, b, h, axis=0)],
        "joined, not stacked": [lambda x, a, b, h: heads(x, a, b, h, combine=np.hstack),
                                lambda x, a, b, h: heads(x, a, b, h, combine=np.concatenate)],
        "head t from column t": [lambda x, a, b, h: heads(x, a, b, h,
                                                          cols=lambda t, d, h: slice(t, t + d))],
        "the wrong weight matrix": [lambda x, a, b, h: heads(x, a, a, h)],
        "every head on all the columns": [lambda x, a, b, h: np.stack(
            [cl.softmax((x @ a) @ (x @ b).T / math.sqrt(a.shape[1] // h))] * h)],
        "a float for a whole number": [lambda x, a, b, h: x[:, :a.shape[1] / h]],
    })


def test_head_weights_accepts_other_right_answers():
    assert_passes("head_weights", [heads, heads_vectorised,
                                   lambda x, a, b, h: cl.multi_head_attention(
                                       x, x, x, a, b, b, np.eye(a.shape[1]), h,
                                       return_weights=True)[1]])


def multi(x, w_q, w_k, w_v, w_o, num_heads, divisor=lambda d_k, d_model: math.sqrt(d_k),
          merge=lambda hs: np.concatenate(hs, axis=1), values=None):
    q, k, v = x @ w_q, x @ w_k, x @ (w_v if values is None else values)
    d_k = q.shape[1] // num_heads
    out = []
    for t in range(num_heads):
        c = slice(t * d_k, (t + 1) * d_k)
        out.append(cl.softmax(q[:, c] @ k[:, c].T / divisor(d_k, q.shape[1])) @ v[:, c])
    return merge(out) @ w_o


def test_multi_head_slips():
    assert_named("multi_head", {
        "no W_O": [lambda x, a, b, c, o, h: multi(x, a, b, c, np.eye(a.shape[1]), h)],
        "the full width in the scale": [lambda x, a, b, c, o, h: multi(
            x, a, b, c, o, h, lambda d, D: math.sqrt(D))],
        "no scale": [lambda x, a, b, c, o, h: multi(x, a, b, c, o, h, lambda d, D: 1.0)],
        "heads not laid side by side": [
            lambda x, a, b, c, o, h: multi(x, a, b, c, o, h, merge=sum),
            lambda x, a, b, c, o, h: multi(x, a, b, c, o, h, merge=np.concatenate)],
        "heads merged by a reshape": [lambda x, a, b, c, o, h: multi(
            x, a, b, c, o, h, merge=lambda hs: np.stack(hs).reshape(len(x), -1))],
        "W_O transposed": [lambda x, a, b, c, o, h: multi(x, a, b, c, o.T, h)],
        "V from the wrong matrix": [lambda x, a, b, c, o, h: multi(
            x, a, b, c, o, h, values=np.eye(a.shape[1]))],
        "one head on the full width": [lambda x, a, b, c, o, h: multi(x, a, b, c, o, 1)],
        "heads summed": [lambda x, a, b, c, o, h: multi(
            x, a, b, c, o[:a.shape[1] // h], h, merge=sum)],
        "heads in reverse order": [lambda x, a, b, c, o, h: multi(
            x, a, b, c, o, h, merge=lambda hs: np.concatenate(hs[::-1], axis=1))],
        "reshaped to (h, n, d_k)": [reshaped_to_heads],
        "stopped after the first head": [first_head_only],
        "a float for a whole number": [lambda x, a, b, c, o, h: x[:, :a.shape[1] / h]],
    })


def reshaped_to_heads(x, w_q, w_k, w_v, w_o, num_heads):  # no swapaxes: the rows mixed
    n, d_k = len(x), w_q.shape[1] // num_heads
    q, k, v = (np.reshape(x @ w, (num_heads, n, d_k)) for w in (w_q, w_k, w_v))
    out = [cl.softmax(q[t] @ k[t].T / math.sqrt(d_k)) @ v[t] for t in range(num_heads)]
    return np.concatenate(out, axis=1) @ w_o


def first_head_only(x, w_q, w_k, w_v, w_o, num_heads):
    q, k, v = x @ w_q, x @ w_k, x @ w_v
    d_k = q.shape[1] // num_heads
    out = []
    for t in range(num_heads):
        c = slice(t * d_k, (t + 1) * d_k)
        out.append(cl.softmax(q[:, c] @ k[:, c].T / math.sqrt(d_k)) @ v[:, c])
        return np.concatenate(out, axis=1) @ w_o[:d_k * len(out)]


def test_multi_head_accepts_other_right_answers():
    assert_passes("multi_head", [multi, lambda x, a, b, c, o, h: cl.multi_head_attention(
        x, x, x, a, b, c, o, h)])


def test_head_divisor_by_hand_slips():
    assert_named("head divisor by hand", {
        "√d_model": [39.19, 39], "squared": [128],  # 1 / 11.3 is within ±0.05 of 11.3 / 100
        "√h": [3.46], "h": [12], "halved instead of the root": [64],
        "a root before the division": [3.27, 443.4],
        "multiplied by h": [18432], "the paper's 8 heads": [13.86, 13.9],
    })  # d_model = 1536, h = 12: d_k = 128, not the 64 that cell 17 prints the root of


def test_head_divisor_givens_keep_h_apart_from_the_paper_s_root():
    # with d_model = 2048 and h = 16, √(2048 / 8) = 16 = h: the answer of a learner who kept
    # the paper's 8 heads was named "the number of heads", a slip it did not make
    assert evaluate("head divisor by hand", 16).mistake is None


def test_head_divisor_by_hand_accepts_the_answer():
    assert_passes("head divisor by hand", [11.31, "11.3", 11.314])
