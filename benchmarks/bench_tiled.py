"""Tiled attention: its time against the two matrix products alone, and its peak extra memory.

Run with ``python benchmarks/bench_tiled.py`` (or ``make bench``). Targets, float32, d = 64:

* n = m ∈ {4096, 16384}: at most 1.5× the time of the two products QKᵀ and AV it needs,
  measured in the same run (best of a few repeats, interleaved, so that a noisy machine
  slows both sides alike);
* n = m = 32768: peak extra memory under 64 MiB, where the plain formula's score grid alone
  is 32768² × 4 bytes = 4 GiB. NumPy reports its allocations to ``tracemalloc``.
"""

import time
import tracemalloc

import numpy as np

from course_lib import tiled_attention

D = 64
SIZES = (4096, 16384)
MEMORY_SIZE = 32768
RATIO_TARGET = 1.5
MEMORY_TARGET_MIB = 64
REPEATS = 3


def _inputs(n, seed=0):
    rng = np.random.default_rng(seed)
    return [rng.standard_normal((n, D), dtype=np.float32) for _ in range(3)]


def _seconds(func):
    start = time.perf_counter()
    func()
    return time.perf_counter() - start


def time_against_products(n, repeats=REPEATS):
    """Best-of-``repeats`` seconds for (the two products alone, tiled attention) at n = m."""
    query, key, value = _inputs(n)
    scores = np.empty((n, n), dtype=np.float32)  # allocated (and touched) once, outside the timing
    output = np.empty((n, D), dtype=np.float32)

    def products():
        np.matmul(query, key.T, out=scores)  # (n, n)
        np.matmul(scores, value, out=output)  # (n, d)

    products()
    tiled_attention(query, key, value)  # warm up: threads, BLAS, page faults
    product_times, tiled_times = [], []
    for _ in range(repeats):
        product_times.append(_seconds(products))
        tiled_times.append(_seconds(lambda: tiled_attention(query, key, value)))
    return min(product_times), min(tiled_times)


def peak_extra_memory(n):
    """(seconds, peak bytes allocated during one tiled_attention call) at n = m."""
    query, key, value = _inputs(n)
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        before = tracemalloc.get_traced_memory()[0]
        seconds = _seconds(lambda: tiled_attention(query, key, value))
        peak = tracemalloc.get_traced_memory()[1] - before
    finally:
        tracemalloc.stop()
    return seconds, peak


def main():
    print(f"tiled_attention, float32, d = {D}, default block size")
    failures = []
    for n in SIZES:
        products, tiled = time_against_products(n)
        ratio = tiled / products
        verdict = "ok" if ratio <= RATIO_TARGET else f"ABOVE the {RATIO_TARGET}x target"
        print(f"  n = m = {n:5d}: two products {products:6.3f} s, tiled {tiled:6.3f} s, "
              f"ratio {ratio:4.2f}x  ({verdict})")
        if ratio > RATIO_TARGET:
            failures.append(n)
    seconds, peak = peak_extra_memory(MEMORY_SIZE)
    grid_gib = MEMORY_SIZE * MEMORY_SIZE * 4 / 2**30
    memory_ok = peak < MEMORY_TARGET_MIB * 2**20
    verdict = "ok" if memory_ok else f"ABOVE the {MEMORY_TARGET_MIB} MiB target"
    print(f"  n = m = {MEMORY_SIZE}: tiled {seconds:6.3f} s, peak extra memory "
          f"{peak / 2**20:5.1f} MiB ({verdict}); the score grid alone would be {grid_gib:.0f} GiB")
    return 0 if not failures and memory_ok else 1

if __name__ == "__main__":
    raise SystemExit(main())
