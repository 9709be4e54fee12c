"""Notebook 00_python's exercises (course_lib/exercises/python.py): wrong answers written the
way beginners write them, each named by its own slip or relation; right answers in other
styles accepted."""

import numpy as np
from slip_checks import assert_named, assert_passes


def test_positions_by_hand_slips():  # q = [3, 8, 5, 1, 9]: q[1] + q[-1] = 8 + 9 = 17
    assert_named("positions by hand", {
        "counted from 1": [12, "12"], "-1 read as the first": [11],
        "-1 read as one before the last": [9], "counted from 1 at both ends": [4],
        "added the positions": [0], "-1 read as a number": [7], "a minus sign on the last": [-1],
        "sign turned round": [-17], "a step 1 off": [16, 18], "only one of the two": [8],
    })


def test_loop_by_hand_slips():  # 2 ** 2 + 3 ** 2 + 4 ** 2 = 29
    assert_named("loop by hand", {
        "range includes its end": [54], "range started at 0": [30], "left out the start": [25],
        "doubled instead of squared": [18, "18"], "no squares": [9], "only the last square": [16],
        "squared the total": [81], "counted the steps": [3], "sign turned round": [-29],
        "^ for a power": [7, 7.0],  # 2 ^ 2, 3 ^ 2, 4 ^ 2 as XOR
    })


def mean_no_check(q):
    total = 0
    for x in q:
        total += x
    return total / len(q)


def mean_return_in_loop(q):
    if len(q) == 0:
        raise ValueError("empty")
    total = 0
    for x in q:
        total += x
        return total / len(q)


def mean_replaces_total(q):
    if len(q) == 0:
        raise ValueError("empty")
    total = 0
    for x in q:
        total = x
    return total / len(q)


def mean_refuses_all(q):
    raise ValueError("q is empty")


def mean_skips_first(q):
    if len(q) == 0:
        raise ValueError("empty")
    total = 0
    for i in range(1, len(q)):
        total += q[i]
    return total / len(q)


def mean_checks_after_dividing(q):
    total = 0
    for x in q:
        total += x
    result = total / len(q)
    if len(q) == 0:
        raise ValueError("an empty list has no mean")
    return result


def mean_skips_last(q):
    if len(q) == 0:
        raise ValueError("empty")
    total = 0
    for i in range(len(q) - 1):
        total += q[i]
    return total / len(q)


def mean_raises_zero_division(q):  # its own raise, of the wrong kind
    if len(q) == 0:
        raise ZeroDivisionError("an empty list has no mean")
    return sum(q) / len(q)


def mean_median(q):
    if len(q) == 0:
        raise ValueError("empty")
    return sorted(q)[len(q) // 2]


def test_mean_slips():
    assert_named("mean", {
        "raised another kind of error": [mean_no_check, mean_checks_after_dividing,
                                         lambda q: sum(q) / len(q) if q else [][0],
                                         mean_raises_zero_division],
        "left out the last number": [mean_skips_last],
        "the middle number": [mean_median],
        "len(q) times too big": [lambda q: sum(q) if q else mean_refuses_all(q)],
        "rounded down": [lambda q: sum(q) // len(q) if q else mean_refuses_all(q)],
        "return inside the loop": [mean_return_in_loop],
        "only the last number counts": [mean_replaces_total],
        "returned instead of raising": [lambda q: sum(q) / len(q) if q else 0],
        "returned the message": [lambda q: sum(q) / len(q) if q else "the list is empty"],
        "refused every case": [mean_refuses_all],
        "left out the first number": [mean_skips_first],
        "rounded to 2 decimals": [lambda q: round(sum(q) / len(q), 2) if q else
                                  mean_refuses_all(q)],
        "cut to whole numbers": [lambda q: int(sum(q) / len(q)) if q else mean_refuses_all(q)],
    })


def test_mean_accepts_other_right_answers():
    def mean_loop(q):
        if not q:
            raise ValueError("q is empty: there is no mean")
        total = 0.0
        for x in q:
            total += x
        return total / len(q)

    def mean_numpy(q):
        if len(q) == 0:
            raise ValueError("no mean of an empty list")
        return np.array(q).sum() / len(q)

    assert_passes("mean", [mean_loop, mean_numpy])


def cost_quoted(basket, prices):
    total = 0
    for item in basket:  # noqa: B007 (the slip: the quotes make item unused)
        total += prices["item"]
    return total


def cost_replaces_total(basket, prices):
    total = 0
    for item in basket:
        total = prices[item]
    return total


def cost_first_price(basket, prices):
    return prices[basket[0]] * len(basket)


def cost_skips_last(basket, prices):
    total = 0
    for i in range(len(basket) - 1):
        total += prices[basket[i]]
    return total


def cost_product(basket, prices):
    total = 1
    for item in basket:
        total *= prices[item]
    return total


def cost_refuses_empty(basket, prices):
    if len(basket) == 0:
        raise ValueError("an empty basket has no cost")
    return sum(prices[item] for item in basket)


def cost_positions(basket, prices):
    total = 0
    for i in range(len(basket)):
        total += prices[i]
    return total


def test_cost_slips():
    assert_named("cost", {
        "quoted the name": [cost_quoted],
        "only the last item counts": [cost_replaces_total],
        "the whole price list": [lambda b, p: sum(p.values()), lambda b, p: sum(p[i] for i in p)],
        "paid each item once": [lambda b, p: sum(p[i] for i in set(b))],
        "counted the items": [lambda b, p: len(b)],
        "returned the prices": [lambda b, p: [p[i] for i in b]],
        "round brackets": [lambda b, p: sum(p(i) for i in b)],
        "positions as keys": [cost_positions],
        "paid repeats over again": [lambda b, p: sum(p[i] * b.count(i) for i in b)],
        "every item at the first price": [cost_first_price],
        "left out the last item": [cost_skips_last],
        "multiplied the prices": [cost_product],
        "refused the empty basket": [cost_refuses_empty],
        "left out the first item": [lambda b, p: sum(p[b[i]] for i in range(1, len(b)))],
        # the average price: named by the count it divides by, not by the empty basket's 1 / 0
        "len(basket) times too small": [lambda b, p: sum(p[i] for i in b) / len(b)],
    })


def test_cost_accepts_other_right_answers():
    assert_passes("cost", [lambda b, p: sum(p[i] for i in b),
                           lambda b, p: sum(p.get(i, 0) for i in b)])


def row_means_first_row(A):
    for row in A:
        return row.sum() / len(row)


def row_means_int(A):
    means = np.zeros(len(A), dtype=int)
    for i in range(len(A)):
        means[i] = A[i].sum() / len(A[i])
    return means


def row_means_return_in_loop(A):
    means = []
    for row in A:
        means.append(row.sum() / A.shape[1])
        return np.array(means)


def row_means_replaces_total(A):
    means = []
    for row in A:
        for x in row:
            total = x
        means.append(total / len(row))
    return np.array(means)


def test_row_means_slips():
    assert_named("row means", {
        "added down the columns": [lambda A: A.sum(axis=0) / A.shape[0], lambda A: sum(A) / len(A)],
        "A.shape[1] times too big": [lambda A: A.sum(axis=1)],
        "divided by the number of rows": [lambda A: A.sum(axis=1) / len(A)],
        "the mean of everything": [lambda A: A.sum() / A.size, lambda A: np.mean(A),
                                   lambda A: A.sum() / A.shape[1], lambda A: A.sum() / len(A),
                                   lambda A: np.mean(A)],
        "divided by every number's count": [lambda A: A.sum(axis=1) / A.size],
        "the first row only": [row_means_first_row, row_means_return_in_loop],
        "the largest number": [lambda A: A.max(axis=1)],
        "called the shape": [lambda A: A.sum(axis=1) / A.shape(1)],
        "left out the last row": [lambda A: [A[i].sum() / len(A[i]) for i in range(len(A) - 1)]],
        "rounded down": [lambda A: A.sum(axis=1) // A.shape[1]],
        "cut to whole numbers": [row_means_int],
        "in reverse order": [lambda A: (A.sum(axis=1) / A.shape[1])[::-1]],
        "the wrong shape": [lambda A: A.sum(axis=1, keepdims=True) / A.shape[1]],
        "only the last number counts": [row_means_replaces_total],
    })


def test_row_means_accepts_other_right_answers():
    assert_passes("row means", [lambda A: A.sum(axis=1) / A.shape[1], lambda A: A.mean(axis=1),
                                lambda A: [sum(row) / len(row) for row in A],
                                lambda A: A @ np.ones(A.shape[1]) / A.shape[1]])
