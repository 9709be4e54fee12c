"""The "Another one" box: fresh numbers, the same checker, driven without a browser."""

import pytest

from course_lib.exercises import exercise
from course_lib.widgets.practice import another_one


def test_a_fresh_variant_is_checked_like_the_notebook_one():
    box = another_one("length by hand")
    assert box.variant.title != exercise("length by hand").title
    answer = float(box.variant.answer)
    assert box.check(str(answer)).startswith("Correct")
    squares = sum(x * x for x in box.variant.givens["q"])
    said = box.check(str(squares))
    assert said.startswith("Not yet") and "a root forgotten" in said.lower()  # the squares, no root
    assert "role='status'" in box.feedback.value  # a live region


def test_another_one_draws_new_numbers_and_clears_the_answer():
    box = another_one("length by hand", seed=3)
    first = box.variant.title
    box.answer.value = "1"
    assert box.another() != first
    assert box.answer.value == "" and box.feedback.value == ""


@pytest.mark.parametrize("name", ["over-shrunk by hand", "variance by hand", "length by hand"])
def test_another_one_never_asks_the_same_question_twice_in_a_row(name):
    box = another_one(name)
    titles = [box.variant.title] + [box.another() for _ in range(12)]
    assert all(a != b for a, b in zip(titles, titles[1:], strict=False))
    assert len(set(titles)) >= 6  # and it does not cycle through a handful


def test_typing_in_the_field_checks_it():
    box = another_one("length by hand")
    box.answer.value = str(float(box.variant.answer))
    assert "Correct" in box.feedback.value


def test_only_exercises_with_variants():
    with pytest.raises(ValueError, match="no fresh variants"):
        another_one("length")


def test_its_plain_text_says_what_it_is():
    assert "Another one" in repr(another_one("length by hand"))


def test_a_decimal_comma_is_told_to_use_a_dot():
    box = another_one("length by hand")
    typed = f"{float(box.variant.answer) + 0.5:.1f}".replace(".", ",")  # a wrong "7,5"
    said = box.check(typed)
    assert said.startswith("Not yet") and f"with a dot: {typed.replace(',', '.')}" in said
    assert "with a dot" not in box.check(str(float(box.variant.answer)))  # a dot: no advice
