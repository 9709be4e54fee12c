"""The exercise framework itself: code checkers, by-hand checkers, and the fuzz harness."""

import numpy as np
import pytest
from exercise_helpers import assert_never_crashes, assert_slips_named

from course_lib.exercises.by_hand import DECIMAL, ROUNDED, SIGN, HandExercise, Slip
from course_lib.exercises.core import (
    CHANGED_INPUT,
    PRINTED,
    Case,
    Exercise,
    Mistake,
    frozen_array,
)

SQUARE = Exercise(
    "square(x)", [Case((2.0,)), Case((-3.0,)), Case(([[1.0], [2.0, 3.0]],), expected=0.0)],
    reference=lambda x: x * x if not isinstance(x, list) else 0.0,
    mistakes=[Mistake("doubled", "on {call} you gave {got}, twice x, not {expected}.",
                      imitation=lambda x: 2 * x if not isinstance(x, list) else 0.0)])


def test_a_hint_names_the_case_where_the_slip_showed():
    feedback = SQUARE.evaluate(lambda x: 2 * x if not isinstance(x, list) else 0.0)
    assert feedback.mistake == "doubled"
    assert feedback.message == "Not yet: on square(-3) you gave -6, twice x, not 9."


def test_ragged_hidden_inputs_do_not_crash_the_smallest_case_search():
    feedback = SQUARE.evaluate(lambda x: 7.0)  # wrong everywhere, including the ragged case
    assert feedback.status == "failed" and "square(" in feedback.message


def test_numbers_as_text_are_not_numbers():
    ex = Exercise("double(x)", [Case((2.0,)), Case((3.0,))], reference=lambda x: 2 * x)
    assert not ex.evaluate(lambda x: str(2 * x)).passed
    assert not ex.evaluate(lambda x: np.array([2 * x]).astype(str)[0]).passed
    assert ex.evaluate(lambda x: np.float32(2 * x)).passed


def test_passing_the_result_instead_of_the_function_is_explained():
    feedback = SQUARE.evaluate(4.0)
    assert feedback.status == "failed" and "function itself" in feedback.message


def test_writing_into_the_input_is_named_even_when_the_numbers_are_right():
    ex = Exercise("total(q)", [Case(([1.0, 2.0],)), Case(([3.0],))], reference=sum)

    def pops(q):
        total = 0.0
        while q:
            total += q.pop()
        return total

    assert ex.evaluate(pops).mistake == CHANGED_INPUT
    assert ex.evaluate(lambda q: sum(q)).passed
    frozen = Exercise("first(a)", [Case((frozen_array([1.0, 2.0]),))], reference=lambda a: 1.0)

    def writes(a):
        a[0] = 1.0
        return a[0]

    assert frozen.evaluate(writes).mistake == CHANGED_INPUT


def test_printing_instead_of_returning_is_named():
    def prints(x):
        print(x * x)

    feedback = SQUARE.evaluate(prints)
    assert feedback.mistake == PRINTED and "printed 4.0 but" in feedback.message
    assert SQUARE.evaluate(lambda x: None).status == "not attempted"  # nothing printed


def test_a_recogniser_that_raises_is_skipped_not_fatal():
    def broken(outcomes):
        raise ValueError("cannot read this answer")

    ex = Exercise("square(x)", [Case((2.0,)), Case((3.0,))], reference=lambda x: x * x,
                  mistakes=[Mistake("broken", "?", detect=broken),
                            Mistake("doubled", "doubled on {call}", imitation=lambda x: 2 * x)])
    assert ex.evaluate(lambda x: 2 * x).mistake == "doubled"


def test_the_code_checker_survives_the_fuzz():
    assert_never_crashes(SQUARE.evaluate)


HAND = HandExercise("∥[3, 4]∥", 5.0, [Slip("no square root", 25.0, "you gave {got}: √ it."),
                                     Slip("no squares", 7.0 ** 0.5, "square first.")])


@pytest.mark.parametrize("typed", [5, 5.0, "5", " 5.00 ", np.float32(5.004), "10/2"])
def test_by_hand_accepts_the_answer_within_the_tolerance(typed):
    assert HAND.evaluate(typed).passed


def test_by_hand_names_its_own_and_the_generic_slips():
    assert_slips_named(HAND.evaluate, {
        "no square root": [25, "25", 25.004], "no squares": [2.6458, 7 ** 0.5],
        SIGN: [-5, "-5.0"], DECIMAL: [50, 0.5, 500], ROUNDED: [5.05]}, minimum=10)
    assert "25" in HAND.evaluate(25).message  # {got} is filled in


@pytest.mark.parametrize("typed, words", [
    (None, "Not attempted"), (..., "Not attempted"), ("five", "not a number"),
    ([5, 5], "one number"), (True, "truth value"), (float("nan"), "finite"),
    (3 + 4j, "not one number"), (4.0, "Go through it again")])
def test_by_hand_explains_what_is_wrong_with_what_was_typed(typed, words):
    feedback = HAND.evaluate(typed)
    assert words in feedback.message and not feedback.passed


def test_by_hand_tuples_for_shapes():
    shape = HandExercise("the shape of QKᵀ", (3, 5), [Slip("transposed", (5, 3), "rows!")],
                         tolerance=0)
    assert shape.evaluate((3, 5)).passed and shape.evaluate([3, 5]).passed
    assert shape.evaluate((5, 3)).mistake == "transposed"
    assert "2 numbers" in shape.evaluate(15).message


def test_a_slip_indistinguishable_from_the_answer_is_refused():
    with pytest.raises(ValueError, match="too close"):
        HandExercise("x", 1.0, [Slip("same", 1.001, "?")], tolerance=0.01)


def test_the_by_hand_checker_survives_the_fuzz():
    assert_never_crashes(HAND.evaluate, kind="number")
