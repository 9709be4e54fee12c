"""Notebook 07's exercises (course_lib/exercises/softmax.py): wrong answers written the way
beginners write them, each named by its own slip or relation, and right answers in other
styles accepted."""

import math
import warnings

import numpy as np
from slip_checks import assert_named, assert_passes

import course_lib
from course_lib.exercises import check, evaluate, exercise

# --- softmax_rows(scores) ------------------------------------------------------------------


def rows_loops(scores):
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


def whole_number_grid(scores):
    out = np.zeros(scores.shape, dtype=int)
    for i in range(scores.shape[0]):
        e = np.exp(scores[i] - scores[i].max())
        out[i] = e / e.sum()
    return out


def both_without_keepdims(scores):
    e = np.exp(scores - scores.max(axis=1))
    return e / e.sum(axis=1)


def last_row_only(scores):
    for row in scores:
        e = np.exp(row - row.max())
        weights = e / e.sum()  # replaced on every pass
    return weights


def shifted(shift):
    def softmax_rows(x):
        e = np.exp(x - shift(x))
        return e / e.sum(axis=-1, keepdims=True)
    return softmax_rows


def shift_after_exp(scores):  # e^(s − c) as e^s / e^c: e^s overflows first
    c = scores.max(axis=1, keepdims=True)
    e = np.exp(scores) / np.exp(c)
    return e / e.sum(axis=1, keepdims=True)


def stable_exp(x):
    return np.exp(x - x.max(axis=-1, keepdims=True))


def test_softmax_rows_slips():
    assert_named("softmax rows", {
        "no shift: e^x overflows": [course_lib.softmax_naive, naive_loops,
                                    lambda x: np.exp(x) / np.exp(x).sum(axis=-1, keepdims=True)],
        "a shift that is not the row's largest": [
            shifted(lambda x: x.min(axis=1, keepdims=True)),
            shifted(lambda x: x.mean(axis=-1, keepdims=True)),
            shifted(lambda x: -x.max(axis=-1, keepdims=True))],
        "subtracted the grid's largest score": [shifted(lambda x: x.max())],
        "subtracted each column's largest score": [shifted(lambda x: x.max(axis=0))],
        "shapes that do not line up": [shifted(lambda x: x.max(axis=-1)),
                                       shifted(lambda x: np.max(x, axis=1)),
                                       lambda x: stable_exp(x) / stable_exp(x).sum(axis=-1),
                                       both_without_keepdims],
        "shifted after np.exp": [shift_after_exp],
        "shifted the top only": [lambda x: stable_exp(x) / np.exp(x).sum(axis=-1, keepdims=True)],
        "no exponential": [lambda x: x / x.sum(axis=-1, keepdims=True)],
        "not divided by the row's total": [stable_exp, np.exp,
                                     lambda x: stable_exp(x) / stable_exp(x).max(axis=1,
                                                                                  keepdims=True)],
        "sigmoid instead of softmax": [lambda x: 1 / (1 + np.exp(-x))],
        "first row only": [returns_in_loop, lambda x: stable_exp(x[0]) / stable_exp(x[0]).sum()],
        "the wrong shape": [last_row_only],
        "math.exp on an array": [lambda x: math.exp(x) / math.exp(x).sum()],
        "normalised along the other axis": [lambda x: course_lib.softmax(x, axis=0)],
        "normalised over the whole grid": [lambda x: stable_exp(x) / stable_exp(x).sum()],
        "rounded to 3 decimals": [lambda x: np.round(course_lib.softmax(x), 3)],
        "cut to whole numbers": [whole_number_grid],
        "transposed": [lambda x: course_lib.softmax(x).T],
        "changed its input": [shifts_in_place],
    })


def test_softmax_rows_accepts_other_right_answers():
    assert_passes("softmax rows", [rows_loops, lambda x: course_lib.softmax(x, axis=1),
                                   shifted(lambda x: np.max(x, axis=1, keepdims=True)),
                                   lambda x: course_lib.softmax(x.astype(np.float32))])


def test_softmax_rows_cases_tell_the_shapes_and_the_shifts_apart():
    cases = exercise("softmax rows").cases
    shapes = {case.args[0].shape for case in cases}
    assert any(n > 1 and n != m for n, m in shapes)  # a wrong axis shows as a wrong shape
    assert any(n == m > 1 for n, m in shapes)  # ... and as wrong numbers
    spread = [np.ptp(case.args[0], axis=-1).max() for case in cases]
    assert max(spread) > 710  # a shift by the row's smallest score still overflows


def test_an_overflowing_attempt_prints_only_the_feedback(capsys):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a warning that escapes the checker fails the test
        check("softmax rows", course_lib.softmax_naive)
    captured = capsys.readouterr()
    assert "No shift: e^x overflows" in captured.out
    assert captured.err == ""


# --- by hand ---------------------------------------------------------------------------------

def test_weight_by_hand_slips():
    e3, e1 = 20.086, 2.718  # the notebook's table of eˣ
    assert_named("softmax weight by hand", {
        "no exponential": [0.75], "left out term 3 of the total": [e3 / (e3 + e1), 0.881],
        "a wrong line of the eˣ table": [0.665, e3 / (e3 + e1 * e1 + 1)],  # e² for e³, e² for e¹
        "forgot to divide": [20.086, 20.09], "divided by the other terms": [e3 / (e1 + 1), 5.403],
        "weight of key 2": [0.114], "weight of key 3": [0.042], "the other part's share": [0.156],
        "x² in place of eˣ": [0.9], "2ˣ in place of eˣ": [0.727], "3ˣ in place of eˣ": [0.871],
        "eˣ as x times e": [0.687], "e¹ taken as 1": [e3 / (e3 + 1 + 1), 0.909],
        "e to the total of the scores": [math.exp(3) / math.exp(3 + 1 + 0), 0.368],
        "exponentials rounded to whole numbers": [20 / 24], "sign turned round": [-0.844],
        "a percentage": [84.38, 84.4], "decimal point moved": [8.438],
    })


def test_weight_by_hand_accepts_the_weight_to_3_decimals():
    assert evaluate("softmax weight by hand", 0.844).passed
    assert_passes("softmax weight by hand", ["0.8438"])  # as the "another one" box sends it
    assert not evaluate("softmax weight by hand", 0.85).passed


def test_slope_by_hand_slips():
    p = math.exp(2) / (math.exp(2) + 1)  # 0.8808
    assert_named("softmax slope by hand", {
        "gave the weight": [0.881], "gave one minus the weight": [0.119],
        "a slope of 0": [0, 0.0, p * 1 - p], "one plus the weight": [p * (1 + p)],
        "the slope at [1, 0]": [0.197], "twice the slope at [1, 0]": [0.394, 2 * 0.197],
        "half the slope at [1, 0]": [0.098], "2ˣ in place of eˣ": [0.16, 0.8 * (1 - 0.8)],
        "weight squared": [0.776], "no division": [-47.208, -47.21],
        "weight rounded to 1 decimal": [0.09], "−p₁p₂, p₂'s slope": [-0.105, -0.881 * 0.119],
    })


def test_slope_by_hand_variants_name_the_slips_on_their_own_numbers():
    variant = exercise("softmax slope by hand").variant(3)
    (x1, x2), = variant.givens.values()
    p = math.exp(x1) / (math.exp(x1) + math.exp(x2))
    assert variant.evaluate(round(p * (1 - p), 3)).passed
    assert variant.evaluate(round(p, 3)).mistake == "gave the weight"
