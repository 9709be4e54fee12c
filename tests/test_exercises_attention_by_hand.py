"""By-hand checkers of notebook 09 (row 1 of A, output row 1 of the tiny example): the right
numbers pass, and each typical slip is named."""

import math

import numpy as np
import pytest
from exercise_helpers import assert_never_crashes, assert_slips_named

from course_lib import scaled_dot_product_attention
from course_lib.exercises.attention_by_hand import OUTPUT_ROW, WEIGHT_ROW, check_weight_row

Q = [[1, 0, 1, 0], [0, 2, 0, 0]]
K = [[1, 0, 1, 0], [0, 1, 0, 1], [1, 1, 1, 1]]
V = [[2, 0], [0, 2], [4, 4]]

WEIGHT_SLIPS = {
    "missing scale": [(0.468, 0.063, 0.468), (0.4683, 0.0634, 0.4683)],
    "divided by d_k": [(0.384, 0.233, 0.384)],
    "no exponential": [(0.5, 0, 0.5), [1 / 2, 0, 1 / 2]],
    "not normalised": [(2.718, 1, 2.718), (math.e, 1, math.e)],
    "softmax down the columns": [(0.731, 0.269, 0.5)],
    "row 2 instead of row 1": [(0.155, 0.422, 0.422)], "the scaled scores": [(1, 0, 1)],
    "equal weights": [(1 / 3, 1 / 3, 1 / 3), (0.333, 0.333, 0.333)],
    "sign turned round": [(-0.4223, -0.1554, -0.4223)],
    "decimal point moved": [(4.223, 1.554, 4.223)],
    "rounded too early": [(0.41, 0.17, 0.41)],
}

OUTPUT_SLIPS = {
    "missing scale": [(2.81, 2.0), (2.810, 2)],
    "divided by d_k": [(2.302, 2.0)],
    "blended the keys": [(0.845, 0.578)],
    "not normalised": [(16.31, 12.873), (6 * math.e, 2 + 4 * math.e)],
    "no exponential": [(3, 2), [3.0, 2.0]],
    "row 2 instead of row 1": [(2.0, 2.534)],
    "equal weights": [(2, 2)],
    "added the values": [(6, 6)],
    "decimal point moved": [(25.34, 20.0)],
    "rounded too early": [(2.5, 2.0)],
    "sign turned round": [(-2.534, -2.0)],
}


def test_the_answers_are_the_course_s_attention():
    out, weights = scaled_dot_product_attention(np.array(Q, float), np.array(K, float),
                                                np.array(V, float), return_weights=True)
    assert np.allclose(WEIGHT_ROW.answer, weights[0])
    assert np.allclose(OUTPUT_ROW.answer, out[0])


@pytest.mark.parametrize("value", [(0.4223, 0.1554, 0.4223), [0.422, 0.155, 0.422]])
def test_weight_row_accepts_the_answer(value):
    assert WEIGHT_ROW.evaluate(value).passed


@pytest.mark.parametrize("value", [(2.534, 2.0), [2.53, 2]])
def test_output_row_accepts_the_answer(value):
    assert OUTPUT_ROW.evaluate(value).passed


def test_weight_slips_are_named():
    assert_slips_named(WEIGHT_ROW.evaluate, WEIGHT_SLIPS)


def test_output_slips_are_named():
    assert_slips_named(OUTPUT_ROW.evaluate, OUTPUT_SLIPS)


@pytest.mark.parametrize("exercise, slips", [(WEIGHT_ROW, WEIGHT_SLIPS),
                                             (OUTPUT_ROW, OUTPUT_SLIPS)])
def test_every_own_slip_is_in_the_test(exercise, slips):
    assert exercise.slips
    assert {s.name for s in exercise.slips} <= set(slips)


@pytest.mark.parametrize("exercise", [WEIGHT_ROW, OUTPUT_ROW])
def test_never_crashes(exercise):
    assert_never_crashes(exercise.evaluate, kind="number")


def test_one_number_for_three_gets_a_sentence(capsys):
    check_weight_row(0.4223)
    out = capsys.readouterr().out
    assert out.startswith("Not yet") and "3 numbers" in out
