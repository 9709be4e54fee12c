"""The forward pass side by side: course_lib.fast.attention, the plain formula, the two matrix
products it cannot avoid, and PyTorch's CPU kernel where PyTorch is installed.

Run with ``python benchmarks/bench_attention.py`` (or ``make bench``). float32, d_k = d_v = 64,
n = m ∈ {2048, 4096}. Targets for ``fast.attention``: at most 1.3× PyTorch's
``scaled_dot_product_attention`` (where installed) and at most 1.3× the two products QKᵀ and
AV. The plain formula is what a learner reads: it has no target, it is shown for scale.

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
TARGET = 1.3


def _inputs(n, seed=0):
    rng = np.random.default_rng(seed)
    return [rng.standard_normal((n, D), dtype=np.float32) for _ in range(3)]


def _torch_sdpa(query, key, value):
    """PyTorch's CPU attention on the same numbers, or None where PyTorch cannot be imported."""
    # PyTorch's OpenMP threads spin for a while after each call by default (Intel's runtime
    # for 200 ms), taking the cores from whatever runs next; passive waiting ends that.
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    os.environ.setdefault("KMP_BLOCKTIME", "0")
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


def contenders(n):
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
    torch_run = _torch_sdpa(query, key, value)
    if torch_run is not None:
        runs["pytorch"] = torch_run
    return runs


def time_one_size(n, repeats):
    """Best wall and best CPU seconds per contender: {name: (wall, cpu)} (benchmarks/timing)."""
    return best_of_bursts(contenders(n), repeats)


def main(sizes=SIZES):
    """Print the table; return the targets as (what, ratio, limit) triples."""
    print(f"float32, d_k = d_v = {D}, {os.cpu_count()} CPUs, load average "
          f"{os.getloadavg()[0]:.1f} at the start; best of interleaved repeats")
    header = f"{'n = m':>6} {'fast':>9} {'plain':>9} {'2 products':>11} {'PyTorch':>9}"
    print(header + "   fast/products  fast/PyTorch  (CPU time: fast/products  fast/PyTorch)")
    targets, has_torch = [], True
    for n in sizes:
        t = time_one_size(n, REPEATS.get(n, 5))
        has_torch = "pytorch" in t
        ms = {name: f"{wall * 1e3:7.1f}ms" for name, (wall, _) in t.items()}
        ratio = {name: t["fast"][0] / t[name][0] for name in t}
        cpu = {name: t["fast"][1] / t[name][1] for name in t}
        torch_cells = ((f"{ratio['pytorch']:11.2f}×", f"{cpu['pytorch']:12.2f}×") if has_torch
                       else (f"{'—':>12}", f"{'—':>13}"))
        print(f"{n:>6} {ms['fast']:>9} {ms['plain']:>9} {ms['products']:>11} "
              f"{ms.get('pytorch', 'absent'):>9} {ratio['products']:13.2f}× {torch_cells[0]}"
              f"  {cpu['products']:22.2f}× {torch_cells[1]}", flush=True)
        targets.append((f"fast.attention ≤ {TARGET}× the two products at n = m = {n}",
                        ratio["products"], TARGET))
        if has_torch:
            targets.append((f"fast.attention ≤ {TARGET}× PyTorch CPU SDPA at n = m = {n}",
                            ratio["pytorch"], TARGET))
    if not has_torch:
        print("PyTorch column skipped: `import torch` failed here (pip install torch to add it)")
    print(f"load average {os.getloadavg()[0]:.1f} at the end")
    return targets


if __name__ == "__main__":
    for what, value, limit in main():
        print(f"{what}: {value:.2f}× ({'met' if value <= limit else 'NOT met'})")
