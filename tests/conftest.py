"""Shared test set-up: a headless matplotlib, and the array libraries to run the math on.

The ``xp`` fixture runs a test once per array library: NumPy always, CuPy only where it is
installed *and* reaches a GPU (otherwise that case is skipped, with the reason). Select the
GPU cases alone with ``pytest -m gpu``.

The hooks for every collected item (the skips CI allows, the notebooks' figures) are in the
repository's root ``conftest.py``: this one only reaches the items under ``tests/``.
"""

import os

import numpy as np
import pytest

try:
    import matplotlib
except ImportError:  # the math tests run without matplotlib
    matplotlib = None
else:
    matplotlib.use("Agg")  # plain tests draw off-screen; notebooks keep their inline backend

from course_lib.backend import gpu_status


def _cupy_param():
    ok, reason = gpu_status()
    if ok:
        import cupy
        return pytest.param(cupy, id="cupy", marks=pytest.mark.gpu)
    first_sentence = reason.split(". ")[0].rstrip(".")  # the fix is in gpu_status()'s full text
    return pytest.param(None, id="cupy", marks=[
        pytest.mark.gpu, pytest.mark.skip(reason=f"GPU case skipped: {first_sentence}")])


ARRAY_LIBRARIES = [pytest.param(np, id="numpy"), _cupy_param()]


@pytest.fixture(params=ARRAY_LIBRARIES)
def xp(request):
    """The array library under test (``numpy`` or ``cupy``)."""
    return request.param


def _model_file_missing(exc):
    """Skip locally, with the fix in the reason; fail under CI=true (``make model`` ran)."""
    reason = f"the model tests need the model file: {exc}"
    if os.environ.get("CI", "").strip().lower() in ("true", "1", "yes"):
        pytest.fail(reason)
    pytest.skip(reason)


@pytest.fixture(scope="session")
def model_file():
    """The path of notebook 17's model file, checked by ``model_file.check_model_file``."""
    from course_lib.model_file import ModelFileError, check_model_file

    try:
        return check_model_file()
    except ModelFileError as exc:
        _model_file_missing(exc)


@pytest.fixture(scope="session")
def smollm():
    """The real model of notebook 17 (``course_lib.model.load_model()``), loaded once per run.

    Its file comes from ``make model`` (``make test`` fetches it first). Without it the tests
    that need it skip locally, with the fix in the reason; under CI=true they fail.
    """
    from course_lib.model import load_model
    from course_lib.model_file import ModelFileError

    try:
        return load_model()
    except ModelFileError as exc:
        _model_file_missing(exc)
