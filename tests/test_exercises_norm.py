"""Notebook 02's exercises (course_lib/exercises/norm.py): wrong answers written the way
beginners write them, each named by its own slip or relation, and right answers in other
styles accepted."""

import math

import numpy as np
from slip_checks import assert_named, assert_passes

from course_lib.exercises import evaluate


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


def length_reset_in_loop(q):
    for x in q:
        total = 0
        total += x ** 2
    return math.sqrt(total)


def unit_by_own_size(q):
    return [x / math.sqrt(x * x) for x in q]


def length_sorts(q):
    q.sort()
    return math.sqrt(sum(x * x for x in q))


def length_root_each_step(q):
    total = 0
    for x in q:
        total += x ** 2
        total = math.sqrt(total)
    return total


def length_int_total(q):
    total = 0
    for x in q:
        total += int(x) ** 2
    return math.sqrt(total)


def unit_in_place(q):
    size = math.sqrt(sum(x * x for x in q))
    for i in range(len(q)):
        q[i] = q[i] / size
    return q


def unit_return_in_loop(q):
    size = math.sqrt(sum(x * x for x in q))
    result = []
    for x in q:
        result.append(x / size)
        return result


def test_length_slips():
    assert_named("length", {
        "squared": [lambda q: sum(x * x for x in q), lambda q: sum(x ** 2 for x in q)],
        "halved instead of the root": [length_halved],
        "^ for a power": [length_caret],
        "absolute values": [lambda q: sum(abs(x) for x in q)],
        "squared the sum": [lambda q: abs(sum(q)), lambda q: math.sqrt(sum(q) ** 2)],
        "a fixed number of slots": [lambda q: math.hypot(q[0], q[1])],
        "stopped after one pass": [length_return_in_loop],
        "only the last term counts": [length_replaces_total, length_reset_in_loop],
        "stopped one early": [
            lambda q: math.sqrt(sum(q[i] ** 2 for i in range(len(q) - 1)))],
        "skipped position 0": [
            lambda q: math.sqrt(sum(q[i] ** 2 for i in range(1, len(q))))],
        "L times too small": [lambda q: math.sqrt(sum(x * x for x in q)) / len(q)],
        "divided by L in the root": [lambda q: math.sqrt(sum(x ** 2 for x in q) / len(q)),
                                     lambda q: math.sqrt(sum(x * x for x in q)) / len(q) ** 0.5],
        "rounded to 2 decimals": [lambda q: round(math.sqrt(sum(x * x for x in q)), 2)],
        "cut to whole numbers": [lambda q: int(math.sqrt(sum(x * x for x in q)))],
        "the wrong shape": [lambda q: [math.sqrt(x ** 2) for x in q]],
        "root inside the loop": [length_root_each_step],
        "a position past the end": [
            lambda q: math.sqrt(sum(q[i] ** 2 for i in range(1, len(q) + 1)))],
        "the reciprocal": [lambda q: sum(x * x for x in q) ** -0.5],
        "arithmetic on lists": [lambda q: math.sqrt(sum(q ** 2)), lambda q: math.sqrt(q @ q)],
        "a name never defined": [lambda q: sqrt(sum(x * x for x in q))],  # noqa: F821
        "changed its input": [length_sorts],
    })


def test_length_accepts_other_right_answers():
    assert_passes("length", [lambda q: float(np.linalg.norm(q)), lambda q: math.hypot(*q),
                             lambda q: sum(x * x for x in q) ** 0.5])


def test_decimal_cases_catch_whole_number_arithmetic():
    assert not evaluate("length", length_int_total).passed


def test_length_by_hand_slips():
    assert_named("length by hand", {
        "squared": [49, "49"], "halved instead of the root": [24.5],
        "no squares": [2.236, 2.24], "absolute values": [11],
        "minus sign squared away wrong": [5.568, 5.57],
        "doubled instead of squared": [3.162, 4.69], "root of the mean": [4.04, 4.041],
        "added the slots first": [5.0, 25],
        "sign turned round": [-7], "left out slot 1": [6.708], "left out slot 3": [3.606],
        "absolute values under the root": [3.317], "close but off": [7.05, 7.07],
    })


def test_unit_slips():
    assert_named("unit", {
        "returned the length": [lambda q: math.sqrt(sum(x * x for x in q))],
        "∥q∥ times too big": [lambda q: list(q)],
        "∥q∥² times too big": [lambda q: [x * math.sqrt(sum(y * y for y in q)) for x in q]],
        "divided by ∥q∥²": [lambda q: [x / sum(y * y for y in q) for x in q],
                                          lambda q: list(np.array(q) / np.dot(q, q))],
        "divided by the sum": [lambda q: [x / sum(q) for x in q]],
        "divided the first slot only": [lambda q: [q[0] / math.hypot(*q)] + q[1:]],
        "arithmetic on lists": [lambda q: q / math.sqrt(sum(x * x for x in q))],
        "divided by the number of slots": [lambda q: [x / len(q) for x in q]],
        "each slot by its own size": [lambda q: [x / abs(x) for x in q], unit_by_own_size],
        "the input times a fixed number": [lambda q: [x / 5 for x in q]],
        "rounded to 1 decimal": [lambda q: [round(x / math.hypot(*q), 1) for x in q]],
        "squared": [lambda q: [x ** 2 / sum(y * y for y in q) for x in q]],
        "lost the signs": [lambda q: [abs(x) / math.sqrt(sum(y * y for y in q)) for x in q]],
        "sign turned round": [lambda q: [-x / math.sqrt(sum(y * y for y in q)) for x in q]],
        "returned more than the answer": [lambda q: (math.hypot(*q),
                                                     [x / math.hypot(*q) for x in q])],
        "the wrong shape": [unit_return_in_loop],
        "changed its input": [unit_in_place],
    })
