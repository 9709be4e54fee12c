"""Every committed notebook is clean: one fresh run, no errors, nothing personal, light.

nbval (run by `make test`) checks that the stored outputs reproduce; these tests check the
files themselves, so a notebook saved from someone's editor session cannot slip in: counts
1, 2, 3, ... from one top-to-bottom run, no error outputs, the standard kernel, no paths or
machine names, no editor state, widget metadata GitHub can render, under 2 MB each.
"""

import getpass
import json
import re
import socket
from pathlib import Path

import nbformat
import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
TEMPLATE = ROOT / "templates" / "notebook_template.ipynb"
MAX_BYTES = 2 * 1024 * 1024

# Notebook-level metadata a course notebook may carry; anything else is editor state.
ALLOWED_NOTEBOOK_METADATA = {"kernelspec", "language_info", "widgets"}
# Cell metadata that records one person's session (nbstripout's defaults and a few editors').
PERSONAL_CELL_METADATA = {"collapsed", "scrolled", "ExecuteTime", "heading_collapsed",
                          "hidden", "pycharm", "vscode", "colab"}
# `execution` holds the timestamps nbclient records during `nbconvert --execute` (the fresh
# run itself): allowed, as long as it holds nothing else. The pre-commit hook drops it.
RUN_TIMING = re.compile(r"^(iopub|shell)\.[\w.]+$")
# Tags that make nbclient (and so `make notebooks`) leave a code cell unexecuted.
UNEXECUTED_TAGS = {"skip-execution"}
SECTIONS = ["## What you will learn", "## What you need", "## Why the topic needs it",
            "## Your turn", "## Test yourself", "## Next"]
BINARY_MIME = ("image/png", "image/jpeg", "image/gif")


def personal_patterns():
    """Regexes for absolute paths, this machine's user and host names."""
    patterns = [r"/home/\w", r"/Users/\w", r"/root/", r"/tmp/", r"/var/folders/",
                r"[A-Za-z]:\\\\?Users", r"site-packages", r"/work/\w"]
    patterns.append(re.escape(str(ROOT)))
    home = str(Path.home())
    if home not in ("/", ""):
        patterns.append(re.escape(home) + r"(?=/|\b)")
    user = getpass.getuser()
    if len(user) >= 4 and user not in {"root", "runner", "user", "jovyan"}:
        patterns.append(rf"\b{re.escape(user)}\b")
    host = socket.gethostname().split(".")[0]
    if len(host) >= 6:
        patterns.append(rf"\b{re.escape(host)}\b")
    return [re.compile(p) for p in patterns]


PERSONAL = personal_patterns()


def load(path):
    return json.loads(path.read_text(encoding="utf-8"))


def source(cell):
    src = cell.get("source", "")
    return "".join(src) if isinstance(src, list) else src


def code_cells(nb):
    return [c for c in nb["cells"] if c["cell_type"] == "code"]


def output_texts(nb):
    """Every piece of text a notebook's outputs hold (images left out), with its cell index."""
    for index, cell in enumerate(nb["cells"]):
        for output in cell.get("outputs", []):
            if "text" in output:
                yield index, source({"source": output["text"]})
            for mime, data in output.get("data", {}).items():
                if mime not in BINARY_MIME:
                    yield index, data if isinstance(data, str) else json.dumps(data)
            if output.get("output_type") == "error":
                yield index, output.get("evalue", "")


def test_there_are_notebooks():
    assert NOTEBOOKS, "notebooks/ holds no .ipynb file"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_is_valid_and_small(path):
    assert path.stat().st_size < MAX_BYTES, f"{path.name} is {path.stat().st_size} bytes"
    nbformat.validate(nbformat.read(path, as_version=nbformat.NO_CONVERT))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_outputs_come_from_one_fresh_run_in_order(path):
    cells = code_cells(load(path))
    assert cells, f"{path.name} has no code cell"
    counts = []
    for cell in cells:
        count = cell.get("execution_count")
        tags = set(cell.get("metadata", {}).get("tags", []))
        if count is None:
            assert not source(cell).strip() or tags & UNEXECUTED_TAGS, (
                f"{path.name}: a code cell was not run: {source(cell)[:60]!r}")
            assert not cell.get("outputs"), f"{path.name}: outputs on an unrun cell"
            continue
        counts.append(count)
        for output in cell.get("outputs", []):
            if output.get("output_type") == "execute_result":
                assert output.get("execution_count") == count
    assert counts == list(range(1, len(counts) + 1)), (
        f"{path.name}: execution counts {counts}; re-run it with `make notebooks`")


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_no_error_outputs(path):
    nb = load(path)
    for index, cell in enumerate(nb["cells"]):
        for output in cell.get("outputs", []):
            assert output.get("output_type") != "error", (
                f"{path.name}, cell {index}: stored error {output.get('ename')}")


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_standard_python3_kernel(path):
    kernelspec = load(path)["metadata"].get("kernelspec", {})
    assert kernelspec.get("name") == "python3", f"{path.name}: kernel {kernelspec}"
    assert kernelspec.get("language", "python") == "python"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_no_paths_user_or_host_names(path):
    nb = load(path)
    texts = list(output_texts(nb))
    texts.append(("notebook metadata", json.dumps(nb["metadata"])))
    texts += [(i, json.dumps(c.get("metadata", {}))) for i, c in enumerate(nb["cells"])]
    for where, text in texts:
        for pattern in PERSONAL:
            match = pattern.search(text)
            assert match is None, f"{path.name}, cell {where}: {match.group(0)!r} in {text[:80]!r}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_no_personal_editor_state(path):
    nb = load(path)
    extra = set(nb["metadata"]) - ALLOWED_NOTEBOOK_METADATA
    assert not extra, f"{path.name}: editor metadata {sorted(extra)}"
    for index, cell in enumerate(nb["cells"]):
        personal = set(cell.get("metadata", {})) & PERSONAL_CELL_METADATA
        assert not personal, f"{path.name}, cell {index}: {sorted(personal)}"
        timing = cell.get("metadata", {}).get("execution", {})
        assert all(RUN_TIMING.match(key) for key in timing), (path.name, index, timing)
        jupyter = cell.get("metadata", {}).get("jupyter", {})
        assert set(jupyter) <= {"source_hidden", "outputs_hidden"}, (path.name, index, jupyter)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_widget_metadata_holds_state(path):
    widgets = load(path)["metadata"].get("widgets")
    if widgets is None:
        return
    assert widgets, f"{path.name}: empty metadata.widgets"
    for mime, entry in widgets.items():
        assert "state" in entry, f"{path.name}: metadata.widgets[{mime!r}] has no 'state'"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_nbval_markers_are_spelled_exactly(path):
    """nbval obeys a marker comment only when it is alone on its line: `# NBVAL_SKIP: why`
    is silently ignored, and the cell is compared after all (on another machine it fails)."""
    from nbval.plugin import comment_markers

    for index, cell in enumerate(code_cells(load(path))):
        for line in source(cell).splitlines():
            text = line.strip().lstrip("#").strip()
            if line.strip().startswith("#") and re.match(r"(NBVAL|PYTEST_VALIDATE)_", text):
                assert text in comment_markers, (
                    f"{path.name}, code cell {index}: {line.strip()!r}; put the marker alone "
                    "on its line and the reason on the next")


# --- the pre-commit hook keeps what the tests need ------------------------------------


def nbstripout_args():
    config = yaml.safe_load((ROOT / ".pre-commit-config.yaml").read_text(encoding="utf-8"))
    hooks = [h for repo in config["repos"] for h in repo["hooks"] if h["id"] == "nbstripout"]
    assert len(hooks) == 1, "expected one nbstripout hook"
    return hooks[0].get("args", [])


def test_pre_commit_keeps_outputs_counts_and_widget_state():
    args = nbstripout_args()
    assert "--keep-output" in args and "--keep-count" in args
    assert "--keep-metadata-keys=metadata.widgets" in args
    stripped = " ".join(a for a in args if a.startswith("--extra-keys"))
    for kept in ("tags", "source_hidden", "jupyter", "kernelspec", "widgets"):
        assert kept not in stripped


def test_hook_and_hygiene_test_agree_on_personal_cell_metadata():
    stripped = " ".join(a for a in nbstripout_args() if a.startswith("--extra-keys"))
    cell_keys = set(re.findall(r"cell\.metadata\.([\w-]+)", stripped))
    assert cell_keys and cell_keys <= PERSONAL_CELL_METADATA
    notebook_keys = set(re.findall(r"(?<!cell\.)\bmetadata\.([\w-]+)", stripped))
    assert notebook_keys and not notebook_keys & ALLOWED_NOTEBOOK_METADATA


# --- the template for new notebooks ------------------------------------------------------


def test_template_has_the_standard_sections_and_no_outputs():
    nb = load(TEMPLATE)
    nbformat.validate(nbformat.read(TEMPLATE, as_version=nbformat.NO_CONVERT))
    assert nb["metadata"]["kernelspec"]["name"] == "python3"
    headings = [line.strip() for cell in nb["cells"] if cell["cell_type"] == "markdown"
                for line in source(cell).splitlines() if line.startswith("## ")]
    positions = [headings.index(s) for s in SECTIONS]  # ValueError names a missing one
    assert positions == sorted(positions), f"sections out of order: {headings}"
    cells = code_cells(nb)
    assert cells
    for cell in cells:
        assert cell.get("execution_count") is None and not cell.get("outputs")
    tags = {t for cell in nb["cells"] for t in cell.get("metadata", {}).get("tags", [])}
    assert {"dashboard", "static-twin", "exercise", "solution"} <= tags
    solutions = [c for c in nb["cells"] if "solution" in c["metadata"].get("tags", [])]
    assert all(c["metadata"].get("jupyter", {}).get("source_hidden") for c in solutions)
