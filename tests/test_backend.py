"""The backend: where arrays live, how CuPy is asked for, and what import course_lib loads."""

import os
import subprocess
import sys
import textwrap
import types
from pathlib import Path

import numpy as np
import pytest

import course_lib
from course_lib import backend, dot, get_array_module, scaled_dot_product_attention, score_grid
from course_lib.backend import gpu_status

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def fresh_choice(monkeypatch):
    """Forget the backend choice for this test (restored afterwards), as in a new kernel."""
    monkeypatch.setitem(backend._choice, "name", None)
    monkeypatch.delenv("COURSE_BACKEND", raising=False)


def fake_cupy(get_device_count):
    """A stand-in ``cupy`` module whose ``cuda.runtime.getDeviceCount`` is the given function."""
    module = types.ModuleType("cupy")
    module.cuda = types.SimpleNamespace(runtime=types.SimpleNamespace(
        getDeviceCount=get_device_count))
    return module


def no_cuda():
    raise RuntimeError("cudaErrorInsufficientDriver: CUDA driver version is insufficient")


# ---------------------------------------------------------------------------------------------
# Choosing a backend


def test_use_backend_numpy(fresh_choice):
    assert course_lib.use_backend("numpy") == "numpy"
    assert course_lib.current_backend() == "numpy"


@pytest.mark.parametrize("name", ["torch", "NumPy ", "", None, "gpu"])
def test_use_backend_rejects_unknown_names(fresh_choice, name):
    with pytest.raises(ValueError) as excinfo:
        course_lib.use_backend(name)
    text = str(excinfo.value)
    assert repr(name) in text
    assert "'numpy'" in text and "'cupy'" in text


def test_cupy_not_installed(fresh_choice, monkeypatch):
    monkeypatch.setitem(sys.modules, "cupy", None)  # makes `import cupy` raise ImportError
    with pytest.raises(RuntimeError) as excinfo:
        course_lib.use_backend("cupy")
    text = str(excinfo.value)
    assert "CuPy, which is not installed" in text
    assert "pip install cupy-cuda12x" in text
    assert "use_backend('numpy')" in text
    ok, reason = course_lib.gpu_status()
    assert ok is False
    assert reason == text


def test_cupy_installed_but_cuda_broken(fresh_choice, monkeypatch):
    monkeypatch.setitem(sys.modules, "cupy", fake_cupy(no_cuda))
    with pytest.raises(RuntimeError) as excinfo:
        course_lib.use_backend("cupy")
    text = str(excinfo.value)
    assert "CuPy is installed but cannot use CUDA" in text
    assert "cudaErrorInsufficientDriver" in text  # the underlying reason is passed on
    assert "nvidia-smi" in text
    assert "use_backend('numpy')" in text
    assert course_lib.gpu_status()[0] is False


def test_cupy_installed_but_no_device(fresh_choice, monkeypatch):
    monkeypatch.setitem(sys.modules, "cupy", fake_cupy(lambda: 0))
    with pytest.raises(RuntimeError, match="no GPU is visible"):
        course_lib.use_backend("cupy")


def test_cupy_with_a_device_is_accepted(fresh_choice, monkeypatch):
    monkeypatch.setitem(sys.modules, "cupy", fake_cupy(lambda: 1))
    assert course_lib.use_backend("cupy") == "cupy"
    assert course_lib.current_backend() == "cupy"
    assert course_lib.gpu_status() == (True, "")


def test_failed_switch_keeps_the_previous_choice(fresh_choice, monkeypatch):
    course_lib.use_backend("numpy")
    monkeypatch.setitem(sys.modules, "cupy", None)
    with pytest.raises(RuntimeError):
        course_lib.use_backend("cupy")
    assert course_lib.current_backend() == "numpy"


# ---------------------------------------------------------------------------------------------
# COURSE_BACKEND


@pytest.mark.parametrize("value", ["numpy", " NumPy ", "NUMPY", ""])
def test_env_var_read_on_first_use(fresh_choice, monkeypatch, value):
    monkeypatch.setenv("COURSE_BACKEND", value)
    assert backend._choice["name"] is None
    assert course_lib.current_backend() == "numpy"
    assert backend._choice["name"] == "numpy"


def test_no_env_var_means_numpy(fresh_choice):
    assert "COURSE_BACKEND" not in os.environ
    assert course_lib.current_backend() == "numpy"


def test_env_var_cupy_without_cupy_explains(fresh_choice, monkeypatch):
    monkeypatch.setenv("COURSE_BACKEND", "cupy")
    monkeypatch.setitem(sys.modules, "cupy", None)
    with pytest.raises(RuntimeError, match="not installed"):
        course_lib.current_backend()


def test_env_var_cupy_with_a_device(fresh_choice, monkeypatch):
    monkeypatch.setenv("COURSE_BACKEND", "CuPy")
    monkeypatch.setitem(sys.modules, "cupy", fake_cupy(lambda: 2))
    assert course_lib.current_backend() == "cupy"


def test_env_var_unknown_name(fresh_choice, monkeypatch):
    monkeypatch.setenv("COURSE_BACKEND", "jax")
    with pytest.raises(ValueError, match="'jax'"):
        course_lib.current_backend()


def test_env_var_only_read_once(fresh_choice, monkeypatch):
    monkeypatch.setenv("COURSE_BACKEND", "numpy")
    assert course_lib.current_backend() == "numpy"
    monkeypatch.setenv("COURSE_BACKEND", "jax")  # too late: the choice is made
    assert course_lib.current_backend() == "numpy"


# ---------------------------------------------------------------------------------------------
# Arrays


def test_get_array_module_for_cpu_things():
    assert course_lib.get_array_module(np.ones(2), [1.0, 2.0], 3.0) is np
    assert course_lib.get_array_module() is np


def test_get_array_module_follows_the_input(xp):
    assert course_lib.get_array_module(xp.ones(3), xp.zeros((2, 2))) is xp


def test_to_numpy(xp):
    out = course_lib.to_numpy(xp.asarray([1.5, 2.5]))
    assert isinstance(out, np.ndarray)
    assert out.tolist() == [1.5, 2.5]
    assert course_lib.to_numpy([[1, 2]]).shape == (1, 2)


def test_asarray_on_numpy(fresh_choice):
    course_lib.use_backend("numpy")
    out = course_lib.asarray([1, 2, 3], dtype=np.float32)
    assert isinstance(out, np.ndarray)
    assert out.dtype == np.float32
    assert out.tolist() == [1.0, 2.0, 3.0]


def test_asarray_follows_the_choice(xp, fresh_choice):
    course_lib.use_backend(xp.__name__)
    out = course_lib.asarray(np.arange(3.0))
    assert type(out) is type(xp.asarray([0.0]))
    assert course_lib.to_numpy(out).tolist() == [0.0, 1.0, 2.0]


def test_example_rng_is_reproducible():
    a = course_lib.example_rng(3).standard_normal(5)
    b = course_lib.example_rng(3).standard_normal(5)
    c = course_lib.example_rng(4).standard_normal(5)
    np.testing.assert_array_equal(a, b)
    assert not np.array_equal(a, c)
    assert isinstance(course_lib.example_rng(), np.random.Generator)


# ---------------------------------------------------------------------------------------------
# What `import course_lib` loads (in a clean interpreter, so this test run's imports don't count)


def run_python(code, extra_path=()):
    env = {key: value for key, value in os.environ.items()
           if key not in ("PYTHONPATH", "COURSE_BACKEND")}
    env["PYTHONPATH"] = os.pathsep.join([*map(str, extra_path), str(ROOT)])
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)


def test_import_loads_only_the_math():
    result = run_python("""
        import sys
        import course_lib
        heavy = ["matplotlib", "ipywidgets", "cupy", "torch", "IPython"]
        print(",".join(name for name in heavy if name in sys.modules) or "none")
        print(course_lib.__file__)
    """)
    assert result.returncode == 0, result.stderr
    loaded, path = result.stdout.split()
    assert loaded == "none"
    assert Path(path).resolve().parent == ROOT / "course_lib"  # this checkout, not another copy


def test_math_works_without_matplotlib_and_ipywidgets():
    # As on a bare GPU machine: the plotting and widget libraries cannot be imported at all.
    result = run_python("""
        import sys
        sys.modules["matplotlib"] = None
        sys.modules["ipywidgets"] = None
        import course_lib
        out = course_lib.scaled_dot_product_attention([[1.0, 0.0]], [[1.0, 0.0]], [[2.0]])
        print(float(out[0, 0]))
    """)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "2.0"


def test_broken_cupy_does_not_break_import(tmp_path):
    # A CuPy whose import itself crashes (a wrong CUDA wheel can do that): course_lib must import
    # and report the problem only when the GPU is asked for.
    package = tmp_path / "cupy"
    package.mkdir()
    (package / "__init__.py").write_text("raise ImportError('libcudart.so.12: cannot open')\n")
    result = run_python("""
        import course_lib
        ok, reason = course_lib.gpu_status()
        print(ok)
        print(reason)
        print(course_lib.current_backend())
    """, extra_path=[tmp_path])
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "False"
    assert "not installed" in lines[1]
    assert lines[-1] == "numpy"


def message(excinfo):
    return str(excinfo.value)


# ---------------------------------------------------------------------------------------------
# Errors (moved from test_errors.py)


# ---------------------------------------------------------------------------------------------
# NumPy and CuPy mixed


class _FakeCupyArray:
    """Looks like a CuPy array to the backend's type check (its module is ``cupy._core``)."""

    __module__ = "cupy._core.core"
    shape = (2, 2)


def test_mixed_numpy_and_cupy_is_named_without_a_gpu():
    # The mix is detected from the types alone, so this runs on every machine.
    with pytest.raises(TypeError) as excinfo:
        get_array_module(np.ones((2, 2)), _FakeCupyArray())
    text = message(excinfo)
    assert "mixed NumPy and CuPy" in text
    assert "argument 0: numpy.ndarray" in text
    assert "argument 1: cupy._core.core._FakeCupyArray" in text


def test_attention_rejects_mixed_inputs_without_a_gpu():
    with pytest.raises(TypeError, match="mixed NumPy and CuPy"):
        scaled_dot_product_attention(np.ones((2, 2)), _FakeCupyArray(), np.ones((2, 2)))


def test_attention_rejects_a_mask_on_the_other_device_without_a_gpu():
    with pytest.raises(TypeError, match="mixed NumPy and CuPy"):
        scaled_dot_product_attention(np.ones((2, 2)), np.ones((2, 2)), np.ones((2, 2)),
                                     attn_mask=_FakeCupyArray())


_GPU_OK, _GPU_REASON = gpu_status()


@pytest.mark.gpu
@pytest.mark.skipif(not _GPU_OK, reason=f"needs a working CuPy: {_GPU_REASON}")
@pytest.mark.parametrize("on_gpu", [
    "query", "key", "value",
    "attn_mask"])
def test_mixed_numpy_and_cupy_on_a_gpu(on_gpu):
    import cupy

    args = {"query": np.ones((3, 4)), "key": np.ones((5, 4)), "value": np.ones((5, 2)),
            "attn_mask": np.ones((3, 5), dtype=bool)}
    args[on_gpu] = cupy.asarray(args[on_gpu])
    with pytest.raises(TypeError, match="mixed NumPy and CuPy"):
        scaled_dot_product_attention(**args)


@pytest.mark.gpu
@pytest.mark.skipif(not _GPU_OK, reason=f"needs a working CuPy: {_GPU_REASON}")
def test_numpy_mask_with_cupy_inputs():
    import cupy

    q = cupy.ones((3, 4))
    with pytest.raises(TypeError, match="mixed NumPy and CuPy"):
        scaled_dot_product_attention(q, q, q, attn_mask=np.ones((3, 3), dtype=bool))


@pytest.mark.gpu
@pytest.mark.skipif(not _GPU_OK, reason=f"needs a working CuPy: {_GPU_REASON}")
def test_mixed_numpy_and_cupy_in_dot_and_softmax_helpers():
    import cupy

    with pytest.raises(TypeError, match="mixed NumPy and CuPy"):
        dot(np.ones(3), cupy.ones(3))
    with pytest.raises(TypeError, match="mixed NumPy and CuPy"):
        score_grid(cupy.ones((2, 3)), np.ones((4, 3)))
