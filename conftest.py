"""Hooks for every item pytest collects here: tests/, course_lib's doctests and the notebooks.

(``tests/conftest.py`` holds the fixtures; a conftest in ``tests/`` would not reach the
notebooks' items, hence this file at the root.)

1. **No skip hides a failure in CI.** Under ``CI=true`` a skipped test fails, unless it needs
   something optional that this machine really lacks (:func:`lacking`): a test marked ``gpu``
   where CuPy reaches no CUDA device, one marked ``torch`` where PyTorch is not installed, one
   marked ``transformers`` where transformers is not (the live comparisons: ``tests/data``
   holds PyTorch's and transformers' recorded answers, compared in every run),
   and a picture comparison (pytest-mpl's ``mpl_image_compare``) on a matplotlib other than
   the baselines' (the Python 3.10 job's). The marker and the machine decide, not the words
   of the reason. ``tests/test_no_silent_skips.py`` checks the source for the same rules.
2. **A notebook cannot keep a stale picture.** nbval runs every notebook in a fresh kernel and
   compares the stored outputs, but never ``image/png``. After nbval has checked a cell,
   ``pytest_runtest_call`` compares that cell's stored figures with the ones of the same
   fresh run (``tests/figure_check.py``): no second kernel, a PNG decode per figure.
"""

import importlib.util
import os
import sys
from pathlib import Path

import pytest

ON_CI = os.environ.get("CI", "").strip().lower() in ("true", "1", "yes")


# What the run compared, printed above pytest's closing line (CI logs show the counts).
COMPARED = {"fixtures": 0, "baselines": 0, "notebook figures": 0}


def figure_check():
    """tests/figure_check.py, the same module object the tests import as ``figure_check``."""
    if "figure_check" not in sys.modules:
        path = Path(__file__).resolve().parent / "tests" / "figure_check.py"
        spec = importlib.util.spec_from_file_location("figure_check", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        sys.modules["figure_check"] = module
    return sys.modules["figure_check"]


def _skip_reason(report):
    longrepr = report.longrepr
    text = longrepr[2] if isinstance(longrepr, tuple) else str(longrepr)
    return text.removeprefix("Skipped: ")


def lacking(node):
    """The optional thing a test (or a collected module) needs and this machine lacks, or
    None: what makes a skip honest under CI=true."""
    if node.get_closest_marker("gpu") is not None:
        from course_lib.backend import gpu_status

        if not gpu_status()[0]:
            return "a CUDA device that CuPy can use"
    if node.get_closest_marker("torch") is not None and importlib.util.find_spec("torch") is None:
        return "PyTorch"
    if node.get_closest_marker("transformers") is not None \
            and importlib.util.find_spec("transformers") is None:
        return "transformers"
    if node.get_closest_marker("mpl_image_compare") is not None \
            and figure_check().version_mismatch() is not None:
        return "the baselines' matplotlib"
    return None


def _fail_skip_on_ci(report, node):
    """Under CI=true, turn a skip that CI does not allow into a failure (with its reason)."""
    if ON_CI and report.skipped and not hasattr(report, "wasxfail") and lacking(node) is None:
        report.outcome = "failed"
        report.longrepr = (f"CI=true: this may not skip here ({_skip_reason(report)}); only a "
                           "test marked gpu or torch, or a picture comparison, may skip, and "
                           "only where CuPy's device, PyTorch or the baselines' matplotlib is "
                           "missing (conftest.lacking)")
    return report


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    return _fail_skip_on_ci((yield), item)


@pytest.hookimpl(wrapper=True)
def pytest_make_collect_report(collector):
    return _fail_skip_on_ci((yield), collector)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item):
    """After nbval ran a notebook cell and compared its outputs, compare its figures too."""
    result = yield
    fresh = getattr(item, "test_outputs", None)
    options = getattr(item, "options", {})
    if fresh is None or not options.get("check") or item.cell.execution_count is None:
        return result  # not an nbval cell, or one whose outputs nbval does not check
    check = figure_check()
    if check.cell_pngs(item.cell.outputs) and check.version_mismatch() is None:
        problems = check.stale_figures(item.cell.outputs, fresh)
        # counted from the report, which also reaches the controller under pytest-xdist
        item.user_properties.append(("notebook figures", len(check.cell_pngs(item.cell.outputs))))
        if problems:
            pytest.fail(f"{item.name}: " + "; ".join(problems) + ". Re-execute the notebook "
                        "(CONTRIBUTING: make notebooks) and commit it with its outputs.",
                        pytrace=False)
    return result


def pytest_runtest_logreport(report):
    if report.when == "call" and report.passed:
        COMPARED["notebook figures"] += sum(n for key, n in report.user_properties
                                            if key == "notebook figures")
        if "test_torch_parity.py::test_course_matches_recorded_pytorch[" in report.nodeid:
            COMPARED["fixtures"] += 1
        elif "test_figures.py::test_figure[" in report.nodeid:
            COMPARED["baselines"] += 1


def pytest_terminal_summary(terminalreporter):
    if any(COMPARED.values()):
        terminalreporter.write_line(
            f"compared: {COMPARED['fixtures']} PyTorch fixture cases, {COMPARED['baselines']} "
            f"plot pictures with their baselines, {COMPARED['notebook figures']} notebook "
            "figures with a fresh run")
