"""scaled_dot_product_attention against the two matrix products it cannot avoid.

Run with ``python benchmarks/bench_attention.py`` (or ``make bench``); add
``PYTHONPATH=/path/to/torch`` to include PyTorch's CPU kernel where it is installed.

Attention needs QKᵀ (n·m·d_k multiply-adds) and AV (n·m·d_v); everything else (the scale, the
softmax, the masks) should cost little on top. So the yardstick is those two products alone,
into buffers allocated once (the fastest they can be), timed in the same run, interleaved with
the attention call so that a noisy machine slows both alike; each figure is the median of the
repeats. Targets, float32, d_k = d_v = 64: at most 1.3× the two products at n = m = 2048 and
4096, never over 1.6×; at 512 fixed costs (checks, threads) weigh more, so it is reported only.
Compare ratios within one run, not seconds across runs or machines.

A busy machine (other jobs on the same cores) spoils wall-clock ratios, so the table adds a
second, sturdier figure: the CPU time both sides consume with BLAS held to one thread per
product (``CPU ratio``). It counts work, not waiting, so it moves little with the load, and on
an idle machine the wall-clock ratio comes close to it when both sides spread over the cores
alike. The load average is printed so that a reader can tell which figure to trust.

Each timed call starts after a short pause: after a multi-threaded product, OpenBLAS keeps its
worker threads spinning for about 0.1 s (measured here), and they would steal a core from
whatever runs next, so without the pause each contender would be timed against the leftovers
of the one before it.
"""

import os
import statistics
import time

import numpy as np

from course_lib import scaled_dot_product_attention
from course_lib._threads import _one_blas_thread, _openblas
from course_lib.attention import _attention_whole_grid

D = 64
SIZES = (512, 2048, 4096)
REPEATS = {512: 21, 2048: 15, 4096: 9}
CPU_REPEATS = 7
PAUSE = 0.15  # seconds before each timed call: OpenBLAS's idle threads spin for about 0.1 s
TARGET, LIMIT = 1.3, 1.6


def _inputs(n, seed=0):
    rng = np.random.default_rng(seed)
    return [rng.standard_normal((n, D), dtype=np.float32) for _ in range(3)]


def _seconds(func):
    time.sleep(PAUSE)
    start = time.perf_counter()
    func()
    return time.perf_counter() - start


def _cpu_seconds(func):
    start = time.process_time()  # all of this process's threads, running or not
    func()
    return time.process_time() - start


def cpu_ratio(products, attention, repeats=CPU_REPEATS):
    """Median CPU time of attention / of the products, BLAS on one thread per product.

    None where NumPy's BLAS cannot be held to one thread (its idle threads would spin and
    count).
    """
    if _openblas() is None:
        return None
    time.sleep(PAUSE)  # let BLAS threads left spinning by earlier calls go to sleep
    with _one_blas_thread():
        times = {products: [], attention: []}
        for _ in range(repeats):
            for func in times:
                times[func].append(_cpu_seconds(func))
    return statistics.median(times[attention]) / statistics.median(times[products])


def _torch_sdpa(query, key, value):
    """PyTorch's CPU attention on the same numbers, or None where PyTorch is not installed."""
    try:
        import torch
        import torch.nn.functional as F
    except ImportError:
        return None
    q, k, v = (torch.from_numpy(a) for a in (query, key, value))

    def run():
        with torch.no_grad():
            F.scaled_dot_product_attention(q, k, v)

    return run


def time_one_size(n, repeats):
    """Median seconds per call at n = m: {name: seconds} for each contender."""
    query, key, value = _inputs(n)
    scores = np.empty((n, n), dtype=np.float32)  # allocated (and touched) once, outside timing
    output = np.empty((n, D), dtype=np.float32)

    def products():
        np.matmul(query, key.T, out=scores)  # (n, m)
        np.matmul(scores, value, out=output)  # (n, d_v)

    contenders = {
        "products": products,
        "attention": lambda: scaled_dot_product_attention(query, key, value),
        "whole grid": lambda: _attention_whole_grid(np, query / np.float32(D ** 0.5), key,
                                                    value, None, False),
    }
    torch_run = _torch_sdpa(query, key, value)
    if torch_run is not None:
        contenders["pytorch"] = torch_run
    for func in contenders.values():  # warm up: threads, BLAS buffers, page faults
        func()
    times = {name: [] for name in contenders}
    for _ in range(repeats):
        for name, func in contenders.items():
            times[name].append(_seconds(func))
    medians = {name: statistics.median(ts) for name, ts in times.items()}
    medians["cpu ratio"] = cpu_ratio(products, contenders["attention"])
    return medians


def main(sizes=SIZES):
    """Print the table; return the ratios {n: attention / products}."""
    print(f"float32, d_k = d_v = {D}, {os.cpu_count()} CPUs, load average "
          f"{os.getloadavg()[0]:.1f} at the start; median of interleaved repeats")
    print(f"{'n = m':>6} {'attention':>10} {'2 products':>11} {'ratio':>6} "
          f"{'whole grid':>11} {'PyTorch':>8} {'CPU ratio':>10}")
    ratios = {}
    for n in sizes:
        t = time_one_size(n, REPEATS.get(n, 11))
        ratios[n] = t["attention"] / t["products"]
        torch_ratio = (f"{t['pytorch'] / t['products']:7.2f}×" if "pytorch" in t
                       else f"{'absent':>8}")
        cpu = f"{t['cpu ratio']:9.2f}×" if t["cpu ratio"] is not None else f"{'n/a':>10}"
        print(f"{n:>6} {t['attention'] * 1e3:>8.2f}ms {t['products'] * 1e3:>9.2f}ms "
              f"{ratios[n]:>5.2f}× {t['whole grid'] / t['products']:>10.2f}× {torch_ratio} {cpu}",
              flush=True)
    print("ratio = time / time of the two products alone; whole grid = the formula computed "
          "on the full (n, m) grid in one step each;\nCPU ratio = CPU time / CPU time of the "
          "products, BLAS on one thread (sturdier on a busy machine)")
    print(f"target at 2048 and 4096: ≤ {TARGET}× (never over {LIMIT}×); load average "
          f"{os.getloadavg()[0]:.1f} at the end")
    return ratios


if __name__ == "__main__":
    main()
