"""The student edition for nbgrader (`make student`, tools/make_student.py): the release has no
solutions, and nbgrader's autograde gives full marks to the worked solutions and none to a
wrong submission. nbgrader lives in .venv-instructor (`make instructor`); under CI=true the
test must run (`make test` builds that environment on CI)."""

import importlib.util
import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[1]
NBGRADER = ROOT / ".venv-instructor" / "bin" / "nbgrader"
CHOSEN = ["02", "11"]  # a foundations notebook and one beyond it


def load_builder():
    spec = importlib.util.spec_from_file_location("make_student",
                                                  ROOT / "tools" / "make_student.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


make_student = load_builder()


WITH_EXERCISES = [p.name for p in sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
                  if p.name not in ("00_start_here.ipynb", "10_checklist.ipynb")]


@pytest.mark.parametrize("name", WITH_EXERCISES)
def test_source_notebooks_mark_every_exercise_without_nbgrader(name):
    """The conversion itself (no nbgrader needed), for every notebook with exercises: one
    solution region and one locked autograder cell per exercise, the worked solutions gone,
    and the source notebook's code still compiles."""
    path = ROOT / "notebooks" / name
    nb, count = make_student.source_notebook(path)
    assert count >= 3, f"{path.name} has {count} exercises to grade"
    for cell in nb.cells:
        if cell.cell_type == "code":
            compile("\n".join(line for line in cell.source.splitlines()
                               if not line.lstrip().startswith(("%", "!"))), name, "exec")
    answers = [c for c in nb.cells if c.metadata.get("nbgrader", {}).get("solution")]
    graders = [c for c in nb.cells if c.metadata.get("nbgrader", {}).get("grade")]
    assert len(answers) == len(graders) == count
    for cell in answers:
        assert cell.source.count("### BEGIN SOLUTION") == 1
        assert "raise NotImplementedError" not in cell.source
    for cell in graders:
        assert cell.metadata["nbgrader"]["locked"] and cell.metadata["nbgrader"]["points"]
        assert 'startswith("Correct")' in cell.source or "assert _verdict.passed" in cell.source
    assert not any("solution" in c.metadata.get("tags", []) for c in nb.cells)


def test_the_capstone_keeps_its_broken_functions_for_the_student():
    """Notebook 10: attention from an empty cell becomes a solution region; each "find the
    bug" cell stays the broken function (nbgrader would replace a region), graded like the
    others."""
    nb, count = make_student.source_notebook(ROOT / "notebooks" / "10_checklist.ipynb")
    hunts = [c for c in nb.cells if "bug-hunt" in c.metadata.get("tags", [])]
    answers = [c for c in nb.cells if c.metadata.get("nbgrader", {}).get("solution")]
    graders = [c for c in nb.cells if c.metadata.get("nbgrader", {}).get("grade")]
    assert count == 4 and len(hunts) == 3 and len(answers) == 1 and len(graders) == count
    for cell in hunts:
        assert "### BEGIN SOLUTION" not in cell.source and "def attention_" in cell.source
        assert "nbgrader" not in cell.metadata
    assert not any("_solution" in c.source for c in nb.cells if c.cell_type == "code")


def _wrong(release_cell):
    """A wrong submission: a plausible answer instead of nbgrader's stub."""
    lines = []
    for line in release_cell.splitlines():
        stripped = line.lstrip()
        indent = line[:len(line) - len(stripped)]
        if stripped.startswith("raise NotImplementedError"):
            if indent:
                lines.append(f"{indent}return [0.5]")
            else:
                found = (re.search(r'check\(\s*"[^"]+"\s*,\s*(\w+)\)', release_cell)
                         or re.search(r"check_\w+\((\w+)\)", release_cell))
                name = found.group(1)
                lines.append(f"{name} = -1234.5")
        else:
            lines.append(line)
    return "\n".join(lines)


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    if not NBGRADER.exists():
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail("CI=true: the student edition must be tested, but .venv-instructor "
                        "has no nbgrader (`make test` on CI runs `make instructor`)",
                        pytrace=False)
        pytest.skip("nbgrader is not installed: `make instructor` creates .venv-instructor")
    course = tmp_path_factory.mktemp("student")
    counts = make_student.build(CHOSEN, course, log=lambda *args: None)
    release = course / "release" / make_student.ASSIGNMENT
    for student, folder in (("right", "source"), ("wrong", "release")):
        target = course / "submitted" / student / make_student.ASSIGNMENT
        target.mkdir(parents=True)
        for name in counts:
            nb = nbformat.read(course / folder / make_student.ASSIGNMENT / name, as_version=4)
            if student == "wrong":
                for cell in nb.cells:
                    if cell.metadata.get("nbgrader", {}).get("solution"):
                        cell.source = _wrong(cell.source)
            nbformat.write(nb, target / name)
    make_student.run_nbgrader(NBGRADER, ["autograde", make_student.ASSIGNMENT, "--force",
                                         "--create"], course)
    python = NBGRADER.parent / "python"
    script = ("import json\nfrom nbgrader.api import Gradebook\n"
              "with Gradebook('sqlite:///gradebook.db') as gb:\n"
              "    print(json.dumps({s: [gb.find_submission('attention', s).score,\n"
              "                          gb.find_submission('attention', s).max_score]\n"
              "                      for s in ('right', 'wrong')}))\n")
    scores = json.loads(subprocess.run([str(python), "-c", script], cwd=course, check=True,
                                       capture_output=True, text=True).stdout)
    yield counts, release, scores
    shutil.rmtree(course, ignore_errors=True)


def test_the_release_has_no_solutions(graded):
    counts, release, _ = graded
    assert sorted(counts) == sorted(p.name for p in release.glob("*.ipynb"))
    for path in release.glob("*.ipynb"):
        text = path.read_text(encoding="utf-8")
        assert "BEGIN SOLUTION" not in text and "_solution" not in text, path.name
        stubs = text.count("YOUR CODE HERE")
        assert stubs == counts[path.name], f"{path.name}: {stubs} stubs"


def test_autograde_marks_the_right_and_the_wrong_submission(graded):
    counts, _, scores = graded
    total = sum(counts.values()) * make_student.POINTS
    assert scores["right"] == [total, total]
    assert scores["wrong"] == [0.0, total]


def test_a_folder_that_is_not_a_build_is_never_overwritten(tmp_path):
    keep = tmp_path / "thesis"
    keep.mkdir()
    (keep / "chapter.tex").write_text("years of work", encoding="utf-8")
    with pytest.raises((FileExistsError, FileNotFoundError)):
        make_student.build(CHOSEN, keep, nbgrader=NBGRADER, log=lambda *args: None)
    assert (keep / "chapter.tex").read_text(encoding="utf-8") == "years of work"
