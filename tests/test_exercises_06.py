"""Checkers of notebook 06: the score grid S = QKᵀ, the shape rule and the by-hand score.
A correct answer passes, the stub is "not attempted yet", every typical slip gets its own
name, and nothing a learner writes crashes a checker."""

import numpy as np
import pytest
from exercise_helpers import assert_never_crashes, assert_slips_named

from course_lib.exercises.shapes import evaluate_product_shape
from course_lib.exercises.transpose import (
    HAND_SCORE,
    SCORES_EXERCISE,
    evaluate_scores,
)


def stub(*args):
    raise NotImplementedError


# --- scores(Q, K) ------------------------------------------------------------------------

def scores_loops(Q, K):
    return [[sum(a * b for a, b in zip(q, k, strict=True)) for k in K] for q in Q]


def swapped_loops(Q, K):
    return [[sum(a * b for a, b in zip(q, k, strict=True)) for q in Q] for k in K]


def scales_in_place(Q, K):
    Q *= 1.0  # in place: the hidden arrays are read-only, so this is caught
    return Q @ K.T


SCORE_SLIPS = {
    "K Qᵀ instead of Q Kᵀ": [lambda Q, K: K @ Q.T, lambda Q, K: (Q @ K.T).T, swapped_loops,
                             lambda Q, K: np.dot(K, Q.T)],
    "missing transpose": [lambda Q, K: Q @ K, lambda Q, K: np.dot(Q, K),
                          lambda Q, K: np.matmul(Q, K)],
    "transposed Q instead of K": [lambda Q, K: Q.T @ K, lambda Q, K: K.T @ Q],
    "divided by √d_k": [lambda Q, K: Q @ K.T / np.sqrt(Q.shape[1]),
                        lambda Q, K: Q @ K.T / Q.shape[1] ** 0.5],
    "element-wise product": [lambda Q, K: Q * K, lambda Q, K: np.multiply(Q, K),
                             lambda Q, K: Q * K.T],
    "outer product": [lambda Q, K: np.outer(Q, K)],
    "paired query i with key i only": [lambda Q, K: (Q * K).sum(axis=1),
                                       lambda Q, K: np.sum(Q * K, axis=-1)],
    "divided by d_k": [lambda Q, K: Q @ K.T / Q.shape[1], lambda Q, K: Q @ K.T / len(Q[0])],
    "applied the softmax": [lambda Q, K: np.exp(Q @ K.T) / np.exp(Q @ K.T).sum(1, keepdims=True)],
    "sign turned round": [lambda Q, K: -Q @ K.T, lambda Q, K: np.dot(-Q, K.T)],
    "used Q twice": [lambda Q, K: Q @ Q.T],
    "used K twice": [lambda Q, K: K @ K.T],
    "added up the grid": [lambda Q, K: float((Q @ K.T).sum()), lambda Q, K: np.sum(Q @ K.T)],
    "changed its input": [scales_in_place],
}


@pytest.mark.parametrize("func", [lambda Q, K: Q @ K.T, lambda Q, K: np.dot(Q, K.T),
                                  lambda Q, K: np.einsum("id,jd->ij", Q, K), scores_loops])
def test_scores_accepts_right_answers(func):
    assert evaluate_scores(func).passed


def test_scores_cases_tell_the_transposes_apart():
    shapes = [(q.shape, k.shape) for q, k in (c.args for c in SCORES_EXERCISE.cases)]
    assert shapes
    assert any(q[1] == k[0] and q[0] != k[0] for q, k in shapes)  # d_k = m: Q @ K runs
    assert any(q[0] == k[0] for q, k in shapes)  # n = m: Qᵀ K and Q * K run


def test_scores_names_every_slip():
    assert evaluate_scores(stub).status == "not attempted"
    assert_slips_named(evaluate_scores, SCORE_SLIPS)


def test_scores_never_crashes():
    assert_never_crashes(evaluate_scores)


# --- product_shape(shape_a, shape_b) -------------------------------------------------------

def shape_ok(shape_a, shape_b):
    if shape_a[1] != shape_b[0]:
        raise ValueError(f"inner sizes {shape_a[1]} and {shape_b[0]} differ")
    return (shape_a[0], shape_b[1])


def checked(body):
    def func(a, b):
        if a[1] != b[0]:
            raise ValueError("inner sizes differ")
        return body(a, b)
    return func


def check_outer(a, b):
    if a[0] != b[1]:
        raise ValueError("sizes differ")
    return (a[0], b[1])


def check_rows(a, b):
    if a[0] != b[0]:
        raise ValueError("sizes differ")
    return (a[0], b[1])


def asserts(a, b):
    assert a[1] == b[0], "inner sizes differ"
    return (a[0], b[1])


SHAPE_SLIPS = {
    "inner sizes returned": [checked(lambda a, b: (a[1], b[0]))],
    "outer sizes swapped": [checked(lambda a, b: (b[1], a[0]))],
    "kept the inner size": [checked(lambda a, b: (a[0], a[1], b[1]))],
    "returned the number of cells": [checked(lambda a, b: a[0] * b[1])],
    "returned one of the shapes": [checked(lambda a, b: a), checked(lambda a, b: tuple(b))],
    "checked the wrong pair of sizes": [check_outer, check_rows],
    "no check of the inner sizes": [lambda a, b: (a[0], b[1]), lambda a, b: [a[0], b[1]]],
    "joined the shapes": [checked(lambda a, b: a + b), checked(lambda a, b: (*a, *b))],
    "wrong kind of error": [asserts, lambda a, b: (a[0], b[1]) if a[1] == b[0] else 1 / 0],
}


@pytest.mark.parametrize("func", [shape_ok, lambda a, b: (np.zeros(a) @ np.zeros(b)).shape])
def test_product_shape_accepts_right_answers(func):
    assert evaluate_product_shape(func).passed


def test_product_shape_names_every_slip():
    assert evaluate_product_shape(stub).status == "not attempted"
    assert_slips_named(evaluate_product_shape, SHAPE_SLIPS)


def test_product_shape_never_crashes():
    assert_never_crashes(evaluate_product_shape)


# --- by hand: S₂₃ = row q₂ · row k₃ -------------------------------------------------------

Q = np.array([[2.0, 2.0, 2.0], [-1.0, 2.0, 1.0]])
K = np.array([[3.0, 3.0, 2.0], [3.0, -2.0, 0.0], [-1.0, -2.0, -1.0], [3.0, 2.0, 0.0]])

HAND_SLIPS = {
    "key 2": [float(Q[1] @ K[1])], "key 4": [float(Q[1] @ K[3])],
    "both indices one too low": [float(Q[0] @ K[1])],
    "added instead of multiplied": [float((Q[1] + K[2]).sum())],
    "minus times minus": [-6.0], "last term dropped": [float((Q[1] * K[2])[:2].sum())],
    "sign turned round": [4.0, "4"], "decimal point moved": [-40.0, -0.4],
    "query 1": [float(Q[0] @ K[2]), float(Q[1].sum() * K[2].sum())],
    "dropped the minus signs": [float(np.abs(Q[1] * K[2]).sum())],
    "first term dropped": [float((Q[1] * K[2])[1:].sum())],
    "middle term dropped": [float((Q[1] * K[2])[[0, 2]].sum())],
}


def test_the_by_hand_answer_is_the_score():
    assert HAND_SCORE.evaluate(float((Q @ K.T)[1, 2])).passed


def test_the_by_hand_slips_are_named():
    assert_slips_named(HAND_SCORE.evaluate, HAND_SLIPS)


def test_the_by_hand_checker_never_crashes():
    assert_never_crashes(HAND_SCORE.evaluate, kind="number")
