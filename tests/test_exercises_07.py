"""Checkers of notebook 07: softmax of every row, the by-hand weight and the Jacobian.
A correct answer passes, the stub is "not attempted yet", every typical slip gets its own
name, and nothing a learner writes crashes a checker."""

import math
import warnings

import numpy as np
import pytest
from exercise_helpers import assert_never_crashes, assert_slips_named

import course_lib
from course_lib.exercises.softmax import (
    SOFTMAX_EXERCISE,
    check_softmax_rows,
    evaluate_softmax_rows,
    is_large,
)
from course_lib.exercises.weights import HAND_WEIGHT, evaluate_jacobian


def stub(*args):
    raise NotImplementedError


# --- softmax_rows ------------------------------------------------------------------------

def softmax_rows_ok(scores):
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def softmax_rows_loops(scores):
    weights = []
    for row in scores:
        top = max(row)
        exps = [math.exp(x - top) for x in row]
        weights.append([e / sum(exps) for e in exps])
    return weights


def naive_loops(scores):
    weights = []
    for row in scores:
        exps = [math.exp(x) for x in row]  # OverflowError past ~709
        weights.append([e / sum(exps) for e in exps])
    return weights


def returns_in_loop(scores):
    for row in scores:
        e = np.exp(row - row.max())
        return e / e.sum()


def shifts_in_place(scores):
    scores -= scores.max(axis=-1, keepdims=True)  # writes into the caller's grid
    e = np.exp(scores)
    return e / e.sum(axis=-1, keepdims=True)


def shifted(shift):
    def softmax_rows(x):
        e = np.exp(x - shift(x))
        return e / e.sum(axis=-1, keepdims=True)
    return softmax_rows


def stable_exp(x):
    return np.exp(x - x.max(axis=-1, keepdims=True))


SOFTMAX_SLIPS = {
    "overflows on large scores": [course_lib.softmax_naive, naive_loops,
                                  lambda x: np.exp(x) / np.exp(x).sum(axis=-1, keepdims=True)],
    "subtracted the smallest score": [shifted(lambda x: x.min(axis=-1, keepdims=True))],
    "subtracted the mean": [shifted(lambda x: x.mean(axis=-1, keepdims=True))],
    "softmax over the wrong axis": [lambda x: course_lib.softmax(x, axis=0),
                                    lambda x: stable_exp(x) / stable_exp(x).sum(axis=0),
                                    lambda x: np.exp(x) / np.exp(x).sum(axis=0, keepdims=True)],
    "max over the wrong axis": [shifted(lambda x: x.max(axis=0, keepdims=True))],
    "shifted the top only": [lambda x: stable_exp(x) / np.exp(x).sum(axis=-1, keepdims=True)],
    "sigmoid instead of softmax": [lambda x: 1 / (1 + np.exp(-x))],
    "normalised over the whole grid": [lambda x: stable_exp(x) / stable_exp(x).sum(),
                                       lambda x: np.exp(x - x.max()) / np.exp(x - x.max()).sum(),
                                       lambda x: np.exp(x) / np.exp(x).sum()],
    "row totals without keepdims": [lambda x: stable_exp(x) / stable_exp(x).sum(axis=-1),
                                    lambda x: np.exp(x) / np.exp(x).sum(axis=1)],
    "max without keepdims": [shifted(lambda x: x.max(axis=-1)),
                             shifted(lambda x: np.max(x, axis=1))],
    "subtracted the largest score of the whole grid": [shifted(lambda x: x.max())],
    "no exponential": [lambda x: x / x.sum(axis=-1, keepdims=True)],
    "not normalised": [np.exp, stable_exp, lambda x: 2 * softmax_rows_ok(x)],
    "return inside the loop": [returns_in_loop, lambda x: [list(softmax_rows_ok(x)[0])]],
    "log of the softmax": [lambda x: x - x.max(1, keepdims=True) - np.log(
        np.exp(x - x.max(1, keepdims=True)).sum(1, keepdims=True))],
    "rounded the result": [lambda x: np.round(course_lib.softmax(x, axis=-1), 3),
                           lambda x: np.round(course_lib.softmax(x, axis=-1), 2)],
    "changed its input": [shifts_in_place],
}


@pytest.mark.parametrize("func", [softmax_rows_ok, softmax_rows_loops,
                                  lambda x: course_lib.softmax(x, axis=1)])
def test_softmax_rows_accepts_right_answers(func):
    assert evaluate_softmax_rows(func).passed


def test_softmax_rows_names_every_slip():
    assert evaluate_softmax_rows(stub).status == "not attempted"
    assert_slips_named(evaluate_softmax_rows, SOFTMAX_SLIPS)


def test_softmax_rows_has_large_and_ordinary_cases():
    large = [is_large(case) for case in SOFTMAX_EXERCISE.cases]
    assert any(large) and not all(large)
    shapes = {case.args[0].shape for case in SOFTMAX_EXERCISE.cases}
    assert any(n > 1 and n != m for n, m in shapes)  # a wrong axis shows


def test_an_overflowing_attempt_prints_no_warning(capsys):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # any warning that escapes the checker fails the test
        check_softmax_rows(course_lib.softmax_naive)
    captured = capsys.readouterr()
    assert captured.out.startswith("Not yet: your weights are right for ordinary scores")
    assert captured.err == ""


def test_softmax_rows_never_crashes():
    assert_never_crashes(evaluate_softmax_rows)


# --- by hand: p₁ of softmax([3, 1, 0]) -----------------------------------------------------

E = math.e
HAND_SLIPS = {
    "no exponential": [0.75], "left out e⁰": [0.881], "only two scores": [0.953],
    "powers of 2": [0.727], "powers of 10": [0.989], "squares": [0.9],
    "weight of key 2": [0.114], "weight of key 3": [0.042], "equal split": [0.333, "1/3"],
    "forgot to divide": [20.086], "multiplied instead of added": [0.368],
    "sign turned round": [-0.844],
}


def test_the_by_hand_weight_is_the_softmax():
    assert HAND_WEIGHT.evaluate(float(course_lib.softmax(np.array([3.0, 1.0, 0.0]))[0])).passed
    assert HAND_WEIGHT.evaluate(0.844).passed


def test_the_by_hand_slips_are_named():
    assert_slips_named(HAND_WEIGHT.evaluate, HAND_SLIPS)


def test_the_by_hand_checker_never_crashes():
    assert_never_crashes(HAND_WEIGHT.evaluate, kind="number")


# --- jacobian(p) ---------------------------------------------------------------------------

def jacobian_loops(p):
    m = len(p)
    J = np.zeros((m, m))
    for i in range(m):
        for j in range(m):
            J[i, j] = p[i] * (1 - p[i]) if i == j else -p[i] * p[j]
    return J


def loops(rows, cols, stop=False):
    def jacobian(p):
        m = len(p)
        J = np.zeros((m, m))
        for i in rows(m):
            for j in cols(m):
                J[i, j] = p[i] * (1 - p[i]) if i == j else -p[i] * p[j]
            if stop:
                return J
        return J
    return jacobian


def p_minus_products_loop(p):
    J = np.zeros((len(p), len(p)))
    for i in range(len(p)):
        for j in range(len(p)):
            J[i, j] = p[i] - p[i] * p[j]  # the diagonal formula everywhere
    return J


def normalises_in_place(p):
    p /= p.sum()  # writes into the caller's weights
    return np.diag(p) - np.outer(p, p)


def first_row_only(p):
    for i in range(len(p)):
        return [(p[i] if i == j else 0.0) - p[i] * p[j] for j in range(len(p))]


JACOBIAN_SLIPS = {
    "forgot diag(p)": [lambda p: -np.outer(p, p), lambda p: -p[:, None] * p[None, :]],
    "signs turned round": [lambda p: np.outer(p, p) - np.diag(p)],
    "p @ p.T on a flat vector": [lambda p: np.diag(p) - p @ p.T,
                                 lambda p: np.diag(p) - np.dot(p, p)],
    "p * p instead of the outer product": [lambda p: np.diag(p) - p * p,
                                           lambda p: np.diag(p) - p * p.T,
                                           lambda p: np.diag(p) - p ** 2],
    "only the diagonal": [lambda p: np.diag(p * (1 - p)), lambda p: p * (1 - p),
                          lambda p: np.diag(p) * (1 - p)],
    "p(1 − p) on every row": [lambda p: np.outer(p, 1 - p), p_minus_products_loop],
    "identity instead of diag(p)": [lambda p: np.eye(len(p)) - np.outer(p, p)],
    "p instead of diag(p)": [lambda p: p - np.outer(p, p)],
    "off-diagonal sign": [lambda p: np.outer(p, p) + np.diag(p - 2 * p * p)],
    "diagonal subtracted twice": [lambda p: np.diag(p * (1 - p)) - np.outer(p, p)],
    "loop starts at 1": [loops(lambda m: range(1, m), range), loops(range, lambda m: range(1, m))],
    "loop stops one early": [loops(lambda m: range(m - 1), range),
                             loops(lambda m: range(m - 1), lambda m: range(m - 1))],
    "return inside the loop": [loops(range, range, stop=True), first_row_only],
    "changed its input": [normalises_in_place],
}


@pytest.mark.parametrize("func", [jacobian_loops, lambda p: np.diag(p) - np.outer(p, p),
                                  course_lib.softmax_jacobian,
                                  lambda p: np.diag(p) - p[:, None] @ p[None, :]])
def test_jacobian_accepts_right_answers(func):
    assert evaluate_jacobian(func).passed


def test_jacobian_names_every_slip():
    assert evaluate_jacobian(stub).status == "not attempted"
    assert_slips_named(evaluate_jacobian, JACOBIAN_SLIPS)


def test_jacobian_never_crashes():
    assert_never_crashes(evaluate_jacobian)
