"""The small helpers every checker shares: one comparison, the text of a value, a typed answer
read, a slip's name capitalised, placeholders filled, and the one rule between explanations."""

import math

import numpy as np

from course_lib.exercises import HandExercise, Slip, evaluate, exercise
from course_lib.exercises._values import as_numbers, numeric, same, same_value, show
from course_lib.exercises.feedback import capital, fill, pick


def test_numeric_reads_numbers_and_refuses_ragged_or_text():
    assert numeric([[1, 2], [3, 4]]).shape == (2, 2)
    assert numeric("0.5") is None and numeric([[1], [2, 3]]) is None


def test_same_is_shape_and_numbers_within_tolerance():
    assert same([3.0, 4.0], (3, 4)) and same(0.1 + 0.2, 0.3)
    assert not same([[3, 4]], [3, 4]) and not same("5", 5)


def test_same_value_is_exact_and_nan_equals_nan():
    assert same_value([1.0, [2.0, float("nan")]], [1.0, [2.0, float("nan")]])
    assert not same_value([1.0, 2.0], [1.0, 2.0 + 1e-12])


def test_show_gives_short_text_for_any_value():
    assert show([1.0, 2.5, [3, None]]) == "[1, 2.5, [3, None]]"
    assert show(np.array([[0.12345, 2]])) == "[[0.1235, 2]]"
    assert show((0, 7)) == "(0, 7)"


def test_a_typed_answer_is_read_or_refused_with_a_reason():
    assert as_numbers("3/4", ())[0] == 0.75
    assert np.array_equal(as_numbers("2, 3", (2,))[0], [2.0, 3.0])
    assert as_numbers(True, ())[1] == "True is a truth value; type one number."


def test_capital_starts_a_sentence_but_keeps_a_symbol_small():
    words = ["a position past the end", "q with itself", "e⁰ taken as 0", "square-rooted",
             "bytes, not KiB", "ln 3 read as 3"]
    assert [capital(w) for w in words] == ["A position past the end", "q with itself",
                                           "e⁰ taken as 0", "Square-rooted", "Bytes, not KiB",
                                           "ln 3 read as 3"]


def test_fill_leaves_unknown_placeholders_alone():
    assert fill("{got} is not {answer} {x}", {"got": "49", "answer": "7"}) == "49 is not 7 {x}"


def test_pick_prefers_more_explained_then_the_lower_tier_and_names_all_ties():
    chosen = pick([(2, 1, "sign", None), (2, 0, "no root", None), (1, 0, "other", None)])
    assert [c[2] for c in chosen] == ["no root"]
    assert [c[2] for c in pick([(3, 0, "a", None), (3, 0, "b", None)])] == ["a", "b"]
    assert pick([(0, 0, "nothing explained", None)]) == []


def test_a_hand_exercise_passes_within_tolerance_and_names_table_and_relation_slips():
    ex = HandExercise("len", "∥{q}∥", lambda q: math.hypot(*q), {"q": [3, 4]},
                      [Slip("no root", "take the root.", gives=lambda q: 25.0)])
    assert ex.evaluate("5.004").status == "passed"
    assert ex.evaluate(25).mistake == "no root"
    assert ex.evaluate(-5).mistake == "sign turned round"


def test_a_slip_far_below_the_answer_is_named_only_near_its_own_size():
    ex = HandExercise("bytes", "the bytes of {n} numbers", lambda n: 4 * n, {"n": 11520},
                      tolerance=0.5)
    assert ex.evaluate(1 / 46080).mistake == "the reciprocal"
    assert ex.evaluate(0.0439).mistake == "MiB, not bytes"  # 46080 / 2**20, not 1 / 46080
    assert ex.evaluate(0.3).mistake is None  # within 0.5 of 1 / 46080, but not it


def test_the_percentage_hint_shows_this_answer_as_a_fraction():
    ex = HandExercise("share", "the share {a} of 4", lambda a: a / 4, {"a": 3})
    assert "(0.75, not 75)" in ex.evaluate(75).message


def test_a_right_number_in_quotes_is_named_in_a_cell_and_read_in_the_box():
    quoted = evaluate("positions by hand", "17")  # typed in a code cell: text, not a number
    assert quoted.status == "mistake" and quoted.mistake == "text in quotes", quoted
    assert "'17'" in str(quoted) and "quotes" in str(quoted)  # it shows what was typed
    assert evaluate("positions by hand", 17).passed
    assert exercise("positions by hand").evaluate("17").passed  # the box's text is read
    assert evaluate("positions by hand", "16").mistake != "text in quotes"  # a wrong value


def test_too_many_or_too_few_numbers_are_counted_and_one_in_brackets_is_told_so():
    assert "without brackets" in str(evaluate("positions by hand", [17]))
    two = evaluate("positions by hand", [17, 1])
    assert two.mistake == "the wrong number of values" and "2 numbers" in str(two), two
    assert "in order" not in str(two)  # one number has no order
    three = evaluate("weights by hand", [0.5, 0.5])
    assert "3 numbers, like (1, 2, 3), in order" in str(three), three


def test_a_pair_returned_as_a_list_is_named_not_accepted():
    def product_shape(shape_a, shape_b):
        if shape_a[1] != shape_b[0]:
            raise ValueError(f"inner sizes differ: {shape_a[1]} and {shape_b[0]}")
        return [shape_a[0], shape_b[1]]  # the right numbers, in a list

    listed = evaluate("product_shape", product_shape)
    assert listed.mistake == "a list or array where a tuple is asked", listed
    assert "not a tuple" in str(listed) and "return a, b" in str(listed)
    assert evaluate("product_shape", lambda a, b: (a[0], b[1]) if a[1] == b[0] else
                    product_shape(a, b)).passed


def test_a_slip_rounded_to_the_decimals_the_prompt_allows_is_still_named():
    ex = HandExercise("w", "a₀", lambda p: p / (p + 1), {"p": 3},
                      [Slip("ln p for p", "e^(ln p) is p.", gives=lambda p: math.log(p) /
                            (math.log(p) + 1))], tolerance=0.005)  # "two decimals are enough"
    assert ex.evaluate(0.5235).mistake == "ln p for p"
    assert ex.evaluate(0.52).mistake == "ln p for p"  # 0.5235 to two decimals
    assert ex.evaluate(0.53).mistake != "ln p for p"  # not its rounding
