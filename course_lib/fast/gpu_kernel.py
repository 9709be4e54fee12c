"""A GPU kernel of our own: the online softmax forward in CUDA, launched through CuPy.

``course_lib.tiled_attention`` on CuPy arrays is a Python loop that asks CuPy for one
operation at a time, and every operation writes its block of scores or weights to the GPU's
slow memory before the next one reads it back. The kernel below does the whole online softmax
for one query row inside one *thread block* (a group of threads that share a fast on-chip
memory, the *shared memory*), so the scores and weights never leave the chip. For each block
of ``key_block`` keys:

1. the threads copy the block's key rows into shared memory together: consecutive threads read
   consecutive numbers, so each warp (32 threads that the hardware issues together) reads one
   stretch of memory;
2. thread t computes the score of key j0 + t from shared memory;
3. the threads find the block's largest score together (a tree of pairwise maxima);
4. thread t turns its score into the weight e^(s − M′) with the new running max M′;
5. thread c adds the block's weights times column c of V to its output slot, after rescaling
   what it had by e^(M − M′), exactly the update of :mod:`course_lib.tiled`.

The running max, the running sum and the output accumulator are float32 numbers in each
thread's registers. Between the steps every thread waits at ``__syncthreads()`` until all of
them have written what the next step reads. The source is the string :data:`KERNEL_SOURCE`;
CuPy compiles it the first time :func:`kernel_attention` runs.

How much shared memory a block needs sets how many keys it can stage:
:func:`shared_memory_bytes` counts it and :func:`largest_key_block` picks the largest block
within a limit (:data:`DEFAULT_SHARED_LIMIT`, 48 KiB without asking the device for more).
:func:`plan_launch` lays the inputs out for the kernel without copying broadcast batch
elements, and works on NumPy arrays too, so the launch can be read on a machine without a GPU.

A teaching kernel: one query row per thread block and no tensor cores, so each block reads all
of K and V again (mostly from the GPU's cache). FlashAttention (Dao et al. 2022; Dao 2023)
stages a tile of K and V in shared memory once for a whole block of query rows and multiplies
on tensor cores.
"""

import functools
import math
from typing import NamedTuple

import numpy as np

from ..masks import additive_mask
from ..prepare import prepare_attention
from ..validation import check_count

__all__ = ["BANKS", "DEFAULT_SHARED_LIMIT", "KERNEL_SOURCE", "MAX_GRID_BLOCKS",
           "MAX_VALUE_WIDTH", "KernelArguments", "Launch", "halving_rounds", "kernel_attention",
           "largest_key_block", "plan_launch", "shared_memory_bytes", "shared_words",
           "threads_per_block"]

MAX_VALUE_WIDTH = 1024  # one thread per output slot, and a thread block has at most 1024
DEFAULT_SHARED_LIMIT = 48 * 1024  # bytes of dynamic shared memory a block gets without opting in
MAX_GRID_BLOCKS = 2**31 - 1  # the grid's x size may go this far (y and z stop at 65535)
BANKS = 32  # shared memory's banks: 4-byte word w sits in bank w mod 32

KERNEL_SOURCE = r"""
extern "C" __global__
void online_softmax_attention(
    const float* query,          // the query rows, (..., n, d_k) in their own batch shape
    const float* key,            // (..., m, d_k), never copied per batch element
    const float* value,          // (..., m, d_v)
    const float* mask,           // added to the scores, if has_mask: 0 keeps, -inf blocks
    const int* key_lengths,      // if has_lengths: row i sees keys 0 .. length - 1 only
    const long long* starts,     // (batch, 5): where element b's query, key, value, mask
                                 //   and key_lengths begin (equal for broadcast elements)
    float* output,               // (batch, n, d_v), contiguous
    long long rows,              // batch * n query rows: one thread block at a time each
    int n, int m, int d_k, int d_v,
    int key_block,               // keys staged in shared memory at a time (a power of two)
    float scale,
    int mask_row_stride, int mask_col_stride, int lengths_row_stride,  // 0: broadcast
    int is_causal, int has_mask, int has_lengths)
{
    const int t = threadIdx.x, T = blockDim.x;  // T: a power of two >= d_v and >= key_block
    const float minus_inf = __int_as_float(0xff800000);  // the bits of -infinity
    extern __shared__ float shared[];  // on-chip memory shared by the block's threads:
    float* q = shared;                 //   the query row, scaled (d_k numbers)
    float* keys = q + d_k;             //   key_block key rows, each padded to d_k + 1
    float* tile = keys + key_block * (d_k + 1);  // one score or weight per key of the block

    // A one-dimensional grid of blocks strides over all batch * n rows.
    for (long long row = blockIdx.x; row < rows; row += gridDim.x) {
        const long long b = row / n;
        const int i = (int)(row % n);
        const long long* start = starts + 5 * b;
        const float* k = key + start[1];
        const float* v = value + start[2];
        const float* q_row = query + start[0] + (long long)i * d_k;
        for (int c = t; c < d_k; c += T) q[c] = q_row[c] * scale;
        int last = is_causal ? min(m, i + 1) : m;  // top-left causal: keys 0 .. i
        if (has_lengths) {  // a padding mask: only the first keys of the row
            last = min(last, key_lengths[start[4] + (long long)i * lengths_row_stride]);
        }
        float running_max = minus_inf, running_sum = 0.0f, acc = 0.0f;  // acc: output slot t
        __syncthreads();  // (a) the query row is complete before anyone reads it

        for (int j0 = 0; j0 < last; j0 += key_block) {
            const int count = min(key_block, last - j0);  // the last block may be short
            // 1. copy the block's key rows into shared memory, number e by thread e mod T
            for (int e = t; e < count * d_k; e += T) {
                const int r = e / d_k, c = e - r * d_k;
                keys[r * (d_k + 1) + c] = k[(long long)(j0 + r) * d_k + c];
            }
            __syncthreads();  // (b) the key rows are complete
            // 2. thread t: the score of key j0 + t (minus infinity past the last key)
            float score = minus_inf;
            if (t < count) {
                score = 0.0f;
                for (int c = 0; c < d_k; ++c) score += q[c] * keys[t * (d_k + 1) + c];
                if (has_mask) score += mask[start[3] + (long long)i * mask_row_stride
                                            + (long long)(j0 + t) * mask_col_stride];
            }
            if (t < key_block) tile[t] = score;
            __syncthreads();  // (c) every score is in the tile
            // 3. the block's largest score: halve the active threads, keep the larger of a pair
            for (int half = key_block / 2; half > 0; half /= 2) {
                if (t < half) tile[t] = fmaxf(tile[t], tile[t + half]);
                __syncthreads();  // (d) this round's maxima are written
            }
            const float new_max = fmaxf(running_max, tile[0]);
            const float shift = (new_max == minus_inf) ? 0.0f : new_max;  // no key seen yet: 0
            const float rescale = expf(running_max - shift);  // <= 1: e^(M - M')
            __syncthreads();  // (e) everyone has read tile[0] before it is overwritten
            // 4. thread t: its key's weight e^(s - M'), 0 for a blocked key
            if (t < key_block) tile[t] = expf(score - shift);
            __syncthreads();  // (f) every weight is in the tile
            // 5. thread t: the block's sum of weights, and its output slot's share of them
            float tile_sum = 0.0f, tile_out = 0.0f;
            for (int u = 0; u < count; ++u) {
                tile_sum += tile[u];
                if (t < d_v) tile_out += tile[u] * v[(long long)(j0 + u) * d_v + t];
            }
            running_sum = running_sum * rescale + tile_sum;
            acc = acc * rescale + tile_out;
            running_max = new_max;
            // No barrier here: the next block first rewrites the key rows, which step 5 does
            // not read, and waits at (b) before anyone rewrites the tile that step 5 reads.
        }
        if (t < d_v) {  // a row whose keys are all blocked has running_sum 0: its output is 0
            output[row * d_v + t] = running_sum > 0.0f ? acc / running_sum : 0.0f;
        }
    }
}
"""


class KernelArguments(NamedTuple):
    """What the kernel is given, in the order of its parameters (arrays of NumPy or CuPy)."""

    query: object  # float32 (query elements · n · d_k,)
    key: object  # float32 (key elements · m · d_k,)
    value: object  # float32 (value elements · m · d_v,)
    mask: object  # float32, added to the scores (one placeholder number if none)
    key_lengths: object  # int32 keys seen per row (one placeholder number if none)
    starts: object  # int64 (batch, 5) offsets of element b's query, key, value, mask, lengths
    output: object  # float32 (batch, n, d_v)
    rows: np.int64  # batch · n
    n: np.int32
    m: np.int32
    d_k: np.int32
    d_v: np.int32
    key_block: np.int32
    scale: np.float32
    mask_row_stride: np.int32
    mask_col_stride: np.int32
    lengths_row_stride: np.int32
    is_causal: np.int32
    has_mask: np.int32
    has_lengths: np.int32


class Launch(NamedTuple):
    """A launch of the kernel: the grid, the block, its shared memory and its arguments."""

    grid: int  # thread blocks, one-dimensional; they stride over the rows when fewer
    threads: int  # threads per block
    shared_bytes: int  # dynamic shared memory per block
    arguments: KernelArguments
    batch: tuple  # the broadcast batch shape: the output is (*batch, n, d_v)
    out_dtype: object  # the dtype the formula would return
    xp: object  # numpy or cupy: where the arguments live


def threads_per_block(d_v):
    """Threads per block: one per output slot, a power of two, and at least one warp of 32.

    >>> threads_per_block(64), threads_per_block(200), threads_per_block(5)
    (64, 256, 32)
    """
    d_v = check_count(d_v, "d_v")
    if d_v > MAX_VALUE_WIDTH:
        raise ValueError(f"the kernel gives each output slot a thread: d_v must be at most "
                         f"{MAX_VALUE_WIDTH}; got d_v = {d_v}")
    return max(32, 1 << (d_v - 1).bit_length())


def shared_memory_bytes(d_k, key_block):
    """Bytes of shared memory one thread block uses: 4 · (d_k + key_block · (d_k + 1) + key_block).

    float32 numbers: the scaled query row (d_k), the key rows of one block, each padded by one
    number so that the threads reading one slot of consecutive rows hit different memory
    banks (key_block · (d_k + 1)), and one score or weight per key (key_block).

    >>> shared_memory_bytes(64, 64)   # 4 · (64 + 64 · 65 + 64)
    17152
    """
    d_k, key_block = check_count(d_k, "d_k"), check_count(key_block, "key_block")
    return 4 * (d_k + key_block * (d_k + 1) + key_block)


def shared_words(d_k, key_block, pad=1):
    """What each 4-byte word of a block's shared memory holds: a list of (part, row) pairs.

    The kernel's layout: the query row (``"q"``, d_k words), then ``key_block`` key rows of
    d_k numbers (``"key"``, row r) each followed by ``pad`` unused words (``"pad"``), then the
    tile (``"tile"``, one word per key). Word w sits in bank w mod :data:`BANKS`. ``pad=0`` is
    the layout without padding, for comparison.

    >>> words = shared_words(2, 2)
    >>> words[:4], words[-2:]
    ([('q', None), ('q', None), ('key', 0), ('key', 0)], [('tile', None), ('tile', None)])
    >>> words[4], len(words) * 4 == shared_memory_bytes(2, 2)
    (('pad', 0), True)
    """
    d_k, key_block = check_count(d_k, "d_k"), check_count(key_block, "key_block")
    pad = check_count(pad, "pad", minimum=0)
    rows = [[("key", r)] * d_k + [("pad", r)] * pad for r in range(key_block)]
    return [("q", None)] * d_k + [w for row in rows for w in row] + [("tile", None)] * key_block


def halving_rounds(scores):
    """The tile after each round of step 3: slots t < half keep max(tile[t], tile[t + half]).

    ``scores`` : (key_block,), a power of two long. Returns the tile before the first round
    and after each one (half = key_block / 2, …, 2, 1); the last has the maximum in slot 0.

    >>> [r.tolist() for r in halving_rounds([0.5, -1.0, 1.5, 2.0])]
    [[0.5, -1.0, 1.5, 2.0], [1.5, 2.0, 1.5, 2.0], [2.0, 2.0, 1.5, 2.0]]
    """
    tile = np.array(scores, dtype=float)
    if tile.ndim != 1 or tile.size & (tile.size - 1) or tile.size == 0:
        raise ValueError(f"scores must be one row whose length is a power of two; got shape "
                         f"{tile.shape}")
    rounds, half = [tile.copy()], tile.size // 2
    while half > 0:
        tile[:half] = np.maximum(tile[:half], tile[half:2 * half])  # the threads t < half
        rounds.append(tile.copy())
        half //= 2
    return rounds


def largest_key_block(d_k, threads, limit=DEFAULT_SHARED_LIMIT):
    """The largest power of two ≤ ``threads`` keys whose block fits in ``limit`` bytes; 0 if none.

    >>> largest_key_block(64, 64), largest_key_block(64, 1024), largest_key_block(512, 64)
    (64, 128, 16)
    """
    threads, limit = check_count(threads, "threads"), check_count(limit, "limit", minimum=0)
    block = 1 << (threads.bit_length() - 1)  # the largest power of two ≤ threads
    while block >= 1 and shared_memory_bytes(d_k, block) > limit:
        block //= 2
    return block


def plan_launch(query, key, value, attn_mask=None, is_causal=False, scale=None, *,
                shared_limit=None):
    """Check the inputs and lay them out for the kernel: a :class:`Launch`.

    Arguments as in :func:`kernel_attention`; ``shared_limit`` is the most shared memory a
    block may ask for (default: what the GPU allows when asked, 48 KiB on the CPU). NumPy
    inputs give NumPy arguments (to read, or to run on the CPU), CuPy inputs CuPy ones.

    * Q, K and V keep their own batch shapes: ``starts`` says where batch element b's rows
      begin, the same place for the elements a broadcast axis shares.
    * A boolean mask whose rows each allow a first stretch of keys (a padding mask, (B, 1, m))
      becomes ``key_lengths``, one count per row it holds; any other mask is passed as float32
      numbers added to the scores, in its own shape (a broadcast axis has stride 0).
    * The block of keys staged in shared memory is the largest that fits within 48 KiB
      (:func:`largest_key_block`), or within ``shared_limit`` when not even one key does.

    >>> launch = plan_launch(np.ones((3, 1, 5, 64)), np.ones((1, 4, 7, 64)), np.ones((7, 32)),
    ...                      attn_mask=np.arange(7) < 6)
    >>> launch.grid, launch.threads, launch.shared_bytes, launch.batch
    (60, 32, 8704, (3, 4))
    >>> int(launch.arguments.key_block), int(launch.arguments.has_lengths)
    (32, 1)
    """
    q, k, v, mask, scale, xp, out_dtype, _ = prepare_attention(
        query, key, value, attn_mask, is_causal, scale, causal_as_mask=False)
    n, m, d_k, d_v = q.shape[-2], k.shape[-2], q.shape[-1], v.shape[-1]
    try:
        threads = threads_per_block(d_v)
    except ValueError as exc:
        raise ValueError(f"{exc} (value shape {v.shape})") from None
    key_block = largest_key_block(d_k, threads)
    if key_block == 0:  # not even one key within 48 KiB: ask for more
        shared_limit = _opt_in_limit(xp) if shared_limit is None else shared_limit
        key_block = largest_key_block(d_k, threads, shared_limit)
    if key_block == 0:
        raise ValueError(f"d_k = {d_k} needs {shared_memory_bytes(d_k, 1)} bytes of shared memory "
                         f"for a block of one key, more than the {shared_limit} a block may have "
                         f"here (query shape {q.shape}, key shape {k.shape})")
    batch = tuple(np.broadcast_shapes(q.shape[:-2], k.shape[:-2], v.shape[:-2],
                                      () if mask is None else mask.shape[:-2]))
    rows = math.prod(batch) * n
    starts = np.zeros((math.prod(batch), 5), dtype=np.int64)  # (batch, 5) offsets, in numbers
    arrays = []
    for column, a in enumerate((q, k, v)):
        arrays.append(_own_batch(a, xp, xp.float32))
        starts[:, column] = _batch_starts(a.shape[:-2], batch, a.shape[-2] * a.shape[-1])

    lengths = None if mask is None else _key_lengths(mask, m, xp)  # (..., 1 or n) or None
    added, strides = xp.zeros(1, dtype=xp.float32), [0, 0, 0]  # no float mask: a placeholder
    if lengths is not None:  # a padding mask: one key count per row it holds
        lengths = lengths.reshape((1,) * (1 - lengths.ndim) + lengths.shape)  # at least (rows,)
        starts[:, 4] = _batch_starts(lengths.shape[:-1], batch, lengths.shape[-1])
        strides[2] = int(lengths.shape[-1] > 1)  # rows stride 1, or 0 when shared by all n
        lengths = _own_batch(lengths[..., None], xp, xp.int32)
    elif mask is not None:  # any other mask: float32, added, in its own shape
        added = additive_mask(mask, dtype=np.float32) if mask.dtype == bool else mask
        added = added.reshape((1,) * (2 - added.ndim) + added.shape)  # at least (rows, cols)
        starts[:, 3] = _batch_starts(added.shape[:-2], batch, added.shape[-2] * added.shape[-1])
        strides[:2] = [added.shape[-1] if added.shape[-2] > 1 else 0, int(added.shape[-1] > 1)]
        added = _own_batch(added, xp, xp.float32)
    arguments = KernelArguments(
        *arrays, added, xp.zeros(1, dtype=xp.int32) if lengths is None else lengths,
        xp.asarray(starts), xp.empty((math.prod(batch), n, d_v), dtype=xp.float32),
        np.int64(rows), *(np.int32(x) for x in (n, m, d_k, d_v, key_block)), np.float32(scale),
        *(np.int32(x) for x in strides),
        *(np.int32(flag) for flag in (is_causal, mask is not None and lengths is None,
                                      lengths is not None)))
    return Launch(min(rows, MAX_GRID_BLOCKS), threads, shared_memory_bytes(d_k, key_block),
                  arguments, batch, out_dtype, xp)


def _own_batch(a, xp, dtype):
    """(…, rows, cols) → the numbers, contiguous in ``dtype``, in the array's own batch shape."""
    return xp.ascontiguousarray(a, dtype=dtype).ravel()


def _batch_starts(own, batch, size):
    """(batch elements,) offset of each element's block in an array of batch shape ``own``,
    broadcast to ``batch``: a broadcast axis repeats the same offset instead of a copy."""
    index = np.arange(math.prod(own), dtype=np.int64).reshape(own)
    return np.broadcast_to(index, batch).ravel() * size


def _key_lengths(mask, m, xp):
    """(..., rows) how many keys each row of the mask lets through, if each lets through the
    first keys only (a padding mask); None for any other mask."""
    if mask.dtype != bool:  # a float mask of 0 and −∞ alone is a boolean mask in disguise
        if not bool((xp.isneginf(mask) | (mask == 0)).all()):
            return None
        mask = mask == 0
    mask = xp.broadcast_to(mask, mask.shape[:-1] + (m,))  # (..., rows, m)
    lengths = mask.sum(axis=-1)  # (..., rows)
    prefix = xp.arange(m) < lengths[..., None]  # what a padding mask of these lengths allows
    return lengths if bool((prefix == mask).all()) else None


@functools.cache
def _compiled(cupy):
    return cupy.RawKernel(KERNEL_SOURCE, "online_softmax_attention")


def _opt_in_limit(xp):
    """The most dynamic shared memory a block may ask for on this GPU (48 KiB on the CPU)."""
    if xp is np:
        return DEFAULT_SHARED_LIMIT
    attributes = xp.cuda.Device().attributes
    return int(attributes.get("MaxSharedMemoryPerBlockOptin", DEFAULT_SHARED_LIMIT))


def kernel_attention(query, key, value, attn_mask=None, is_causal=False, scale=None):
    """softmax(Q Kᵀ · scale) V on a GPU with the kernel :data:`KERNEL_SOURCE`.

    The arguments, checks and conventions of :func:`course_lib.scaled_dot_product_attention`
    (batch axes broadcast; a fully masked row gives zeros), for CuPy arrays. The kernel
    computes in float32 whatever comes in; the answer comes back in the dtype the formula
    would return (float16 stays float16, float64 is float32's numbers in float64).

    Parameters
    ----------
    query : (..., n, d_k); key : (..., m, d_k); value : (..., m, d_v) with d_v ≤ 1024.
    attn_mask : None, boolean (True = may attend) or float added to the scores; broadcasting
        to (..., n, m). A padding mask reaches the kernel as one key count per row, any other
        as float32 numbers in its own (unbroadcast) shape.
    is_causal : query i sees keys 0 … i (top-left aligned). scale : default 1/√d_k.

    Returns
    -------
    (..., n, d_v) CuPy array.
    """
    launch = plan_launch(query, key, value, attn_mask, is_causal, scale)
    if launch.xp is np:
        raise TypeError("kernel_attention runs on a GPU and takes CuPy arrays; on the CPU the "
                        "same online softmax is course_lib.tiled_attention")
    output = launch.arguments.output  # (batch, n, d_v) float32
    if output.size:
        kernel = _compiled(launch.xp)
        if launch.shared_bytes > DEFAULT_SHARED_LIMIT:  # asked for more: CUDA's opt-in attribute
            kernel.max_dynamic_shared_size_bytes = launch.shared_bytes
        kernel((launch.grid,), (launch.threads,), tuple(launch.arguments),
               shared_mem=launch.shared_bytes)
    return output.reshape(launch.batch + output.shape[-2:]).astype(launch.out_dtype, copy=False)
