"""Notebook 12's exercises: every head's weights, multi-head attention with W_O, and a head's
divisor by hand. Each slip of the catalogues is made on purpose, the way a beginner writes it."""

import math

import numpy as np
import pytest
from exercise_helpers import assert_never_crashes, assert_slips_named

import course_lib as cl
from course_lib.exercises.head_scale import HEAD_SCALE
from course_lib.exercises.multihead import check_head_weights, evaluate_head_weights
from course_lib.exercises.multihead_output import check_multi_head, evaluate_multi_head
from course_lib.multihead import split_heads


def make_heads(*, width=None, short=0, keys="k", flip=False, axis=-1, soft=True, stop=False,
               stack_axis=0, interleave=False, rows=False, total=None, true_division=False,
               start=0, concat=False):
    """A loop-over-heads learner answer with one slip switched on by a keyword."""
    def head_weights(x, w_q, w_k, num_heads):
        x, w_q, w_k = np.asarray(x), np.asarray(w_q), np.asarray(w_k)
        q, k = x @ w_q, x @ (w_q if keys == "q" else w_k)
        n, d_model = q.shape
        d_k = d_model / num_heads if true_division else d_model // num_heads
        heads = []
        for t in range(num_heads):
            if interleave:
                cols = slice(t, None, num_heads)
                qt, kt = q[:, cols], k[:, cols]
            elif rows:
                qt = q.reshape(num_heads, n, d_k)[t]
                kt = k.reshape(num_heads, n, d_k)[t]
            else:
                cols = slice(t * d_k + start, (t + 1) * d_k - short + start)
                qt, kt = q[:, cols], k[:, cols]
            scores = (kt @ qt.T if flip else qt @ kt.T) / (width(d_k, d_model, num_heads)
                                                           if width else math.sqrt(d_k))
            if total is not None:
                e = np.exp(scores - scores.max())
                w = e / total(e)
            else:
                w = cl.softmax(scores, axis=axis) if soft else scores
            if stop:
                return w
            heads.append(w)
        return np.concatenate(heads, axis=1) if concat else np.stack(heads, axis=stack_axis)
    return head_weights


def head_weights_vectorised(x, w_q, w_k, num_heads):
    q = split_heads(np.asarray(x) @ np.asarray(w_q), num_heads)  # (h, n, d_k)
    k = split_heads(np.asarray(x) @ np.asarray(w_k), num_heads)
    scores = q @ np.swapaxes(k, -1, -2) / math.sqrt(q.shape[-1])
    return cl.softmax(scores)


def heads_on_lists(x, w_q, w_k, num_heads):
    q, k = x @ w_q, x @ w_k  # lists: @ is not defined for them
    return make_heads()(q, q, k, num_heads)


def multi_on_lists(x, w_q, w_k, w_v, w_o, num_heads):
    q = x @ w_q
    return q


def heads_power_half(x, w_q, w_k, num_heads):
    x, w_q, w_k = np.asarray(x), np.asarray(w_q), np.asarray(w_k)
    q, k = x @ w_q, x @ w_k
    d_k = q.shape[1] // num_heads
    heads = []
    for t in range(num_heads):
        cols = slice(t * d_k, (t + 1) * d_k)
        scores = q[:, cols] @ k[:, cols].T / d_k ** 1/2  # (scores / d_k) / 2
        heads.append(cl.softmax(scores))
    return np.stack(heads)


def heads_transposed_key(x, w_q, w_k, num_heads):
    return make_heads()(x, w_q, np.asarray(w_k).T, num_heads)


def heads_transposed_query(x, w_q, w_k, num_heads):
    return make_heads()(x, np.asarray(w_q).T, w_k, num_heads)


def first_head_only(x, w_q, w_k, num_heads):
    return make_heads()(x, w_q, w_k, num_heads)[:1]


def heads_offset(x, w_q, w_k, num_heads):
    q, k = np.asarray(x) @ np.asarray(w_q), np.asarray(x) @ np.asarray(w_k)
    d_k = q.shape[1] // num_heads
    return np.stack([cl.softmax(q[:, t:t + d_k] @ k[:, t:t + d_k].T / math.sqrt(d_k), axis=-1)
                     for t in range(num_heads)])


HEADS_SLIPS = {
    "lists used as arrays": [heads_on_lists],
    "scaled by √d_model": [make_heads(width=lambda d_k, d, h: math.sqrt(d)),
                           make_heads(width=lambda d_k, d, h: d ** 0.5)],
    "divided by d_model": [make_heads(width=lambda d_k, d, h: d)],
    "divided by d_k": [make_heads(width=lambda d_k, d, h: d_k),
                       make_heads(width=lambda d_k, d, h: d_k ** 1 / 2 * 2)],
    "divided by √h": [make_heads(width=lambda d_k, d, h: math.sqrt(h))],
    "no scale": [make_heads(width=lambda d_k, d, h: 1)],
    "multiplied by √d_k": [make_heads(width=lambda d_k, d, h: 1 / math.sqrt(d_k))],
    "** 1/2": [make_heads(width=lambda d_k, d, h: d_k ** 1/2), heads_power_half],
    "transposed a projection": [heads_transposed_key, heads_transposed_query,
                                lambda x, q, k, h: make_heads()(x, np.asarray(q).T,
                                                                np.asarray(k).T, h)],
    "softmax over the whole grid": [make_heads(total=lambda e: e.sum())],
    "no keepdims": [make_heads(total=lambda e: e.sum(axis=-1))],
    "d_k as a float": [make_heads(true_division=True)],
    "slice one column short": [make_heads(short=1)],
    "interleaved columns": [make_heads(interleave=True)],
    "slice shifted one column": [make_heads(start=1)],
    "slice one column long": [make_heads(short=-1)],
    "heads concatenated, not stacked": [make_heads(concat=True)],
    "reshaped without moving the head axis": [make_heads(rows=True)],
    "W_Q used for the keys": [make_heads(keys="q")],
    "scores K Qᵀ": [make_heads(flip=True)],
    "softmax over the wrong axis": [make_heads(axis=0)],
    "no softmax": [make_heads(soft=False)],
    "return inside the loop": [make_heads(stop=True), first_head_only],
    "divided by √d_model / h": [make_heads(width=lambda d_k, d, h: math.sqrt(d) / h)],
    "W_K used for the queries": [lambda x, w_q, w_k, h: make_heads()(x, w_k, w_k, h)],
    "one head only": [lambda x, w_q, w_k, h: make_heads()(x, w_q, w_k, 1)],
    "slice started at t": [heads_offset],
    "heads stacked on the wrong axis": [make_heads(stack_axis=1)],
}


@pytest.mark.parametrize("func", [make_heads(), head_weights_vectorised])
def test_head_weights_accepts_a_right_answer(func):
    feedback = evaluate_head_weights(func)
    assert feedback.passed, str(feedback)


def test_head_weights_names_every_slip():
    assert_slips_named(evaluate_head_weights, HEADS_SLIPS)


def test_head_weights_never_crashes():
    assert_never_crashes(evaluate_head_weights)


# --- multi_head with W_O -------------------------------------------------------------------


def make_multi(*, mix="right", keys="k", values="v", width=None, axis=-1, soft=True,
               merge="concat", true_division=False, offset=False):
    def multi_head(x, w_q, w_k, w_v, w_o, num_heads):
        x, w_q, w_k, w_v, w_o = (np.asarray(a) for a in (x, w_q, w_k, w_v, w_o))
        q = x @ w_q
        k = x @ (w_q if keys == "q" else w_k)
        v = x if values == "x" else x @ {"k": w_k, "q": w_q}.get(values, w_v)
        n, d_model = q.shape
        d_k = d_model / num_heads if true_division else d_model // num_heads
        heads = []
        for t in range(num_heads):
            cols = slice(t, t + d_k) if offset else slice(t * d_k, (t + 1) * d_k)
            scores = q[:, cols] @ k[:, cols].T / (width(d_k, d_model) if width
                                                  else math.sqrt(d_k))
            weights = cl.softmax(scores, axis=axis) if soft else scores
            heads.append(weights @ v[:, cols])
        if merge == "reshape":
            concat = np.stack(heads).reshape(n, d_model)
        else:
            concat = np.concatenate(heads, axis=1)
        return {"right": concat @ w_o if mix == "right" else None,
                "T": concat @ w_o.T, "none": concat}[mix]
    return multi_head


def multi_head_course_lib(x, w_q, w_k, w_v, w_o, num_heads):
    x = np.asarray(x)
    return cl.multi_head_attention(x, x, x, np.asarray(w_q), np.asarray(w_k), np.asarray(w_v),
                                   np.asarray(w_o), num_heads)


MULTI_SLIPS = {
    "lists used as arrays": [multi_on_lists],
    "forgot W_O": [make_multi(mix="none")],
    "W_O transposed": [make_multi(mix="T")],
    "W_Q used for the keys": [make_multi(keys="q")],
    "values not projected": [make_multi(values="x")],
    "W_K used for the values": [make_multi(values="k")],
    "W_Q used for the values": [make_multi(values="q")],
    "slice started at t": [make_multi(offset=True)],
    "scores K Qᵀ": [lambda x, w_q, w_k, w_v, w_o, h: make_multi()(x, w_k, w_q, w_v, w_o, h)],
    "one head only": [lambda x, w_q, w_k, w_v, w_o, h: make_multi()(x, w_q, w_k, w_v, w_o, 1)],
    "scaled by √d_model": [make_multi(width=lambda d_k, d: math.sqrt(d))],
    "divided by d_k": [make_multi(width=lambda d_k, d: d_k)],
    "divided by d_model": [make_multi(width=lambda d_k, d: d)],
    "no scale": [make_multi(width=lambda d_k, d: 1.0)],
    "softmax over the wrong axis": [make_multi(axis=0)],
    "merged without moving the head axis back": [make_multi(merge="reshape")],
    "no softmax": [make_multi(soft=False)],
    "d_k as a float": [make_multi(true_division=True)],
}


@pytest.mark.parametrize("func", [make_multi(), multi_head_course_lib])
def test_multi_head_accepts_a_right_answer(func):
    feedback = evaluate_multi_head(func)
    assert feedback.passed, str(feedback)


def test_multi_head_names_every_slip():
    assert_slips_named(evaluate_multi_head, MULTI_SLIPS)


def test_multi_head_never_crashes():
    assert_never_crashes(evaluate_multi_head)


# --- a head's divisor, by hand -------------------------------------------------------------

SCALE_SLIPS = {
    "√d_model": [27.71, "27.7"],
    "d_k without the root": [64],
    "d_model": [768],
    "√h": [3.46, 3.464],
    "h": [12],
    "the multiplier": [0.125, "1/8"],
    "√d_model / h": [2.31],
    "** 1/2": [32],
    "sign turned round": [-8],
    "decimal point moved": [0.8, 80],
}


def test_head_scale_by_hand():
    for right in (8, 8.0, "8", 8.004):
        assert HEAD_SCALE.evaluate(right).passed
    assert_slips_named(HEAD_SCALE.evaluate, SCALE_SLIPS)
    assert_never_crashes(HEAD_SCALE.evaluate, kind="number")


@pytest.mark.parametrize("check", [check_head_weights, check_multi_head])
def test_check_prints_one_paragraph(check, capsys):
    def stub(*args):
        raise NotImplementedError

    assert check(stub) is None
    out = capsys.readouterr().out
    assert out.startswith("Not attempted yet") and out.count("\n") == 1
