"""JupyterLab and Chromium for the browser tests: start, drive, stop.

``LabServer`` starts JupyterLab on 127.0.0.1 with a free port, a random token and its own
temporary configuration, settings and workspace folders (nothing of the user's is read or
written), in its own process group that :meth:`LabServer.stop` ends. The browser is the
system's Chromium (``COURSE_CHROMIUM``, default ``/usr/bin/chromium``) driven through
Playwright's Python API; nothing here ever downloads a browser.

The page helpers work on JupyterLab 4's DOM and its command registry (Lab is started with
``expose_app_in_browser`` so ``window.jupyterapp`` is reachable, as Galata does).
"""

import contextlib
import importlib.util
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

CHROMIUM_ENV = "COURSE_CHROMIUM"
DEFAULT_CHROMIUM = "/usr/bin/chromium"
# Flags that work headless, as root, without a GPU and without talking to the network.
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ENABLE_HINT = ("install Chromium (Debian/Ubuntu: `apt-get install -y chromium`, or point "
               f"{CHROMIUM_ENV} at one) and Playwright (`make install`) to run the browser tests")
LIGHT_THEME = "JupyterLab Light"
DARK_THEME = "JupyterLab Dark"


def quiet_kernel_flags(runtime_dir):
    """tools/quiet_kernels.py's flags for a Jupyter server whose runtime folder is given."""
    path = Path(__file__).resolve().parents[1] / "tools" / "quiet_kernels.py"
    spec = importlib.util.spec_from_file_location("quiet_kernels", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.command_line_flags(runtime_dir=runtime_dir)


def chromium_path():
    """The Chromium executable the tests use (``COURSE_CHROMIUM`` or the Debian default)."""
    return os.environ.get(CHROMIUM_ENV) or DEFAULT_CHROMIUM


def missing_requirements():
    """What the browser tests lack here, as one sentence, or None when they can run."""
    problems = []
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        problems.append("Playwright (Python) is not installed")
    path = chromium_path()
    if not (os.path.isfile(path) and os.access(path, os.X_OK)):
        problems.append(f"no Chromium at {path}")
    try:
        import jupyterlab  # noqa: F401
    except ImportError:
        problems.append("JupyterLab is not installed")
    if not problems:
        return None
    return "; ".join(problems) + ": " + ENABLE_HINT


def free_port():
    """A TCP port on the loopback interface that nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def lab_settings(theme):
    """The user settings that make Lab quiet and screenshots complete.

    No news toast or update check, no virtual scrolling of notebooks (off-screen outputs
    would be blank in screenshots), and the chosen theme.

    >>> sorted(lab_settings(DARK_THEME))  # doctest: +NORMALIZE_WHITESPACE
    ['@jupyterlab/apputils-extension/notification.jupyterlab-settings',
     '@jupyterlab/apputils-extension/themes.jupyterlab-settings',
     '@jupyterlab/notebook-extension/tracker.jupyterlab-settings']
    """
    return {
        "@jupyterlab/apputils-extension/notification.jupyterlab-settings":
            {"fetchNews": "false", "checkForUpdates": False},
        "@jupyterlab/notebook-extension/tracker.jupyterlab-settings":
            {"windowingMode": "none"},
        "@jupyterlab/apputils-extension/themes.jupyterlab-settings":
            {"theme": theme},
    }


class LabServer:
    """One JupyterLab server over ``root_dir``, with its own temporary Jupyter folders."""

    def __init__(self, root_dir, theme=LIGHT_THEME, startup_timeout=120.0):
        self.root_dir = Path(root_dir)
        self.theme = theme
        self.startup_timeout = startup_timeout
        self.token = secrets.token_hex(24)
        self.port = None
        self.process = None
        self.home = None
        self.log_path = None

    @property
    def base_url(self):
        return f"http://127.0.0.1:{self.port}"

    def url(self, path="", query=""):
        """The address of ``path`` under Lab, with the token (and ``query``, if any)."""
        extra = f"&{query}" if query else ""
        return f"{self.base_url}/{path.lstrip('/')}?token={self.token}{extra}"

    def start(self):
        self.home = Path(tempfile.mkdtemp(prefix="course-lab-"))
        folders = {name: self.home / name for name in
                   ("config", "data", "runtime", "settings", "workspaces", "ipython")}
        for folder in folders.values():
            folder.mkdir()
        for relative, values in lab_settings(self.theme).items():
            path = folders["settings"] / relative
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(values), encoding="utf-8")
        env = dict(os.environ)
        env.update({
            "JUPYTER_CONFIG_DIR": str(folders["config"]),
            "JUPYTER_DATA_DIR": str(folders["data"]),
            "JUPYTER_RUNTIME_DIR": str(folders["runtime"]),
            "IPYTHONDIR": str(folders["ipython"]),
            "JUPYTER_PLATFORM_DIRS": "1",
        })
        env.pop("MPLBACKEND", None)  # the kernels must keep their inline backend
        self.port = free_port()
        command = [
            sys.executable, "-m", "jupyterlab",
            "--no-browser",
            "--ip=127.0.0.1",
            f"--port={self.port}",
            "--port-retries=0",
            f"--IdentityProvider.token={self.token}",
            f"--ServerApp.root_dir={self.root_dir}",
            f"--LabApp.user_settings_dir={folders['settings']}",
            f"--LabApp.workspaces_dir={folders['workspaces']}",
            "--LabApp.expose_app_in_browser=True",
            "--ServerApp.terminals_enabled=False",
        ]
        # its kernels over IPC, in this lab's own runtime folder: no TCP warning in the log
        command += quiet_kernel_flags(folders["runtime"])
        if hasattr(os, "geteuid") and os.geteuid() == 0:
            command.append("--allow-root")
        self.log_path = self.home / "lab.log"
        with open(self.log_path, "wb") as log:
            # its own session, hence its own process group: stop() ends that group only
            self.process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT,
                                            stdin=subprocess.DEVNULL, env=env,
                                            cwd=self.root_dir, start_new_session=True)
        self._wait_until_up()
        return self

    def _wait_until_up(self):
        deadline = time.monotonic() + self.startup_timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"JupyterLab exited with code {self.process.returncode}:\n"
                                   f"{self.log_tail()}")
            try:
                with urllib.request.urlopen(self.url("api/status"), timeout=5) as response:
                    if response.status == 200:
                        return
            except (urllib.error.URLError, OSError):
                pass
            time.sleep(0.25)
        self.stop()
        raise RuntimeError(f"JupyterLab did not answer within {self.startup_timeout:.0f} s:\n"
                           f"{self.log_tail()}")

    def log_tail(self, lines=40):
        if self.log_path is None or not self.log_path.exists():
            return "(no log)"
        text = self.log_path.read_text(encoding="utf-8", errors="replace")
        return "\n".join(text.splitlines()[-lines:])

    def api(self, method, path):
        """Call Lab's REST API; returns the decoded JSON (None for an empty answer)."""
        request = urllib.request.Request(self.url(path), method=method)
        with urllib.request.urlopen(request, timeout=30) as response:
            body = response.read()
        return json.loads(body) if body else None

    def shutdown_kernels(self):
        """Shut every kernel down, so one notebook's kernel does not outlive its test."""
        for session in self.api("GET", "api/sessions") or []:
            self.api("DELETE", f"api/sessions/{session['id']}")

    def stop(self):
        if self.process is not None and self.process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=15)
        if self.home is not None:
            shutil.rmtree(self.home, ignore_errors=True)
            self.home = None

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()


# ----------------------------------------------------------------------------------------
# Page helpers (a Playwright ``Page`` showing Lab)

# The notebook in the visible main-area tab.
CURRENT_NOTEBOOK = ".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook"

NOTEBOOK_STATE_JS = """
() => {
  const app = window.jupyterapp;
  const panel = app && app.shell.currentWidget;
  if (!panel || !panel.content || !panel.sessionContext) return null;
  const kernel = panel.sessionContext.session && panel.sessionContext.session.kernel;
  const cells = [];
  for (const cell of panel.content.widgets) {
    const model = cell.model;
    const outputs = [];
    if (model.type === 'code') {
      for (let i = 0; i < model.outputs.length; i++) outputs.push(model.outputs.get(i).toJSON());
    }
    cells.push({type: model.type, count: model.type === 'code' ? model.executionCount : null,
                outputs: outputs});
  }
  return {path: panel.context.path, kernel: kernel ? kernel.status : null,
          busy: panel.sessionContext.kernelDisplayStatus, cells: cells};
}
"""


def notebook_state(page):
    """The current notebook's kernel status and, per cell, type, count and outputs."""
    return page.evaluate(NOTEBOOK_STATE_JS)


def wait_for(predicate, timeout, interval=0.25, message="condition"):
    """Poll ``predicate()`` until it returns a true value; return that value."""
    deadline = time.monotonic() + timeout
    last = None
    while time.monotonic() < deadline:
        last = predicate()
        if last:
            return last
        time.sleep(interval)
    raise TimeoutError(f"timed out after {timeout:.0f} s waiting for {message}")


def open_notebook(page, server, name, timeout=120.0):
    """Open ``name`` (relative to the server's root) and wait for its kernel to be idle."""
    # a workspace of its own, reset, so no tab of an earlier test is restored beside it
    workspace = "t" + secrets.token_hex(6)
    page.goto(server.url(f"lab/workspaces/{workspace}/tree/{name}", query="reset"))
    page.wait_for_selector(f"{CURRENT_NOTEBOOK} .jp-Cell", timeout=timeout * 1000)

    def ready():
        state = notebook_state(page)
        return state if state and state["path"] == name and state["kernel"] == "idle" else None

    return wait_for(ready, timeout, message=f"{name} to open with an idle kernel")


def run_all(page, timeout=300.0):
    """Run every cell and wait until each code cell has an execution count and the kernel
    has stayed idle for a moment; returns the final notebook state."""
    page.evaluate("() => window.jupyterapp.commands.execute('notebook:run-all-cells')")

    def finished():
        state = notebook_state(page)
        code = [cell for cell in state["cells"] if cell["type"] == "code"]
        done = code and all(cell["count"] is not None for cell in code)
        return state if done and state["kernel"] == "idle" else None

    wait_for(finished, timeout, message="every cell to run")
    return wait_idle(page, timeout)


def wait_idle(page, timeout=120.0, settle=0.75):
    """Wait until the kernel is idle and stays idle for ``settle`` seconds."""
    deadline = time.monotonic() + timeout
    idle_since = None
    while time.monotonic() < deadline:
        state = notebook_state(page)
        if state and state["kernel"] == "idle":
            idle_since = idle_since or time.monotonic()
            if time.monotonic() - idle_since >= settle:
                return state
        else:
            idle_since = None
        time.sleep(0.1)
    raise TimeoutError(f"kernel still busy after {timeout:.0f} s")


def strip_outputs(path):
    """Remove a notebook's stored outputs, counts and widget state, in place.

    The browser tests run a stripped copy, so every output they see comes from the live
    kernel in this run and none from the file.
    """
    nb = json.loads(Path(path).read_text(encoding="utf-8"))
    for cell in nb["cells"]:
        if cell["cell_type"] == "code":
            cell["outputs"] = []
            cell["execution_count"] = None
    nb.get("metadata", {}).pop("widgets", None)
    Path(path).write_text(json.dumps(nb, indent=1, ensure_ascii=False), encoding="utf-8")
