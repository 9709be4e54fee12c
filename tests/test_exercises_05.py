"""Checkers of notebook 05: stack_rows, the score loop and the by-hand entry of Q = XW_Q.
A correct answer passes, the stub is "not attempted yet", every typical slip gets its own
name, and nothing a learner writes crashes a checker."""

import numpy as np
import pytest
from exercise_helpers import assert_never_crashes, assert_slips_named

from course_lib.exercises.matrices import HAND_Q_ENTRY, evaluate_stack_rows
from course_lib.exercises.score_loop import SCORE_LOOP_EXERCISE, evaluate_score_loop


def stub(*args):
    raise NotImplementedError


# --- stack_rows --------------------------------------------------------------------------

def stack_ok(vectors):
    width = len(vectors[0])
    for v in vectors:
        if len(v) != width:
            raise ValueError("different lengths")
    return [list(v) for v in vectors]


def checked(body):
    """A (wrong) stacking behind a correct length check, to isolate one slip."""
    def func(vectors):
        if len({len(v) for v in vectors}) > 1:
            raise ValueError("different lengths")
        return body(vectors)
    return func


def returns_in_loop(vectors):
    rows = []
    for v in vectors:
        rows.append(list(v))
        return rows


def range_minus_one(vectors):
    return np.array([vectors[i] for i in range(len(vectors) - 1)], dtype=float)


def range_from_one(vectors):
    return np.array([vectors[i] for i in range(1, len(vectors))], dtype=float)


def past_the_end(vectors):
    rows = []
    for i in range(len(vectors) + 1):
        rows.append(list(vectors[i]))
    return rows


def compares_with_count(vectors):
    for v in vectors:
        if len(v) != len(vectors):
            raise ValueError("not a grid")
    return np.array(vectors, dtype=float)


def checks_first_and_last(vectors):
    if len(vectors[0]) != len(vectors[-1]):
        raise ValueError("different lengths")
    return [list(v) for v in vectors]


def checks_first_two(vectors):
    if len(vectors) > 1 and len(vectors[0]) != len(vectors[1]):
        raise ValueError("different lengths")
    return [list(v) for v in vectors]


def asserts(vectors):
    assert len({len(v) for v in vectors}) == 1, "different lengths"
    return np.array(vectors, dtype=float)


def type_error(vectors):
    if len({len(v) for v in vectors}) > 1:
        raise TypeError("different lengths")
    return np.array(vectors, dtype=float)


def appends_to_input(vectors):
    vectors.append(vectors[0])
    return np.array(vectors[:-1], dtype=float)


def zeros_minus_one(v):
    grid = np.zeros((len(v), len(v[0])))
    for i in range(len(v) - 1):
        grid[i] = v[i]
    return grid


def checks_against_row_two(vectors):
    for v in vectors:
        if len(v) != len(vectors[1]):
            raise ValueError("rows of different lengths")
    return np.array(vectors, dtype=float)


def square_zeros(vectors):
    grid = np.zeros((len(vectors), len(vectors)))
    for i in range(len(vectors)):
        grid[i, :] = vectors[i]
    return grid


STACK_SLIPS = {
    "stacked as columns": [lambda v: np.array(v).T, np.column_stack,
                           checked(lambda v: list(zip(*v, strict=True))),
                           checked(lambda v: [[row[j] for row in v] for j in range(len(v[0]))])],
    "flattened": [np.concatenate, np.hstack, checked(lambda v: [x for row in v for x in row]),
                  checked(lambda v: np.concatenate(v).reshape(-1, 1))],
    "extra brackets": [checked(lambda v: [v]), checked(lambda v: np.array([v])),
                       checked(lambda v: np.array([[r] for r in v]))],
    "returned the shape": [checked(lambda v: (len(v), len(v[0]))),
                           checked(lambda v: np.array(v).shape),
                           checked(lambda v: np.array(v).shape[::-1]),
                           checked(lambda v: [len(v), len(v[0])])],
    "rows in reverse order": [checked(lambda v: v[::-1])],
    "loop runs one past the end": [checked(past_the_end)],
    "return inside the loop": [checked(returns_in_loop)],
    "first row left out": [checked(range_from_one),
                           checked(lambda v: np.array([[0.0] * len(v[0])] + v[1:]))],
    "length compared with the number of vectors": [compares_with_count],
    "does not reject different lengths": [lambda v: [list(r) for r in v], checks_first_and_last,
                                          lambda v: v, checks_first_two],
    "wrong kind of error": [asserts, type_error],
    "last row left out": [checked(range_minus_one), checked(zeros_minus_one)],
    "last column left out": [checked(lambda v: [row[:-1] for row in v])],
    "reshaped instead of transposed": [checked(lambda v: np.array(v).reshape(len(v[0]), len(v)))],
    "first vector only": [checked(lambda v: np.array(v[0])), checked(lambda v: list(v[0]))],
    "rows shifted by one": [checked(lambda v: np.array([v[i - 1] for i in range(len(v))]))],
    "rounded the numbers": [checked(lambda v: np.array(v, dtype=int)),
                            checked(lambda v: np.round(np.array(v)))],
    "changed its input": [checked(appends_to_input)],
    "grid made square": [square_zeros],
    "needs a second row": [checks_against_row_two],
    "transposed then reshaped": [lambda v: np.array(v).T.reshape(len(v), len(v[0]))],
}


@pytest.mark.parametrize("func", [stack_ok, lambda v: np.array(v, dtype=float), np.vstack])
def test_stack_rows_accepts_right_answers(func):
    assert evaluate_stack_rows(func).passed


def test_stack_rows_names_every_slip():
    assert evaluate_stack_rows(stub).status == "not attempted"
    assert_slips_named(evaluate_stack_rows, STACK_SLIPS)


def test_stack_rows_never_crashes():
    assert_never_crashes(evaluate_stack_rows)


# --- score_loop: the n × m loop of dot products --------------------------------------------

def loop(rows=None, cols=None, cell=lambda Q, K, i, j: Q[i] @ K[j], shape=None, stop=None):
    """A learner's double loop with one thing changed."""
    def score_loop(Q, K):
        n, m = Q.shape[0], K.shape[0]
        S = np.zeros(shape(n, m) if shape else (n, m))
        for i in (rows(n, m) if rows else range(n)):
            for j in (cols(n, m) if cols else range(m)):
                S[i, j] = cell(Q, K, i, j)
                if stop == "inner":
                    return S
            if stop == "outer":
                return S
        return S
    return score_loop


def m_from_q(Q, K):
    n, m = Q.shape  # m is d_k here
    S = np.zeros((n, m))
    for i in range(n):
        for j in range(m):
            S[i, j] = Q[i] @ K[j]
    return S


def like_q(Q, K):
    S = np.zeros_like(Q)
    for i in range(len(Q)):
        for j in range(len(Q[0])):
            S[i, j] = Q[i] @ K[j]
    return S


def shared_rows(Q, K):
    S = [[0] * len(K)] * len(Q)  # n references to one list
    for i in range(len(Q)):
        for j in range(len(K)):
            S[i][j] = Q[i] @ K[j]
    return S


def zeros_no_brackets(Q, K):
    S = np.zeros(len(Q), len(K))
    for i in range(len(Q)):
        for j in range(len(K)):
            S[i, j] = Q[i] @ K[j]
    return S


def last_product_only(Q, K):
    S = np.zeros((Q.shape[0], K.shape[0]))
    for i in range(Q.shape[0]):
        for j in range(K.shape[0]):
            for t in range(Q.shape[1]):
                S[i, j] = Q[i, t] * K[j, t]
    return S


def appended_after_loop(Q, K):
    S = []
    for i in range(len(Q)):
        row = [Q[i] @ K[j] for j in range(len(K))]
    S.append(row)
    return S


def loop_ok(Q, K):
    S = np.zeros((Q.shape[0], K.shape[0]))
    for i in range(Q.shape[0]):
        for j in range(K.shape[0]):
            S[i, j] = sum(Q[i, t] * K[j, t] for t in range(Q.shape[1]))
    return S


def nested_lists(Q, K):
    return [[Q[i] * K[j] for j in range(len(K))] for i in range(len(Q))]


def writes_into_q(Q, K):
    Q -= 0.0  # an in-place edit: refused by the read-only hidden arrays
    return Q @ K.T


LOOP_SLIPS = {
    "keys and queries swapped": [lambda Q, K: K @ Q.T,
                                 loop(shape=lambda n, m: (m, n), rows=lambda n, m: range(m),
                                      cols=lambda n, m: range(n),
                                      cell=lambda Q, K, j, i: Q[i] @ K[j])],
    "missing transpose": [lambda Q, K: Q @ K, lambda Q, K: np.dot(Q, K)],
    "square grid n×n": [loop(shape=lambda n, m: (n, n), cols=lambda n, m: range(n))],
    "inner loop over n": [loop(cols=lambda n, m: range(n))],
    "grid as wide as d_k": [m_from_q, like_q],
    "rows share one list": [shared_rows],
    "np.zeros(n, m) without brackets": [zeros_no_brackets],
    "same index for query and key": [loop(cell=lambda Q, K, i, j: Q[i] @ K[i])],
    "multiplied without adding up": [loop(cell=lambda Q, K, i, j: Q[i] * K[j]), nested_lists],
    "loop starts at 1": [loop(rows=lambda n, m: range(1, n)), loop(cols=lambda n, m: range(1, m))],
    "loop stops one early": [loop(rows=lambda n, m: range(n - 1)),
                             loop(cols=lambda n, m: range(m - 1))],
    "counted from 1 to n": [loop(rows=lambda n, m: range(1, n + 1)),
                            loop(rows=lambda n, m: range(1, n + 1),
                                 cols=lambda n, m: range(1, m + 1))],
    "return inside the loop": [loop(stop="outer"), loop(stop="inner")],
    "divided by √d_k": [loop(cell=lambda Q, K, i, j: Q[i] @ K[j] / np.sqrt(Q.shape[1]))],
    "added instead of multiplied": [loop(cell=lambda Q, K, i, j: np.sum(Q[i] + K[j]))],
    "sign turned round": [loop(cell=lambda Q, K, i, j: -(Q[i] @ K[j]))],
    "left out the last slot": [loop(cell=lambda Q, K, i, j: sum(
        Q[i, t] * K[j, t] for t in range(Q.shape[1] - 1)))],
    "= instead of +=": [last_product_only],
    "appended after the loop": [appended_after_loop],
    "divided by d_k": [loop(cell=lambda Q, K, i, j: Q[i] @ K[j] / Q.shape[1])],
    "multiplied the sums": [loop(cell=lambda Q, K, i, j: sum(Q[i]) * sum(K[j]))],
    "left out the first slot": [loop(cell=lambda Q, K, i, j: sum(
        Q[i, t] * K[j, t] for t in range(1, Q.shape[1])))],
    "changed its input": [writes_into_q],
}


@pytest.mark.parametrize("func", [loop_ok, loop(), lambda Q, K: Q @ K.T])
def test_score_loop_accepts_right_answers(func):
    assert evaluate_score_loop(func).passed


def test_score_loop_cases_tell_the_sizes_apart():
    shapes = [(q.shape, k.shape) for q, k in (c.args for c in SCORE_LOOP_EXERCISE.cases)]
    assert shapes
    assert any(q[0] < k[0] for q, k in shapes) and any(q[0] > k[0] for q, k in shapes)
    assert any(q[1] == k[0] for q, k in shapes)  # d_k = m: Q @ K runs


def test_score_loop_names_every_slip():
    assert evaluate_score_loop(stub).status == "not attempted"
    assert_slips_named(evaluate_score_loop, LOOP_SLIPS)


def test_score_loop_hint_names_the_case():
    feedback = evaluate_score_loop(loop(cols=lambda n, m: range(n)))
    assert "score_loop([[" in feedback.message and "{" not in feedback.message


def test_score_loop_never_crashes():
    assert_never_crashes(evaluate_score_loop)


# --- by hand: slot 2 of row q₂ of Q = X W_Q ----------------------------------------------

X_CAT, W_Q_COL2 = np.array([1.1, 0.1, -0.6, -0.8]), np.array([2.0, -1.0, -1.0, 2.0])

HAND_SLIPS = {
    "used W_K": [-0.4], "column 1 of W_Q": [0.9, 0.90], "column 3 of W_Q": [-2.1],
    "row of word 1": [0.7], "row of word 3": [-2.9], "added instead of multiplied": [1.8],
    "minus times minus": [-0.1], "last term dropped": [2.7, "2.7"],
    "dropped the minus signs": [4.5],
    "sign turned round": [-1.1], "decimal point moved": [11.0, 0.11],
}


def test_the_by_hand_answer_is_the_dot_product():
    assert HAND_Q_ENTRY.evaluate(float(X_CAT @ W_Q_COL2)).passed
    assert HAND_Q_ENTRY.evaluate("1.1").passed


def test_the_by_hand_slips_are_named():
    assert_slips_named(HAND_Q_ENTRY.evaluate, HAND_SLIPS)


def test_the_by_hand_checker_never_crashes():
    assert_never_crashes(HAND_Q_ENTRY.evaluate, kind="number")
