"""A GPU kernel of our own: the online softmax forward in CUDA, launched through CuPy.

``course_lib.tiled_attention`` on CuPy arrays is a Python loop that asks CuPy for one
operation at a time, and every operation writes its block of scores or weights to the GPU's
slow memory before the next one reads it back. The kernel below does the whole online softmax
for one query row inside one *thread block* (a group of threads that share a fast on-chip
memory), so the scores and weights never leave the chip:

1. thread t computes the score of key j0 + t (one key per thread, a tile of keys at a time);
2. the threads find the tile's largest score together (a tree of pairwise maxima);
3. each thread turns its score into the weight e^(s − M′) with the new running max M′;
4. thread c adds the tile's weights times column c of V to its output slot, after
   rescaling what it had by e^(M − M′), exactly the update of :mod:`course_lib.tiled`.

The running max, the running sum and the output accumulator are float32 numbers in each
thread's registers. The source is the string :data:`KERNEL_SOURCE`; CuPy compiles it the first
time :func:`kernel_attention` runs. A teaching kernel: one query row per thread block and no
tensor cores, so each block reads all of K and V again (mostly from the GPU's cache).
FlashAttention (Dao et al. 2022; Dao 2023) loads a tile of K and V into shared memory once for
a whole block of query rows and multiplies on tensor cores.
"""

import functools

import numpy as np

from ..prepare import prepare_attention

__all__ = ["KERNEL_SOURCE", "MAX_VALUE_WIDTH", "kernel_attention"]

MAX_VALUE_WIDTH = 1024  # one thread per output slot, and a thread block has at most 1024

KERNEL_SOURCE = r"""
extern "C" __global__
void online_softmax_attention(const float* query,  // (batch, n, d_k), contiguous
                              const float* key,    // (batch, m, d_k)
                              const float* value,  // (batch, m, d_v)
                              const float* mask,   // (batch, n, m) added to the scores, if has_mask
                              float* output,       // (batch, n, d_v)
                              int n, int m, int d_k, int d_v, float scale,
                              int is_causal, int has_mask)
{
    // One thread block per query row i of batch element b. T threads, T a power of two >= d_v.
    const int i = blockIdx.x, b = blockIdx.y, t = threadIdx.x, T = blockDim.x;
    const float minus_inf = __int_as_float(0xff800000);  // the bits of -infinity
    extern __shared__ float shared[];  // on-chip memory shared by the block's threads:
    float* q = shared;                 //   the query row, scaled (d_k numbers)
    float* tile = shared + d_k;        //   one score or weight per thread (T numbers)
    const float* k = key + (long long)b * m * d_k;
    const float* v = value + (long long)b * m * d_v;
    for (int c = t; c < d_k; c += T) q[c] = query[((long long)b * n + i) * d_k + c] * scale;
    __syncthreads();  // every thread waits until the query row is in shared memory

    float running_max = minus_inf, running_sum = 0.0f, acc = 0.0f;  // acc: output slot t
    const int last = is_causal ? min(m, i + 1) : m;  // top-left causal: keys 0 .. i only
    for (int j0 = 0; j0 < last; j0 += T) {
        // 1. thread t: the score of key j = j0 + t (minus infinity past the last key)
        const int j = j0 + t;
        float score = minus_inf;
        if (j < last) {
            score = 0.0f;
            for (int c = 0; c < d_k; ++c) score += q[c] * k[(long long)j * d_k + c];
            if (has_mask) score += mask[((long long)b * n + i) * m + j];
        }
        // 2. the tile's largest score: halve the active threads, keep the larger of each pair
        tile[t] = score;
        __syncthreads();
        for (int half = T / 2; half > 0; half /= 2) {
            if (t < half) tile[t] = fmaxf(tile[t], tile[t + half]);
            __syncthreads();
        }
        const float new_max = fmaxf(running_max, tile[0]);
        const float shift = (new_max == minus_inf) ? 0.0f : new_max;  // no key seen yet: 0
        const float rescale = expf(running_max - shift);  // <= 1: e^(M - M')
        __syncthreads();  // everyone has read tile[0] before it is overwritten
        // 3. thread t: its key's weight e^(s - M'), 0 for a blocked key
        tile[t] = expf(score - shift);
        __syncthreads();
        // 4. thread t: the tile's sum of weights, and its output slot's share of them
        float tile_sum = 0.0f, tile_out = 0.0f;
        for (int u = 0; u < T && j0 + u < last; ++u) {
            tile_sum += tile[u];
            if (t < d_v) tile_out += tile[u] * v[(long long)(j0 + u) * d_v + t];
        }
        running_sum = running_sum * rescale + tile_sum;
        acc = acc * rescale + tile_out;
        running_max = new_max;
        __syncthreads();  // everyone is done with this tile's weights
    }
    if (t < d_v) {  // a row whose keys are all masked has running_sum 0: its output is 0
        output[((long long)b * n + i) * d_v + t] = running_sum > 0.0f ? acc / running_sum : 0.0f;
    }
}
"""


@functools.cache
def _compiled(cupy):
    return cupy.RawKernel(KERNEL_SOURCE, "online_softmax_attention")


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
        to (..., n, m). It is handed to the kernel as one float32 number per score.
    is_causal : query i sees keys 0 … i (top-left aligned). scale : default 1/√d_k.

    Returns
    -------
    (..., n, d_v) CuPy array.
    """
    q, k, v, mask, scale, xp, out_dtype, _ = prepare_attention(
        query, key, value, attn_mask, is_causal, scale, causal_as_mask=False)
    if xp is np:
        raise TypeError("kernel_attention runs on a GPU and takes CuPy arrays; on the CPU the "
                        "same online softmax is course_lib.tiled_attention")
    n, m, d_k, d_v = q.shape[-2], k.shape[-2], q.shape[-1], v.shape[-1]
    if d_v > MAX_VALUE_WIDTH:
        raise ValueError(f"kernel_attention gives each output slot a thread: d_v must be at "
                         f"most {MAX_VALUE_WIDTH}; got d_v = {d_v} (value shape {v.shape})")
    batch = np.broadcast_shapes(q.shape[:-2], k.shape[:-2], v.shape[:-2])

    def flat(a, rows_cols):  # (…batch, rows, cols) → contiguous float32 (batch, rows, cols)
        a = xp.broadcast_to(a, batch + rows_cols).astype(xp.float32)
        return xp.ascontiguousarray(a).reshape((-1,) + rows_cols)

    added = None if mask is None else (mask if mask.dtype != bool else
                                       xp.where(mask, 0.0, -xp.inf))  # (..., n, m)
    added = xp.zeros(1, dtype=xp.float32) if added is None else flat(added, (n, m))
    out = xp.empty((int(np.prod(batch, dtype=np.int64)), n, d_v), dtype=xp.float32)
    threads = max(32, 1 << (d_v - 1).bit_length())  # a power of two ≥ d_v: one slot each
    if out.size:
        _compiled(xp)((n, out.shape[0]), (threads,),
                      (flat(q, (n, d_k)), flat(k, (m, d_k)), flat(v, (m, d_v)), added, out,
                       np.int32(n), np.int32(m), np.int32(d_k), np.int32(d_v),
                       np.float32(scale), np.int32(is_causal), np.int32(mask is not None)),
                      shared_mem=(d_k + threads) * 4)
    return out.reshape(batch + (n, d_v)).astype(out_dtype, copy=False)
