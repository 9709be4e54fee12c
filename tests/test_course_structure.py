"""The course's shape, checked on every notebook present (docs/ARCHITECTURE.md).

The rules, data-driven so that each new notebook is checked the moment it lands:

* files ``notebooks/NN_topic.ipynb``, numbered 00, 01, 02, … without gaps; 00 twice, for
  00 Start here (the first page) and 00 The Python you need (the first lesson);
* committed with outputs from one fresh run: code cells numbered 1, 2, 3, … in order, no
  error outputs, no absolute paths in outputs;
* the first cell is a markdown title (``# ...``);
* ``##`` sections in this order (other sections may sit between them):
  00 Start here: What you will learn, What you need, Next;
  10 (the checklist): What you will learn, What you need, Test yourself, Your turn (the
  capstone), Next;
  every other notebook: What you will learn, What you need, Why the topic needs it,
  Your turn, Test yourself, Next;
* "What you need" links to an earlier notebook (from 00 The Python you need on); "Next" links
  to the next notebook in course order (tools/build_html.py's) when it exists; every link to a
  ``.ipynb`` file resolves;
* every cell tagged ``dashboard`` has a cell tagged ``static-twin`` right next to it among the
  tagged cells (just before or just after; one twin per dashboard); notebooks 01–09 have at
  least one dashboard;
* every figure (a code cell with a PNG output, such as a static twin) is followed directly by
  a markdown caption starting with ``*Figure``;
* notebooks other than 00 Start here: cells tagged ``exercise`` (one at least inside
  "Your turn") whose stored output starts with "Not attempted yet", then a cell tagged
  ``solution`` with its source hidden (``metadata.jupyter.source_hidden``) whose stored output
  starts with "The worked solution passes." (or "Correct");
* "Test yourself" holds a code cell calling ``self_test(...)`` and a markdown cell that
  contains ``quiz.details_markdown(N)`` exactly (all questions in 10), for every notebook
  that the checklist names and for 00 The Python you need (deck 0).
"""

import importlib.util
import re
from pathlib import Path

import nbformat
import pytest

from course_lib.checklist import CHECKLIST
from course_lib.quiz import details_markdown

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOK_DIR = ROOT / "notebooks"
_spec = importlib.util.spec_from_file_location("build_html", ROOT / "tools" / "build_html.py")
build_html = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(build_html)
NOTEBOOKS = build_html.course_notebooks(NOTEBOOK_DIR)  # in course order
START, PYTHON = "00_start_here.ipynb", "00_python.ipynb"
CHECKLIST_NOTEBOOK = 10
LEARN, NEED, WHY = "## What you will learn", "## What you need", "## Why the topic needs it"
TURN, TEST, NEXT = "## Your turn", "## Test yourself", "## Next"
CHECKLIST_NUMBERS = {q.notebook for q in CHECKLIST}
ABSOLUTE_PATH = re.compile(r"(/work/|/tmp/|/home/|/root/|/Users/|[A-Z]:\\\\)")
LINK = re.compile(r"\]\(([^)#\s]+\.ipynb)(#[^)]*)?\)")


def number(path):
    return int(path.name[:2])


def required_sections(path):
    if path.name == START:
        return [LEARN, NEED, NEXT]
    if number(path) == CHECKLIST_NOTEBOOK:
        return [LEARN, NEED, TEST, TURN, NEXT]
    return [LEARN, NEED, WHY, TURN, TEST, NEXT]


def has_exercise(path):
    return path.name != START  # 10's capstone included


def needs_dashboard(n):
    return 1 <= n <= 9  # every foundations notebook has a slider; later ones may


def load(path):
    return nbformat.read(path, as_version=4)


def tags(cell):
    return set(cell.get("metadata", {}).get("tags", []))


def headings(cell):
    if cell.cell_type != "markdown":
        return []
    return [line.strip() for line in cell.source.splitlines() if line.startswith("## ")]


def sections(nb):
    """Each '## ' heading → (indices of the cells in that section, the section's text).

    A section runs from its heading to the next '## ' heading, which may sit in the same
    markdown cell; a cell belongs to every section that part of it lies in.
    """
    cells, texts, current = {}, {}, None
    for i, cell in enumerate(nb.cells):
        lines = cell.source.splitlines() if cell.cell_type == "markdown" else [cell.source]
        for line in lines:
            if cell.cell_type == "markdown" and line.startswith("## "):
                current = line.strip()
                cells.setdefault(current, [])
                texts.setdefault(current, [])
            if current is not None:
                if i not in cells[current]:
                    cells[current].append(i)
                texts[current].append(line)
    return {head: (cells[head], "\n".join(texts[head])) for head in cells}


def output_text(cell):
    parts = []
    for out in cell.get("outputs", []):
        if out.output_type == "stream":
            parts.append(out.text)
        elif "data" in out:
            parts.append(out.data.get("text/plain", ""))
    return "".join(parts)


def test_notebooks_exist_and_are_numbered_without_gaps():
    assert NOTEBOOKS, f"no notebooks found in {NOTEBOOK_DIR}"
    assert [p.name for p in NOTEBOOKS[:2]] == [START, PYTHON]  # the only two 00s, start first
    assert [number(p) for p in NOTEBOOKS[1:]] == list(range(len(NOTEBOOKS) - 1))
    for path in NOTEBOOKS:
        assert re.fullmatch(r"\d\d_[a-z0-9_]+\.ipynb", path.name), path.name


def notebooks_where(applies):
    """The notebooks a check applies to, as parameters: the others are not counted as passes.
    ``applies`` gets the notebook's path."""
    return [pytest.param(p, id=p.stem) for p in NOTEBOOKS if applies(p)]


def test_every_notebook_the_checklist_names_exists():
    present = {number(p) for p in NOTEBOOKS}
    assert CHECKLIST_NUMBERS, "the checklist names no notebook"
    missing = sorted(CHECKLIST_NUMBERS - present)
    assert not missing, f"the checklist asks about notebooks {missing}, which are missing"
    assert CHECKLIST_NOTEBOOK in present, "the checklist notebook (10) is missing"


@pytest.fixture(params=notebooks_where(lambda path: True))
def notebook(request):
    return request.param, load(request.param)


def test_committed_from_one_fresh_run(notebook):
    path, nb = notebook
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert code, path.name
    assert [c.execution_count for c in code] == list(range(1, len(code) + 1)), path.name
    for i, cell in enumerate(nb.cells):
        for out in cell.get("outputs", []):
            assert out.output_type != "error", f"{path.name} cell {i} stored an error"
            if out.output_type == "stream":
                assert out.name == "stdout", f"{path.name} cell {i} wrote to stderr: {out.text}"
        assert not ABSOLUTE_PATH.search(output_text(cell)), f"{path.name} cell {i}: a path"


def test_title_and_sections_in_order(notebook):
    path, nb = notebook
    assert nb.cells[0].cell_type == "markdown" and nb.cells[0].source.startswith("# "), path.name
    order = [h for cell in nb.cells for h in headings(cell)]
    wanted = required_sections(path)
    positions = []
    for head in wanted:
        assert head in order, f"{path.name} lacks the section {head!r}"
        positions.append(order.index(head))
    assert positions == sorted(positions), f"{path.name}: sections out of order {wanted}"


def test_links_resolve_and_lead_on(notebook):
    path, nb = notebook
    found = sections(nb)
    links = [m.group(1) for c in nb.cells if c.cell_type == "markdown"
             for m in LINK.finditer(c.source)]
    for link in links:
        assert (path.parent / link).resolve().exists(), f"{path.name} links to missing {link}"
    place = NOTEBOOKS.index(path)
    if place > 0:
        need_text = found[NEED][1]
        earlier = [m.group(1) for m in LINK.finditer(need_text)]
        assert any(e in [p.name for p in NOTEBOOKS[:place]] for e in earlier), \
            f"{path.name}: 'What you need' links no earlier one"
    if place + 1 < len(NOTEBOOKS):
        next_text = found[NEXT][1]
        following = NOTEBOOKS[place + 1].name
        assert f"({following})" in next_text, f"{path.name}: no link to the next, {following}"


def dashboard_kinds(nb):
    return [("dashboard" if "dashboard" in tags(c) else "static-twin")
            for c in nb.cells if tags(c) & {"dashboard", "static-twin"}]


@pytest.mark.parametrize("path", notebooks_where(lambda path: needs_dashboard(number(path))))
def test_foundations_notebook_has_a_dashboard(path):
    nb = load(path)
    assert "dashboard" in dashboard_kinds(nb), f"{path.name} has no cell tagged 'dashboard'"


def test_each_dashboard_has_a_static_twin(notebook):
    path, nb = notebook
    kinds = dashboard_kinds(nb)
    used = set()
    for i, kind in enumerate(kinds):
        if kind != "dashboard":
            continue
        # its twin sits right next to it among the tagged cells (before or after)
        twins = [j for j in (i - 1, i + 1) if 0 <= j < len(kinds)
                 and kinds[j] == "static-twin" and j not in used]
        assert twins, (f"{path.name}: dashboard number {kinds[:i + 1].count('dashboard')} has "
                       "no static-twin cell next to it")
        used.add(twins[0])


def test_every_figure_has_a_caption(notebook):
    path, nb = notebook
    for i, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        if any("image/png" in out.get("data", {}) for out in cell.outputs):
            after = nb.cells[i + 1] if i + 1 < len(nb.cells) else None
            captioned = (after is not None and after.cell_type == "markdown"
                         and after.source.startswith("*Figure"))
            assert captioned, f"{path.name} cell {i}: a figure without a caption below it"


@pytest.mark.parametrize("path", notebooks_where(has_exercise))
def test_exercise_stub_and_hidden_solution(path):
    nb = load(path)
    found = sections(nb)
    exercises = [i for i, c in enumerate(nb.cells) if "exercise" in tags(c)]
    solutions = [i for i, c in enumerate(nb.cells) if "solution" in tags(c)]
    assert exercises, f"{path.name}: no cell tagged 'exercise'"
    assert solutions, f"{path.name}: no cell tagged 'solution'"
    # exercises may also sit in the teaching sections (a by-hand check where the idea is
    # taught); the section "Your turn" holds at least one
    assert set(exercises) & set(found[TURN][0]), f"{path.name}: no exercise under {TURN!r}"
    for i in exercises:
        assert output_text(nb.cells[i]).startswith("Not attempted yet"), (path.name, i)
    assert min(solutions) > min(exercises)
    for i in solutions:
        cell = nb.cells[i]
        assert cell.metadata.get("jupyter", {}).get("source_hidden") is True, path.name
        said = output_text(cell)
        assert said.startswith(("The worked solution passes.", "Correct")), \
            f"{path.name}: solution does not pass"


def has_self_test(path):
    n = number(path)
    return n == CHECKLIST_NOTEBOOK or n in CHECKLIST_NUMBERS or path.name == PYTHON


@pytest.mark.parametrize("path", notebooks_where(has_self_test))
def test_test_yourself_cards_and_their_static_twin(path):
    nb = load(path)
    n = number(path)
    cells = [nb.cells[i] for i in sections(nb)[TEST][0]]
    assert any(c.cell_type == "code" and "self_test(" in c.source for c in cells), path.name
    twin = details_markdown(None if n == CHECKLIST_NOTEBOOK else n)
    assert any(c.cell_type == "markdown" and twin in c.source for c in cells), (
        f"{path.name}: the markdown twin differs from quiz.details_markdown({n})")

