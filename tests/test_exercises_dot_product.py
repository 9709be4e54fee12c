"""Notebook 04's exercises (course_lib/exercises/dot_product.py): wrong answers written the way
beginners write them, each named by its own slip or relation; right answers in other styles
accepted."""

import math

import numpy as np
from slip_checks import assert_named, assert_passes

from course_lib import dot, norm
from course_lib.exercises import evaluate, exercise


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


def dot_reset_in_loop(q, k):
    if len(q) != len(k):
        raise ValueError("different lengths")
    for i in range(len(q)):
        total = 0
        total += q[i] * k[i]
    return total


def dot_unchecked(q, k):
    total = 0
    for i in range(len(q)):
        total += q[i] * k[i]
    return total


def dot_message_returned(q, k):
    if len(q) != len(k):
        return "q and k must have the same number of slots"
    return sum(a * b for a, b in zip(q, k, strict=True))


def perpendicular_overwrites(q):
    new = list(q)
    new[0] = -new[1]
    new[1] = new[0]
    return new


def perpendicular_rotated(c, s):
    return lambda q: [q[0] * c - q[1] * s, q[0] * s + q[1] * c]


def dot_one_word_refusal(q, k):
    if len(q) != len(k):
        raise ValueError("error")
    return sum(a * b for a, b in zip(q, k, strict=True))


def dot_pops(q, k):
    if len(q) != len(k):
        raise ValueError("lengths differ")
    total = 0.0
    while q:
        total += q.pop() * k.pop()
    return total


def test_dot_loop_slips():
    assert_named("dot_loop", {
        "sums without multiplying": [checked(lambda q, k: sum(a + b for a, b in pairs(q, k))),
                                     checked(lambda q, k: sum(q) + sum(k))],
        "multiplies the sums": [checked(lambda q, k: sum(q) * sum(k)), dot_nested_loops],
        "multiplied the products": [dot_times_equals],
        "one list used twice": [checked(lambda q, k: sum(q[i] * q[i] for i in range(len(q)))),
                                checked(lambda q, k: sum(k[i] * k[i] for i in range(len(k))))],
        "stopped after one pass": [dot_return_in_loop],
        "stopped one early in every input": [
            checked(lambda q, k: sum(q[i] * k[i] for i in range(len(q) - 1)))],
        "skipped position 0 of every input": [
            checked(lambda q, k: sum(q[i] * k[i] for i in range(1, len(q))))],
        "returns the products": [checked(lambda q, k: [a * b for a, b in pairs(q, k)]),
                                 checked(lambda q, k: np.multiply(q, k))],
        "does not refuse different numbers of slots": [
            lambda q, k: sum(a * b for a, b in pairs(q, k)),
            lambda q, k: float(np.dot(q[:len(k)], k[:len(q)])), dot_unchecked],
        "returned the message": [dot_message_returned],
        "refused without saying why": [dot_one_word_refusal],  # "error" says no why
        "only the last term counts": [dot_replaces_total, dot_reset_in_loop],
        "squared the products": [checked(lambda q, k: sum((a * b) ** 2 for a, b in pairs(q, k)))],
        "k read backwards": [checked(lambda q, k: sum(q[i] * k[-i - 1] for i in range(len(q))))],
        "sign turned round": [checked(lambda q, k: -sum(a * b for a, b in pairs(q, k)))],
        "arithmetic on lists": [checked(lambda q, k: q @ k), checked(lambda q, k: sum(q * k))],
        "L times too small": [checked(lambda q, k: float(np.dot(q, k)) / len(q))],
        "the sign dropped": [checked(lambda q, k: abs(float(np.dot(q, k))))],
        "an input read one position off": [
            checked(lambda q, k: sum(q[i] * k[(i + 1) % len(k)] for i in range(len(q)))),
            checked(lambda q, k: sum(q[i] * k[i - 1] for i in range(len(q))))],
        "rounded to 1 decimal": [checked(lambda q, k: round(float(np.dot(q, k)), 1))],
        "cut to whole numbers": [checked(lambda q, k: int(np.dot(q, k)))],
        "changed its input": [dot_pops],
    })


def test_dot_loop_accepts_other_right_answers():
    assert_passes("dot_loop", [dot_ok, checked(lambda q, k: float(np.dot(q, k))),
                               checked(lambda q, k: sum(a * b for a, b in zip(q, k, strict=True)))])


def test_cosine_slips():
    assert_named("cosine", {
        "divided by the number of slots": [lambda q, k: float(dot(q, k)) / (len(q) * len(k)),
                                           lambda q, k: float(dot(q, k)) / len(q)],
        "a root of the lengths": [
            lambda q, k: float(dot(q, k)) / math.sqrt(math.hypot(*q) * math.hypot(*k))],
        "returned the angle": [lambda q, k: math.acos(cosine_ok(q, k)),
                               lambda q, k: math.degrees(math.acos(cosine_ok(q, k)))],
        "not divided": [lambda q, k: float(dot(q, k)),
                        lambda q, k: sum(a * b for a, b in pairs(q, k))],
        "∥k∥² times too big": [
            lambda q, k: float(dot(q, k)) / float(norm(q)) * float(norm(k))],
        "∥k∥ times too big": [lambda q, k: float(dot(q, k) / norm(q))],
        "∥q∥ times too big": [lambda q, k: float(dot(q, k) / norm(k))],
        "divided by the sums": [lambda q, k: float(dot(q, k)) / (sum(q) * sum(k))],
        "divided by the squared lengths": [
            lambda q, k: float(dot(q, k) / (dot(q, q) * dot(k, k)))],
        "divided by the sum of lengths": [lambda q, k: float(dot(q, k) / (norm(q) + norm(k)))],
        "one length used twice": [lambda q, k: float(dot(q, k) / (norm(k) * norm(k))),
                                  lambda q, k: float(dot(q, k) / (norm(q) * norm(q)))],
        "the sign dropped": [lambda q, k: abs(cosine_ok(q, k))],
        "took math.cos": [lambda q, k: math.cos(float(dot(q, k))),
                          lambda q, k: math.cos(float(dot(q, k) / (norm(q) * norm(k))))],
        "returned 1 − cos θ": [lambda q, k: 1 - float(dot(q, k) / (norm(q) * norm(k)))],
        "rounded to 2 decimals": [lambda q, k: round(float(dot(q, k) / (norm(q) * norm(k))), 2)],
    })


def test_cosine_accepts_other_right_answers():
    assert_passes("cosine", [cosine_ok, lambda q, k: np.dot(q, k) / np.linalg.norm(q)
                             / np.linalg.norm(k)])


def test_by_hand_slips():
    assert_named("dot by hand", {
        "sign of a product": [12, "12", -4, 0],  # −4, 0: a positive product taken as negative
        "sums without multiplying": [9, 7],  # 7: one pair added, 4 − 2 + (3 + 2)
        "multiplies the sums": [14], "left out slot 3": [2], "left out slot 1": [4],
        "multiplied the products": [-48], "sign turned round": [-8], "left out slot 2": [10],
        "the lengths multiplied": [17.15, 17.146], "squared the products": [56],
        "one product alone": [-2, 6], "slots paired out of line": [-3, 3],  # q₁k₃ + q₂k₁ + q₃k₂
        # 3: k₂, k₃ swapped, 1·4 − 2·2 + 3·1
    })
    assert_named("cosine by hand", {
        "forgot cos θ": [10, "10"], "used sin θ": [8.66, 8.660], "added the lengths": [3.5, 7, 7.5],
        "cos of the angle in radians": [-9.52, -9.524],
        "multiplied by the angle": [600], "cos 45° for cos θ": [7.07, 7.071],
        "took cos 60° as 0.6": [6, 6.0],
        "cos θ divided by the lengths": [0.05], "as if at a right angle": [0],
        "squared one length": [25],  # 2 × 5² × 0.5
        "sign turned round": [-5], "squared the lengths": [50], "cos θ alone": [0.5],
        "divided by cos θ": [20], "left out a length": [2.5, 1.0],
    })


def test_cos_taken_twice_is_asked_beside_a_length_left_out_where_they_coincide():
    both = evaluate("cosine by hand", 2 * 5 * 0.5 ** 2)  # 2.5 is also 5 × cos 60°
    assert both.mistake == "left out a length / cos θ taken twice", both
    variant = exercise("cosine by hand").variant(0)  # ∥q∥ = 6, ∥k∥ = 5, θ = 60°
    a, b = variant.givens["a"], variant.givens["b"]
    assert variant.evaluate(a * b * 0.25).mistake == "cos θ taken twice"


def test_perpendicular_slips():
    assert_named("perpendicular", {
        "swapped without a minus": [lambda q: [q[1], q[0]], lambda q: q[::-1]],
        "the opposite arrow": [lambda q: [-x for x in q]],
        "one slot negated": [lambda q: [-q[0], q[1]], lambda q: [q[0], -q[1]]],
        "the zero vector": [lambda q: [0, 0]],
        "the input given back": [lambda q: q],
        "the wrong shape": [lambda q: -q[1]],
        "both slots negated": [lambda q: [-q[1], -q[0]]],
        "made it length 1": [lambda q: [-q[1] / math.hypot(*q), q[0] / math.hypot(*q)]],
        "the same slot twice": [lambda q: [-q[1], q[1]]],
        "overwrote a slot": [perpendicular_overwrites],
        "cos or sin of 90 wrong": [perpendicular_rotated(math.cos(90), math.sin(90)),
                                   perpendicular_rotated(1, 1)],
        "not a quarter turn left": [lambda q: [q[1], -q[0]], lambda q: [-q[1], q[0] + q[1]],
                                    lambda q: [q[0] + q[1], q[1] - q[0]],
                                    lambda q: [q[1] - q[0], q[0]]],  # [2, 0] for [0, 2]: right
    })


def test_perpendicular_accepts_other_right_answers():
    assert_passes("perpendicular", [lambda q: [-q[1], q[0]],
                                    lambda q: np.array([[0.0, -1.0], [1.0, 0.0]]) @ q])
