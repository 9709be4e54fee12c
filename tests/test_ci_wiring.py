"""CI, the README and `.ci/run` call the same test command, and the workflow covers 3.10-3.13.

The workflow cannot run here; `make lint` validates its schema offline and these tests check
what it does: a fork's CI must run exactly what a learner runs, or a green tick means little.
"""

import re
import shlex
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
WORKFLOW = ROOT / ".github" / "workflows" / "ci.yml"
TEST_COMMAND = "make test"
LINT_COMMAND = "make lint"
PYTHONS = ["3.10", "3.11", "3.12", "3.13"]


def workflow():
    data = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))
    assert isinstance(data, dict) and data.get("jobs"), "the workflow has no jobs"
    return data


def run_lines(job):
    """Every command line of a job's `run:` steps."""
    steps = job.get("steps") or []
    assert steps, "job has no steps"
    lines = []
    for step in steps:
        lines += [ln.strip() for ln in step.get("run", "").splitlines() if ln.strip()]
    return lines


def script_commands(path):
    """The command lines of a shell script (comments, blanks and `set` lines dropped)."""
    commands = []
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if line and not line.startswith("#"):
            commands.append(line)
    return commands


def readme_shell_blocks():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```(?:bash|sh|shell)\n(.*?)```", text, re.DOTALL)
    assert blocks, "README has no shell code block"
    return [ln.strip() for block in blocks for ln in block.splitlines() if ln.strip()]


def test_readme_ci_script_and_workflow_share_the_test_command():
    assert TEST_COMMAND in readme_shell_blocks()
    commands = script_commands(ROOT / ".ci" / "run")
    assert commands, ".ci/run is empty"
    assert commands[-1] == TEST_COMMAND, ".ci/run must end by calling the README test command"
    assert commands.count(TEST_COMMAND) == 1
    jobs = workflow()["jobs"]
    test_jobs = [name for name, job in jobs.items() if TEST_COMMAND in run_lines(job)]
    assert test_jobs == ["test"], f"jobs running `{TEST_COMMAND}`: {test_jobs}"


def test_ci_script_is_strict_and_installs_chromium():
    path = ROOT / ".ci" / "run"
    commands = script_commands(path)
    assert "set -euo pipefail" in commands
    assert any(c.startswith("apt-get update") for c in commands)
    installs = [c for c in commands if c.startswith("apt-get install")]
    assert installs and all("-y" in shlex.split(c) for c in installs)
    assert "chromium" in path.read_text(encoding="utf-8")
    assert path.stat().st_mode & 0o111, ".ci/run should be executable"


def test_workflow_tests_every_supported_python():
    job = workflow()["jobs"]["test"]
    versions = job["strategy"]["matrix"]["python-version"]
    # quoted in YAML: an unquoted 3.10 is the number 3.1
    assert versions == PYTHONS
    assert all(isinstance(v, str) for v in versions)
    assert job["strategy"].get("fail-fast") is False
    setup = [s for s in job["steps"] if str(s.get("uses", "")).startswith("actions/setup-python")]
    assert setup and setup[0]["with"]["python-version"] == "${{ matrix.python-version }}"
    assert str(job["runs-on"]).startswith("ubuntu")


def test_workflow_points_the_browser_tests_at_the_runners_chrome():
    job = workflow()["jobs"]["test"]
    chromium = job["env"]["COURSE_CHROMIUM"]
    # apt's chromium on Ubuntu runners is a snap shim: use the preinstalled Chrome
    assert chromium.startswith("/") and "chrome" in chromium and "snap" not in chromium


def test_workflow_has_a_lint_job_running_the_lint_command():
    job = workflow()["jobs"]["lint"]
    assert LINT_COMMAND in run_lines(job)


def test_workflow_runs_on_pushes_and_pull_requests():
    data = workflow()
    triggers = data.get("on", data.get(True))  # YAML 1.1 reads a bare `on` as True
    assert "push" in triggers and "pull_request" in triggers


def test_lint_command_validates_the_workflow_offline():
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    match = re.search(r"^lint:.*?\n((?:\t.*\n)+)", makefile, re.MULTILINE)
    assert match, "Makefile has no lint target"
    recipe = match.group(1)
    assert "ruff check" in recipe
    assert ".github/workflows" in recipe
    assert "check-jsonschema" in recipe or "actionlint" in recipe
