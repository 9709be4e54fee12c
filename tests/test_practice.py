"""Learning by doing, counted: 00 The Python you need and every notebook 01–09 and 11–16 has
at least three exercises (one by hand, tagged in the notebook), at least four self-test cards
of which two make the learner compute, notebook 10 ends with its capstone, and the catalogue of
slips (docs/SLIPS.md) is written from the tables."""

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from course_lib.cards import Card, all_cards, deck
from course_lib.checklist import CHECKLIST
from course_lib.quiz import details_markdown

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
PRACTICE = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 12, 13, 14, 15, 16, 17]  # 0: 00 The Python you need
START = "00_start_here.ipynb"  # the other 00: no exercises, no cards


def notebook(number):
    found = sorted(p for p in NOTEBOOKS.glob(f"{number:02d}_*.ipynb") if p.name != START)
    assert len(found) == 1, f"expected one notebook {number:02d}_*.ipynb, found {found}"
    return json.loads(found[0].read_text(encoding="utf-8"))


def tagged(nb, tag):
    return [c for c in nb["cells"] if tag in c.get("metadata", {}).get("tags", [])]


@pytest.mark.parametrize("number", PRACTICE)
def test_three_exercises_one_by_hand(number):
    nb = notebook(number)
    exercises = tagged(nb, "exercise")
    assert len(exercises) >= 3, f"notebook {number:02d} has {len(exercises)} exercises"
    assert any("by-hand" in c["metadata"]["tags"] for c in exercises)
    assert any("by-hand" not in c["metadata"]["tags"] for c in exercises)  # a code exercise
    assert len(tagged(nb, "solution")) >= len(exercises)


@pytest.mark.parametrize("number", PRACTICE)
def test_four_cards_two_that_compute(number):
    cards = deck(number)
    assert len(cards) >= 4, f"notebook {number:02d} has {len(cards)} cards"
    assert sum(card.computes for card in cards) >= 2


def test_the_checklist_notebook_adds_applied_cards():
    applied = [card for card in all_cards() if card.notebook == 10]
    assert len(applied) >= 4 and sum(card.computes for card in applied) >= 3


def _sentences(text):
    return [s.strip() for s in re.split(r"(?<=[.?!:])\s+", text) if len(s.split()) >= 5]


def test_the_applied_cards_repeat_no_other_card():
    """Notebook 10's applied cards put the checklist to work: none repeats a sentence of another
    card or of the checklist word for word."""
    applied = [card for card in all_cards() if card.notebook == 10]
    others = [c for c in all_cards() if c.notebook != 10] + list(CHECKLIST)
    assert applied and others
    for card in applied:
        for sentence in _sentences(card.question) + _sentences(card.answer):
            for other in others:
                assert sentence not in other.question + " " + other.answer, (sentence, other)


def test_the_capstone_of_notebook_10():
    """Attention from an empty cell (checked by 09's table), then three broken functions to fix,
    each exercise followed by its worked solution."""
    nb = notebook(10)
    exercises = tagged(nb, "exercise")
    sources = ["".join(c["source"]) for c in exercises]
    assert any('check("attention", attention)' in s for s in sources)
    hunts = [c for c in exercises if "bug-hunt" in c["metadata"]["tags"]]
    assert len(hunts) == 3 and len(exercises) == 4
    assert len(tagged(nb, "solution")) == len(exercises)


@pytest.mark.parametrize("number", PRACTICE)
def test_the_self_test_cell_and_its_static_twin(number):
    nb = notebook(number)
    cells = tagged(nb, "self-test")
    assert len(cells) == 1, f"notebook {number:02d} needs one cell tagged self-test"
    code = "".join(cells[0]["source"])
    assert f"self_test({number})" in code
    index = nb["cells"].index(cells[0])
    following = "".join("".join(c["source"]) for c in nb["cells"][index + 1:index + 3])
    assert details_markdown(number) in following, "the <details> twin is out of date"


def test_cards_are_well_formed():
    cards = all_cards()
    assert cards
    for card in cards:
        assert isinstance(card, Card) and card.question.strip() and card.answer.strip()
        assert 0 <= card.notebook <= max(PRACTICE)
        assert card.answer.count("$") % 2 == 0 and card.question.count("$") % 2 == 0


def test_the_slip_catalogue_is_current():
    """docs/SLIPS.md lists every slip of every table: it is written from them (make slips)."""
    result = subprocess.run([sys.executable, "tools/slip_catalogue.py", "--check"], cwd=ROOT,
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
