"""The checklist (complete, in the source's order, with correct answers) and its self-test
cards (buttons work without a browser; the static twin says the same thing)."""

import re

import ipywidgets as widgets
import pytest

from course_lib.checklist import CHECKLIST, questions_for
from course_lib.quiz import Deck, details_markdown, self_test

# The source's equipment checklist, in order (its questions, as the course words them).
SOURCE_ORDER = [
    "What is a vector", "What does $q_i$ mean", r"norm $\lVert q \rVert$",
    r"$\sum_{i=1}^{L} q_i k_i$", r"dot product $q \cdot k$", r"$\mathbb{R}^{r \times c}$",
    "transpose $K$", r"shape of $S = QK^\top$", "softmax do to a row", "$e^x$",
    "all scores are equal", r"$\operatorname{Var}(q \cdot k) = d_k$",
    r"divide the scores by $\sqrt{d_k}$", "final step",
]


def test_the_checklist_has_every_source_question_in_order():
    assert len(CHECKLIST) == len(SOURCE_ORDER) == 14
    for item, fragment in zip(CHECKLIST, SOURCE_ORDER, strict=True):
        assert fragment in item.question


def test_every_question_names_a_foundations_notebook_in_course_order():
    numbers = [q.notebook for q in CHECKLIST]
    assert all(1 <= n <= 9 for n in numbers)
    assert numbers == sorted(numbers)  # the source's order is also the course's order
    assert set(numbers) == set(range(1, 10))  # every foundations notebook gets a card


def test_answers_carry_the_corrections_to_the_source():
    root = r"\sqrt{d_k}"
    scale = next(q for q in CHECKLIST if "divide the scores" in q.question)
    assert root in scale.question and root in scale.answer
    assert "standard deviation" in scale.answer
    variance = next(q for q in CHECKLIST if r"\operatorname{Var}" in q.question)
    for needed in ("independent", "mean 0", "variance 1"):
        assert needed in variance.answer
    shape = next(q for q in CHECKLIST if "shape of $S" in q.question)
    assert r"$n \times m$" in shape.answer and "$n = m$" in shape.answer
    dot = next(q for q in CHECKLIST if "dot product" in q.question)
    assert r"\lVert q \rVert \lVert k \rVert \cos\theta" in dot.answer
    final = next(q for q in CHECKLIST if "final step" in q.question)
    assert r"\mathbf{v}_j" in final.answer  # a row of V is bold, as in the notebooks
    # no bare "divide by d_k" anywhere: the scale is always √d_k
    for item in CHECKLIST:
        text = item.answer + item.question
        assert not re.search(r"(divide|dividing)[^.]*\bby \$?d_k", text)
        assert text.count("$") % 2 == 0


def test_questions_for_filters_in_order():
    assert [q.question for q in questions_for(7)] == [
        q.question for q in CHECKLIST if q.notebook == 7]
    assert len(questions_for(7)) == 3
    assert questions_for(12) == []


def tally(deck):
    """The numbers the tally line shows: knew, of how many, not yet, not graded."""
    return [int(n) for n in re.findall(r"\d+", deck.tally_text())]


def test_cards_reveal_and_tally_without_a_browser():
    deck = self_test(CHECKLIST[:3])
    assert isinstance(deck, Deck)
    assert len(deck.cards) == 3
    assert tally(deck) == [0, 3, 0, 3]
    assert all(a.layout.display == "none" for a in deck.answers)
    show, knew, not_yet = deck.cards[1].children[1].children
    show.click()
    assert deck.answers[1].layout.display is None
    assert deck.answers[0].layout.display == "none"
    knew.click()
    deck.cards[2].children[1].children[2].click()  # "Not yet" on card 3
    assert deck.grades == [None, True, False]
    assert tally(deck) == [1, 3, 1, 1]
    assert deck.tally_text() in deck.tally.value  # the widget shows the new tally
    not_yet.click()  # changing your mind: the last click counts
    assert deck.grades == [None, False, False] and tally(deck) == [0, 3, 2, 1]


def test_cards_announce_their_state_to_a_screen_reader():
    deck = self_test(CHECKLIST[:2])
    live = 'role="status" aria-live="polite"'
    assert live in deck.tally.value
    deck.cards[1].children[1].children[0].click()
    assert live in deck.status.value and "card 2" in deck.status.value
    deck.cards[0].children[1].children[1].click()
    assert live in deck.tally.value and deck.tally_text() in deck.tally.value
    for card in deck.cards:  # every control is a button with a tooltip naming its card
        buttons = card.children[1].children
        assert all(isinstance(b, widgets.Button) and b.tooltip for b in buttons)


def test_grading_buttons_have_readable_contrast():
    def luminance(colour):
        channels = [int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
        linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]

    for button in self_test(CHECKLIST[:1]).cards[0].children[1].children[1:]:
        light, dark = sorted([luminance(button.style.button_color),
                              luminance(button.style.text_color)])
        assert (dark + 0.05) / (light + 0.05) >= 4.5


def test_card_text_is_the_deck_text():
    from course_lib.cards import deck as cards_of

    deck = self_test(8)
    items = cards_of(8)
    assert items and items[:len(questions_for(8))] == [
        type(items[0])(q.question, q.answer, q.notebook) for q in questions_for(8)]
    for card, answer, item in zip(deck.cards, deck.answers, items, strict=True):
        assert item.question in card.children[0].value
        assert answer.value == item.answer


def test_all_cards_when_no_notebook_is_given():
    assert len(self_test().cards) == len(CHECKLIST)  # notebook 10: the whole checklist


def test_plain_text_form_points_to_the_static_twin():
    assert "blocks below" in repr(self_test(1))
    assert "<" not in repr(self_test(1))
    assert len(repr(self_test())) <= 110  # ipywidgets cuts the plain-text form there


@pytest.mark.parametrize("notebook", range(1, 10))
def test_static_twin_holds_the_same_questions_and_answers(notebook):
    from course_lib.cards import deck as cards_of

    text = details_markdown(notebook)
    items = cards_of(notebook)
    assert items
    assert text.count("<details>") == text.count("</details>") == len(items)
    for item in items:
        assert f"<summary><b>{item.question}</b></summary>" in text
        assert item.answer in text


def test_cards_and_twin_from_a_list_of_ones_own_questions():
    from course_lib.checklist import Question

    own = [Question("What is 2 + 2?", "4, even on a GPU.", 11),
           Question("Is < escaped?", "Yes: a < b & c.", 11)]
    deck = self_test(own)
    assert len(deck.cards) == 2
    assert "What is 2 + 2?" in deck.cards[0].children[0].value
    text = details_markdown(own)
    assert text.count("<details>") == 2
    assert "a &lt; b &amp; c." in text  # HTML special characters are escaped
