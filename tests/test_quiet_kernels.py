"""The kernels the project starts do not print ipykernel's "TCP without encryption" warning.

``tools/quiet_kernels.py`` gives the settings (IPC transport with an absolute socket prefix;
CurveZMQ keys on Windows); every entry point that starts kernels must use them: ``make
notebooks`` (flags), ``benchmarks/bench_course.py`` and ``tools/build_html.py`` (a traitlets
``Config`` for nbclient). The kernel writes the warning to the stderr it inherits, so
``capfd`` sees it.
"""

import importlib.util
import re
import sys
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parents[1]
WARNING = "running over TCP without encryption"


def load_tool():
    spec = importlib.util.spec_from_file_location("quiet_kernels",
                                                  ROOT / "tools" / "quiet_kernels.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run_trivial_notebook(folder, config=None):
    """Run ``print(6 * 7)`` in a fresh kernel started in ``folder``; return what it printed."""
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("print(6 * 7)")])
    kwargs = {} if config is None else {"config": config}
    NotebookClient(nb, timeout=60, kernel_name="python3", shutdown_kernel="immediate",
                   resources={"metadata": {"path": str(folder)}}, **kwargs).execute()
    return nb.cells[0].outputs[0]["text"]


@pytest.mark.slow
def test_a_quiet_kernel_prints_no_warning_where_a_default_one_does(capfd, tmp_path):
    # started in another folder than this process's, as `make notebooks` starts them
    assert run_trivial_notebook(tmp_path, load_tool().kernel_config()) == "42\n"
    assert WARNING not in capfd.readouterr().err
    assert list(tmp_path.iterdir()) == [], "sockets left in the notebook's folder"
    if sys.platform != "win32":  # without the settings, ipykernel 7 does warn
        assert run_trivial_notebook(tmp_path) == "42\n"
        assert WARNING in capfd.readouterr().err


def test_settings_per_platform():
    tool = load_tool()
    linux = tool.kernel_settings("linux", runtime_dir="relative/runtime")["KernelManager"]
    assert linux["transport"] == "ipc"
    assert Path(linux["ip"]).is_absolute(), "a relative prefix depends on the kernel's folder"
    assert tool.command_line_flags("darwin", runtime_dir="/r")[0] == "--KernelManager.transport=ipc"
    windows = tool.kernel_settings("win32")
    assert windows in ({}, {"KernelManager": {"transport_encryption": "auto"}})


def test_make_notebooks_starts_quiet_kernels():
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert "QUIET_KERNEL = $(shell $(BIN)/python tools/quiet_kernels.py)" in makefile
    recipe = makefile.split("\nnotebooks:", 1)[1].split("\n\n", 1)[0]
    assert "nbconvert" in recipe and "$(QUIET_KERNEL)" in recipe


@pytest.mark.parametrize("path", ["benchmarks/bench_course.py", "tools/build_html.py"])
def test_every_notebook_client_gets_the_quiet_settings(path):
    source = (ROOT / path).read_text(encoding="utf-8")
    clients = re.findall(r"NotebookClient\((.*?)\)\n", source, flags=re.DOTALL)
    assert clients, f"{path} starts no NotebookClient any more: update this test"
    assert "quiet_kernels" in source, f"{path} does not use tools/quiet_kernels.py"
    for call in clients:
        assert "config=" in call, f"{path}: a NotebookClient without the quiet kernel config"
