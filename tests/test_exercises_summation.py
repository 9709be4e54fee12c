"""Notebook 03's exercises (course_lib/exercises/summation.py): wrong answers written the way
beginners write them, each named by its own slip or relation; right answers in other styles
accepted."""

import math

import numpy as np
from slip_checks import assert_named, assert_passes

from course_lib.exercises import evaluate


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


def sum_reset_in_loop(q, a, b):
    for i in range(a, b + 1):
        total = 0
        total += q[i - 1]
    return total


def sum_ends_swapped(q, a, b):
    total = 0
    for i in range(b, a + 1):
        total += q[i - 1]
    return total


def squares_reset_in_loop(q):
    for x in q:
        total = 0
        total += x ** 2
    return total


def squares_cubed(q):
    total = 0
    for x in q:
        total += x ** 3
    return total


def squares_in_place(q):
    for i in range(len(q)):
        q[i] = q[i] ** 2
    return sum(q)


def test_sum_from_to_slips():
    assert_named("sum_from_to", {
        "counted from 0": [lambda q, a, b: sum(q[a:b + 1]), sum_loop_from_zero],
        "left out the last slot": [lambda q, a, b: sum(q[i - 1] for i in range(a, b)),
                                   lambda q, a, b: sum(q[a - 1:b - 1])],
        "started one late": [lambda q, a, b: sum(q[a:b]),
                             lambda q, a, b: sum(q[i] for i in range(a, b))],
        "added everything": [lambda q, a, b: sum(q), lambda q, a, b: float(np.sum(q))],
        "return inside the loop": [sum_return_in_loop],
        "one slot past the end": [lambda q, a, b: sum(q[a - 1:b + 1])],
        "on to the last slot": [lambda q, a, b: sum(q[a - 1:])],
        "only the two ends": [lambda q, a, b: q[a - 1] + q[b - 1]],
        "started at slot 1": [lambda q, a, b: sum(q[:b]),
                              lambda q, a, b: sum(q[i - 1] for i in range(1, b + 1))],
        "only the last term counts": [sum_replaces_total, sum_replaces_total_short,
                                      sum_reset_in_loop],
        "the loop never ran": [sum_ends_swapped],
        "multiplied instead of added": [lambda q, a, b: math.prod(q[a - 1:b])],
        "the number of terms times too small": [lambda q, a, b: sum(q[a - 1:b]) / (b - a + 1)],
        "the wrong shape": [lambda q, a, b: [q[i - 1] for i in range(a, b + 1)]],
        "used the positions, not the numbers": [lambda q, a, b: sum(range(a, b + 1))],
        "cut to whole numbers": [lambda q, a, b: int(sum(q[a - 1:b]))],
        "changed its input": [sum_pops],
    })


def test_sum_from_to_accepts_other_right_answers():
    assert_passes("sum_from_to", [sum_from_to_ok, lambda q, a, b: sum(q[a - 1:b]),
                                  lambda q, a, b: float(np.sum(q[a - 1:b]))])


def test_sum_by_hand_slips():
    assert_named("sum by hand", {
        "counted from 0": [14, "14"], "left out the last slot": [5], "started one late": [6],
        "added everything": [20], "multiplied instead of added": [8],
        "only the two ends": [3], "started at slot 1": [12], "one slot past the end": [15],
        "added the slot numbers": [9],
        "sign turned round": [-7], "one slot early at both ends": [10],
        "squared each term": [21], "the mean of the terms": [2.33, "7/3"],
        "the mean of the whole list": [4], "one term alone": [1, 2],
    })


def test_sum_of_squares_slips():
    assert_named("sum_of_squares", {
        "^ for a power": [squares_caret, lambda q: sum(x ^ 2 for x in q)],
        "doubled instead of squared": [lambda q: sum(x * 2 for x in q)],
        "forgot to square": [lambda q: sum(q)],
        "squared the sum": [lambda q: sum(q) ** 2, lambda q: sum(q) * sum(q)],
        "absolute values": [lambda q: sum(abs(x) for x in q)],
        "square-rooted": [lambda q: math.sqrt(sum(x * x for x in q))],
        "stopped after one pass": [squares_return_in_loop],
        "only the last term counts": [squares_replaces_total, squares_reset_in_loop],
        "cubed": [squares_cubed],
        "arithmetic on lists": [lambda q: sum(q ** 2), lambda q: sum(q * q)],
        "multiplied instead of added": [squares_multiplied],
        "returned the squares": [lambda q: [x * x for x in q]],
        "squared": [lambda q: sum(x * x for x in q) ** 2],
        "stopped one early": [
            lambda q: sum(q[i] ** 2 for i in range(len(q) - 1))],
        "skipped position 0": [
            lambda q: sum(q[i] ** 2 for i in range(1, len(q)))],
        "L times too small": [lambda q: sum(x ** 2 for x in q) / len(q)],
        "cut to whole numbers": [lambda q: int(sum(x * x for x in q))],
        "rounded to 1 decimal": [lambda q: round(sum(x ** 2 for x in q), 1)],
        "twice the answer": [lambda q: sum(2 * x ** 2 for x in q)],
        "changed its input": [squares_in_place],
    })


def test_sum_of_squares_accepts_other_right_answers():
    assert_passes("sum_of_squares", [squares_ok, lambda q: float(np.dot(q, q))])


def test_a_crash_is_reported_with_the_error_not_raised():
    feedback = evaluate("sum_from_to", lambda q, a, b: q[b] + 0.5)
    assert not feedback.passed and "raised IndexError" in str(feedback)
