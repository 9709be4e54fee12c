"""The install story, checked offline: requirement files, the lock, Binder, README links.

A newcomer's first contact is the README, the two make commands and the Binder badge. These
tests make sure the three agree with each other and with the lock, so that a fork or a
version bump cannot quietly break the first five minutes.
"""

import json
import os
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from pathlib import Path

import pytest
from packaging.markers import default_environment
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[1]
ON_CI = os.environ.get("CI", "").strip().lower() in ("true", "1", "yes")
LOCK = ROOT / "requirements-lock.txt"
SUPPORTED = ["3.10", "3.11", "3.12", "3.13"]
LEARNER_PACKAGES = {"numpy", "matplotlib", "ipywidgets", "jupyterlab", "threadpoolctl",
                    "ml-dtypes", "tokenizers"}
NEVER_REQUIRED = {"torch", "cupy", "cupy-cuda11x", "cupy-cuda12x", "cupy-cuda13x",
                  "transformers", "accelerate"}
BINDER_LINK = re.compile(
    r"https://mybinder\.org/v2/gh/(?P<repo>[^/\s)]+/[^/\s)]+)/HEAD"
    r"\?urlpath=lab/tree/(?P<path>notebooks/[^\s)]+\.ipynb)"
)


def requirement_lines(path):
    """The requirement lines of a pip requirements file (comments and blanks dropped)."""
    lines = []
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.split(" #")[0].strip()
        if line and not line.startswith("#"):
            lines.append(line)
    return lines


def environment(python):
    """Marker environment for CPython ``python`` ("3.11" means its latest patch release)."""
    env = default_environment()
    env.update(python_version=python, python_full_version=f"{python}.99")
    return env


def lock_pins(python):
    """{name: version} that the lock gives CPython ``python``."""
    pins = {}
    for line in requirement_lines(LOCK):
        req = Requirement(line)
        if req.marker is not None and not req.marker.evaluate(environment(python)):
            continue
        name = canonicalize_name(req.name)
        assert name not in pins, f"{req.name} is pinned twice for Python {python}"
        specs = list(req.specifier)
        assert len(specs) == 1 and specs[0].operator == "==", f"not an exact pin: {line}"
        pins[name] = specs[0].version
    return pins


def pyproject():
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def readme():
    return (ROOT / "README.md").read_text(encoding="utf-8")


# --- requirements and the lock -------------------------------------------------------


def test_requirements_hold_the_learner_packages_as_ranges():
    reqs = [Requirement(line) for line in requirement_lines(ROOT / "requirements.txt")]
    assert {canonicalize_name(r.name) for r in reqs} == LEARNER_PACKAGES
    for req in reqs:
        assert str(req.specifier), f"{req.name} has no version range"
        assert not any(s.operator == "==" for s in req.specifier), f"{req.name} is pinned"


@pytest.mark.parametrize("python", SUPPORTED)
def test_lock_pins_every_requirement_for_each_supported_python(python):
    pins = lock_pins(python)
    assert len(pins) > 50, "the lock should list the whole environment, transitive too"
    for name in ("requirements.txt", "requirements-dev.txt"):
        reqs = [Requirement(line) for line in requirement_lines(ROOT / name)]
        assert reqs, f"{name} is empty"
        for req in reqs:
            key = canonicalize_name(req.name)
            assert key in pins, f"{req.name} ({name}) is not in the lock for Python {python}"
            assert req.specifier.contains(pins[key], prereleases=True), (
                f"lock pins {req.name}=={pins[key]} for Python {python}, outside {req.specifier}"
            )


def test_lock_never_requires_pytorch_or_cupy():
    names = {canonicalize_name(Requirement(line).name) for line in requirement_lines(LOCK)}
    assert names, "the lock is empty"
    assert not names & NEVER_REQUIRED


def test_lock_pins_the_versions_installed_here():
    """The running environment (made by `make install`) matches the lock for this Python."""
    import sys
    from importlib.metadata import PackageNotFoundError, version

    python = f"{sys.version_info.major}.{sys.version_info.minor}"
    if python not in SUPPORTED:
        message = f"the lock covers Python {SUPPORTED}, this is {python}"
        if os.environ.get("CI", "").strip().lower() in ("true", "1", "yes"):
            pytest.fail(f"CI=true: {message}", pytrace=False)
        pytest.skip(message)
    pins = lock_pins(python)
    checked = 0
    for name in sorted(LEARNER_PACKAGES) + ["pytest", "nbval", "pytest-mpl"]:
        try:
            installed = version(name)
        except PackageNotFoundError:
            continue
        assert installed == pins[canonicalize_name(name)], (
            f"{name} {installed} is installed but the lock says {pins[name]}: run `make install`"
        )
        checked += 1
    assert checked > 0


# --- pyproject -------------------------------------------------------------------------


def test_package_needs_numpy_only():
    project = pyproject()["project"]
    assert project["requires-python"] == ">=3.10"
    deps = [canonicalize_name(Requirement(d).name) for d in project["dependencies"]]
    assert deps == ["numpy"]


def test_pytest_runs_tests_doctests_and_notebooks_in_one_invocation():
    options = pyproject()["tool"]["pytest"]["ini_options"]
    assert options["testpaths"] == ["tests", "course_lib", "notebooks"]
    addopts = " ".join(options["addopts"])
    for flag in ("--doctest-modules", "--nbval", "--nbval-current-env",
                 "--nbval-sanitize-with=tests/nbval_sanitize.cfg"):
        assert flag in addopts
    assert "--nbval-lax" not in addopts
    assert (ROOT / "tests" / "nbval_sanitize.cfg").is_file()
    for folder in ("benchmarks", "templates", ".*"):
        assert folder in options["norecursedirs"]


def test_sanitize_file_pairs_are_all_well_formed():
    """nbval silently drops a malformed regex/replace pair: every regex needs its replace."""
    lines = (ROOT / "tests" / "nbval_sanitize.cfg").read_text(encoding="utf-8").splitlines()
    regexes = [i for i, line in enumerate(lines) if line.startswith("regex: ")]
    assert regexes
    for i in regexes:
        assert lines[i + 1].startswith("replace: "), f"line {i + 2} should be the replace"
        re.compile(lines[i][len("regex: "):])


# --- Binder ---------------------------------------------------------------------------


def binder_python():
    runtime = (ROOT / "binder" / "runtime.txt").read_text(encoding="utf-8").strip()
    match = re.fullmatch(r"python-(3\.\d+)", runtime)
    assert match, f"binder/runtime.txt should read python-3.X, not {runtime!r}"
    return match.group(1)


def test_binder_python_is_supported():
    assert binder_python() in SUPPORTED


def test_binder_installs_the_learner_packages_at_the_locked_versions_and_the_package():
    lines = requirement_lines(ROOT / "binder" / "requirements.txt")
    assert "-e ." in lines, "binder must install course_lib too (`-e .`)"
    pins = lock_pins(binder_python())
    binder = {}
    for line in lines:
        if line.startswith("-"):
            continue
        req = Requirement(line)
        specs = list(req.specifier)
        assert len(specs) == 1 and specs[0].operator == "==", f"binder: not pinned: {line}"
        binder[canonicalize_name(req.name)] = specs[0].version
    learner = {canonicalize_name(Requirement(r).name)
               for r in requirement_lines(ROOT / "requirements.txt")}
    assert set(binder) == learner
    for name, pinned in binder.items():
        assert pinned == pins[name], f"binder pins {name}=={pinned}, the lock {pins[name]}"


def test_binder_post_build_stops_on_errors():
    post_build = ROOT / "binder" / "postBuild"
    if not post_build.exists():
        return  # not needed: the requirements file does everything
    lines = [ln for ln in post_build.read_text().splitlines() if ln and not ln.startswith("#")]
    assert lines and lines[0].startswith("set -e")


# --- make lab -------------------------------------------------------------------------


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def opened_address(record, timeout=120.0):
    """The address `make lab` asked the browser to open, once it has (redirect file read)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and not record.exists():
        time.sleep(0.25)
    assert record.exists(), f"make lab opened no browser within {timeout:.0f} s"
    address = record.read_text(encoding="utf-8").strip()
    if address.startswith("file:"):  # Lab's redirect page, which carries the token
        page = Path(urllib.request.url2pathname(urllib.parse.urlparse(address).path))
        address = re.search(r'url=([^"]+)"', page.read_text(encoding="utf-8")).group(1)
    return address


def not_ready(reason):
    """Skip on a user's machine, fail under CI=true (where `make test` has installed)."""
    if ON_CI:
        pytest.fail(f"CI=true: make lab must be tried, but {reason}", pytrace=False)
    pytest.skip(reason)


def test_make_lab_serves_the_repository_root_and_opens_the_start_notebook(tmp_path):
    make = shutil.which("make")
    if make is None:
        not_ready("make is not on PATH (Windows: the README's plain lines)")
    if subprocess.run([make, "-q", "install"], cwd=ROOT).returncode != 0:
        not_ready("make install has not run here (or a requirement changed): make lab would "
                  "install first")
    token, port = "t" + os.urandom(8).hex(), free_port()
    folders = {name: tmp_path / name for name in ("config", "data", "runtime", "settings",
                                                  "workspaces")}
    for folder in folders.values():
        folder.mkdir()
    # the user's Jupyter folders stay untouched: Lab reads this configuration only
    (folders["config"] / "jupyter_server_config.json").write_text(json.dumps({
        "ServerApp": {"ip": "127.0.0.1", "port": port, "port_retries": 0},
        "IdentityProvider": {"token": token},
        "LabApp": {"user_settings_dir": str(folders["settings"]),
                   "workspaces_dir": str(folders["workspaces"])},
    }), encoding="utf-8")
    # the "browser" writes down the address it is given (Python's webbrowser reads BROWSER)
    record, recorder = tmp_path / "opened.txt", tmp_path / "browser.py"
    recorder.write_text(f"import sys\nopen({str(record)!r}, 'w').write(sys.argv[1])\n",
                        encoding="utf-8")
    browser = shlex.join([sys.executable, str(recorder)]) + " %s"
    env = dict(os.environ, BROWSER=browser, JUPYTER_CONFIG_DIR=str(folders["config"]),
               JUPYTER_DATA_DIR=str(folders["data"]),
               JUPYTER_RUNTIME_DIR=str(folders["runtime"]), JUPYTER_PLATFORM_DIRS="1")
    with open(tmp_path / "lab.log", "wb") as log:
        lab = subprocess.Popen([make, "--no-print-directory", "lab"], cwd=ROOT, env=env,
                               stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                               start_new_session=True)  # its own group: ended below, alone
    try:
        address = urllib.parse.urlparse(opened_address(record))
        assert address.path == "/lab/tree/notebooks/00_start_here.ipynb", address
        for path, kind in (("README.md", "file"), ("docs", "directory"),
                           ("notebooks/00_start_here.ipynb", "notebook")):
            url = f"http://127.0.0.1:{port}/api/contents/{path}?content=0&token={token}"
            with urllib.request.urlopen(url, timeout=30) as response:
                assert json.loads(response.read())["type"] == kind, path
    finally:
        os.killpg(lab.pid, signal.SIGTERM)
        try:
            lab.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(lab.pid, signal.SIGKILL)
            lab.wait(timeout=30)


# --- README ---------------------------------------------------------------------------


def test_badge_opens_the_start_notebook_of_the_configured_repository():
    repository = pyproject()["tool"]["attention-from-zero"]["repository"]
    assert re.fullmatch(r"[\w.-]+/[\w.-]+", repository)
    links = BINDER_LINK.findall(readme())
    assert links, "README has no Binder link"
    assert ("mybinder.org/badge_logo.svg") in readme()
    expected = (f"https://mybinder.org/v2/gh/{repository}/HEAD"
                "?urlpath=lab/tree/notebooks/00_start_here.ipynb")
    assert f"({expected})" in readme()
    for repo, _ in links:
        assert repo == repository, f"README links {repo}, pyproject says {repository}"
    clones = re.findall(r"git clone https://github\.com/([\w.-]+/[\w-]+)", readme())
    assert clones, "README has no clone line"
    assert set(clones) == {repository}, f"README names {set(clones)}, pyproject {repository}"


def test_nbgitpuller_link_pulls_the_configured_repository_into_an_existing_notebook():
    from urllib.parse import parse_qs, unquote, urlparse

    repository = pyproject()["tool"]["attention-from-zero"]["repository"]
    links = re.findall(r"https://HUB/hub/user-redirect/git-pull\?\S+", readme())
    assert len(links) == 1, "README needs exactly one nbgitpuller link"
    query = parse_qs(urlparse(links[0]).query)
    assert query["repo"] == [f"https://github.com/{repository}"]
    assert query["branch"] == ["main"]
    folder = repository.split("/")[1]  # nbgitpuller clones into a folder named after the repo
    prefix = f"lab/tree/{folder}/"
    (urlpath,) = query["urlpath"]
    assert unquote(urlpath).startswith(prefix)
    assert (ROOT / unquote(urlpath)[len(prefix):]).exists()


def readme_targets():
    """Every local file the README links to or names as a notebook (comments left out)."""
    text = re.sub(r"<!--.*?-->", "", readme(), flags=re.DOTALL)
    targets = set()
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if "://" in target or target.startswith("#"):
            continue
        targets.add(target.split("#")[0])
    targets.update(match.group("path") for match in BINDER_LINK.finditer(text))
    return sorted(targets)


def test_every_file_the_readme_links_exists():
    targets = readme_targets()
    assert "notebooks/00_start_here.ipynb" in targets
    for target in targets:
        assert (ROOT / target).exists(), f"README links {target}, which does not exist"


def test_readme_gives_the_two_commands_and_the_command_table():
    text = readme()
    assert "make lab" in text and "make test" in text
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    for target in ("lab", "test", "lint", "bench", "gpu-check", "notebooks", "html"):
        assert f"| `make {target}` |" in text, f"README's table lacks make {target}"
        assert re.search(rf"^{re.escape(target)}:", makefile, re.MULTILINE), target
    for windows_line in ("python -m venv .venv", "-c requirements-lock.txt", "-e ."):
        assert windows_line in text


def test_the_readme_starts_lab_on_windows_as_make_lab_does():
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    start = re.search(r"^START := (\S+)$", makefile, re.MULTILINE).group(1)
    recipe = re.search(r"^lab:.*\n(?:\t.*\n)*?\t\$\(BIN\)/jupyter lab \$\(ROOT_FLAG\) (.+)$",
                       makefile, re.MULTILINE).group(1)
    assert ".venv\\Scripts\\jupyter lab " + recipe.replace("$(START)", start) in readme()


def test_readme_states_both_licences():
    text = readme()
    assert "MIT" in text and "CC BY 4.0" in text
    assert "MIT License" in (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert "Creative Commons Attribution 4.0" in (ROOT / "LICENSE-prose").read_text(
        encoding="utf-8")
