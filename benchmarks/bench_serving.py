"""Split-KV against one pass: ``attention_with_kv_cache`` over a long cache with a few queries.

Flash-Decoding's case: one sequence, a long cache (16384 tokens), 1 or 4 new queries, 8 query
heads over 2 key/value heads, d = 64, float32, a contiguous and a paged cache (blocks of 256
slots, scattered). Each row times ``num_splits`` = 1 (one pass) and the ratios for 2 … 16
splits, wall-clock and CPU time, measured in the same run (rounds of bursts,
benchmarks/timing.py). Both agree to 1e-7: split-KV computes the same numbers. BLAS runs
on one thread for every contender: with ≤ 4 query rows each product is tiny, and a second
BLAS thread only waits at barriers (on a loaded machine, 100× slower).

The course's function runs its splits one after the other, so split-KV brings no parallelism
here: the ratios stay near 1 (measured 0.8–1.2× on 2 cores), the merge and the smaller tiles
cost little. On a GPU the splits run side by side on streaming multiprocessors that a single
query row would leave idle: that is why Flash-Decoding is faster there. No target: the
teaching function has none.

Run: ``python benchmarks/bench_serving.py`` (or ``make bench``).
"""

import numpy as np
from threadpoolctl import threadpool_limits
from timing import best_of_bursts

from course_lib import attention_with_kv_cache
from course_lib.serving import allocate_blocks

CACHE = 16384
HEADS, KV_HEADS, D = 8, 2, 64
PAGE = 256
QUERIES = (1, 4)
SPLITS = (1, 2, 4, 8, 16)
ROUNDS = 5


def inputs(n, paged, seed=0):
    """q, k_cache, v_cache, cache_seqlens and block_table for one sequence of CACHE tokens."""
    rng = np.random.default_rng(seed)
    q = rng.standard_normal((1, n, HEADS, D), dtype=np.float32)
    if not paged:
        shape, table = (1, CACHE, KV_HEADS, D), None
    else:
        blocks = CACHE // PAGE
        table = allocate_blocks([CACHE, CACHE], PAGE)[:1]  # every other block: scattered
        shape = (2 * blocks, PAGE, KV_HEADS, D)
    k_cache, v_cache = (rng.standard_normal(shape, dtype=np.float32) for _ in range(2))
    return q, k_cache, v_cache, np.array([CACHE - n]), table


def measure(n, paged):
    """{num_splits: (best wall, best CPU seconds)} for the last n tokens' queries (causal)."""
    q, k_cache, v_cache, cached, table = inputs(n, paged)
    k_new, v_new = k_cache[:1, :n].copy(), v_cache[:1, :n].copy()  # (1, n, kv_heads, d)
    runs = {splits: (lambda splits=splits: attention_with_kv_cache(
        q, k_cache, v_cache, cached, k=k_new, v=v_new, block_table=table, causal=True,
        num_splits=splits)) for splits in SPLITS}
    return best_of_bursts(runs, ROUNDS)


def check_equal(n, paged):
    """Largest difference between split-KV and one pass (the benchmark times equal numbers)."""
    q, k_cache, v_cache, cached, table = inputs(n, paged)
    one = attention_with_kv_cache(q, k_cache, v_cache, cached + n, block_table=table)
    return max(float(np.abs(attention_with_kv_cache(q, k_cache, v_cache, cached + n,
                                                    block_table=table, num_splits=s) - one).max())
               for s in SPLITS[1:])


def main():
    with threadpool_limits(limits=1, user_api="blas"):  # products of ≤ 4 rows: threads only wait
        return _table()


def _table():
    lines = [f"attention_with_kv_cache: 1 sequence, cache of {CACHE} tokens, {HEADS} query heads "
             f"over {KV_HEADS} key/value heads, d = {D}, float32, causal; best of {ROUNDS} rounds",
             f"{'cache':<12}{'queries':>8}{'1 split':>10}" +
             "".join(f"{f'{s} splits':>13}" for s in SPLITS[1:]) + f"{'max |Δ|':>10}"]
    for paged in (False, True):
        for n in QUERIES:
            t = measure(n, paged)
            ratios = "".join(f"{t[s][0] / t[1][0]:>6.2f}×{t[s][1] / t[1][1]:>5.2f}×"
                             for s in SPLITS[1:])
            layout = f"paged {PAGE}" if paged else "contiguous"
            lines.append(f"{layout:<12}{n:>8}{t[1][0] * 1e3:>8.1f}ms{ratios}"
                         f"{check_equal(n, paged):>10.1e}")
    lines.append("each ratio: time with that many splits ÷ time of one pass in the same run, "
                 "wall then CPU")
    return "\n".join(lines)


if __name__ == "__main__":
    print(main())
