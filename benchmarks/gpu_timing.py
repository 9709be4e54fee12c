"""GPU timing: the course's CUDA kernel, the plain formula and tiled attention with CuPy.

Run with ``python benchmarks/gpu_timing.py`` (``make gpu-check`` runs it after the CuPy
tests). On a machine without CuPy or without a working CUDA device it prints one line saying
so and exits 0. It needs only NumPy and CuPy (no virtual environment, no Jupyter).

Each row is one problem, float32, timed with CUDA events (the best of a few runs after a
warm-up):

* ``products``: the two products alone, S = Q Kᵀ and S V (cuBLAS through CuPy's ``@``), the
  floor for a single head;
* ``plain``: ``scaled_dot_product_attention``, the whole score grid at once;
* ``tiled``: ``tiled_attention``, the online softmax one score block at a time;
* ``kernel``: ``course_lib.fast.gpu_kernel.kernel_attention``, the course's own CUDA kernel;

then the largest differences of tiled and kernel from plain. The rows cover one long head,
more than 65 535 batch elements (a grid whose y axis would overflow), d_v = 1024 (a block of
1024 threads) and a (B, 1, m) padding mask (passed to the kernel as B key lengths).
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

REPEATS = 3

# name, batch shape, n (= m), d_k, d_v, padding lengths (or None)
CASES = [
    ("one head", (), 8192, 64, 64, None),
    ("one long head", (), 32768, 64, 64, None),
    ("batch x heads = 66 000", (1000, 66), 64, 64, 64, None),
    ("d_v = 1024", (), 4096, 64, 1024, None),
    ("padding mask (8, 1, m)", (8,), 8192, 64, 64, [8192, 5000, 2048, 1, 8000, 4096, 7, 6500]),
]


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


def time_case(cupy, batch, n, d_k, d_v, lengths):
    """{what: milliseconds} and the largest |tiled − plain|, |kernel − plain|."""
    rng = np.random.default_rng(n)
    query, key = (cupy.asarray(rng.standard_normal(batch + (n, d_k), dtype=np.float32))
                  for _ in range(2))
    value = cupy.asarray(rng.standard_normal(batch + (n, d_v), dtype=np.float32))
    mask = None if lengths is None else course_lib.padding_mask(cupy.asarray(lengths), n)
    runs = {
        "plain": lambda: course_lib.scaled_dot_product_attention(query, key, value,
                                                                  attn_mask=mask),
        "tiled": lambda: course_lib.tiled_attention(query, key, value, attn_mask=mask),
        "kernel": lambda: gpu_kernel.kernel_attention(query, key, value, attn_mask=mask),
    }
    if not batch:
        runs["products"] = lambda: (query @ key.T) @ value  # (n, n) then (n, d_v)
    plain = runs["plain"]()
    differences = [float(cupy.abs(runs[name]() - plain).max()) for name in ("tiled", "kernel")]
    del plain
    times = {name: best_milliseconds(cupy, func) for name, func in runs.items()}
    cupy.get_default_memory_pool().free_all_blocks()  # give the big grids back between rows
    return times, differences


HEADER = (f"  {'case':<24} {'batch':>10} {'n = m':>6} {'d_k':>4} {'d_v':>5} {'products':>9} "
          f"{'plain':>9} {'tiled':>9} {'kernel':>9} {'kernel/plain':>13}  "
          "max |tiled - plain|, |kernel - plain|")


def row(label, batch, n, d_k, d_v, times, differences):
    """One line of the table: milliseconds per contender ('-' for none), the kernel's ratio."""
    cells = " ".join(f"{times[what]:7.2f}ms" if what in times else f"{'-':>9}"
                     for what in ("products", "plain", "tiled", "kernel"))
    return (f"  {label:<24} {str(batch or '-'):>10} {n:6d} {d_k:4d} {d_v:5d} {cells} "
            f"{times['kernel'] / times['plain']:12.2f}x  {differences[0]:.1e}, "
            f"{differences[1]:.1e}")


def main():
    ok, reason = course_lib.gpu_status()
    if not ok:
        print(f"gpu_timing: SKIPPED - no usable GPU here ({reason.split('. ')[0]}).")
        return 0
    import cupy

    name = cupy.cuda.runtime.getDeviceProperties(0)["name"]
    name = name.decode() if isinstance(name, bytes) else name
    print(f"GPU timing on {name}, CuPy {cupy.__version__}, float32, best of {REPEATS} "
          "(CUDA events)")
    print(HEADER)
    for label, batch, n, d_k, d_v, lengths in CASES:
        times, differences = time_case(cupy, batch, n, d_k, d_v, lengths)
        print(row(label, batch, n, d_k, d_v, times, differences), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
