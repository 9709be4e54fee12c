"""Notebook 02's checkers: length, ∥[2, −3, 6]∥ by hand and unit name every typical slip,
accept the right answers and never crash."""

import math

import numpy as np
import pytest
from exercise_helpers import assert_never_crashes, assert_slips_named

from course_lib.exercises.core import CHANGED_INPUT
from course_lib.exercises.norm import LENGTH_HAND, evaluate_length
from course_lib.exercises.unit_vector import evaluate_unit


def length_ok(q):
    total = 0.0
    for x in q:
        total += x * x
    return math.sqrt(total)


def unit_ok(q):
    size = math.sqrt(sum(x * x for x in q))
    return [x / size for x in q]


def length_halved(q):
    total = 0
    for x in q:
        total += x ** 2
    return total ** 1/2


def length_caret(q):
    total = 0
    for x in q:
        total += x ^ 2
    return math.sqrt(total)


def length_return_in_loop(q):
    total = 0.0
    for x in q:
        total += x * x
        return math.sqrt(total)


def length_replaces_total(q):
    total = 0.0
    for x in q:
        total = x ** 2
    return math.sqrt(total)


def length_sorts(q):
    q.sort()
    return math.sqrt(sum(x * x for x in q))


def unit_in_place(q):
    size = math.sqrt(sum(x * x for x in q))
    for i in range(len(q)):
        q[i] = q[i] / size
    return q


def _safe_sqrt(total):
    return math.sqrt(total) if total >= 0 else 0.0


def length_root_each_step(q):
    total = 0
    for x in q:
        total += x ** 2
        total = math.sqrt(total)
    return total


def unit_return_in_loop(q):
    size = math.sqrt(sum(x * x for x in q))
    result = []
    for x in q:
        result.append(x / size)
        return result


def length_drops_the_sum(q):
    total = 0.0
    for x in q:
        total + x ** 2  # noqa: B018 (the slip: the sum is computed and thrown away)
    return math.sqrt(total)


LENGTH_SLIPS = {
    "no square root": [lambda q: sum(x * x for x in q), lambda q: sum(x ** 2 for x in q)],
    "halved instead of the root": [length_halved, lambda q: sum(x * x for x in q) / 2],
    "doubled instead of squared": [lambda q: _safe_sqrt(sum(x * 2 for x in q))],
    "caret for power": [length_caret, lambda q: math.sqrt(sum(x ^ 2 for x in q))],
    "no squares": [lambda q: _safe_sqrt(sum(q))],
    "absolute values": [lambda q: sum(abs(x) for x in q),
                        lambda q: math.sqrt(sum(abs(x) for x in q))],
    "squared instead of the root": [lambda q: sum(x * x for x in q) ** 2],
    "squared the sum": [lambda q: abs(sum(q)), lambda q: math.sqrt(sum(q) ** 2)],
    "fixed number of slots": [lambda q: math.hypot(q[0], q[1]),
                              lambda q: math.sqrt(q[0] ** 2 + q[1] ** 2 + q[2] ** 2)],
    "return inside the loop": [length_return_in_loop],
    "= instead of +=": [length_replaces_total],
    "squared the whole list": [lambda q: math.sqrt(sum(q ** 2))],
    "left out the last slot": [lambda q: math.sqrt(sum(q[i] ** 2 for i in range(len(q) - 1)))],
    "skipped the first slot": [lambda q: math.sqrt(sum(q[i] ** 2 for i in range(1, len(q))))],
    "divided by the number of slots": [lambda q: math.sqrt(sum(x * x for x in q)) / len(q)],
    "largest slot": [lambda q: max(abs(x) for x in q), lambda q: float(np.max(np.abs(q)))],
    "root of the mean": [lambda q: math.sqrt(sum(x ** 2 for x in q) / len(q))],
    "rounded the result": [lambda q: round(math.sqrt(sum(x * x for x in q)), 2),
                           lambda q: int(math.sqrt(sum(x * x for x in q)))],
    "returned a list": [lambda q: [math.sqrt(x ** 2) for x in q]],
    "root inside the loop": [length_root_each_step],
    "power 1 // 2": [lambda q: sum(x * x for x in q) ** (1 // 2)],
    "forgot the sum": [lambda q: math.sqrt(x * x for x in q)],
    "loop runs one past the end": [
        lambda q: math.sqrt(sum(q[i] ** 2 for i in range(1, len(q) + 1)))],
    "started the total at 1": [lambda q: math.sqrt(1 + sum(x * x for x in q))],
    "squared the positions": [lambda q: math.sqrt(sum(i ** 2 for i in range(len(q))))],
    "one over the length": [lambda q: sum(x * x for x in q) ** -0.5],
    "single slot left signed": [
        lambda q: q[0] if len(q) == 1 else math.sqrt(sum(x * x for x in q))],
    "power the wrong way round": [lambda q: math.sqrt(sum(2 ** x for x in q))],
    "started the total at the first slot": [lambda q: math.sqrt(q[0] + sum(x * x for x in q))],
    "@ on lists": [lambda q: math.sqrt(q @ q)],
    "forgot to store the sum": [length_drops_the_sum],
    "root of the number of slots": [lambda q: len(q) ** 0.5],
    CHANGED_INPUT: [length_sorts],
}

HAND_SLIPS = {
    "no square root": [49, "49"], "halved instead of the root": [24.5],
    "no squares": [2.236, 2.24], "absolute values": [11], "squared the sum": [5.0],
    "minus sign squared away wrong": [5.568, 5.57], "doubled instead of squared": [3.162],
    "sign turned round": [-7], "decimal point moved": [0.7, 70],
    "left out a slot": [3.606, 6.325, 6.708], "absolute values under the root": [3.317],
}

UNIT_SLIPS = {
    "returned the length": [lambda q: math.sqrt(sum(x * x for x in q)),
                            lambda q: float(np.linalg.norm(q))],
    "not divided": [lambda q: q, lambda q: list(q)],
    "multiplied by the length": [lambda q: [x * math.sqrt(sum(y * y for y in q)) for x in q]],
    "divided by the squared length": [lambda q: [x / sum(y * y for y in q) for x in q],
                                      lambda q: list(np.array(q) / np.dot(q, q))],
    "divided by the sum": [lambda q: [x / sum(q) for x in q]],
    "divided the first slot only": [lambda q: [q[0] / math.hypot(*q)] + q[1:]],
    "divided the whole list": [lambda q: q / math.sqrt(sum(x * x for x in q))],
    "divided by the sum of sizes": [lambda q: [x / sum(abs(y) for y in q) for x in q]],
    "divided by the number of slots": [lambda q: [x / len(q) for x in q]],
    "divided by the biggest slot": [lambda q: [x / max(q) for x in q],
                                    lambda q: [x / max(abs(y) for y in q) for x in q]],
    "divided by a fixed number": [lambda q: [x / 5 for x in q]],
    "rounded the result": [lambda q: [round(x / math.hypot(*q), 1) for x in q]],
    "squared the slots": [lambda q: [x ** 2 / sum(y * y for y in q) for x in q]],
    "halved instead of the root": [lambda q: [x / (sum(y * y for y in q) ** 1/2) for x in q]],
    "doubled instead of squared": [lambda q: [x / math.sqrt(sum(y * 2 for y in q)) for x in q]],
    "divided the length by the slots": [lambda q: [math.sqrt(sum(y * y for y in q)) / x
                                                   for x in q]],
    "lost the signs": [lambda q: [abs(x) / math.sqrt(sum(y * y for y in q)) for x in q]],
    "left out the last slot": [lambda q: [q[i] / math.sqrt(sum(y * y for y in q))
                                          for i in range(len(q) - 1)]],
    "sign turned round": [lambda q: [-x / math.sqrt(sum(y * y for y in q)) for x in q]],
    "subtracted the length": [lambda q: [x - math.sqrt(sum(y * y for y in q)) for x in q]],
    "length of the first two slots": [lambda q: [x / math.hypot(q[0], q[1]) for x in q]],
    "returned two things": [lambda q: (math.sqrt(sum(y * y for y in q)),
                                       [x / math.sqrt(sum(y * y for y in q)) for x in q])],
    "return inside the loop": [unit_return_in_loop],
    CHANGED_INPUT: [unit_in_place],
}


@pytest.mark.parametrize(("evaluate", "func"), [
    (evaluate_length, length_ok), (evaluate_length, lambda q: float(np.linalg.norm(q))),
    (evaluate_unit, unit_ok), (evaluate_unit, lambda q: np.array(q) / np.linalg.norm(q))])
def test_a_right_answer_passes(evaluate, func):
    feedback = evaluate(func)
    assert feedback.passed, str(feedback)


def test_length_slips_are_named():
    assert_slips_named(evaluate_length, LENGTH_SLIPS)


def test_unit_slips_are_named():
    assert_slips_named(evaluate_unit, UNIT_SLIPS)


def test_length_by_hand():
    assert LENGTH_HAND.evaluate(7).passed and LENGTH_HAND.evaluate("7.00").passed
    assert_slips_named(LENGTH_HAND.evaluate, HAND_SLIPS)


def test_hints_say_what_happened_on_which_input():
    feedback = evaluate_length(length_halved)
    assert "length([3, 4]) gave 12.5" in feedback.message and "expected 5" in feedback.message
    assert "** binds before /" in feedback.message
    feedback = evaluate_unit(lambda q: [x / sum(q) for x in q])
    assert "unit([3, 4]) gave [0.4286, 0.5714]" in feedback.message


@pytest.mark.parametrize("evaluate", [evaluate_length, evaluate_unit])
def test_never_crashes(evaluate):
    assert_never_crashes(evaluate)


def test_by_hand_never_crashes():
    assert_never_crashes(LENGTH_HAND.evaluate, kind="number")


@pytest.mark.parametrize("value", [(1.0, [1.0, 2.0]), [[1, 2], [3]]])
def test_an_odd_return_value_is_judged_not_unreadable(value):
    for evaluate in (evaluate_length, evaluate_unit):
        feedback = evaluate(lambda q: value)
        assert "could not read" not in feedback.message, feedback.message
