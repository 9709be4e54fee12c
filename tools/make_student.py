"""Build the student edition: ``make student`` (or ``python tools/make_student.py``).

The course notebooks carry their exercises as a learner cell (tagged ``exercise``: a stub,
then the checker call) followed by a worked solution (tagged ``solution``). This script turns
them into nbgrader *source* notebooks, then runs nbgrader's ``generate_assignment``:

* the learner cell gets the solution between ``### BEGIN SOLUTION`` / ``### END SOLUTION``:
  for a code exercise the body of the worked solution goes where the stub's
  ``raise NotImplementedError`` was; for a by-hand exercise (tag ``by-hand``) the worked value
  goes where ``answer = ...`` was. nbgrader replaces the region with its own stub, so the
  student sees the course's stub again. A "find the bug" cell (tag ``bug-hunt``) stays as it
  is, a plain cell: the broken function is what the student starts from;
* after it, a locked autograder cell (``points`` each) asserts the course's own checker's
  verdict (the checkers print and never raise, so the cell reads what they print);
* the worked-solution cells, and the short markdown line that announces each, are dropped.

Output: ``build/student/`` is an nbgrader course folder; ``source/attention/`` holds the
source notebooks and ``release/attention/`` the student version without solutions. nbgrader
lives in its own environment (``make instructor`` creates ``.venv-instructor``), away from
the learners' JupyterLab.
"""

import argparse
import ast
import json
import os
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
DEFAULT_OUT = ROOT / "build" / "student"
ASSIGNMENT = "attention"
NBGRADER = ROOT / ".venv-instructor" / "bin" / "nbgrader"
# check("name", answer) or check("name", answer, solution=True); the older check_x(answer)
CHECK_CALL = re.compile(r'^(check\(\s*"[^"]+"\s*,|check_\w+\()\s*(.+?)\s*'
                        r'(?:,\s*solution=True\s*)?\)\s*$', re.MULTILINE)
POINTS = 1


def tags(cell):
    return cell.get("metadata", {}).get("tags", [])


def _check_call(source, where):
    calls = CHECK_CALL.findall(source)
    if len(calls) != 1:
        raise ValueError(f"{where}: expected one check_…(…) line, found {len(calls)}")
    return calls[0]


SOLUTION_NAME = re.compile(r"\b([A-Za-z_]\w*?)_solution\b")


def _solution_region(lines, indent):
    """The lines between nbgrader's markers; a worked solution's ``x_solution`` names become
    the learner's ``x`` (a solution may call an earlier one)."""
    lines = [SOLUTION_NAME.sub(r"\1", line) for line in lines]
    pad = " " * indent
    return ([f"{pad}### BEGIN SOLUTION"] + [pad + line if line else line for line in lines]
            + [f"{pad}### END SOLUTION"])


def code_exercise(source, solution, where):
    """The learner cell with the worked solution's body where the stub raises."""
    checker, name = _check_call(source, where)
    _, solution_name = _check_call(solution, where + " (solution)")
    tree = ast.parse(solution)
    body_lines, hoisted = [], []
    sol_lines = solution.splitlines()
    seen_solution = False
    for node in tree.body:
        text = "\n".join(sol_lines[node.lineno - 1:node.end_lineno])
        if isinstance(node, ast.FunctionDef) and node.name == solution_name:
            body = node.body
            if isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                body = body[1:]  # the docstring stays the stub's
            lines = sol_lines[body[0].lineno - 1:node.end_lineno]
            body_lines = textwrap.dedent("\n".join(lines)).split("\n")
            seen_solution = True
        elif not seen_solution:
            hoisted.append(text)  # imports and helpers the solution needs
        # after the solution: the check call and demonstrations, not part of the answer
    if not body_lines:
        raise ValueError(f"{where}: the solution cell defines no {solution_name}()")
    out = []
    for line in source.splitlines():
        stripped = line.lstrip()
        if stripped.startswith("raise NotImplementedError"):
            out += _solution_region(body_lines, len(line) - len(stripped))
        else:
            out.append(line)
    if len(out) == len(source.splitlines()):
        raise ValueError(f"{where}: the stub has no `raise NotImplementedError` line")
    hoisted = [SOLUTION_NAME.sub(r"\1", text) for text in hoisted]
    return "\n".join(hoisted + [""] * bool(hoisted) + out), checker, name


def hand_exercise(source, solution, where):
    """The by-hand cell with the worked value where ``answer = ...`` was."""
    checker, name = _check_call(source, where)
    _, value = _check_call(solution, where + " (solution)")
    worked = [line for line in solution.splitlines() if not CHECK_CALL.match(line)
              and not line.lstrip().startswith("#") and line.strip()]
    final = [] if SOLUTION_NAME.sub(r"\1", value) == name else [f"{name} = {value}"]
    region = _solution_region(worked + final, 0)
    out, replaced = [], False
    for line in source.splitlines():
        if re.match(rf"^{re.escape(name)}\s*=", line) and not replaced:
            out += region
            replaced = True
        else:
            out.append(line)
    if not replaced:
        raise ValueError(f"{where}: no `{name} = ...` line to fill in")
    return "\n".join(out), checker, name


def autograder_cell(checker, name, grade_id):
    if checker.startswith("check("):  # check("length", …): the registry's verdict
        exercise = checker[len("check("):].rstrip(", ")
        source = (f"# Autograder ({POINTS} point): the course's checker must accept it.\n"
                  "from course_lib.exercises import evaluate\n\n"
                  f"_verdict = evaluate({exercise}, {name})\n"
                  "assert _verdict.passed, str(_verdict)")
    else:
        source = (f"# Autograder ({POINTS} point): the course's checker must say Correct.\n"
                  "import contextlib\nimport io\n\n_said = io.StringIO()\n"
                  f"with contextlib.redirect_stdout(_said):\n    {checker.rstrip('(')}({name})\n"
                  "assert _said.getvalue().startswith(\"Correct\"), _said.getvalue()")
    cell = nbformat.v4.new_code_cell(source)
    cell.metadata["nbgrader"] = {"grade": True, "solution": False, "locked": True,
                                 "points": POINTS, "grade_id": grade_id, "schema_version": 3}
    return cell


def source_notebook(path):
    """The nbgrader source version of one course notebook, and how many exercises it has."""
    nb = nbformat.read(path, as_version=4)
    cells, count, index = [], 0, 0
    while index < len(nb.cells):
        cell = nb.cells[index]
        if "exercise" not in tags(cell):
            if "solution" not in tags(cell):
                cells.append(cell)
            index += 1
            continue
        solution_at = next((j for j in range(index + 1, len(nb.cells))
                            if "solution" in tags(nb.cells[j])), None)
        if solution_at is None:
            raise ValueError(f"{path.name}: exercise cell {index} has no solution cell after it")
        count += 1
        where = f"{path.name}, exercise {count}"
        grade_id = f"{path.stem}-ex{count}"
        if "bug-hunt" in tags(cell):  # the broken function is the student's start: kept as is
            checker, name = _check_call(cell.source, where)
            answer = nbformat.v4.new_code_cell(cell.source)
        else:
            maker = hand_exercise if "by-hand" in tags(cell) else code_exercise
            text, checker, name = maker(cell.source, nb.cells[solution_at].source, where)
            answer = nbformat.v4.new_code_cell(text)
            answer.metadata["nbgrader"] = {"grade": False, "solution": True, "locked": False,
                                           "grade_id": grade_id, "schema_version": 3}
        answer.metadata["tags"] = tags(cell)
        cells += [answer, autograder_cell(checker, name, grade_id + "-test")]
        between = nb.cells[index + 1:solution_at]  # e.g. "A worked solution (folded …)"
        cells += [c for c in between if not (c.cell_type == "markdown"
                                            and "solution" in c.source.lower())]
        index = solution_at + 1
    for cell in cells:
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
    nb.cells = cells
    nb.metadata.pop("widgets", None)
    return nb, count


def run_nbgrader(nbgrader, args, course):
    """Run nbgrader in ``course``; its environment's bin/ goes first on PATH (nbgrader calls
    ``alembic`` from there when it creates the gradebook)."""
    bin_dir = str(Path(nbgrader).parent)
    env = dict(os.environ, PATH=bin_dir + os.pathsep + os.environ.get("PATH", ""))
    return subprocess.run([str(nbgrader), *args, "--log-level=WARN"], cwd=course, env=env,
                          check=True, capture_output=True, text=True)


def build(names=None, out=DEFAULT_OUT, nbgrader=NBGRADER, log=print):
    """Write the source notebooks and run ``generate_assignment``; returns {name: exercises}."""
    out = Path(out)
    paths = sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))
    if names:
        paths = [p for p in paths if p.stem in names or p.name in names or p.stem[:2] in names]
    if not paths:
        raise FileNotFoundError(f"no course notebook matches {names}")
    if not Path(nbgrader).exists():
        raise FileNotFoundError(f"{nbgrader} not found: run `make instructor` first")
    if out.exists():  # an earlier build is replaced; any other folder is left alone
        if any(out.iterdir()) and not (out / "nbgrader_config.py").exists():
            raise FileExistsError(f"{out} is not empty and holds no nbgrader_config.py: not a "
                                  "student-edition build, so it is not overwritten")
        shutil.rmtree(out)
    source = out / "source" / ASSIGNMENT
    source.mkdir(parents=True)
    counts = {}
    for path in paths:
        nb, count = source_notebook(path)
        if count:
            nbformat.write(nb, source / path.name)
            counts[path.name] = count
    (out / "nbgrader_config.py").write_text(
        "c = get_config()  # noqa: F821\n"
        f"c.CourseDirectory.course_id = {json.dumps('attention-from-zero')}\n",
        encoding="utf-8")
    run_nbgrader(nbgrader, ["generate_assignment", ASSIGNMENT, "--force"], out)
    log(f"student edition of {len(counts)} notebooks ({sum(counts.values())} exercises) in "
        f"{out / 'release' / ASSIGNMENT}")
    return counts


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("notebooks", nargs="*", help="e.g. 02 11_masks (default: all)")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args(argv)
    build(args.notebooks or None, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
