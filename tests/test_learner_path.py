"""The learner's path, held in every notebook: no answer before the attempt, every by-hand
exercise of 01–09 offers another one, no library source before 09, the word budgets, and an
exercise package sized by its tables."""

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
NUMBER = re.compile(r"(?<![\w.])-?\d+(?:\.\d+)?")
CHECK = re.compile(r'check\(\s*"([^"]+)"')


def cells(path):
    return json.loads(path.read_text(encoding="utf-8"))["cells"]


def tags(cell):
    return cell.get("metadata", {}).get("tags", [])


def source(cell):
    return "".join(cell["source"])


def shown(cell):
    """The text a reader sees under a code cell (in Lab, on GitHub, in the static edition)."""
    text = []
    for out in cell.get("outputs", []):
        text.append("".join(out.get("text", "")))
        text.append("".join(out.get("data", {}).get("text/plain", "")))
        text.append("".join(out.get("data", {}).get("text/html", "")))
    return "".join(text)


def number_of(path):
    return int(path.name[:2])


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_no_solution_shows_a_number_the_prompt_did_not_give(path):
    """A worked solution's output shows no number the learner has to find: only numbers the
    exercise's own text (markdown and exercise cells since the last solution) already gave."""
    prompt, problems = "", []
    for i, cell in enumerate(cells(path)):
        if cell["cell_type"] == "markdown" or "exercise" in tags(cell):
            prompt += source(cell)
        if "solution" in tags(cell):
            given = set(NUMBER.findall(prompt))
            extra = [x for x in NUMBER.findall(shown(cell)) if x not in given]
            if extra:
                problems.append(f"cell {i} shows {extra[:3]}")
            prompt = ""
    assert not problems, f"{path.name}: {problems}"


@pytest.mark.parametrize("path", [p for p in NOTEBOOKS if 1 <= number_of(p) <= 9],
                         ids=lambda p: p.stem)
def test_every_by_hand_exercise_offers_another_one(path):
    nb = cells(path)
    by_hand = [CHECK.search(source(c)).group(1) for c in nb
               if "by-hand" in tags(c) and CHECK.search(source(c))]
    assert by_hand, f"{path.name}: no by-hand exercise checked with check(…)"
    offered = {m.group(1) for c in nb if "practice" in tags(c)
               for m in re.finditer(r'another_one\(\s*"([^"]+)"', source(c))}
    assert set(by_hand) <= offered, f"{path.name}: no 'Another one' for {set(by_hand) - offered}"


EXAMPLE = re.compile(r"# your numbers?, e\.g\. (-?\d+(?:\.\d+)?)")


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_an_example_number_in_a_by_hand_cell_names_no_slip(path):
    """A learner who types the cell's own "e.g." number must not be told it is a slip they made
    (2.5 in 04 was "left out a length"), nor that it is right."""
    from course_lib.exercises import evaluate
    from course_lib.exercises.feedback import FAILED

    examples = [(CHECK.search(source(c)).group(1), float(m.group(1)))
                for c in cells(path) if CHECK.search(source(c))
                for m in EXAMPLE.finditer(source(c))]
    for name, number in examples:
        feedback = evaluate(name, int(number) if number.is_integer() else number)
        assert feedback.status == FAILED, f"{path.name}, {name}, e.g. {number:g}: {feedback}"


@pytest.mark.parametrize("path", [p for p in NOTEBOOKS if number_of(p) < 9],
                         ids=lambda p: p.stem)
def test_no_library_source_before_09(path):
    for i, cell in enumerate(cells(path)):
        if cell["cell_type"] == "code":
            assert not re.search(r"getsource|source_body", source(cell)), \
                f"{path.name} cell {i} prints course_lib source"


def markdown_words(path):
    text = " ".join(source(c) for c in cells(path) if c["cell_type"] == "markdown")
    return len(re.sub(r"\$\$.*?\$\$|\$[^$\n]*\$", "X", text, flags=re.S).split())


@pytest.mark.parametrize("path", [p for p in NOTEBOOKS if number_of(p) not in (0, 10)],
                         ids=lambda p: p.stem)
def test_the_word_budget(path):
    budget = 1800 if number_of(path) <= 9 else 2800  # a LaTeX span counts as one word
    words = markdown_words(path)
    assert words <= budget, f"{path.name}: {words} markdown words (budget {budget})"


def test_every_exercise_call_uses_the_one_entry_point():
    old = [f"{p.name}: {m}" for p in NOTEBOOKS for c in cells(p)
           for m in re.findall(r"\bcheck_\w+\(", source(c))]
    assert not old, old


def _exercise_package_bytes():
    package = ROOT / "course_lib" / "exercises"
    files = [p for p in package.rglob("*") if p.is_file() and "__pycache__" not in p.parts]
    assert len(files) > 10, files
    return sum(p.stat().st_size for p in files)


def test_the_exercise_package_meets_the_issues_budget():
    size = _exercise_package_bytes()  # the issue's 372 KB were 372,358 bytes: 1 KB = 1000 bytes
    assert size <= 250_000, f"course_lib/exercises/ holds {size:,} bytes (budget 250,000)"


def test_the_exercise_package_has_at_most_two_private_modules():
    package = ROOT / "course_lib" / "exercises"
    private = [p.name for p in package.glob("_*.py") if p.name != "__init__.py"]
    assert len(private) <= 2, f"private helper modules: {private}"
