"""Where arrays live: NumPy on the CPU (the default) or CuPy on a GPU.

Every math function follows its inputs: NumPy arrays in, NumPy arrays out; CuPy arrays in,
CuPy arrays out. The backend *choice* only decides where the course's own example data are
created (:func:`asarray`). Choose it with ``use_backend("cupy")`` or the environment variable
``COURSE_BACKEND=cupy``. CuPy is imported only when it is asked for.
"""

import os

import numpy as np

__all__ = [
    "asarray",
    "current_backend",
    "example_rng",
    "get_array_module",
    "gpu_status",
    "to_numpy",
    "use_backend",
]

BACKENDS = ("numpy", "cupy")
_choice = {"name": None}  # None: not chosen yet, read COURSE_BACKEND on first use


def _is_cupy_array(x):
    # Looking at the type's module avoids importing CuPy just to ask the question.
    return type(x).__module__.split(".")[0] == "cupy"


def _load_cupy():
    """Import CuPy and check that it can reach a GPU, or explain what to do."""
    try:
        import cupy
    except ImportError as exc:
        raise RuntimeError(
            "The GPU backend needs CuPy, which is not installed. Install the wheel that matches "
            "your CUDA version (for example `pip install cupy-cuda12x`), or stay on the CPU with "
            "course_lib.use_backend('numpy')."
        ) from exc
    try:
        count = cupy.cuda.runtime.getDeviceCount()
    except Exception as exc:  # CuPy raises its own CUDA error types
        raise RuntimeError(
            f"CuPy is installed but cannot use CUDA ({type(exc).__name__}: {exc}). Check the "
            "NVIDIA driver with `nvidia-smi`, or stay on the CPU with "
            "course_lib.use_backend('numpy')."
        ) from exc
    if count == 0:
        raise RuntimeError(
            "CuPy is installed but no GPU is visible. Stay on the CPU with "
            "course_lib.use_backend('numpy')."
        )
    return cupy


def gpu_status():
    """Return ``(True, "")`` if the CuPy backend works here, else ``(False, reason)``.

    >>> ok, reason = gpu_status()
    >>> isinstance(ok, bool) and isinstance(reason, str)
    True
    """
    try:
        _load_cupy()
    except RuntimeError as exc:
        return False, str(exc)
    return True, ""


def use_backend(name):
    """Choose where example data are created: ``"numpy"`` (CPU) or ``"cupy"`` (GPU).

    >>> use_backend("numpy")
    'numpy'
    """
    if name not in BACKENDS:
        raise ValueError(f"backend must be one of {BACKENDS}, got {name!r}")
    if name == "cupy":
        _load_cupy()
    _choice["name"] = name
    return name


def current_backend():
    """The chosen backend's name; the first call reads ``COURSE_BACKEND`` (default numpy)."""
    if _choice["name"] is None:
        use_backend(os.environ.get("COURSE_BACKEND", "numpy").strip().lower() or "numpy")
    return _choice["name"]


def _module(name):
    return _load_cupy() if name == "cupy" else np


def get_array_module(*arrays):
    """Return the array library (``numpy`` or ``cupy``) the given arrays belong to.

    Lists, scalars and NumPy arrays count as NumPy. Mixing NumPy and CuPy arrays is an error:
    move them to one place first with :func:`asarray` or :func:`to_numpy`.

    >>> get_array_module(np.ones(3), [1.0, 2.0]).__name__
    'numpy'
    """
    on_gpu = [_is_cupy_array(a) for a in arrays]
    if not any(on_gpu):
        return np
    if not all(on_gpu):
        kinds = ", ".join(f"argument {i}: {type(a).__module__}.{type(a).__name__}"
                          for i, a in enumerate(arrays))
        raise TypeError(
            f"mixed NumPy and CuPy inputs ({kinds}); put them on one device first with "
            "course_lib.asarray (GPU) or course_lib.to_numpy (CPU)"
        )
    return _module("cupy")


def asarray(x, dtype=None):
    """Create an array on the chosen backend (the course's example data go through here).

    >>> asarray([1, 2, 3], dtype=float).tolist()
    [1.0, 2.0, 3.0]
    """
    xp = _module(current_backend())
    if xp is np:
        x = to_numpy(x)
    elif any("bfloat16" in str(kind) for kind in (getattr(x, "dtype", ""), dtype)):
        raise TypeError("CuPy has no bfloat16: on the GPU use float16 or float32 (for example "
                        "x.astype(np.float16)); bfloat16 works with NumPy arrays")
    return xp.asarray(x, dtype=dtype)


def to_numpy(x):
    """Bring an array back to the CPU as a NumPy array (plots and printing need this).

    >>> to_numpy([1.5, 2.5]).tolist()
    [1.5, 2.5]
    """
    if _is_cupy_array(x):
        return x.get()
    return np.asarray(x)


def example_rng(seed=0):
    """A seeded NumPy random generator: the course's example data are reproducible everywhere.

    Draw with it on the CPU, then move the result with :func:`asarray`, so the same seed gives
    the same numbers on NumPy and on CuPy.

    >>> a, b = example_rng(0), example_rng(0)
    >>> a.integers(0, 10, size=3).tolist() == b.integers(0, 10, size=3).tolist()
    True
    """
    return np.random.default_rng(seed)
