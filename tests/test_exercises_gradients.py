"""Notebook 13's exercises (course_lib/exercises/gradients.py): wrong answers written the way
beginners write them, each named by its own slip or relation, and right answers in other
styles accepted."""

import math

import numpy as np
from slip_checks import assert_named, assert_passes

import course_lib as cl


def row(a, g, total=None, entry=None):
    """A loop over the row, with one slip switched on: the total, or the formula of an entry."""
    t = sum(x * y for x, y in zip(a, g, strict=True)) if total is None else total(a, g)
    return [(entry or (lambda x, y, t: x * (y - t)))(x, y, t) for x, y in zip(a, g, strict=True)]


def running_total(a, g):
    out, total = [], 0.0
    for x, y in zip(a, g, strict=True):
        total += x * y
        out.append(x * (y - total))
    return out


def total_overwritten(a, g):
    total = 0.0
    for x, y in zip(a, g, strict=True):
        total = x * y  # the slip: = where += adds
    return [x * (y - total) for x, y in zip(a, g, strict=True)]


def writes_into_g(a, g):
    total = sum(x * y for x, y in zip(a, g, strict=True))
    for i in range(len(g)):
        g[i] = a[i] * (g[i] - total)
    return g


def test_softmax_backward_row_slips():
    assert_named("softmax_backward_row", {
        "no total subtracted": [lambda a, g: [x * y for x, y in zip(a, g, strict=True)]],
        "sign turned round": [lambda a, g: row(a, g, entry=lambda x, y, t: x * (t - y))],
        "the factor aⱼ left out": [lambda a, g: row(a, g, entry=lambda x, y, t: y - t)],
        "the plain mean": [lambda a, g: row(a, g, total=lambda a, g: sum(g) / len(g))],
        "Σ a for the total": [lambda a, g: row(a, g, total=lambda a, g: sum(a))],
        "the diagonal only": [lambda a, g: row(a, g, entry=lambda x, y, t: x * (1 - x) * y)],
        "the wrong shape": [lambda a, g: sum(x * y for x, y in zip(a, g, strict=True))],
        "a running total": [running_total],
        "only the last term counts": [total_overwritten],
        "arithmetic on lists": [lambda a, g: a * (g - sum(x * y for x, y in zip(a, g,
                                                                                 strict=True)))],
        "changed its input": [writes_into_g],
    })


def test_softmax_backward_row_accepts_other_right_answers():
    assert_passes("softmax_backward_row", [
        row, lambda a, g: list(cl.softmax_backward(np.array(a), np.array(g))),
        lambda a, g: (np.diag(a) - np.outer(a, a)) @ np.array(g)])


def query_gradient(q, k, v, g, forward=None, back=None, totals=None, last=None):
    scale = 1 / math.sqrt(q.shape[1])
    a = cl.softmax(q @ k.T * (scale if forward is None else forward))
    ga = g @ v.T
    row_totals = (a * ga).sum(axis=1, keepdims=True) if totals is None else totals(a, ga)
    gs = a * (ga - row_totals)
    return (scale if back is None else back) * (gs @ k if last is None else last(gs, q, k, v))


def test_query_gradient_slips():
    assert_named("query_gradient", {
        "√d_k times too big": [lambda q, k, v, g: query_gradient(q, k, v, g, back=1.0)],
        "no scale in the forward pass": [lambda q, k, v, g: query_gradient(q, k, v, g,
                                                                           forward=1.0)],
        "divided by d_k": [lambda q, k, v, g: query_gradient(q, k, v, g, 1 / q.shape[1],
                                                             1 / q.shape[1])],
        "shapes that do not line up": [lambda q, k, v, g: query_gradient(
            q, k, v, g, totals=lambda a, ga: (a * ga).sum(axis=1))],
        "totals down the columns": [lambda q, k, v, g: query_gradient(
            q, k, v, g, totals=lambda a, ga: (a * ga).sum(axis=0))],
        "no total subtracted": [lambda q, k, v, g: query_gradient(q, k, v, g,
                                                                  totals=lambda a, ga: 0)],
        "∂L/∂S transposed in step 3": [lambda q, k, v, g: query_gradient(
            q, k, v, g, last=lambda gs, q, k, v: gs.T @ k)],
        "V in step 3": [lambda q, k, v, g: query_gradient(q, k, v, g,
                                                          last=lambda gs, q, k, v: gs @ v)],
        "transposed": [lambda q, k, v, g: query_gradient(q, k, v, g).T],
        "one total for the whole grid": [lambda q, k, v, g: query_gradient(
            q, k, v, g, totals=lambda a, ga: (a * ga).sum())],
        "√d_v for √d_k": [lambda q, k, v, g: query_gradient(
            q, k, v, g, v.shape[1] ** -0.5, v.shape[1] ** -0.5)],
    })


def test_query_gradient_accepts_other_right_answers():
    assert_passes("query_gradient", [query_gradient,
                                     lambda q, k, v, g: cl.attention_gradients(q, k, v, g)[0]])


def test_score_gradient_by_hand_slips():
    # a = (0.5, 0.3, 0.2), ∂L/∂a = (1, −3, −2): Σₗ aₗgₗ = −0.8, ∂L/∂s₀ = 0.5 · 1.8 = 0.9
    assert_named("score gradient by hand", {
        "no total subtracted": [0.5], "the factor a₀ left out": [1.8],
        "the total added": [0.1], "the diagonal only": [0.25],
        "the plain mean": [1.167], "sign turned round": [-0.9],
    })


def test_score_gradient_by_hand_accepts_the_answer():
    assert_passes("score gradient by hand", [0.9, "0.9", 0.9004])
