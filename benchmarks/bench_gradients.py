"""Time ``attention_gradients`` against the five matrix products it cannot avoid.

The backward pass needs Q Kᵀ (recomputed), then G Vᵀ, Aᵀ G, (∂L/∂S) K and (∂L/∂S)ᵀ Q: five
products of n×d by d×m size. Everything else (the softmax, the row totals) is element-wise work
on the n×m grid. Target: at most 2× the five products, measured in the same run (ratios, not
absolute times, are what carry from machine to machine), with the rounds of bursts of
``benchmarks/timing.py`` that the other benchmarks use; the CPU-time ratio is shown beside
the wall-clock one.

Run: ``python benchmarks/bench_gradients.py`` (or ``make bench``).
"""

import numpy as np
from timing import best_of_bursts

from course_lib import attention_gradients

N = M = 2048
D = 64
REPEATS = 7
TARGET = 2.0


def five_products(q, k, v, g):
    """The five products of the backward pass alone, on the same shapes (no softmax)."""
    scores = q @ k.T  # (n, m)
    grad_weights = g @ v.T  # (n, m)
    grad_value = scores.T @ g  # (m, d)
    grad_query = grad_weights @ k  # (n, d)
    grad_key = grad_weights.T @ q  # (m, d)
    return grad_query, grad_key, grad_value


def measure(n=N, m=M, d=D, seed=0):
    """{name: (best wall, best CPU seconds)} for the five products and attention_gradients,
    in interleaved rounds so that a noisy machine slows both alike."""
    rng = np.random.default_rng(seed)
    q, g = (rng.standard_normal((n, d), dtype=np.float32) for _ in range(2))
    k, v = (rng.standard_normal((m, d), dtype=np.float32) for _ in range(2))
    return best_of_bursts({"products": lambda: five_products(q, k, v, g),
                           "gradients": lambda: attention_gradients(q, k, v, g)}, REPEATS)


def main():
    t = measure()
    (products, products_cpu), (backward, backward_cpu) = t["products"], t["gradients"]
    ratio = backward / products
    flops = 5 * 2 * N * M * D
    print(f"attention_gradients, float32, n = m = {N}, d_k = d_v = {D} (best of {REPEATS} "
          "rounds of bursts)")
    print(f"{'what':<28}{'time (ms)':>12}{'GFLOP/s':>10}")
    print(f"{'five matrix products':<28}{products * 1e3:>12.1f}{flops / products / 1e9:>10.1f}")
    print(f"{'attention_gradients':<28}{backward * 1e3:>12.1f}{flops / backward / 1e9:>10.1f}")
    print(f"ratio {ratio:.2f}× (CPU time {backward_cpu / products_cpu:.2f}×)")
    return [(f"attention_gradients ≤ {TARGET:.0f}× its five products at n = m = {N}", ratio,
             TARGET)]


if __name__ == "__main__":
    for what, value, limit in main():
        print(f"{what}: {value:.2f}× ({'met' if value <= limit else 'NOT met'})")
