"""The forward pass side by side: course_lib.fast.attention, the plain formula, the two matrix
products it cannot avoid, and PyTorch's CPU scaled_dot_product_attention where PyTorch is
installed.

Run with ``python benchmarks/bench_attention.py`` (or ``make bench``). float32, d_k = d_v = 64,
n = m ∈ {2048, 4096}. Targets for ``fast.attention``: at most 1.0× PyTorch's
``scaled_dot_product_attention`` and at most 1.3× the two products QKᵀ and AV. The plain
formula is what a learner reads: it has no target, it is shown for scale.

PyTorch runs twice, on the same numbers:

* **(n, d) tensors**, the shapes course_lib's functions take: PyTorch's SDPA then runs its
  "math" path (QKᵀ, softmax, AV as three operations; the fused kernels need 4-D inputs);
* **(1, 1, n, d) tensors**, (batch, heads, n, d): its fused CPU kernel (FlashAttention's tiles).

PyTorch keeps its defaults: its thread count (one per core, ``torch.get_num_threads()``) and
its OpenMP settings are not touched, and the header prints the thread count, checked again
after the runs (course_lib.fast holds only BLAS to one thread during its own calls, through
threadpoolctl, and restores it).

The contenders run in interleaved rounds, each the best of its calls, so that a noisy machine
slows them alike; compare the ratios of one run, not seconds across runs. A busy machine
spoils wall-clock ratios, so the table adds CPU-time ratios (``time.process_time``, all
threads): they count work, not waiting, and move little with the load. How each call is timed
(rounds of bursts) is in ``benchmarks/timing.py``.
"""

import os

import numpy as np
from timing import best_of_bursts

from course_lib import fast, scaled_dot_product_attention

D = 64
SIZES = (2048, 4096)
REPEATS = {2048: 9, 4096: 5}
PRODUCTS_TARGET = 1.3
TORCH_TARGET = 1.0


def _inputs(n, seed=0):
    rng = np.random.default_rng(seed)
    return [rng.standard_normal((n, D), dtype=np.float32) for _ in range(3)]


def _torch():
    """The torch module, or None where it cannot be imported."""
    try:
        import torch
    except ImportError:
        return None
    return torch


def _torch_runs(torch, query, key, value):
    """{name: function} running PyTorch's SDPA on (n, d) and on (1, 1, n, d) tensors."""
    import torch.nn.functional as F

    flat = [torch.from_numpy(a) for a in (query, key, value)]  # (n, d)
    heads = [a[None, None] for a in flat]  # (1, 1, n, d)

    def sdpa(tensors):
        def run():
            with torch.no_grad():
                F.scaled_dot_product_attention(*tensors)
        return run

    return {"pytorch (n, d)": sdpa(flat), "pytorch (1,1,n,d)": sdpa(heads)}


def contenders(n, torch=None):
    """{name: function of no arguments} at n = m."""
    query, key, value = _inputs(n)
    scores = np.empty((n, n), dtype=np.float32)  # allocated (and touched) once, outside timing
    output = np.empty((n, D), dtype=np.float32)

    def products():
        np.matmul(query, key.T, out=scores)  # (n, m)
        np.matmul(scores, value, out=output)  # (n, d_v)

    runs = {"fast": lambda: fast.attention(query, key, value),
            "plain": lambda: scaled_dot_product_attention(query, key, value),
            "products": products}
    if torch is not None:
        runs.update(_torch_runs(torch, query, key, value))
    return runs


def time_one_size(n, repeats, torch=None):
    """Best wall and best CPU seconds per contender: {name: (wall, cpu)} (benchmarks/timing)."""
    return best_of_bursts(contenders(n, torch), repeats)


def main(sizes=SIZES):
    """Print the table; return the targets as (what, ratio, limit) triples."""
    torch = _torch()
    threads = None if torch is None else torch.get_num_threads()
    print(f"float32, d_k = d_v = {D}, {os.cpu_count()} CPUs, load average "
          f"{os.getloadavg()[0]:.1f} at the start; best of interleaved repeats")
    if torch is None:
        print("PyTorch columns skipped: `import torch` failed here (pip install torch to add it)")
    else:
        print(f"PyTorch {torch.__version__} with its default {threads} threads (one per core: "
              f"os.cpu_count() = {os.cpu_count()}); (n, d) tensors run its math path, "
              "(1, 1, n, d) its fused kernel")
    names = ["fast", "plain", "products"] + ([] if torch is None else
                                             ["pytorch (n, d)", "pytorch (1,1,n,d)"])
    print(f"{'n = m':>10} " + " ".join(f"{name:>17}" for name in names))
    targets = []
    for n in sizes:
        t = time_one_size(n, REPEATS.get(n, 5), torch)
        print(f"{n:>10} " + " ".join(f"{t[name][0] * 1e3:15.1f}ms" for name in names))
        for label, which in (("fast ÷ it", 0), ("CPU time", 1)):
            print(f"{label:>10} {'':>17} " + " ".join(
                f"{t['fast'][which] / t[name][which]:16.2f}×" for name in names[1:]))
        targets.append((f"fast.attention ≤ {PRODUCTS_TARGET}× the two products at n = m = {n}",
                        t["fast"][0] / t["products"][0], PRODUCTS_TARGET))
        for name in names[3:]:
            targets.append((f"fast.attention ≤ {TORCH_TARGET}× PyTorch CPU SDPA on "
                            f"{name.split(' ', 1)[1]} at n = m = {n}",
                            t["fast"][0] / t[name][0], TORCH_TARGET))
    if torch is not None and torch.get_num_threads() != threads:
        raise RuntimeError(f"PyTorch's thread count changed during the runs: {threads} → "
                           f"{torch.get_num_threads()}")
    print(f"load average {os.getloadavg()[0]:.1f} at the end")
    return targets


if __name__ == "__main__":
    for what, value, limit in main():
        print(f"{what}: {value:.2f}× ({'met' if value <= limit else 'NOT met'})")
