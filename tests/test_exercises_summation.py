"""Notebook 03's checkers: sum_from_to, Σᵢ₌₂⁴ qᵢ by hand and sum_of_squares name every
typical slip, accept the right answers and never crash."""

import math

import numpy as np
import pytest
from exercise_helpers import assert_never_crashes, assert_slips_named

from course_lib.exercises.core import CHANGED_INPUT
from course_lib.exercises.sum_of_squares import evaluate_sum_of_squares
from course_lib.exercises.summation import SUM_HAND, evaluate_sum_from_to


def sum_from_to_ok(q, a, b):
    total = 0.0
    for i in range(a, b + 1):
        total += q[i - 1]
    return total


def squares_ok(q):
    total = 0.0
    for x in q:
        total += x ** 2
    return total


def sum_counted_from_zero(q, a, b):
    total = 0
    for i in range(a, b + 1):
        if i < len(q):
            total += q[i]
    return total


def sum_return_in_loop(q, a, b):
    total = 0
    for i in range(a, b + 1):
        total += q[i - 1]
        return total


def sum_replaces_total(q, a, b):
    total = 0
    for i in range(a, b + 1):
        total = q[i - 1]
    return total


def squares_replaces_total(q):
    total = 0
    for x in q:
        total = x * x
    return total


def squares_multiplied(q):
    total = 1
    for x in q:
        total *= x ** 2
    return total


def sum_pops(q, a, b):
    total = 0
    for _ in range(b - a + 1):
        total += q.pop(a - 1)
    return total


def squares_caret(q):
    total = 0
    for x in q:
        total += x ^ 2
    return total


def squares_return_in_loop(q):
    total = 0
    for x in q:
        total += x * x
        return total


def sum_loop_from_zero(q, a, b):
    total = 0
    for i in range(a, b + 1):
        total += q[i]  # IndexError when b is the last slot
    return total


def sum_replaces_total_short(q, a, b):
    total = 0
    for i in range(a, b):
        total = q[i - 1]
    return total


def squares_in_place(q):
    for i in range(len(q)):
        q[i] = q[i] ** 2
    return sum(q)


SUM_SLIPS = {
    "counted from 0": [sum_counted_from_zero, lambda q, a, b: sum(q[a:b + 1]),
                       sum_loop_from_zero],
    "left out the last slot": [lambda q, a, b: sum(q[i - 1] for i in range(a, b)),
                               lambda q, a, b: sum(q[a - 1:b - 1])],
    "started one late": [lambda q, a, b: sum(q[a:b]),
                         lambda q, a, b: sum(q[i] for i in range(a, b))],
    "added everything": [lambda q, a, b: sum(q), lambda q, a, b: float(np.sum(q))],
    "return inside the loop": [sum_return_in_loop],
    "one slot past the end": [lambda q, a, b: sum(q[a - 1:b + 1])],
    "only the two ends": [lambda q, a, b: q[a - 1] + q[b - 1]],
    "shifted slots": [lambda q, a, b: sum(q[a + 1:b + 1]), lambda q, a, b: sum(q[a - 2:b - 1])],
    "started at slot 1": [lambda q, a, b: sum(q[:b]),
                          lambda q, a, b: sum(q[i - 1] for i in range(1, b + 1))],
    "= instead of +=": [sum_replaces_total, sum_replaces_total_short],
    "multiplied instead of added": [lambda q, a, b: math.prod(q[a - 1:b])],
    "divided by the number of terms": [lambda q, a, b: sum(q[a - 1:b]) / (b - a + 1)],
    "returned the terms": [lambda q, a, b: [q[i - 1] for i in range(a, b + 1)],
                           lambda q, a, b: q[a - 1:b]],
    "added the slot numbers": [lambda q, a, b: sum(range(a, b + 1)),
                               lambda q, a, b: sum(i for i in range(a, b + 1))],
    CHANGED_INPUT: [sum_pops],
}

HAND_SLIPS = {
    "counted from 0": [9, "9"], "left out the last slot": [5], "started one late": [6],
    "added everything": [15], "multiplied instead of added": [8], "only the two ends": [3],
    "started at slot 1": [12], "one slot past the end": [10],
    "sign turned round": [-7], "decimal point moved": [70, 0.7, 700],
}

SQUARES_SLIPS = {
    "caret for power": [squares_caret, lambda q: sum(x ^ 2 for x in q),
                        lambda q: sum(int(x) ^ 2 for x in q)],
    "doubled instead of squared": [lambda q: sum(x * 2 for x in q)],
    "forgot to square": [lambda q: sum(q)],
    "squared the sum": [lambda q: sum(q) ** 2, lambda q: sum(q) * sum(q)],
    "absolute values": [lambda q: sum(abs(x) for x in q)],
    "took the square root": [lambda q: math.sqrt(sum(x * x for x in q))],
    "return inside the loop": [squares_return_in_loop],
    "= instead of +=": [squares_replaces_total],
    "squared the whole list": [lambda q: sum(q ** 2), lambda q: sum(q * q)],
    "multiplied instead of added": [squares_multiplied],
    "returned the squares": [lambda q: [x * x for x in q]],
    "squared the total": [lambda q: sum(x * x for x in q) ** 2],
    "two to the power": [lambda q: sum(2 ** x for x in q)],
    "left out the last slot": [lambda q: sum(q[i] ** 2 for i in range(len(q) - 1))],
    "skipped the first slot": [lambda q: sum(q[i] ** 2 for i in range(1, len(q)))],
    "divided by the number of slots": [lambda q: sum(x ** 2 for x in q) / len(q)],
    "rounded the result": [lambda q: int(sum(x * x for x in q)),
                           lambda q: round(sum(x ** 2 for x in q), 1)],
    "largest square": [lambda q: max(x ** 2 for x in q)],
    "doubled the squares": [lambda q: sum(2 * x ** 2 for x in q),
                            lambda q: sum(x * x * 2 for x in q)],
    CHANGED_INPUT: [squares_in_place],
}


@pytest.mark.parametrize(("evaluate", "func"), [
    (evaluate_sum_from_to, sum_from_to_ok),
    (evaluate_sum_from_to, lambda q, a, b: sum(q[a - 1:b])),
    (evaluate_sum_of_squares, squares_ok),
    (evaluate_sum_of_squares, lambda q: float(np.dot(q, q)))])
def test_a_right_answer_passes(evaluate, func):
    feedback = evaluate(func)
    assert feedback.passed, str(feedback)


def test_sum_slips_are_named():
    assert_slips_named(evaluate_sum_from_to, SUM_SLIPS)


def test_sum_of_squares_slips_are_named():
    assert_slips_named(evaluate_sum_of_squares, SQUARES_SLIPS)


def test_sum_by_hand():
    assert SUM_HAND.evaluate(7).passed
    assert_slips_named(SUM_HAND.evaluate, HAND_SLIPS)


def test_hints_say_what_happened_on_which_input():
    feedback = evaluate_sum_from_to(lambda q, a, b: sum(q[a:b + 1]))
    assert "sum_from_to([5, 1, 4, 2], 1, 4) gave 7" in feedback.message
    feedback = evaluate_sum_of_squares(lambda q: sum(x * 2 for x in q))
    assert "sum_of_squares([3]) gave 6" in feedback.message and "expected 9" in feedback.message


def test_a_crash_is_reported_with_the_error_not_raised():
    feedback = evaluate_sum_from_to(lambda q, a, b: q[b])
    assert feedback.status == "failed" and "raised IndexError" in str(feedback)


@pytest.mark.parametrize("evaluate", [evaluate_sum_from_to, evaluate_sum_of_squares])
def test_never_crashes(evaluate):
    assert_never_crashes(evaluate)


def test_by_hand_never_crashes():
    assert_never_crashes(SUM_HAND.evaluate, kind="number")
