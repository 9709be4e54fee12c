"""Checker of notebook 08's code exercise, scale_scores(query, key): a correct answer passes, the
stub is "not attempted yet", and each typical slip, written the way a beginner writes it, gets
its own name."""

import math

import numpy as np
import pytest
from exercise_helpers import assert_never_crashes, assert_slips_named

from course_lib import softmax
from course_lib.exercises.scaling import SCALE_EXERCISE, check_scale_scores, evaluate_scale_scores


def scale_ok(query, key):
    return query @ key.T / math.sqrt(query.shape[-1])


def scale_ok_loops(query, key):
    d_k = len(query[0])
    return [[sum(q[c] * k[c] for c in range(d_k)) / math.sqrt(d_k) for k in key] for q in query]


def scale_ok_power(query, key):
    return np.matmul(query, key.transpose()) * query.shape[1] ** -0.5


def no_brackets(query, key):
    d_k = query.shape[-1]
    return query @ key.T / d_k ** 1/2


def half_d_k(query, key):
    d_k = query.shape[-1]
    return query @ key.T / (d_k ** 1/2)


def in_place(query, key):
    query /= math.sqrt(query.shape[-1])  # writes into the caller's array
    return query @ key.T


def loop_counts_keys(query, key):
    m = len(key)
    return [[sum(a * b for a, b in zip(q, k, strict=True)) / math.sqrt(m) for k in key]
            for q in query]


def caret_half(query, key):
    d_k = query.shape[-1]
    return query @ key.T / d_k ^ 1/2


def caret_power(query, key):
    d_k = query.shape[-1]
    return query @ key.T / (d_k ^ 0.5)


def no_d_k(query, key):
    return query @ key.T / math.sqrt(d_k)  # noqa: F821 (the slip: d_k never set)


def no_import(query, key):
    return query @ key.T / mathh.sqrt(query.shape[-1])  # noqa: F821 (the slip: no import)


def rounded_loops(query, key):
    d_k = len(query[0])
    return [[round(sum(a * b for a, b in zip(q, k, strict=True)) / math.sqrt(d_k), 2)
             for k in key] for q in query]


SLIPS = {
    "missing scale": [lambda query, key: query @ key.T,
                      lambda query, key: np.dot(query, key.T)],
    "divided by d_k": [lambda query, key: query @ key.T / query.shape[1],
                       lambda query, key: query @ key.T / len(query[0])],
    "multiplied by √d_k": [lambda query, key: query @ key.T * math.sqrt(query.shape[1])],
    "scaled by the number of keys": [lambda query, key: query @ key.T / math.sqrt(len(key)),
                                     loop_counts_keys],
    "scaled by the number of queries": [
        lambda query, key: query @ key.T / math.sqrt(len(query)),
        lambda query, key: query @ key.T / np.sqrt(query.shape[0])],
    "scaled by the number of entries": [lambda query, key: query @ key.T / np.sqrt(query.size),
                                        lambda query, key: query @ key.T / np.sqrt(key.size)],
    "** 1/2 without brackets": [no_brackets],
    "(d_k ** 1/2) is d_k/2": [half_d_k],
    "floor division": [lambda query, key: query @ key.T // math.sqrt(query.shape[-1])],
    "missing transpose": [lambda query, key: np.matmul(query, key) / math.sqrt(query.shape[1]),
                          lambda query, key: query @ key / math.sqrt(query.shape[-1])],
    "Q * K.T elementwise": [lambda query, key: query * key.T / math.sqrt(query.shape[-1])],
    "K Qᵀ": [lambda query, key: key @ query.T / math.sqrt(query.shape[-1])],
    "Qᵀ K": [lambda query, key: query.T @ key / math.sqrt(query.shape[-1])],
    "^ for **": [caret_power, caret_half,
                 lambda query, key: query @ key.T / ((query.shape[1] ^ 1) / 2)],
    "a name never defined": [no_d_k, no_import],
    "applied the softmax": [lambda q, k: softmax(q @ k.T / np.sqrt(q.shape[1]), axis=-1)],
    "√d_k rounded to a whole number": [lambda q, k: q @ k.T / int(math.sqrt(q.shape[1])),
                                       lambda q, k: q @ k.T / (q.shape[1] ** 0.5 // 1)],
    "rounded the result": [rounded_loops,
                           lambda query, key: np.round(query @ key.T / np.sqrt(key.shape[1]), 3)],
    "changed its input": [in_place],
}


@pytest.mark.parametrize("func", [scale_ok, scale_ok_loops, scale_ok_power])
def test_correct_answers_pass(func):
    feedback = evaluate_scale_scores(func)
    assert feedback.passed, feedback.message
    assert feedback.message.startswith("Correct")


@pytest.mark.parametrize("stub", [lambda q, k: (_ for _ in ()).throw(NotImplementedError),
                                  lambda q, k: None])
def test_stub_is_not_attempted(stub):
    feedback = evaluate_scale_scores(stub)
    assert feedback.status == "not attempted"
    assert feedback.message.startswith("Not attempted yet")


def test_every_slip_is_named():
    assert_slips_named(evaluate_scale_scores, SLIPS)


def test_every_mistake_has_a_slip_in_the_test():
    assert {m.name for m in SCALE_EXERCISE.mistakes} <= set(SLIPS)


def test_hints_say_on_which_input():
    feedback = evaluate_scale_scores(SLIPS["divided by d_k"][0])
    assert "on scale_scores(query of shape" in feedback.message
    assert "{call}" not in feedback.message


def test_unknown_mistake_shows_the_smallest_case():
    feedback = evaluate_scale_scores(lambda query, key: query @ key.T / 3.0)
    assert feedback.status == "failed"
    assert "query of shape 2×1, key of shape 3×1" in feedback.message


def test_never_crashes():
    assert_never_crashes(evaluate_scale_scores)


def test_check_prints_one_paragraph(capsys):
    check_scale_scores(scale_ok)
    out = capsys.readouterr().out
    assert out.startswith("Correct") and out.count("\n") == 1
