"""Notebook 14's by-hand update of the running sum: the answer passes, each arithmetic slip is
named, nothing typed crashes the checker."""

import math

from exercise_helpers import assert_never_crashes, assert_slips_named

from course_lib.exercises.online_update import UPDATE_BY_HAND, check_update_by_hand

E = math.exp
HAND_SLIPS = {  # M = 2, l = 1.5, new block 3, 1: l′ = 1.5 e^(2 − 3) + e^0 + e^(1 − 3)
    "upside down": [1.5 * E(1) + 1 + E(-2), 5.213],
    "no rescale": [1.5 + 1 + E(-2), 2.635],
    "rescaled the new block": [1.5 + E(-1) * (1 + E(-2)), "1.918"],
    "old max for the new terms": [1.5 * E(-1) + E(1) + E(-1), 3.638],
    "old max, no rescale": [1.5 + E(1) + E(-1), 4.586],
    "left out e^0": [1.5 * E(-1) + E(-2), 0.687],
    "added the factor": [1.5 + E(-1) + 1 + E(-2), 3.003],
    "forgot the exponential": [1.5 * E(-1) - 2, -1.448],
    "sign turned round": [-1.687],
    "rounded too early": [1.5 * 0.37 + 1 + 0.14],
    "dropped the old sum": [1 + E(-2), 1.135],
    "exponent sign flipped": [1.5 * E(-1) + 1 + E(2), 8.941],
    "minus sign outside the power": [1.5 * E(-1) + 1 - E(2), -5.837],
    "left out the last new term": [1.552], "multiplied instead of added": [0.6265],
    "no shift for the new terms": [23.36], "e^−1 taken as −e": [-2.942],
    "rescaled everything": [0.9695],  # e^−1 ≈ 0.37, e^−2 ≈ 0.14
}


def test_by_hand_update():
    assert UPDATE_BY_HAND.evaluate(1.687).passed
    assert UPDATE_BY_HAND.evaluate("1.6872").passed
    assert_slips_named(UPDATE_BY_HAND.evaluate, HAND_SLIPS)
    assert_never_crashes(UPDATE_BY_HAND.evaluate, kind="number")


def test_by_hand_prints_one_paragraph(capsys):
    check_update_by_hand(...)
    assert capsys.readouterr().out.startswith("Not attempted yet")
