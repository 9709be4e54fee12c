"""GPU timing: attention with CuPy against cuBLAS's two matrix products.

Run with ``python benchmarks/gpu_timing.py`` (``make gpu-check`` runs it after the CuPy
tests). On a machine without CuPy or without a working CUDA device it prints one line saying
so and exits 0.

For n = m ∈ {8192, 32768}, d = 64, float32 it times, with CUDA events:

* the two products alone, S = Q Kᵀ and S V (cuBLAS through CuPy's ``@``);
* ``scaled_dot_product_attention`` (the plain formula: a 4 GiB score grid at 32768);
* ``tiled_attention`` (the online softmax, one score block at a time);
* ``course_lib.fast.gpu_kernel.kernel_attention`` (the course's own CUDA kernel);

and prints each one's time and its ratio to the two products.
"""

import sys
from pathlib import Path

import numpy as np

try:
    import course_lib
except ImportError:  # run from a plain checkout (no `pip install -e .`): use the repository
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    import course_lib
from course_lib.fast import gpu_kernel

SIZES = (8192, 32768)
D = 64
REPEATS = 5


def best_milliseconds(cupy, func, repeats=REPEATS):
    """The fastest of ``repeats`` runs of ``func()``, timed with CUDA events, after a warm-up."""
    func()
    cupy.cuda.Device().synchronize()
    times = []
    for _ in range(repeats):
        start, stop = cupy.cuda.Event(), cupy.cuda.Event()
        start.record()
        func()
        stop.record()
        stop.synchronize()
        times.append(cupy.cuda.get_elapsed_time(start, stop))
    return min(times)


def time_size(cupy, n):
    """(products, plain, tiled, kernel ms; largest |tiled − plain|, |kernel − plain|) at n = m."""
    rng = np.random.default_rng(n)
    query, key, value = (cupy.asarray(rng.standard_normal((n, D), dtype=np.float32))
                         for _ in range(3))

    def products():
        return (query @ key.T) @ value  # (n, n) then (n, d): the two products alone

    def plain():
        return course_lib.scaled_dot_product_attention(query, key, value)

    def tiled():
        return course_lib.tiled_attention(query, key, value)

    def kernel():
        return gpu_kernel.kernel_attention(query, key, value)

    differences = [float(cupy.abs(f() - plain()).max()) for f in (tiled, kernel)]
    timings = [best_milliseconds(cupy, f) for f in (products, plain, tiled, kernel)]
    cupy.get_default_memory_pool().free_all_blocks()  # give the 4 GiB grids back between sizes
    return (*timings, *differences)


def main():
    ok, reason = course_lib.gpu_status()
    if not ok:
        print(f"gpu_timing: SKIPPED - no usable GPU here ({reason.split('. ')[0]}).")
        return 0
    import cupy

    name = cupy.cuda.runtime.getDeviceProperties(0)["name"]
    name = name.decode() if isinstance(name, bytes) else name
    print(f"GPU timing on {name}, CuPy {cupy.__version__}, float32, d = {D}, "
          f"best of {REPEATS} (CUDA events)")
    print(f"  {'n = m':>7} {'2 products':>11} {'plain':>10} {'ratio':>6} {'tiled':>10} "
          f"{'ratio':>6} {'kernel':>10} {'ratio':>6}  max |tiled - plain|, |kernel - plain|")
    for n in SIZES:
        products, plain, tiled, kernel, difference, kernel_difference = time_size(cupy, n)
        print(f"  {n:7d} {products:8.2f} ms {plain:7.2f} ms {plain / products:5.2f}x "
              f"{tiled:7.2f} ms {tiled / products:5.2f}x {kernel:7.2f} ms "
              f"{kernel / products:5.2f}x  {difference:.1e}, {kernel_difference:.1e}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
