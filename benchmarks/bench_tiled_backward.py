"""The tiled backward pass: time against its matrix products, and peak extra memory.

Run with ``python benchmarks/bench_tiled_backward.py`` (or ``make bench``). float32, d = 64,
default block size. ``tiled_attention_gradients`` runs the tiled forward (two products per
tile: Q Kᵀ and A V) and then the backward (five per tile: Q Kᵀ again, Aᵀ G, G Vᵀ, (∂L/∂S) K,
(∂L/∂S)ᵀ Q). Targets:

* ``course_lib.fast.tiled_attention_gradients`` at n = m ∈ {2048, 4096}: at most 2.5× those
  seven products done on the whole grids, measured in the same run (rounds of bursts,
  benchmarks/timing.py). The teaching ``course_lib.tiled_attention_gradients`` (one core,
  new arrays at every step) has no speed target; its ratio is shown;
* both at n = m = 32768: peak extra memory under 64 MiB (tracemalloc; NumPy reports its
  allocations), the returned gradients included, where one score grid alone is 4 GiB and
  ``attention_gradients`` holds several.
"""

import tracemalloc

import numpy as np
from timing import best_of_bursts, timed

from course_lib import fast
from course_lib.tiled_backward import tiled_attention_gradients

D = 64
SIZES = (2048, 4096)
MEMORY_SIZE = 32768
RATIO_TARGET = 2.5
MEMORY_TARGET_MIB = 64
REPEATS = 5


def _inputs(n, seed=0):
    rng = np.random.default_rng(seed)
    return [rng.standard_normal((n, D), dtype=np.float32) for _ in range(4)]  # Q, K, V, G


def time_against_products(n, repeats=REPEATS):
    """{name: best seconds} for the seven whole-grid products and both tiled backwards."""
    query, key, value, grad = _inputs(n)
    scores, grad_weights = (np.empty((n, n), dtype=np.float32) for _ in range(2))  # touched once

    def products():
        np.matmul(query, key.T, out=scores)  # forward: S = Q Kᵀ, (n, n)
        scores @ value  # forward: A V, (n, d)
        np.matmul(query, key.T, out=scores)  # backward: S recomputed
        np.matmul(grad, value.T, out=grad_weights)  # G Vᵀ, (n, n)
        scores.T @ grad  # Aᵀ G, (n, d)
        grad_weights @ key  # (∂L/∂S) K, (n, d)
        grad_weights.T @ query  # (∂L/∂S)ᵀ Q, (n, d)

    runs = {"products": products,
            "fast": lambda: fast.tiled_attention_gradients(query, key, value, grad),
            "teaching": lambda: tiled_attention_gradients(query, key, value, grad)}
    return {name: wall for name, (wall, _) in best_of_bursts(runs, repeats).items()}


def peak_extra_memory(function, n):
    """(seconds, peak bytes allocated during one call) at n = m."""
    query, key, value, grad = _inputs(n)
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        before = tracemalloc.get_traced_memory()[0]
        seconds = timed(lambda: function(query, key, value, grad))[0]
        peak = tracemalloc.get_traced_memory()[1] - before
    finally:
        tracemalloc.stop()
    return seconds, peak


def main():
    """Print the table; return the targets as (what, value, limit) triples."""
    print(f"tiled_attention_gradients (forward + backward), float32, d = {D}, default block "
          f"size; best of {REPEATS}")
    print(f"{'n = m':>6} {'7 products':>11} {'fast':>10} {'ratio':>6} {'teaching':>10} "
          f"{'ratio':>6}")
    targets = []
    for n in SIZES:
        t = time_against_products(n)
        ratio = {name: t[name] / t["products"] for name in t}
        print(f"{n:>6} {t['products'] * 1e3:9.1f}ms {t['fast'] * 1e3:8.1f}ms "
              f"{ratio['fast']:5.2f}× {t['teaching'] * 1e3:8.1f}ms {ratio['teaching']:5.2f}×",
              flush=True)
        targets.append((f"fast.tiled_attention_gradients ≤ {RATIO_TARGET}× its seven products "
                        f"at n = m = {n}", ratio["fast"], RATIO_TARGET))
    grid_gib = MEMORY_SIZE * MEMORY_SIZE * 4 / 2**30
    for name, function in (("tiled_attention_gradients", tiled_attention_gradients),
                           ("fast.tiled_attention_gradients", fast.tiled_attention_gradients)):
        seconds, peak = peak_extra_memory(function, MEMORY_SIZE)
        print(f"{name} at n = m = {MEMORY_SIZE}: {seconds:6.1f} s, peak extra memory "
              f"{peak / 2**20:5.1f} MiB with the gradients (one score grid alone: "
              f"{grid_gib:.0f} GiB)", flush=True)
        targets.append((f"{name} extra memory at n = m = {MEMORY_SIZE} < {MEMORY_TARGET_MIB} "
                        "MiB", peak / 2**20, MEMORY_TARGET_MIB))
    return targets


if __name__ == "__main__":
    for what, value, limit in main():
        print(f"{what}: {value:.2f} ({'met' if value <= limit else 'NOT met'})")
