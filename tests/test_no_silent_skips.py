"""No skip may hide a failure: the tests' source is read (``ast``) for the patterns that do.

A skip is an honest answer only when something optional is missing: PyTorch, CuPy or a CUDA
device, Playwright and Chromium outside CI (and nbgrader, the instructors' tool). Under
``CI=true`` the root ``conftest.py`` turns any other skip into a failure at run time; this
file catches the patterns before they run:

* ``importorskip`` of anything but an optional module (``course_lib`` itself, ipywidgets and
  matplotlib are required: an ImportError there is a bug), or without a ``reason=``;
* a skip without a reason, or whose reason names nothing optional, unless the same function
  fails instead under CI (the skip-or-fail pattern of the browser tests);
* a skip whose reason says a file is "not written yet" / missing: a notebook the tests
  expect must fail when it is not there;
* a skip inside ``except ImportError`` of a required module;
* a skip decided by a test's own parameters (a case that always skips belongs out of the
  parameter list);
* a hypothesis test that discards an input with a bare ``return`` (it counts as a pass:
  ``hypothesis.assume()`` tells hypothesis to draw another).
"""

import ast
import importlib.util
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SOURCES = sorted((ROOT / "tests").glob("*.py")) + [ROOT / "conftest.py"]
OPTIONAL_MODULES = {"torch", "cupy", "playwright", "playwright.sync_api", "nbgrader"}
OPTIONAL_WORDS = re.compile(
    r"PyTorch|torch|CuPy|GPU|CUDA|Chromium|Playwright|browser|nbgrader|matplotlib \d|--mpl",
    re.IGNORECASE)
MISSING_FILE = re.compile(r"not written|not yet|\byet\b|does not exist|not found|missing",
                          re.IGNORECASE)


def _is_pytest_attr(node, *names):
    """``pytest.<name>`` or ``pytest.mark.<name>`` for one of ``names``."""
    if not isinstance(node, ast.Attribute) or node.attr not in names:
        return False
    base = node.value
    if isinstance(base, ast.Attribute) and base.attr == "mark":
        base = base.value
    return isinstance(base, ast.Name) and base.id == "pytest"


def _reason(call):
    """The reason argument of a skip call (an ast node) or None."""
    for keyword in call.keywords:
        if keyword.arg in ("reason", "msg"):
            return keyword.value
    if _is_pytest_attr(call.func, "skip") and call.args:
        return call.args[0]
    return None


def _text(node):
    """The constant text of a str or f-string node ('' for what is not constant)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value for v in node.values if isinstance(v, ast.Constant))
    if isinstance(node, ast.BinOp):  # "a" "b" split over lines stays a Constant; a + b here
        return _text(node.left) + _text(node.right)
    return ""


def _calls(tree, *names):
    return [n for n in ast.walk(tree)
            if isinstance(n, ast.Call) and _is_pytest_attr(n.func, *names)]


def _parents(tree):
    parents = {}
    for node in ast.walk(tree):
        for child in ast.iter_child_nodes(node):
            parents[child] = node
    return parents


def _enclosing(node, parents, kinds):
    while node in parents:
        node = parents[node]
        if isinstance(node, kinds):
            return node
    return None


def _names(node):
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def _parameter_names(function):
    """The function's arguments and the names it assigns from them without calling anything
    (``shape_args, kwargs = CASES[name]``): what a parametrised case is decided by."""
    tainted = {a.arg for a in function.args.args}
    for statement in ast.walk(function):
        if (isinstance(statement, ast.Assign) and _names(statement.value) & tainted
                and not any(isinstance(n, ast.Call) for n in ast.walk(statement.value))):
            for target in statement.targets:
                tainted |= _names(target)
    return tainted


def _ci_guarded(node, parents):
    """Inside ``if ... not ON_CI ...:``: the skip cannot happen under CI=true."""
    branch = _enclosing(node, parents, (ast.If,))
    while branch is not None:
        if "ON_CI" in _names(branch.test):
            return True
        branch = _enclosing(branch, parents, (ast.If,))
    return False


def _is_given(function):
    return any(isinstance(d, ast.Call) and getattr(d.func, "id", getattr(d.func, "attr", ""))
               == "given" for d in function.decorator_list)


def violations(source, filename="<test>"):
    """Every silent-skip pattern in ``source``, as "file:line: what is wrong" lines."""
    tree = ast.parse(source)
    parents = _parents(tree)
    found = []

    def report(node, message):
        found.append(f"{filename}:{node.lineno}: {message}")

    for call in _calls(tree, "importorskip"):
        module = _text(call.args[0]) if call.args else ""
        if module.split(".")[0] not in {m.split(".")[0] for m in OPTIONAL_MODULES}:
            report(call, f"importorskip({module!r}): only optional modules may skip "
                   f"({sorted(OPTIONAL_MODULES)}); import it, an ImportError is a bug")
        elif _reason(call) is None:
            report(call, f"importorskip({module!r}) without reason=: say what is optional")

    functions = (ast.FunctionDef, ast.AsyncFunctionDef)
    for call in _calls(tree, "skip", "skipif"):
        reason = _reason(call)
        text = _text(reason) if reason is not None else ""
        function = _enclosing(call, parents, functions)
        fails_on_ci = (function is not None and bool(_calls(function, "fail"))) or _ci_guarded(
            call, parents)
        if reason is None:
            report(call, "a skip without a reason")
            continue
        if MISSING_FILE.search(text):
            report(call, f"skips because something expected is missing ({text.strip()!r}): "
                   "a missing notebook or file must fail")
            continue
        if not OPTIONAL_WORDS.search(text) and not fails_on_ci:
            report(call, f"skip reason {text.strip() or ast.unparse(reason)!r} names nothing "
                   "optional (PyTorch, CuPy, Chromium/Playwright), and nothing fails under CI")
        branch = _enclosing(call, parents, (ast.If,))
        if (function is not None and function.name.startswith("test")
                and branch is not None and _enclosing(branch, parents, functions) is function
                and _names(branch.test) & _parameter_names(function)):
            report(call, f"{function.name} skips on its own parameters "
                   f"({ast.unparse(branch.test)}): drop that case from the parameter list")

    for handler in (n for n in ast.walk(tree) if isinstance(n, ast.ExceptHandler)):
        caught = _names(handler.type) if handler.type is not None else set()
        if caught & {"ImportError", "ModuleNotFoundError"} and _calls(handler, "skip"):
            attempt = parents[handler]
            modules = {alias.name for n in ast.walk(attempt) if isinstance(n, (ast.Import,
                       ast.ImportFrom)) for alias in n.names} | {
                n.module for n in ast.walk(attempt) if isinstance(n, ast.ImportFrom)}
            required = {m for m in modules if m and m.split(".")[0] not in
                        {o.split(".")[0] for o in OPTIONAL_MODULES}}
            if required:
                report(handler, f"skips when {sorted(required)} cannot be imported: required")

    for function in (n for n in ast.walk(tree) if isinstance(n, functions)):
        if _is_given(function):
            for node in ast.walk(function):
                if isinstance(node, ast.Return) and node.value is None and \
                        _enclosing(node, parents, functions) is function:
                    report(node, f"{function.name} discards a hypothesis input with `return` "
                           "(a pass); use hypothesis.assume(...)")
    return found


# ---------------------------------------------------------------------------------------------
# The checker catches what it claims (each snippet is a slip seen in this repository's history)

SLIPS = {  # slip: (source, a phrase of the violation it must get)
    "own module": ('quiz = pytest.importorskip("course_lib.quiz")', "only optional modules"),
    "required dependency": ('pytest.importorskip("ipywidgets")', "only optional modules"),
    "optional without reason": ('torch = pytest.importorskip("torch")', "without reason="),
    "no reason": ("def test_x():\n    pytest.skip()", "without a reason"),
    "missing notebook": ("def test_x(path):\n    if not path.exists():\n"
                         "        pytest.skip(f'{path.name} is not written yet')",
                         "must fail"),
    "reason names nothing optional": ("def test_x():\n    pytest.skip('too slow today')",
                                      "names nothing optional"),
    "always-skipped parameter": (
        "@pytest.mark.parametrize('name', CASES)\ndef test_x(name):\n"
        "    shape_args, kwargs = CASES[name]\n    if 'batch' in shape_args:\n"
        "        pytest.skip('the GPU twin is 2-D')", "skips on its own parameters"),
    "skip on the array library": ("def test_x(xp):\n    if xp is np:\n"
                                  "        pytest.skip('the fallback is for CuPy arrays')",
                                  "skips on its own parameters"),
    "except ImportError": ("def test_x():\n    try:\n        import matplotlib\n"
                           "    except ImportError:\n        pytest.skip('no matplotlib')",
                           "cannot be imported: required"),
    "hypothesis return": ("@given(x=st.floats())\ndef test_x(x):\n    if x == 0:\n"
                          "        return\n    assert 1 / x", "hypothesis.assume"),
}

HONEST = {
    "optional with reason": 'pytest.importorskip("torch", reason="PyTorch is not installed")',
    "skipif on CuPy": ("@pytest.mark.skipif(not OK, reason=f'needs a working CuPy: {WHY}')\n"
                       "def test_x(): pass"),
    "module level outside CI": ("if MISSING and not ON_CI:\n"
                                "    pytest.skip(MISSING, allow_module_level=True)"),
    "skip or fail on CI": ("def not_ready(reason):\n    if ON_CI:\n        pytest.fail(reason)\n"
                           "    pytest.skip(reason)"),
    "live torch quirk": ("def test_x(dtype):\n    theirs = torch_sdpa(make(dtype))\n"
                         "    if np.isnan(theirs).any():\n"
                         "        pytest.skip('this torch returns NaN')"),
    "assume": "@given(x=st.floats())\ndef test_x(x):\n    assume(x != 0)\n    assert 1 / x",
    "helper return": "@given(x=st.floats())\ndef test_x(x):\n    def f():\n        return\n    f()",
}


@pytest.mark.parametrize("name", sorted(SLIPS))
def test_the_checker_catches(name):
    source, phrase = SLIPS[name]
    found = violations(source)
    assert any(phrase in line for line in found), found


@pytest.mark.parametrize("name", sorted(HONEST))
def test_the_checker_accepts(name):
    assert violations(HONEST[name]) == []


@pytest.mark.parametrize("path", SOURCES, ids=[p.name for p in SOURCES])
def test_no_silent_skips(path):
    assert SOURCES and path.exists()
    problems = violations(path.read_text(encoding="utf-8"), path.relative_to(ROOT))
    assert not problems, "\n".join(problems)


# ---------------------------------------------------------------------------------------------
# The run-time rule (root conftest.py): under CI=true the marker and the machine decide


def root_conftest():
    spec = importlib.util.spec_from_file_location("root_conftest", ROOT / "conftest.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class Node:
    """A collected test as the rule sees it: its markers."""

    def __init__(self, *markers):
        self.markers = set(markers)

    def get_closest_marker(self, name):
        return name if name in self.markers else None


class SkipReport:
    def __init__(self, reason):
        self.skipped, self.outcome = True, "skipped"
        self.longrepr = ("tests/test_x.py", 1, f"Skipped: {reason}")


def verdict(rule, node, reason):
    return rule._fail_skip_on_ci(SkipReport(reason), node).outcome


def test_under_ci_a_skip_passes_only_for_what_this_machine_lacks(monkeypatch):
    rule = root_conftest()
    monkeypatch.setattr(rule, "ON_CI", True)
    monkeypatch.setattr("course_lib.backend.gpu_status", lambda: (False, "no CUDA device"))
    real_find_spec = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "torch" else real_find_spec(name, *a))
    # any words: the marker and the machine decide
    assert verdict(rule, Node("gpu"), "whatever the words") == "skipped"
    assert verdict(rule, Node("torch"), "whatever the words") == "skipped"
    assert verdict(rule, Node(), "GPU case skipped: PyTorch is not installed") == "failed"
    assert verdict(rule, Node("slow"), "too slow today") == "failed"
    monkeypatch.setattr("course_lib.backend.gpu_status", lambda: (True, ""))
    assert verdict(rule, Node("gpu"), "needs a working CuPy") == "failed"  # it has one here
    version = rule.figure_check().version_mismatch() is not None
    assert verdict(rule, Node("mpl_image_compare"), "x") == ("skipped" if version else "failed")


def test_outside_ci_every_skip_stays_a_skip(monkeypatch):
    rule = root_conftest()
    monkeypatch.setattr(rule, "ON_CI", False)
    assert verdict(rule, Node(), "too slow today") == "skipped"
