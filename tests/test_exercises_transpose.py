"""Notebook 06's exercises (course_lib/exercises/transpose.py): wrong answers written the way
beginners write them, each named by its own slip or relation, and right answers in other
styles accepted."""

import numpy as np
from slip_checks import assert_named, assert_passes

from course_lib.exercises import evaluate, exercise
from course_lib.exercises.engine import TUPLE

# --- self_scores(X, W_Q, W_K) --------------------------------------------------------------


def projected_loops(X, W_Q, W_K):
    """A learner's double loop over the words, each score a dot product of two projections."""
    Q, K = X @ W_Q, X @ W_K
    S = np.zeros((len(X), len(X)))
    for i in range(len(X)):
        for j in range(len(X)):
            S[i, j] = Q[i] @ K[j]
    return S


def test_self_scores_slips():
    assert_named("self_scores", {
        "sizes that do not fit a product": [lambda X, W_Q, W_K: X @ W_Q @ W_K,
                         lambda X, W_Q, W_K: (X @ W_Q) @ (X @ W_K)],
        "Qᵀ K instead of Q Kᵀ": [lambda X, W_Q, W_K: (X @ W_Q).T @ (X @ W_K),
                                 lambda X, W_Q, W_K: W_Q.T @ X.T @ X @ W_K],
        "one weight used twice": [lambda X, W_Q, W_K: (X @ W_Q) @ (X @ W_Q).T,
                                  lambda X, W_Q, W_K: (X @ W_K) @ (X @ W_K).T],
        "transposed": [lambda X, W_Q, W_K: (X @ W_K) @ (X @ W_Q).T],
        "no weights": [lambda X, W_Q, W_K: X @ X.T],
        "element-wise product": [lambda X, W_Q, W_K: (X @ W_Q) * (X @ W_K),
                                 lambda X, W_Q, W_K: X @ (W_Q * W_K) @ X.T],
        "√d_k times too small": [lambda X, W_Q, W_K: X @ W_Q @ (X @ W_K).T / np.sqrt(W_Q.shape[1])],
        "the weights alone": [lambda X, W_Q, W_K: W_Q @ W_K.T],
        "the wrong shape": [lambda X, W_Q, W_K: float(np.sum(X @ W_Q @ (X @ W_K).T))],
        "X used once": [lambda X, W_Q, W_K: X @ W_Q @ W_K.T],
    })


def test_self_scores_accepts_other_right_answers():
    assert_passes("self_scores", [lambda X, W_Q, W_K: X @ W_Q @ W_K.T @ X.T,
                                  lambda X, W_Q, W_K: X @ (W_Q @ W_K.T) @ X.T,
                                  lambda X, W_Q, W_K: ((X @ W_K) @ (X @ W_Q).T).T,
                                  projected_loops])


def test_self_scores_cases_tell_the_sizes_apart():
    sizes = [(X.shape[0], X.shape[1], W_Q.shape[1])
             for X, W_Q, _ in (c.args for c in exercise("self_scores").cases)]
    assert any(len({n, d_model, d_k}) == 3 for n, d_model, d_k in sizes)
    assert any(d_k == d_model for _, d_model, d_k in sizes)  # X @ W_Q @ W_K runs
    assert any(d_k == n for n, _, d_k in sizes)  # (X W_Q) @ (X W_K) runs
    halves = [X for X, _, _ in (c.args for c in exercise("self_scores").cases) if np.any(X % 1)]
    assert halves  # a truncation to whole numbers shows


# --- product_shape(shape_a, shape_b) -------------------------------------------------------

def checked(body):
    def product_shape(a, b):
        if a[1] != b[0]:
            raise ValueError("inner sizes differ")
        return body(a, b)
    return product_shape


def refusing(test):
    def product_shape(a, b):
        if test(a, b):
            raise ValueError("the sizes do not fit")
        return (a[0], b[1])
    return product_shape


def bare_raise(a, b):
    if a[1] != b[0]:
        raise ValueError
    return (a[0], b[1])


def asserts(a, b):
    assert a[1] == b[0], "inner sizes differ"
    return (a[0], b[1])


def test_product_shape_slips():
    assert_named("product_shape", {
        "the inner sizes": [checked(lambda a, b: (a[1], b[0])), checked(lambda a, b: (b[0], a[1]))],
        "the outer sizes swapped": [checked(lambda a, b: (b[1], a[0]))],
        "one of the shapes": [checked(lambda a, b: a), checked(lambda a, b: (a[0], b[0])),
                              checked(lambda a, b: tuple(b))],
        "the wrong shape": [checked(lambda a, b: a + b), checked(lambda a, b: (*a, *b))],
        "kept the inner size": [checked(lambda a, b: (a[0], a[1], b[1]))],
        "the number of cells": [checked(lambda a, b: a[0] * b[1])],
        "compared the outer sizes": [refusing(lambda a, b: a[0] != b[1])],
        "compared the rows": [refusing(lambda a, b: a[0] != b[0]),
                              refusing(lambda a, b: a[0] != a[1] or a[1] != b[0])],  # A square
        "compared the columns": [refusing(lambda a, b: a[1] != b[1] or a[1] != b[0])],
        "the test before raise turned round": [refusing(lambda a, b: a[1] == b[0]),
                                               refusing(lambda a, b: a != b)],
        "returned instead of raising": [lambda a, b: (a[0], b[1]), lambda a, b: [a[0], b[1]]],
        "returned the message": [lambda a, b: (a[0], b[1]) if a[1] == b[0] else "no product"],
        "returned text": [checked(lambda a, b: f"({a[0]}, {b[1]})")],
        "refused without saying why": [bare_raise],
        "raised another kind of error": [asserts,
                                         lambda a, b: (a[0], b[1]) if a[1] == b[0] else 1 / 0],
    })


def test_product_shape_accepts_other_right_answers():
    assert_passes("product_shape", [checked(lambda a, b: (a[0], b[-1])),
                                    lambda a, b: (np.zeros(a) @ np.zeros(b)).shape])
    assert_named("product_shape", {TUPLE: [checked(lambda a, b: [a[0], b[-1]]),
                                           checked(lambda a, b: np.array([a[0], b[-1]]))]},
                 minimum=1)  # a shape is a pair, (r, p): [r, p] == (r, p) is False


# --- by hand: S₂₃ = row q₂ · row k₃ -------------------------------------------------------

def test_score_by_hand_slips():
    Q, K = (np.array(exercise("score by hand").givens[g], dtype=float) for g in "QK")
    assert evaluate("score by hand", float((Q @ K.T)[1, 2])).passed
    assert_named("score by hand", {
        "key 2 instead of key 3": [float(Q[1] @ K[1])], "key 4 instead of key 3": [1],
        "query 1 instead of query 2": [float(Q[0] @ K[2])], "the indices swapped": [4],
        "counted from 0": [float(Q[2] @ K[3])], "minus times minus": [-10, -4],
        "dropped the minus signs": [10, "10"], "added instead of multiplied": [-9],
        "left out slot 3": [2], "sign turned round": [-8], "a step 1 off": [7],
        "a column of Q": [-16], "multiplied the products": [-18],
    })
