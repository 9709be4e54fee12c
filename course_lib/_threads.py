"""Work split over the CPU's cores, shared by the blocked attention and tiled attention.

NumPy releases the GIL inside its matrix products and element-wise loops, so plain Python
threads, each working through its own blocks, keep every core busy. Two details matter
(measured with ``benchmarks/bench_attention.py`` and ``bench_tiled.py``):

* **One BLAS thread per product inside our threads.** OpenBLAS would otherwise split each
  small product over all cores again, and our threads and its threads wait on each other
  (4-10× slower on a busy machine). OpenBLAS ≥ 0.3.27 can be told so for the calling thread
  alone (``openblas_set_num_threads_local``); an older one only globally, which we do while
  any of our threads run and undo afterwards. Where no OpenBLAS is found (another BLAS), we
  run one thread and leave BLAS its own threads.
* **A pool kept between calls, blocks handed out on demand.** Starting threads costs about
  as much as a small attention; and a thread slowed by a busy core (or given short causal
  blocks) takes fewer blocks instead of holding the others back.
"""

import ctypes
import glob
import os
import sys
import threading
from concurrent.futures import ThreadPoolExecutor, wait
from contextlib import contextmanager

import numpy as np

__all__ = ["run_tasks", "thread_count"]

MIN_WORK_PER_THREAD = 1 << 16  # scores; below this a thread costs more than it saves


def thread_count(work):
    """How many threads are worth it for ``work`` scores (1 where BLAS cannot be held back).

    >>> thread_count(10)
    1
    """
    try:
        cpus = len(os.sched_getaffinity(0))  # the CPUs this process may use
    except AttributeError:  # macOS and Windows
        cpus = os.cpu_count() or 1
    if _openblas() is None:
        return 1  # BLAS's own threads cannot be held back: do not add ours on top
    return max(1, min(cpus, work // MIN_WORK_PER_THREAD))


def run_tasks(tasks, work, threads, scratch=lambda: None):
    """Call ``work(task, buffer)`` for every task, on ``threads`` threads (this one included).

    ``scratch()`` makes each thread's own reusable buffer. An error in any thread is raised
    here, after every thread has stopped.

    >>> done = []
    >>> run_tasks(range(5), lambda task, buffer: done.append(task), threads=2)
    >>> sorted(done)
    [0, 1, 2, 3, 4]
    """
    tasks = list(tasks)
    threads = max(1, min(threads, len(tasks)))
    if threads == 1:  # no threads of ours: BLAS keeps its own
        buffer = scratch()
        for task in tasks:
            work(task, buffer)
        return
    untaken, lock = iter(tasks), threading.Lock()

    def next_task():
        with lock:
            return next(untaken, None)

    def worker():
        buffer = scratch()
        with _one_blas_thread():
            while (task := next_task()) is not None:
                work(task, buffer)

    futures = [_pool(threads - 1).submit(worker) for _ in range(threads - 1)]
    try:
        worker()  # this thread works too
    finally:
        wait(futures)
    for future in futures:
        future.result()  # re-raises an error from that thread here


_pools = {}


def _pool(workers):
    """A pool kept between calls; one per process (a forked child does not get the threads)."""
    key = (os.getpid(), workers)
    if key not in _pools:
        _pools[key] = ThreadPoolExecutor(workers, thread_name_prefix="course_lib")
    return _pools[key]


_blas = {"looked": False, "functions": None, "users": 0, "saved": 1, "lock": threading.Lock()}


def _openblas():
    """{"local": set-for-this-thread or None, "get", "set"} for NumPy's OpenBLAS, or None."""
    if not _blas["looked"]:
        _blas["looked"], _blas["functions"] = True, _find_openblas()
    return _blas["functions"]


def _find_openblas():
    here = os.path.dirname(os.path.dirname(np.__file__))  # NumPy's wheels bundle OpenBLAS
    paths = glob.glob(os.path.join(here, "numpy.libs", "*openblas*"))
    paths += glob.glob(os.path.join(here, "numpy", ".dylibs", "*openblas*"))
    if sys.platform.startswith("linux"):  # any OpenBLAS already loaded (a distribution's)
        with open("/proc/self/maps") as maps:
            paths += sorted({line.split()[-1] for line in maps if "openblas" in line})
    for path in paths:
        try:
            lib = ctypes.CDLL(path)
        except OSError:
            continue
        for name in ("scipy_openblas_{}64_", "openblas_{}64_", "scipy_openblas_{}",
                     "openblas_{}"):
            get, set_ = (getattr(lib, name.format(f"{verb}_num_threads"), None)
                         for verb in ("get", "set"))
            if get is None or set_ is None:
                continue
            local = getattr(lib, "openblas_set_num_threads_local", None)
            for function in (get, set_, local):
                if function is not None:
                    function.restype = ctypes.c_int
            set_.argtypes = [ctypes.c_int]
            if local is not None:
                local.argtypes = [ctypes.c_int]
            return {"get": get, "set": set_, "local": local}
    return None


@contextmanager
def _one_blas_thread():
    """Ask OpenBLAS for one thread per product while inside (calls may nest or overlap)."""
    blas = _openblas()
    if blas["local"] is not None:  # only this thread is affected
        previous = blas["local"](1)
        try:
            yield
        finally:
            blas["local"](previous)
        return
    with _blas["lock"]:  # older OpenBLAS: the setting is global, count who needs it
        if _blas["users"] == 0:
            _blas["saved"] = blas["get"]()
            blas["set"](1)
        _blas["users"] += 1
    try:
        yield
    finally:
        with _blas["lock"]:
            _blas["users"] -= 1
            if _blas["users"] == 0:
                blas["set"](_blas["saved"])
