"""How the benchmarks time a function: rounds of bursts, each contender's best call.

Each contender runs again and again for ``burst`` seconds, then the next one, round after
round, and keeps its best call (wall-clock and CPU time of every thread of the process).

* The first calls of a burst pay for the previous contender's threads: OpenBLAS's idle
  workers spin for about 0.1 s after a threaded product, PyTorch's OpenMP pool likewise, and
  steal a core from whatever runs next; the later calls show the function's own cost.
* A pause before each call would avoid that too, but on a virtual machine an idle core wakes
  up slowly, which costs the functions that start threads most.
* The rounds spread any change of the machine's load over every contender: compare the
  ratios of one run, not seconds across runs.
"""

import time

__all__ = ["best_of_bursts", "timed"]

BURST = 0.3  # seconds a contender runs back to back: longer than OpenBLAS's 0.1 s of spinning


def timed(func):
    """(wall seconds, CPU seconds of every thread of this process) for one call."""
    wall, cpu = time.perf_counter(), time.process_time()
    func()
    return time.perf_counter() - wall, time.process_time() - cpu


def best_of_bursts(runs, rounds, burst=BURST):
    """{name: (best wall, best CPU seconds)} for ``runs``, a dict name → function."""
    for func in runs.values():  # warm up: threads, BLAS buffers, page faults
        func()
    times = {name: [] for name in runs}
    for _ in range(rounds):
        for name, func in runs.items():
            start = time.perf_counter()
            while not times[name] or time.perf_counter() - start < burst:
                times[name].append(timed(func))
    return {name: (min(t[0] for t in ts), min(t[1] for t in ts)) for name, ts in times.items()}
