"""The layers of course_lib, read from the import statements of every module (with ``ast``).

    math  ←  fast                      (the opt-in speed layer)
    math  ←  plots  ←  widgets, quiz   (pictures, then the sliders that drive them)
    math  ←  exercises                 (checkers compute with the math only)

"math" is every top-level module of course_lib (reference, checklist and environment
included) and the cards package; quiz, a top-level module that uses ipywidgets, belongs to
the widget layer. No math module imports matplotlib, ipywidgets, ctypes or concurrent.futures,
and ``import course_lib`` loads no third-party package but NumPy.
"""

import ast
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "course_lib"
WIDGET_TOP_LEVEL = {"course_lib.quiz"}  # top-level, but a widget (ipywidgets)

ALLOWED = {  # layer → the layers of course_lib it may import
    "math": {"math"},
    "fast": {"math", "fast"},
    "plots": {"math", "plots"},
    "widgets": {"math", "plots", "widgets", "exercises"},
    "exercises": {"math", "exercises"},
}
MATH_NEVER_IMPORTS = {"matplotlib", "ipywidgets", "ctypes", "concurrent"}


def module_name(path):
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def layer(name):
    """The layer of a course_lib module, by its place in the package."""
    if name in WIDGET_TOP_LEVEL:
        return "widgets"
    parts = name.split(".")
    if len(parts) == 1 or parts[1] not in {"fast", "plots", "widgets", "exercises"}:
        return "math"  # course_lib itself, a top-level module, or the cards package
    return parts[1]


def imported_names(name):
    """Every absolute module name ``name`` imports, anywhere in the file (functions too)."""
    path = MODULES[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = ".".join(base[:len(base) - node.level + 1])
                target = f"{base}.{node.module}" if node.module else base
            else:
                target = node.module
            found.add(target)
            found.update(f"{target}.{alias.name}" for alias in node.names
                         if f"{target}.{alias.name}" in MODULES)  # `from . import module`
    return found


def course_imports(name):
    return {m for m in imported_names(name) if m == "course_lib" or m.startswith("course_lib.")}


def test_the_walk_finds_every_layer():
    layers = {layer(name) for name in MODULES}
    assert layers == set(ALLOWED), layers
    assert {"course_lib.attention", "course_lib.fast", "course_lib.quiz"} <= set(MODULES)


def test_the_import_reader_resolves_relative_imports():
    assert "course_lib.prepare" in imported_names("course_lib.attention")
    assert "course_lib.fast.threads" in imported_names("course_lib.fast.blocked")
    assert "course_lib.attention" in imported_names("course_lib.fast.blocked")


@pytest.mark.parametrize("name", sorted(MODULES))
def test_each_module_imports_only_the_layers_below_it(name):
    wrong = sorted(f"{target} ({layer(target)})" for target in course_imports(name)
                   if target != "course_lib" and layer(target) not in ALLOWED[layer(name)])
    assert not wrong, f"{name} ({layer(name)} layer) imports {wrong}"


@pytest.mark.parametrize("name", sorted(n for n in MODULES if layer(n) == "math"))
def test_math_never_imports_pictures_widgets_ctypes_or_thread_pools(name):
    bad = sorted(m for m in imported_names(name) if m.split(".")[0] in MATH_NEVER_IMPORTS)
    assert not bad, f"{name} imports {bad}"


def test_fast_uses_threadpoolctl_and_no_ctypes():
    fast = [n for n in MODULES if layer(n) == "fast"]
    assert fast
    imports = set().union(*(imported_names(n) for n in fast))
    assert "threadpoolctl" in imports
    assert not {m for m in imports if m.split(".")[0] == "ctypes"}


def test_import_course_lib_loads_numpy_only():
    script = ("import sys\n"
              "before = set(sys.modules)\n"
              "import course_lib\n"
              "new = {m.split('.')[0] for m in set(sys.modules) - before}\n"
              "print(sorted(new - set(sys.stdlib_module_names) - {'numpy', 'course_lib'}))\n"
              "print(sorted(m for m in sys.modules if m.startswith('course_lib.fast')))\n"
              "print('numpy' in new)\n")
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                            check=True)
    third_party, fast, numpy_loaded = result.stdout.splitlines()
    assert third_party == "[]", f"import course_lib loaded {third_party}"
    assert fast == "[]", f"import course_lib loaded {fast}"
    assert numpy_loaded == "True"  # the check above saw the imports happen
