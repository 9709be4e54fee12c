"""What this machine offers the course: Python, the packages, and the GPU path.

Used by the set-up check at the top of notebook 00. Plain functions returning text, so the
check reads the same in a notebook, a terminal or a test.
"""

import sys
from importlib import metadata

from .backend import gpu_status

__all__ = ["environment_report", "package_version"]

MINIMUM_PYTHON = (3, 10)
# Each package the course runs on, what it is for, and the fix when it is missing.
PACKAGES = (
    ("numpy", "the maths"),
    ("matplotlib", "the pictures"),
    ("ipywidgets", "the sliders"),
    ("jupyterlab", "the notebook app"),
)
FIX = ("run `make install` in the course folder (or `pip install -r requirements.txt "
       "-c requirements-lock.txt`)")


def package_version(name):
    """The installed version of ``name``, or None when it is not installed.

    >>> package_version("numpy") is not None
    True
    >>> package_version("surely-not-a-real-package") is None
    True
    """
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return None


def environment_report(version_info=None, versions=None, gpu=None):
    """One line per check: ``✓`` when it is fine, ``✗`` with a plain-language fix when not.

    The arguments exist for tests; by default the running Python, the installed packages and
    :func:`course_lib.gpu_status` are asked.

    >>> print(environment_report((3, 9, 1), {"numpy": "2.0.0"}, (False, "no GPU"))[0])
    ✗ Python 3.9.1: the course needs 3.10 or newer; install a newer Python from python.org
    """
    version_info = tuple(version_info or sys.version_info[:3])
    versions = versions if versions is not None else {n: package_version(n) for n, _ in PACKAGES}
    gpu_ok, gpu_reason = gpu if gpu is not None else gpu_status()
    python = ".".join(str(part) for part in version_info[:3])
    lines = []
    if version_info[:2] >= MINIMUM_PYTHON:
        lines.append(f"✓ Python {python}")
    else:
        lines.append(f"✗ Python {python}: the course needs 3.10 or newer; install a newer "
                     "Python from python.org")
    for name, role in PACKAGES:
        found = versions.get(name)
        lines.append(f"✓ {name} {found} ({role})" if found
                     else f"✗ {name} is missing ({role}): {FIX}")
    if gpu_ok:
        lines.append("✓ GPU path available: course_lib.use_backend('cupy') runs the maths there")
    else:
        # without CuPy there is nothing to fix; with CuPy but no GPU, the reason says what to check
        reason = "" if "not installed" in gpu_reason else f" {gpu_reason}"
        lines.append(f"· No GPU here, and none needed: everything runs on the CPU.{reason}")
    return lines
