"""Work split over the CPU's cores, for the blocked and the tiled fast functions.

NumPy releases the GIL inside its matrix products and element-wise loops, so plain Python
threads, each working through its own blocks, keep every core busy. Two details matter
(measured with ``benchmarks/bench_attention.py`` and ``bench_tiled.py``):

* **One BLAS thread per product during a call.** OpenBLAS would otherwise split each small
  product over all cores again, and our threads and its threads wait on each other (4-10×
  slower on a busy machine; far worse for a single thread's small products).
  ``threadpoolctl`` sets the limit around the whole call and restores the previous setting
  afterwards, also when the call raises; calls from two Python threads take turns.
* **Blocks handed out on demand.** A thread slowed by a busy core (or given short causal
  blocks) takes fewer blocks instead of holding the others back.
"""

import functools
import os
import threading
from contextlib import contextmanager

__all__ = ["blas_on_one_thread", "run_tasks", "thread_count"]

MIN_WORK_PER_THREAD = 1 << 16  # scores; below this a thread costs more than it saves


@functools.cache
def _controller():
    """threadpoolctl's view of the BLAS libraries loaded here (found once, on first use)."""
    from threadpoolctl import ThreadpoolController

    return ThreadpoolController()


def thread_count(work):
    """How many threads are worth it for ``work`` scores (1 where BLAS cannot be held back).

    >>> thread_count(10)
    1
    """
    try:
        cpus = len(os.sched_getaffinity(0))  # the CPUs this process may use
    except AttributeError:  # macOS and Windows
        cpus = os.cpu_count() or 1
    if not _controller().select(user_api="blas"):
        return 1  # no BLAS threadpoolctl knows: do not add our threads on top of its own
    return max(1, min(cpus, work // MIN_WORK_PER_THREAD))


_one_call_at_a_time = threading.Lock()


@contextmanager
def blas_on_one_thread():
    """Hold BLAS to one thread inside; the previous setting is back on leaving, also on error.

    One parallel call at a time: a second one waits (both would share the same cores anyway),
    so the thread that set the limit is always the one that restores it.

    >>> from threadpoolctl import threadpool_info
    >>> before = [lib["num_threads"] for lib in threadpool_info()]
    >>> with blas_on_one_thread():
    ...     pass
    >>> [lib["num_threads"] for lib in threadpool_info()] == before
    True
    """
    with _one_call_at_a_time, _controller().limit(limits=1, user_api="blas"):
        yield


def run_tasks(tasks, work, threads, scratch=lambda: None):
    """Call ``work(task, buffer)`` for every task, on ``threads`` threads (this one included).

    ``scratch()`` makes each thread's own reusable buffer. BLAS is held to one thread per
    product for the whole call, also when one thread does all the work: the products of a
    block are small, and a threaded BLAS waiting for its own helpers on a busy machine made
    a 128 × 64 × 256 product take 48 ms instead of 0.2 ms here. An error in any thread is
    raised here, after every thread has stopped.

    >>> done = []
    >>> run_tasks(range(5), lambda task, buffer: done.append(task), threads=2)
    >>> sorted(done)
    [0, 1, 2, 3, 4]
    """
    tasks = list(tasks)
    threads = max(1, min(threads, len(tasks)))
    untaken, lock, errors = iter(tasks), threading.Lock(), []

    def worker():
        buffer = scratch()
        while not errors:
            with lock:
                task = next(untaken, None)
            if task is None:
                return
            try:
                work(task, buffer)
            except BaseException as exc:  # passed to the calling thread below
                errors.append(exc)

    with blas_on_one_thread():
        helpers = [threading.Thread(target=worker, name="course_lib.fast")
                   for _ in range(threads - 1)]
        for helper in helpers:
            helper.start()
        worker()  # this thread works too
        for helper in helpers:
            helper.join()
    if errors:
        raise errors[0]
