"""Notebook 04's checkers: dot_loop, [1, −2, 3]·[4, 1, 2] by hand, cosine and ∥q∥∥k∥cos θ by
hand name every typical slip, accept the right answers and never crash."""

import math

import numpy as np
import pytest
from exercise_helpers import assert_never_crashes, assert_slips_named

from course_lib import dot, norm
from course_lib.exercises.core import CHANGED_INPUT
from course_lib.exercises.cosine import COSINE_HAND, evaluate_cosine
from course_lib.exercises.dot_product import DOT_HAND, check_dot_product, evaluate_dot_product


def dot_ok(q, k):
    if len(q) != len(k):
        raise ValueError(f"q has {len(q)} slots but k has {len(k)}")
    total = 0.0
    for i in range(len(q)):
        total += q[i] * k[i]
    return total


def cosine_ok(q, k):
    return float(dot(q, k)) / (float(norm(q)) * float(norm(k)))


def pairs(q, k):
    return zip(q, k, strict=False)  # stops at the shorter list, as beginners' code does


def checked(body):
    """Wrap a (wrong) dot product with a right length check, to isolate one slip."""
    def func(q, k):
        if len(q) != len(k):
            raise ValueError("different lengths")
        return body(q, k)
    return func


def dot_return_in_loop(q, k):
    if len(q) != len(k):
        raise ValueError("different lengths")
    total = 0
    for i in range(len(q)):
        total += q[i] * k[i]
        return total


def dot_times_equals(q, k):
    if len(q) != len(k):
        raise ValueError("different lengths")
    total = 1
    for i in range(len(q)):
        total *= q[i] * k[i]
    return total


def dot_replaces_total(q, k):
    if len(q) != len(k):
        raise ValueError("different lengths")
    total = 0
    for i in range(len(q)):
        total = q[i] * k[i]
    return total


def dot_nested_loops(q, k):
    if len(q) != len(k):
        raise ValueError("different lengths")
    total = 0
    for a in q:
        for b in k:
            total += a * b
    return total


def dot_pops(q, k):
    if len(q) != len(k):
        raise ValueError("lengths")
    total = 0.0
    while q:
        total += q.pop() * k.pop()
    return total


DOT_SLIPS = {
    "sums without multiplying": [checked(lambda q, k: sum(a + b for a, b in pairs(q, k))),
                                 checked(lambda q, k: sum(q) + sum(k))],
    "multiplies the sums": [checked(lambda q, k: sum(q) * sum(k)), dot_nested_loops],
    "multiplied the products": [dot_times_equals],
    "used q twice": [checked(lambda q, k: sum(q[i] * q[i] for i in range(len(q))))],
    "return inside the loop": [dot_return_in_loop],
    "uses only some slots": [checked(lambda q, k: sum(q[i] * k[i] for i in range(len(q) - 1))),
                             checked(lambda q, k: sum(q[i] * k[i] for i in range(1, len(q)))),
                             checked(lambda q, k: sum(q[i] * k[i] for i in range(min(2, len(q)))))],
    "returns a vector": [checked(lambda q, k: [a * b for a, b in pairs(q, k)]),
                         checked(lambda q, k: np.multiply(q, k))],
    "does not reject different lengths": [lambda q, k: sum(a * b for a, b in pairs(q, k)),
                                          lambda q, k: float(np.dot(q[:len(k)], k[:len(q)]))],
    "= instead of +=": [dot_replaces_total],
    "k read backwards": [checked(lambda q, k: sum(q[i] * k[-i - 1] for i in range(len(q)))),
                         checked(lambda q, k: sum(q[i] * k[-i] for i in range(len(q))))],
    "sign turned round": [checked(lambda q, k: -sum(a * b for a, b in pairs(q, k)))],
    "multiplied the lists": [checked(lambda q, k: sum(q * k))],
    "@ on lists": [checked(lambda q, k: q @ k)],
    "divided by the number of slots": [checked(lambda q, k: float(np.dot(q, k)) / len(q))],
    "took the size": [checked(lambda q, k: abs(float(np.dot(q, k))))],
    "used k twice": [checked(lambda q, k: sum(k[i] * k[i] for i in range(len(k))))],
    "subtracted instead of multiplied": [checked(lambda q, k: sum(
        q[i] - k[i] for i in range(len(q))))],
    "k shifted by one": [checked(lambda q, k: sum(
        q[i] * k[(i + 1) % len(k)] for i in range(len(q)))),
                         checked(lambda q, k: sum(q[i] * k[i - 1] for i in range(len(q))))],
    "rounded the result": [checked(lambda q, k: round(float(np.dot(q, k)), 1)),
                           checked(lambda q, k: int(np.dot(q, k)))],
    CHANGED_INPUT: [dot_pops],
}

DOT_HAND_SLIPS = {
    "sign of a product": [12, "12"], "sums without multiplying": [9],
    "multiplies the sums": [14], "left out the last slot": [2], "left out the first slot": [4],
    "multiplied the products": [-48], "sign turned round": [-8], "decimal point moved": [80, 0.8],
    "left out the middle slot": [10],
}

COSINE_SLIPS = {
    "returned the angle": [lambda q, k: math.acos(cosine_ok(q, k)),
                           lambda q, k: math.degrees(math.acos(cosine_ok(q, k)))],
    "not divided": [lambda q, k: float(dot(q, k)), lambda q, k: sum(a * b for a, b in pairs(q, k))],
    "divided then multiplied": [lambda q, k: float(dot(q, k)) / float(norm(q)) * float(norm(k))],
    "divided by one length only": [lambda q, k: float(dot(q, k) / norm(q)),
                                   lambda q, k: float(dot(q, k) / norm(k))],
    "divided by the squared lengths": [lambda q, k: float(dot(q, k) / (dot(q, q) * dot(k, k)))],
    "divided by the sum of lengths": [lambda q, k: float(dot(q, k) / (norm(q) + norm(k)))],
    "used k's length twice": [lambda q, k: float(dot(q, k) / (norm(k) * norm(k)))],
    "took the size": [lambda q, k: abs(cosine_ok(q, k))],
    "cos of the dot product": [lambda q, k: math.cos(float(dot(q, k)))],
    "multiplied by the lengths": [lambda q, k: float(dot(q, k) * norm(q) * norm(k))],
    "halved instead of the root": [lambda q, k: float(dot(q, k)) / (
        sum(x * x for x in q) ** 1/2 * sum(y * y for y in k) ** 1/2)],
    "cos of the answer": [lambda q, k: math.cos(float(dot(q, k) / (norm(q) * norm(k))))],
    "returned 1 − cos θ": [lambda q, k: 1 - float(dot(q, k) / (norm(q) * norm(k)))],
    "rounded the result": [lambda q, k: round(float(dot(q, k) / (norm(q) * norm(k))), 2)],
    "used q's length twice": [lambda q, k: float(dot(q, k) / (norm(q) * norm(q)))],
}

COSINE_HAND_SLIPS = {
    "forgot cos θ": [10, "10"], "used sin θ": [8.66, 8.660], "added the lengths": [3.5],
    "added the lengths, no cos θ": [7],
    "cos of 60 radians": [-9.52, -9.524], "sign turned round": [-5],
    "decimal point moved": [50, 0.5, 500], "divided by cos θ": [20],
    "left out a length": [2.5, 1.0],
}


@pytest.mark.parametrize(("evaluate", "func"), [
    (evaluate_dot_product, dot_ok), (evaluate_cosine, cosine_ok),
    (evaluate_cosine, lambda q, k: np.dot(q, k) / np.linalg.norm(q) / np.linalg.norm(k))])
def test_a_right_answer_passes(evaluate, func):
    feedback = evaluate(func)
    assert feedback.passed, str(feedback)


def test_dot_slips_are_named():
    assert_slips_named(evaluate_dot_product, DOT_SLIPS)


def test_cosine_slips_are_named():
    assert_slips_named(evaluate_cosine, COSINE_SLIPS)


def test_by_hand_slips_are_named():
    assert DOT_HAND.evaluate(8).passed and COSINE_HAND.evaluate("5").passed
    assert_slips_named(DOT_HAND.evaluate, DOT_HAND_SLIPS)
    assert_slips_named(COSINE_HAND.evaluate, COSINE_HAND_SLIPS)


def test_an_unrecognised_slip_shows_the_smallest_failing_case():
    feedback = evaluate_dot_product(checked(lambda q, k: 2 * sum(a * b for a, b in pairs(q, k))))
    assert feedback.status == "failed" and feedback.case.args == ([3.0], [-2.0])
    assert "dot_loop([3], [-2])" in str(feedback) and "returned -12" in str(feedback)


def test_hints_say_what_happened_on_which_input():
    feedback = evaluate_dot_product(dot_return_in_loop)
    assert "dot_loop([1, 2, 3], [4, 5, 6]) gave 4" in feedback.message
    feedback = evaluate_cosine(lambda q, k: float(dot(q, k)) / float(norm(q)) * float(norm(k)))
    assert "cosine([2, 0], [3, 3])" in feedback.message and "left to right" in feedback.message


def test_missing_rejection_is_not_blamed_when_values_are_also_wrong():
    feedback = evaluate_dot_product(lambda q, k: 3 * sum(a * b for a, b in pairs(q, k)))
    assert feedback.status == "failed"


def test_check_prints_one_paragraph_and_returns_none(capsys):
    assert check_dot_product(dot_ok) is None
    out = capsys.readouterr().out
    assert out.startswith("Correct") and out.count("\n") == 1


@pytest.mark.parametrize("evaluate", [evaluate_dot_product, evaluate_cosine])
def test_never_crashes(evaluate):
    assert_never_crashes(evaluate)


@pytest.mark.parametrize("hand", [DOT_HAND, COSINE_HAND])
def test_by_hand_never_crashes(hand):
    assert_never_crashes(hand.evaluate, kind="number")


@pytest.mark.parametrize("value", [(1.0, [1.0, 2.0]), [[1, 2], [3]], {"a": 1}, "abc", {1, 2}, 1j])
def test_an_odd_return_value_is_judged_not_unreadable(value):
    feedback = evaluate_dot_product(lambda q, k: value)
    assert feedback.status == "failed" or feedback.mistake is not None
    assert "could not read" not in feedback.message, feedback.message
