"""The fast NumPy route of :func:`course_lib.scaled_dot_product_attention`.

Same formula, softmax(QKᵀ · scale + mask) V, computed one block of query rows at a time.
Each trick is here for a measured reason (``benchmarks/bench_attention.py``):

* **Blocks of query rows.** The scores of ``rows`` queries against all m keys (about 2 MiB)
  stay in the cache while the softmax passes over them, and one scratch buffer per thread is
  reused for every block. A whole (n, m) score grid would be fresh memory on each
  call: on virtual machines its page faults alone cost more than the two matrix products.
* **In place.** Subtracting the row maximum, exp and the masks write into the scores buffer
  (``np.exp(s, out=s)``): no temporaries the size of the block.
* **Normalise the small side.** Without ``return_weights`` the unnormalised weights E go
  straight into E V, and the (rows, d_v) result is divided by the row sums, instead of
  dividing the (rows, m) weights (d_v is usually much smaller than m).
* **Kᵀ laid out once.** The products q Kᵀ read a contiguous copy of Kᵀ (m·d_k numbers),
  a few per cent faster than BLAS reading K transposed for every block.
* **Causal blocks skip the keys they cannot see.** Queries r0..r1-1 see keys 0..r1-1 only, so
  the later columns are never computed (about half the work).
* **Threads, with one BLAS thread each.** The element-wise softmax passes run on one core
  each, but NumPy releases the GIL in them (and in BLAS), so one thread per core, each on its
  own blocks, keeps every core busy. Meanwhile BLAS is asked to use a single thread per
  product: its own threads would compete with ours for the same cores, and many small
  multi-threaded products wait on each other (measured: 4-10× slower on a busy machine).
  Where the BLAS library cannot be told (not the OpenBLAS NumPy ships with), one thread
  does all the blocks and BLAS keeps its threads.
"""

import ctypes
import glob
import math
import os
import sys
import threading
from concurrent.futures import ThreadPoolExecutor, wait
from contextlib import contextmanager

import numpy as np

__all__ = ["attention_in_blocks"]

BLOCK_BYTES = 2 << 20  # a block's scores (rows × m) stay in cache; best measured of 0.25-4 MiB
MAX_BLOCK_ROWS = 512  # short keys: more rows per block buy nothing more
MIN_SCORES_PER_THREAD = 1 << 16  # below this, handing work to a thread costs more than it saves


def attention_in_blocks(q, k, v, mask=None, is_causal=False, return_weights=False):
    """softmax(q kᵀ + mask) v for NumPy arrays already scaled, cast and checked.

    Parameters
    ----------
    q : (..., n, d_k) queries, already multiplied by the scale.
    k : (..., m, d_k); v : (..., m, d_v); batch axes broadcast.
    mask : None, boolean (True = may attend) or float of the compute dtype; broadcasts to
        (..., n, m). Not combined with ``is_causal``.

    Returns
    -------
    (output (..., n, d_v), weights or None). The weights' batch axes are those of q, k and
    the mask (v's do not enter the softmax), as with the whole-grid formula.

    >>> out, w = attention_in_blocks(np.zeros((1, 2)), np.zeros((3, 2)), np.eye(3), None,
    ...                              return_weights=True)
    >>> w.tolist()
    [[0.3333333333333333, 0.3333333333333333, 0.3333333333333333]]
    """
    (n, d_k), (m, d_v), dtype = q.shape[-2:], v.shape[-2:], q.dtype
    grid = np.broadcast_shapes(q.shape[:-2], k.shape[:-2], () if mask is None else mask.shape[:-2])
    if return_weights:  # the whole grid is returned anyway: fill it, then one product
        weights = (np.zeros if is_causal else np.empty)(grid + (n, m), dtype=dtype)
        batch = grid
    else:
        batch = np.broadcast_shapes(grid, v.shape[:-2])
        output = np.empty(batch + (n, d_v), dtype=dtype)
        v = np.broadcast_to(v, batch + (m, d_v))
    q = np.broadcast_to(q, batch + (n, d_k))
    k_t = np.broadcast_to(np.swapaxes(k, -1, -2).copy(), batch + (d_k, m))  # Kᵀ laid out once
    if mask is not None:
        mask = np.broadcast_to(mask, batch + (n, m))

    threads = _thread_count(math.prod(batch) * n * m)
    rows = _block_rows(n, m, dtype, threads)
    tasks = [(b, r0, min(r0 + rows, n)) for b in np.ndindex(*batch) for r0 in range(0, n, rows)]
    threads = max(1, min(threads, len(tasks)))  # no tasks at all when n = 0 or a batch axis is 0
    if is_causal:
        tasks.reverse()  # the longest causal blocks first; the short ones even out the end

    untaken, lock = iter(tasks), threading.Lock()

    def next_block():  # blocks go to whichever thread is free: a thread slowed by a busy core
        with lock:  # (or given short causal blocks) does not hold the others back
            return next(untaken, None)

    def work():  # one thread: its own scratch buffer, then block after block
        scratch = None if return_weights else np.empty(rows * m, dtype=dtype)
        while (block := next_block()) is not None:
            b, r0, r1 = block
            cols = min(r1, m) if is_causal else m  # the keys these queries may see
            if return_weights:  # (rows, cols) scores, written straight into the weights
                s = weights[b][r0:r1, :cols]
            else:
                s = scratch[:(r1 - r0) * cols].reshape(r1 - r0, cols)
            np.matmul(q[b][r0:r1], k_t[b][:, :cols], out=s)  # (rows, cols) scores
            if is_causal:  # query i sees keys 0..i: block key j > i among columns r0..
                later = np.arange(r0, cols) > np.arange(r0, r1)[:, None]
                np.copyto(s[:, r0:], -np.inf, where=later)
            elif mask is not None and mask.dtype == bool:
                np.copyto(s, -np.inf, where=~mask[b][r0:r1])
            elif mask is not None:
                s += mask[b][r0:r1]
            total = _exp_rows(s, grid + (n, m))  # s is now E = exp(s - row max)
            if return_weights:
                s /= total  # weights, each row sums to 1
            else:
                out = output[b][r0:r1]
                np.matmul(s, v[b][:cols], out=out)  # (rows, d_v), rows of E V
                out /= total  # dividing (rows, d_v) is cheaper than dividing (rows, m)

    if threads == 1:
        work()
    else:
        with _one_blas_thread():
            futures = [_pool(threads - 1).submit(work) for _ in range(threads - 1)]
            try:
                work()  # this thread works too
            finally:
                wait(futures)  # every block is done before BLAS gets its threads back
        for future in futures:
            future.result()  # re-raises an error from that thread here
    if return_weights:
        return weights @ v, weights  # (..., n, d_v)
    return output, None


def _exp_rows(s, grid_shape):
    """Overwrite the scores s (rows, cols) with exp(s - row max); return the row sums (rows, 1).

    A fully masked row (all −∞) becomes zeros, and its sum is reported as 1 so that dividing
    by it leaves zeros instead of 0/0.
    """
    top = s.max(axis=1, keepdims=True)  # (rows, 1); NaN and +∞ show up in the maximum
    if np.isnan(top).any() or np.isposinf(top).any():
        raise ValueError(f"scores contain NaN or +∞ (shape {grid_shape}); only −∞ (a masked "
                         "score) is allowed")
    top[np.isneginf(top)] = 0.0  # an all −∞ row: keep exp(−∞) = 0, avoid −∞ − (−∞)
    s -= top
    np.exp(s, out=s)  # every exponent ≤ 0: no overflow
    total = s.sum(axis=1, keepdims=True)  # (rows, 1)
    total[total == 0] = 1.0
    return total


def _thread_count(scores):
    """How many threads are worth it for a grid of this many scores."""
    try:
        cpus = len(os.sched_getaffinity(0))  # the CPUs this process may use
    except AttributeError:  # macOS and Windows
        cpus = os.cpu_count() or 1
    if _blas_threads() is None:
        return 1  # BLAS's own threads cannot be held back: do not add ours on top
    return max(1, min(cpus, scores // MIN_SCORES_PER_THREAD))


def _block_rows(n, m, dtype, threads):
    """Rows per block: about BLOCK_BYTES of scores, and at least one block per thread."""
    rows = max(16, min(MAX_BLOCK_ROWS, BLOCK_BYTES // (m * np.dtype(dtype).itemsize)))
    return max(1, min(rows, -(-n // threads)))


_pools = {}


def _pool(workers):
    """A thread pool kept between calls (starting threads costs about as much as a small
    attention); one per process, because a forked child does not inherit the threads."""
    key = (os.getpid(), workers)
    if key not in _pools:
        _pools[key] = ThreadPoolExecutor(workers, thread_name_prefix="course_lib")
    return _pools[key]


_blas = {"found": False, "functions": None, "users": 0, "saved": 1, "lock": threading.Lock()}


def _blas_threads():
    """(get, set) for the thread count of the OpenBLAS that NumPy uses, or None if not found."""
    if not _blas["found"]:
        _blas["found"], _blas["functions"] = True, _find_openblas()
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
        for name in ("scipy_openblas_{}_num_threads64_", "openblas_{}_num_threads64_",
                     "scipy_openblas_{}_num_threads", "openblas_{}_num_threads"):
            get, set_ = (getattr(lib, name.format(verb), None) for verb in ("get", "set"))
            if get is not None and set_ is not None:
                set_.argtypes, get.restype = [ctypes.c_int], ctypes.c_int
                return get, set_
    return None


@contextmanager
def _one_blas_thread():
    """Ask BLAS for one thread per product while inside; calls may nest or overlap."""
    get, set_ = _blas_threads()
    with _blas["lock"]:
        if _blas["users"] == 0:
            _blas["saved"] = get()
            set_(1)
        _blas["users"] += 1
    try:
        yield
    finally:
        with _blas["lock"]:
            _blas["users"] -= 1
            if _blas["users"] == 0:
                set_(_blas["saved"])
