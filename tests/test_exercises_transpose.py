"""Notebook 06's exercises (course_lib/exercises/transpose.py): wrong answers written the way
beginners write them, each named by its own slip or relation, and right answers in other
styles accepted."""

import numpy as np
from slip_checks import assert_named, assert_passes

from course_lib.exercises import evaluate, exercise

# --- scores(Q, K) --------------------------------------------------------------------------


def loops(cell, rows=lambda Q, K: range(len(Q)), cols=lambda Q, K: range(len(K)),
          shape=lambda Q, K: (len(Q), len(K)), dtype=float):
    """A learner's double loop into np.zeros, with one thing changed."""
    def scores(Q, K):
        S = np.zeros(shape(Q, K), dtype=dtype)
        for i in rows(Q, K):
            for j in cols(Q, K):
                S[i, j] = cell(Q, K, i, j)
        return S
    return scores


def scores_lists(Q, K):
    return [[sum(a * b for a, b in zip(q, k, strict=True)) for k in K] for q in Q]


def swapped_loops(Q, K):
    return [[sum(a * b for a, b in zip(q, k, strict=True)) for q in Q] for k in K]


def scales_in_place(Q, K):
    Q *= 1.0  # in place: the hidden arrays are read-only, so this is caught
    return Q @ K.T


def test_scores_slips():
    assert_named("scores", {
        "no transpose": [lambda Q, K: Q @ K, lambda Q, K: np.matmul(Q, K)],
        "transposed": [lambda Q, K: K @ Q.T, lambda Q, K: np.dot(K, Q.T), swapped_loops,
                       loops(lambda Q, K, j, i: Q[i] @ K[j], rows=lambda Q, K: range(len(K)),
                             cols=lambda Q, K: range(len(Q)), shape=lambda Q, K: (len(K), len(Q)))],
        "Qᵀ K instead of Q Kᵀ": [lambda Q, K: Q.T @ K],
        "Kᵀ Q instead of Q Kᵀ": [lambda Q, K: K.T @ Q],
        "element-wise product": [lambda Q, K: Q * K, lambda Q, K: np.multiply(Q, K)],
        "√d_k times too small": [lambda Q, K: Q @ K.T / np.sqrt(Q.shape[1])],
        "d_k times too small": [lambda Q, K: Q @ K.T / len(Q[0])],
        "m times too small": [lambda Q, K: Q @ K.T / len(K)],
        "sign turned round": [lambda Q, K: -Q @ K.T],
        "Q with itself": [lambda Q, K: Q @ Q.T],
        "K with itself": [lambda Q, K: K @ K.T],
        "an n×n grid": [loops(lambda Q, K, i, j: Q[i] @ K[j], cols=lambda Q, K: range(len(Q)),
                              shape=lambda Q, K: (len(Q), len(Q)))],
        "query i with key i only": [loops(lambda Q, K, i, j: Q[i] @ K[i]),
                                    lambda Q, K: (Q * K).sum(axis=1)],
        "added up the grid": [lambda Q, K: float((Q @ K.T).sum()), lambda Q, K: np.sum(Q @ K.T)],
        "cut to whole numbers": [loops(lambda Q, K, i, j: Q[i] @ K[j], dtype=int)],
        "rounded to whole numbers": [lambda Q, K: np.round(Q @ K.T)],
        "changed its input": [scales_in_place],
        "added the slots": [loops(lambda Q, K, i, j: np.sum(Q[i] + K[j]))],
        "only slot 1 multiplied": [loops(lambda Q, K, i, j: Q[:, 0][i] * K[:, 0][j])],
        "the indices swapped": [loops(lambda Q, K, i, j: Q[j] @ K[i])],
        "d_k columns": [loops(lambda Q, K, i, j: Q[i] @ K[j], cols=lambda Q, K: range(Q.shape[1]),
                              shape=lambda Q, K: Q.shape)],
    })


def test_scores_accepts_other_right_answers():
    assert_passes("scores", [lambda Q, K: np.dot(Q, K.T), lambda Q, K: (K @ Q.T).T,
                             lambda Q, K: np.einsum("id,jd->ij", Q, K), scores_lists,
                             loops(lambda Q, K, i, j: Q[i] @ K[j])])


def test_scores_cases_tell_the_products_apart():
    shapes = [(q.shape, k.shape) for q, k in (c.args for c in exercise("scores").cases)]
    assert shapes
    assert any(q[1] == k[0] and q[0] != k[0] for q, k in shapes)  # d_k = m: Q @ K runs
    assert any(q[0] == k[0] for q, k in shapes)  # n = m: Qᵀ K and Q * K run
    halves = [q for q, _ in (c.args for c in exercise("scores").cases) if np.any(q % 1)]
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
        "joined the shapes": [checked(lambda a, b: a + b), checked(lambda a, b: (*a, *b))],
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
    assert_passes("product_shape", [checked(lambda a, b: [a[0], b[-1]]),
                                    lambda a, b: (np.zeros(a) @ np.zeros(b)).shape])


# --- by hand: S₂₃ = row q₂ · row k₃ -------------------------------------------------------

def test_score_by_hand_slips():
    Q, K = (np.array(exercise("score by hand").givens[g], dtype=float) for g in "QK")
    assert evaluate("score by hand", float((Q @ K.T)[1, 2])).passed
    assert_named("score by hand", {
        "key 2 instead of key 3": [float(Q[1] @ K[1])], "key 4 instead of key 3": [1],
        "query 1 instead of query 2": [float(Q[0] @ K[2])], "the indices swapped": [4],
        "counted from 0": [float(Q[2] @ K[3])], "minus times minus": [-10, -4],
        "dropped the minus signs": [10, "10"], "added instead of multiplied": [-9],
        "multiplied the sums": [20], "left out slot 3": [2], "sign turned round": [-8],
        "a column of Q": [-16], "multiplied the products": [-18],
    })
