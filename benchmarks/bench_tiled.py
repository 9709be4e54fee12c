"""Tiled attention: time against the two matrix products alone, and peak extra memory.

Run with ``python benchmarks/bench_tiled.py`` (or ``make bench``). float32, d = 64, default
block size. Targets:

* ``course_lib.fast.tiled_attention`` at n = m ∈ {2048, 4096}: at most 1.5× the two products
  QKᵀ and AV, measured in the same run (rounds of bursts, benchmarks/timing.py; wall and CPU);
* both tiled functions (the teaching ``course_lib.tiled_attention`` and the fast one) at
  n = m = 32768: peak extra memory under 64 MiB, where the plain formula's score grid alone is
  32768² × 4 bytes = 4 GiB. NumPy reports its allocations to ``tracemalloc``.

The teaching function has no speed target (it is what a learner reads); its ratio is shown.
"""

import tracemalloc

import numpy as np
from timing import best_of_bursts, timed

from course_lib import fast, tiled_attention

D = 64
SIZES = (2048, 4096)
MEMORY_SIZE = 32768
RATIO_TARGET = 1.5
MEMORY_TARGET_MIB = 64
REPEATS = 5


def _inputs(n, seed=0):
    rng = np.random.default_rng(seed)
    return [rng.standard_normal((n, D), dtype=np.float32) for _ in range(3)]


def time_against_products(n, repeats=REPEATS):
    """{name: (best wall, best CPU seconds)} for the products and both tiled functions."""
    query, key, value = _inputs(n)
    scores = np.empty((n, n), dtype=np.float32)  # allocated (and touched) once
    output = np.empty((n, D), dtype=np.float32)

    def products():
        np.matmul(query, key.T, out=scores)  # (n, n)
        np.matmul(scores, value, out=output)  # (n, d)

    runs = {"products": products,
            "fast tiled": lambda: fast.tiled_attention(query, key, value),
            "teaching tiled": lambda: tiled_attention(query, key, value)}
    return best_of_bursts(runs, repeats)  # benchmarks/timing.py


def peak_extra_memory(function, n):
    """(seconds, peak bytes allocated during one call) at n = m."""
    query, key, value = _inputs(n)
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        before = tracemalloc.get_traced_memory()[0]
        seconds = timed(lambda: function(query, key, value))[0]
        peak = tracemalloc.get_traced_memory()[1] - before
    finally:
        tracemalloc.stop()
    return seconds, peak


def main():
    """Print the table; return the targets as (what, value, limit) triples."""
    print(f"tiled attention, float32, d = {D}, default block size; best of {REPEATS} rounds")
    print(f"{'n = m':>6} {'2 products':>11} {'fast tiled':>11} {'ratio':>6} {'CPU ratio':>10} "
          f"{'teaching':>10} {'ratio':>6}")
    targets = []
    for n in SIZES:
        t = time_against_products(n)
        wall = {name: t[name][0] / t["products"][0] for name in t}
        cpu = t["fast tiled"][1] / t["products"][1]
        print(f"{n:>6} {t['products'][0] * 1e3:9.1f}ms {t['fast tiled'][0] * 1e3:9.1f}ms "
              f"{wall['fast tiled']:5.2f}× {cpu:9.2f}× {t['teaching tiled'][0] * 1e3:8.1f}ms "
              f"{wall['teaching tiled']:5.2f}×", flush=True)
        targets.append((f"fast.tiled_attention ≤ {RATIO_TARGET}× the two products at n = m = {n}",
                        wall["fast tiled"], RATIO_TARGET))
    grid_gib = MEMORY_SIZE * MEMORY_SIZE * 4 / 2**30
    for name, function in (("tiled_attention", tiled_attention),
                           ("fast.tiled_attention", fast.tiled_attention)):
        seconds, peak = peak_extra_memory(function, MEMORY_SIZE)
        print(f"{name} at n = m = {MEMORY_SIZE}: {seconds:6.1f} s, peak extra memory "
              f"{peak / 2**20:5.1f} MiB (the score grid alone would be {grid_gib:.0f} GiB)",
              flush=True)
        targets.append((f"{name} extra memory at n = m = {MEMORY_SIZE} < {MEMORY_TARGET_MIB} MiB",
                        peak / 2**20, MEMORY_TARGET_MIB))
    return targets


if __name__ == "__main__":
    for what, value, limit in main():
        print(f"{what}: {value:.2f} ({'met' if value <= limit else 'NOT met'})")
