"""How long a call takes, for the timings in the notebooks. The benchmarks time differently
(contenders side by side, in rounds of bursts): ``benchmarks/timing.py``.
"""

import time

__all__ = ["best_time"]


def best_time(func, *args, repeats=5, budget=0.0, sync=None, **kwargs):
    """The shortest of at least ``repeats`` timed calls ``func(*args, **kwargs)`` (more until they
    took ``budget`` seconds in all), in seconds: the least disturbed by other work on the
    machine. ``sync()``, if given, runs inside each timing after the call: pass a GPU's
    synchronize so the time counts the work and not only its launch.

    >>> best_time(sum, [1, 2, 3], repeats=3) < 1.0
    True
    >>> best_time(sorted, [3, 1, 2], reverse=True, repeats=3) < 1.0  # keywords go to the call
    True
    >>> calls = []
    >>> _ = best_time(calls.append, 1, repeats=2, sync=lambda: calls.append("sync"))
    >>> calls
    [1, 'sync', 1, 'sync']
    """
    times = []
    while len(times) < repeats or sum(times) < budget:
        start = time.perf_counter()
        func(*args, **kwargs)
        if sync is not None:
            sync()
        times.append(time.perf_counter() - start)
    return min(times)
