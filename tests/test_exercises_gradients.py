"""Notebook 13's exercises: the softmax backward for one row, ∂L/∂s₀ by hand, and the whole
backward pass down to ∂L/∂Q. Each slip of the catalogues is made on purpose, the way a
beginner writes it."""

import math

import numpy as np
import pytest
from exercise_helpers import assert_never_crashes, assert_slips_named

import course_lib as cl
from course_lib.exercises.core import CHANGED_INPUT
from course_lib.exercises.gradients import (
    SOFTMAX_BACKWARD_BY_HAND,
    check_softmax_backward_row,
    evaluate_softmax_backward_row,
)
from course_lib.exercises.query_gradient import check_query_gradient, evaluate_query_gradient

# --- softmax_backward_row ------------------------------------------------------------------


def backward_ok(a, grad_a):
    total = sum(ai * gi for ai, gi in zip(a, grad_a, strict=True))
    return [ai * (gi - total) for ai, gi in zip(a, grad_a, strict=True)]


def backward_jacobian(a, grad_a):
    return (np.diag(a) - np.outer(a, a)) @ np.asarray(grad_a)


def running_total(a, grad_a):
    out, total = [], 0.0
    for ai, gi in zip(a, grad_a, strict=True):
        total += ai * gi
        out.append(ai * (gi - total))
    return out


def returns_in_loop(a, grad_a):
    total = sum(ai * gi for ai, gi in zip(a, grad_a, strict=True))
    for ai, gi in zip(a, grad_a, strict=True):
        return ai * (gi - total)


def returns_list_in_loop(a, grad_a):
    total = sum(ai * gi for ai, gi in zip(a, grad_a, strict=True))
    out = []
    for ai, gi in zip(a, grad_a, strict=True):
        out.append(ai * (gi - total))
        return out


def in_place(a, grad_a):
    total = sum(ai * gi for ai, gi in zip(a, grad_a, strict=True))
    for i in range(len(a)):
        grad_a[i] = a[i] * (grad_a[i] - total)
    return grad_a


def np_row(formula):
    def learner(a, grad_a):
        a, g = np.array(a), np.array(grad_a)
        return formula(a, g, np.sum(a * g))
    return learner


def numpy_total_on_lists(a, grad_a):
    total = sum(x * y for x, y in zip(a, grad_a, strict=True))
    return a * (grad_a - total)  # list − float: the lists were never converted


BACKWARD_SLIPS = {
    "lists used as arrays": [numpy_total_on_lists],
    "returned the row total": [lambda a, g: sum(x * y for x, y in zip(a, g, strict=True)),
                               np_row(lambda a, g, t: t)],
    "forgot the row total": [lambda a, g: [x * y for x, y in zip(a, g, strict=True)],
                             np_row(lambda a, g, t: a * g)],
    "forgot to multiply by a": [np_row(lambda a, g, t: g - t)],
    "sign error": [np_row(lambda a, g, t: a * (t - g)), np_row(lambda a, g, t: -a * (g - t)),
                   np_row(lambda a, g, t: a * t - a * g)],
    "plain mean": [np_row(lambda a, g, t: a * (g - g.mean())),
                   lambda a, g: [x * (y - sum(g) / len(g)) for x, y in zip(a, g, strict=True)]],
    "unweighted sum": [np_row(lambda a, g, t: a * (g - g.sum()))],
    "mean of aⱼgⱼ": [np_row(lambda a, g, t: a * (g - (a * g).mean()))],
    "total not multiplied by a": [np_row(lambda a, g, t: a * g - t)],
    "diagonal only": [np_row(lambda a, g, t: a * (1 - a) * g)],
    "a and g swapped": [np_row(lambda a, g, t: g * (a - t))],
    "forgot diag(a)": [np_row(lambda a, g, t: -np.outer(a, a) @ g)],
    "running total": [running_total],
    "row total one term short": [
        lambda a, g: [a[i] * (g[i] - sum(a[j] * g[j] for j in range(len(a) - 1)))
                      for i in range(len(a))],
        lambda a, g: [a[i] * (g[i] - sum(a[j] * g[j] for j in range(1, len(a))))
                      for i in range(len(a))]],
    "a @ a.T is a number": [lambda a, g: (np.diag(a) - np.array(a) @ np.array(a).T)
                            @ np.array(g)],
    "left out j = i": [lambda a, g: [a[i] * (g[i] - sum(a[j] * g[j] for j in range(len(a))
                                                      if j != i)) for i in range(len(a))]],
    "return inside the loop": [returns_in_loop, returns_list_in_loop],
    "one entry short": [lambda a, g: [a[i] * (g[i] - sum(x * y for x, y in zip(a, g, strict=True)))
                                      for i in range(len(a) - 1)]],
    CHANGED_INPUT: [in_place],
}


@pytest.mark.parametrize("func", [backward_ok, backward_jacobian])
def test_backward_accepts_a_right_answer(func):
    feedback = evaluate_softmax_backward_row(func)
    assert feedback.passed, str(feedback)


def test_backward_names_every_slip():
    assert_slips_named(evaluate_softmax_backward_row, BACKWARD_SLIPS)


def test_backward_never_crashes():
    assert_never_crashes(evaluate_softmax_backward_row)


# --- ∂L/∂s₀ by hand ------------------------------------------------------------------------

BY_HAND_SLIPS = {
    "gave the row total": [1.1],
    "bracket without a₀": [0.9],
    "a₀g₀ alone": [1, "1.0"],
    "plain mean": [0.667, "2/3"],
    "diagonal only": [0.5], "mean of aⱼgⱼ": [0.8167], "total not multiplied by a₀": [-0.1],
    "unweighted sum": [0],
    "another entry": [-0.03],
    "a₀ times the row total": [0.55],
    "sign turned round": [-0.45],
    "decimal point moved": [4.5],
}


def test_softmax_gradient_by_hand():
    for right in (0.45, "0.45", "9/20", 0.451):
        assert SOFTMAX_BACKWARD_BY_HAND.evaluate(right).passed
    assert_slips_named(SOFTMAX_BACKWARD_BY_HAND.evaluate, BY_HAND_SLIPS)
    assert_never_crashes(SOFTMAX_BACKWARD_BY_HAND.evaluate, kind="number")


# --- query_gradient ------------------------------------------------------------------------


def make_query_gradient(*, scale_of=None, forward=True, step2="right", grad_a=None,
                        transpose_s=False, times_q=False, axis=-1, keys_instead=False):
    def query_gradient(q, k, v, grad_out):
        q, k, v, g = (np.asarray(a) for a in (q, k, v, grad_out))
        d_k = q.shape[1]
        scale = scale_of(q, v) if scale_of else 1 / math.sqrt(d_k)
        a = cl.softmax(q @ k.T / math.sqrt(d_k) if forward else q @ k.T, axis=axis)
        d_a = grad_a(g, v) if grad_a else g @ v.T
        total = (a * d_a).sum(axis=1, keepdims=True)
        if step2 == "no keepdims":
            d_s = a * (d_a - (a * d_a).sum(axis=1))  # (n,) laid along the columns
        elif step2 == "unweighted":
            d_s = a * (d_a - d_a.sum(axis=1, keepdims=True))
        elif step2 == "axis 0":
            d_s = a * (d_a - (a * d_a).sum(axis=0))
        elif step2 == "mean":
            d_s = a * (d_a - d_a.mean(axis=1, keepdims=True))
        else:
            d_s = {"right": a * (d_a - total), "sign": a * (total - d_a), "no total": a * d_a,
                   "skipped": d_a}[step2]
        if keys_instead:
            return scale * d_s.T @ q
        if transpose_s:
            d_s = d_s.T
        return scale * d_s @ (q if times_q else k)
    return query_gradient


def d_v_both_passes(q, k, v, grad_out):
    q, k, v, g = (np.asarray(x) for x in (q, k, v, grad_out))
    scale = 1 / math.sqrt(v.shape[1])  # d_k taken from the values, in both passes
    a = cl.softmax(q @ k.T * scale)
    d_a = g @ v.T
    return scale * (a * (d_a - (a * d_a).sum(axis=1, keepdims=True))) @ k


def d_k_both_passes(q, k, v, grad_out):
    d_k = q.shape[1]
    a = cl.softmax(q @ k.T / d_k)  # ÷ d_k instead of ÷ √d_k, forward ...
    d_a = grad_out @ v.T
    return (a * (d_a - (a * d_a).sum(axis=1, keepdims=True))) @ k / d_k  # ... and backward


def scaled_in_place(q, k, v, grad_out):
    q = np.asarray(q)
    q /= math.sqrt(q.shape[1])  # writes into the caller's (read-only) array
    return make_query_gradient()(q, k, v, grad_out)


def forward_over_d_k(q, k, v, grad_out):
    q, k, v, g = (np.asarray(a) for a in (q, k, v, grad_out))
    a = cl.softmax(q @ k.T / q.shape[1], axis=-1)
    d_a = g @ v.T
    return a * (d_a - (a * d_a).sum(axis=1, keepdims=True)) @ k / math.sqrt(q.shape[1])


QUERY_SLIPS = {
    "forgot the scale": [make_query_gradient(scale_of=lambda q, v: 1.0)],
    "divided by d_k": [make_query_gradient(scale_of=lambda q, v: 1 / q.shape[1]),
                       d_k_both_passes,
                       make_query_gradient(scale_of=lambda q, v: (1 / math.sqrt(q.shape[1])) ** 2)],
    "multiplied by √d_k": [make_query_gradient(scale_of=lambda q, v: math.sqrt(q.shape[1]))],
    "d_k read from the values": [make_query_gradient(
        scale_of=lambda q, v: 1 / math.sqrt(v.shape[1])), d_v_both_passes],
    "forward pass divided by d_k": [forward_over_d_k],
    "returned the transpose": [lambda q, k, v, g: make_query_gradient()(q, k, v, g).T],
    "no scale in the forward pass": [make_query_gradient(forward=False)],
    "sign error in the softmax backward": [make_query_gradient(step2="sign")],
    "** 1/2": [make_query_gradient(scale_of=lambda q, v: 1 / q.shape[1] ** 1/2),
               make_query_gradient(scale_of=lambda q, v: 1 / (q.shape[1] ** 1/2))],
    "d_k read from the number of keys": [make_query_gradient(
        scale_of=lambda q, v: 1 / math.sqrt(v.shape[0]))],
    "unweighted row total": [make_query_gradient(step2="unweighted"),
                             make_query_gradient(step2="mean")],
    "row totals over the wrong axis": [make_query_gradient(step2="axis 0")],
    "no keepdims": [make_query_gradient(step2="no keepdims")],
    "forgot the row total": [make_query_gradient(step2="no total")],
    "skipped the softmax": [make_query_gradient(step2="skipped")],
    "∂L/∂A transposed": [make_query_gradient(grad_a=lambda g, v: v @ g.T)],
    "G V without the transpose": [make_query_gradient(grad_a=lambda g, v: g @ v)],
    "∂L/∂S transposed": [make_query_gradient(transpose_s=True)],
    "multiplied by Q instead of K": [make_query_gradient(times_q=True)],
    "returned ∂L/∂K": [make_query_gradient(keys_instead=True)],
    "forward softmax over the wrong axis": [make_query_gradient(axis=0)],
    CHANGED_INPUT: [scaled_in_place],
}


@pytest.mark.parametrize("func", [make_query_gradient(),
                                  lambda q, k, v, g: cl.attention_gradients(q, k, v, g)[0]])
def test_query_gradient_accepts_a_right_answer(func):
    feedback = evaluate_query_gradient(func)
    assert feedback.passed, str(feedback)


def test_query_gradient_names_every_slip():
    assert_slips_named(evaluate_query_gradient, QUERY_SLIPS)


def test_query_gradient_never_crashes():
    assert_never_crashes(evaluate_query_gradient)


@pytest.mark.parametrize("check", [check_softmax_backward_row, check_query_gradient])
def test_check_prints_one_paragraph(check, capsys):
    def stub(*args):
        raise NotImplementedError

    assert check(stub) is None
    out = capsys.readouterr().out
    assert out.startswith("Not attempted yet") and out.count("\n") == 1
