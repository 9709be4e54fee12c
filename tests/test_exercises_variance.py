"""By-hand checkers of notebook 08: the right number passes (also typed as text or a fraction),
and each typical arithmetic slip is named."""

import pytest
from exercise_helpers import assert_never_crashes, assert_slips_named

from course_lib.exercises.variance import (
    DART_VARIANCE,
    OVER_SHRUNK_VARIANCE,
    check_dart_variance,
)

DART_SLIPS = {
    "forgot the mean": [12.5, (1 + 4 + 9 + 36) / 4],
    "divided by N − 1": [4.667, 14 / 3, "14/3"],
    "gave the spread": [1.87, 3.5 ** 0.5],
    "forgot to square": [1.5, (2 + 1 + 0 + 3) / 4],
    "signed distances": [0, (-2 - 1 + 0 + 3) / 4],
    "forgot to divide": [14],
    "gave the mean": [3, 3.0],
    "sign turned round": [-3.5],
    "decimal point moved": [35, 0.35],
    "rounded too early": [3.55],
    "mean divided by 3": [4.5, ((1 - 4) ** 2 + (2 - 4) ** 2 + (3 - 4) ** 2 + (6 - 4) ** 2) / 4],
    "forgot to square the mean": [9.5, 12.5 - 3],
    "gave the range": [5, 6 - 1],
    "squared a minus sign away wrong": [1, (-4 - 1 + 0 + 9) / 4],
    "doubled instead of squared": [2.75, (4 + 1 + 0 + 6) / 4],
    "root of the sum": [3.74, 14 ** 0.5], "squared the variance": [12.25, 3.5 ** 2],
    "squared the mean distance": [2.25, 1.5 ** 2], "divided by N²": [0.875, 14 / 16],
    "left out a dart": [0.667, 2 / 3],
    "divided by N + 1": [2.8, 14 / 5], "divided by 2": [7, 14 / 2],
}

OVER_SLIPS = {
    "divided the variance by c, not c²": [1, 16 / 16, "1"],
    "gave the spread": [0.25, (1 / 16) ** 0.5],
    "no scaling": [16],
    "multiplied by c²": [4096, 16 * 16 ** 2],
    "divided the variance by √d_k": [4, 16 / 16 ** 0.5],
    "started from variance 1": [1 / 256, 0.0039],
    "decimal point moved": [0.625, 6.25],
    "sign turned round": [-0.0625],
}


@pytest.mark.parametrize("value", [3.5, "3.5", "7/2", 3.505])
def test_dart_variance_accepts_the_answer(value):
    assert DART_VARIANCE.evaluate(value).passed


@pytest.mark.parametrize("value", [0.0625, 1 / 16, "1/16", 0.063])
def test_over_shrunk_variance_accepts_the_answer(value):
    assert OVER_SHRUNK_VARIANCE.evaluate(value).passed


def test_dart_slips_are_named():
    assert_slips_named(DART_VARIANCE.evaluate, DART_SLIPS)


def test_over_shrunk_slips_are_named():
    assert_slips_named(OVER_SHRUNK_VARIANCE.evaluate, OVER_SLIPS)


@pytest.mark.parametrize("exercise", [DART_VARIANCE, OVER_SHRUNK_VARIANCE])
def test_every_own_slip_is_in_the_test(exercise):
    slips = DART_SLIPS if exercise is DART_VARIANCE else OVER_SLIPS
    assert exercise.slips
    assert {s.name for s in exercise.slips} <= set(slips)


def test_the_slip_values_are_the_arithmetic_they_claim():
    darts = [1, 2, 3, 6]
    mean = sum(darts) / 4
    squares = [(x - mean) ** 2 for x in darts]
    value = {}
    for slip in DART_VARIANCE.slips:  # a slip may come twice (exact, then rounded): the first
        value.setdefault(slip.name, slip.value)
    assert value["divided by N − 1"] == pytest.approx(sum(squares) / 3)
    assert value["forgot the mean"] == pytest.approx(sum(x * x for x in darts) / 4)
    assert DART_VARIANCE.answer == pytest.approx(sum(squares) / 4)


@pytest.mark.parametrize("exercise", [DART_VARIANCE, OVER_SHRUNK_VARIANCE])
def test_never_crashes(exercise):
    assert_never_crashes(exercise.evaluate, kind="number")


def test_stub_is_not_attempted(capsys):
    check_dart_variance(...)
    assert capsys.readouterr().out.startswith("Not attempted yet")
