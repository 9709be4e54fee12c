"""The set-up check of notebook 00: every problem gets a ✗ line with a fix."""

from course_lib.environment import PACKAGES, environment_report
from course_lib.widgets.check import NOT_RENDERED, WidgetCheck

ALL_FOUND = {name: "1.0" for name, _ in PACKAGES}


def test_all_good_gives_only_ticks():
    lines = environment_report((3, 11, 7), ALL_FOUND, (True, ""))
    assert lines[0].startswith("✓") and "Python 3.11.7" in lines[0]
    assert len(lines) == 2 + len(PACKAGES)
    assert all(line.startswith("✓") for line in lines)


def test_old_python_is_flagged_with_a_fix():
    line = environment_report((3, 9, 18), ALL_FOUND, (True, ""))[0]
    assert line.startswith("✗ Python 3.9.18") and "3.10 or newer" in line


def test_missing_package_names_it_and_the_fix():
    versions = dict(ALL_FOUND, ipywidgets=None)
    lines = environment_report((3, 12, 0), versions, (True, ""))
    bad = [line for line in lines if line.startswith("✗")]
    assert len(bad) == 1
    assert "ipywidgets is missing" in bad[0] and "make install" in bad[0]


def test_no_cupy_gives_one_short_line():
    lines = environment_report((3, 12, 0), ALL_FOUND, (False, "CuPy is not installed. Install..."))
    assert lines[-1] == "· No GPU here, and none needed: everything runs on the CPU."


def test_gpu_line_passes_on_a_reason_worth_fixing():
    reason = "CuPy is installed but no GPU is visible."
    lines = environment_report((3, 12, 0), ALL_FOUND, (False, reason))
    assert lines[-1].startswith("· No GPU here") and lines[-1].endswith(reason)


def test_widget_check_plain_text_says_what_to_do():
    check = WidgetCheck()
    assert "widgets work" in check.value
    assert repr(check) == NOT_RENDERED and "make lab" in NOT_RENDERED
    assert len(NOT_RENDERED) <= 110  # ipywidgets cuts a longer plain-text form
