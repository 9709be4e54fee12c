"""The CUDA kernel of course_lib.fast.gpu_kernel against the formula.

Three checks that run everywhere:

* the launch's layout (:func:`plan_launch` on NumPy arrays), run by a NumPy port of the kernel
  (:func:`run_on_cpu` below) that reads every argument and every shared-memory number at the
  index the CUDA source computes, so that the indexing, the ragged last key block, causal
  with n ≠ m, empty rows, d_k above the block of threads, the padding mask as key lengths and
  the flattened grid are checked on the CPU;
* the sizes: threads, shared memory, the largest key block that fits;
* the source compiles for sm_90 with nvcc (where nvcc is installed) and its parameters are the
  ones :class:`KernelArguments` hands over, in the same order.

The cases marked ``gpu`` run the real kernel; they need CuPy and a CUDA device (``make
gpu-check`` runs them) and skip elsewhere with one line saying why.
"""

import re
import shutil
import subprocess
import sys

import numpy as np
import pytest

from course_lib import padding_mask, scaled_dot_product_attention
from course_lib.backend import gpu_status
from course_lib.fast import gpu_kernel
from course_lib.fast.gpu_kernel import (
    DEFAULT_SHARED_LIMIT,
    KernelArguments,
    largest_key_block,
    plan_launch,
    shared_memory_bytes,
    threads_per_block,
)

GPU_OK, GPU_REASON = gpu_status()
gpu_only = pytest.mark.skipif(
    not GPU_OK, reason=f"GPU case skipped: {GPU_REASON.split('. ')[0].rstrip('.')}")
NVCC = shutil.which("nvcc")


def test_the_source_is_a_readable_string():
    source = gpu_kernel.KERNEL_SOURCE
    assert isinstance(source, str) and 'extern "C" __global__' in source
    assert "void online_softmax_attention(" in source
    assert source.count("__syncthreads()") >= 6  # every shared-memory hand-over is fenced
    assert max(len(line) for line in source.splitlines()) <= 100  # prints whole in a notebook


def test_importing_the_kernel_module_loads_no_cupy():
    script = ("import sys\nimport course_lib.fast.gpu_kernel\n"
              "print('cupy' in sys.modules)\n")
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                            check=True)
    assert result.stdout.strip() == "False"


def test_numpy_inputs_are_told_where_the_cpu_version_is():
    with pytest.raises(TypeError, match="course_lib.tiled_attention"):
        gpu_kernel.kernel_attention(np.ones((2, 3)), np.ones((4, 3)), np.ones((4, 2)))


def test_bad_shapes_are_caught_before_the_device_is_asked():
    with pytest.raises(ValueError, match=r"\(4, 3\)"):
        gpu_kernel.kernel_attention(np.ones((2, 3)), np.ones((4, 3)), np.ones((5, 2)))


def test_the_parameters_are_the_arguments_handed_over():
    """KernelArguments lists the CUDA function's parameters by name, in order."""
    signature = gpu_kernel.KERNEL_SOURCE.split("online_softmax_attention(")[1].split("{")[0]
    signature = re.sub(r"//[^\n]*", "", signature).rsplit(")", 1)[0]  # no comments, no ")"
    names = [part.split()[-1].lstrip("*") for part in signature.split(",")]
    assert names == list(KernelArguments._fields)


@pytest.mark.skipif(NVCC is None, reason="GPU case skipped: nvcc, CUDA's compiler, is not here")
def test_the_source_compiles_for_sm_90(tmp_path):
    source = tmp_path / "online_softmax_attention.cu"
    source.write_text(gpu_kernel.KERNEL_SOURCE)
    ptx = tmp_path / "online_softmax_attention.ptx"
    result = subprocess.run([NVCC, "-arch=sm_90", "--ptx", "-Werror", "all-warnings",
                             str(source), "-o", str(ptx)], capture_output=True, text=True,
                            check=False)
    assert result.returncode == 0, result.stderr
    text = ptx.read_text()
    assert ".entry online_softmax_attention(" in text
    entry = text.split(".entry online_softmax_attention(")[1].split(")")[0]
    assert entry.count(".param") == len(KernelArguments._fields)
    assert text.count("bar.sync") >= 6  # the barriers survive compilation


# ---------------------------------------------------------------------------------------------
# Sizes: threads, shared memory, the key block
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("d_v", "threads"), [(1, 32), (32, 32), (33, 64), (200, 256),
                                              (1024, 1024)])
def test_one_thread_per_output_slot_in_whole_warps(d_v, threads):
    assert threads_per_block(d_v) == threads


def test_too_wide_values_are_refused_before_a_launch():
    with pytest.raises(ValueError, match=r"d_v = 1025 \(value shape \(4, 1025\)\)"):
        plan_launch(np.ones((2, 3)), np.ones((4, 3)), np.ones((4, 1025)))


def test_shared_memory_counts_the_query_row_the_padded_keys_and_the_tile():
    for d_k, block in ((1, 1), (64, 64), (100, 32), (128, 128)):
        assert shared_memory_bytes(d_k, block) == 4 * (d_k + block * (d_k + 1) + block)


@pytest.mark.parametrize("d_k", [1, 16, 64, 128, 256, 1000, 6000])
@pytest.mark.parametrize("threads", [32, 256, 1024])
def test_the_largest_key_block_that_fits(d_k, threads):
    block = largest_key_block(d_k, threads)
    if block == 0:
        assert shared_memory_bytes(d_k, 1) > DEFAULT_SHARED_LIMIT
        return
    assert block & (block - 1) == 0 and block <= threads  # a power of two: the max is a tree
    assert shared_memory_bytes(d_k, block) <= DEFAULT_SHARED_LIMIT
    assert block == threads or shared_memory_bytes(d_k, 2 * block) > DEFAULT_SHARED_LIMIT


def test_beyond_48_kib_the_launch_asks_for_more_or_explains():
    q, k, v = np.ones((2, 13000)), np.ones((3, 13000)), np.ones((3, 4))
    assert largest_key_block(13000, 32) == 0  # one key row alone is over 48 KiB
    launch = plan_launch(q, k, v, shared_limit=227 * 1024)  # an H100's or H200's opt-in limit
    assert DEFAULT_SHARED_LIMIT < launch.shared_bytes <= 227 * 1024
    assert launch.shared_bytes == shared_memory_bytes(13000, int(launch.arguments.key_block))
    with pytest.raises(ValueError, match=r"d_k = 13000 needs 104008 bytes .* 49152"):
        plan_launch(q, k, v)  # on the CPU no device gives more than 48 KiB


# ---------------------------------------------------------------------------------------------
# The kernel's steps in NumPy, on the launch plan_launch lays out
# ---------------------------------------------------------------------------------------------

def read(array, index):
    """array[index] where the kernel reads it; an index outside the array is a failure here
    (NumPy would wrap a negative one around silently)."""
    index = np.asarray(index)
    assert index.size == 0 or (index.min() >= 0 and index.max() < array.size), (
        f"index {index.min()}…{index.max()} outside an array of {array.size}")
    return array.reshape(-1)[index]


def strided(t, count, threads):
    """The numbers a `for (e = t; e < count; e += T)` loop visits, over all threads."""
    return np.concatenate([e[e < count] for e in (t + base for base in range(0, count, threads))]
                          or [np.zeros(0, dtype=int)])


def run_on_cpu(launch, grid=None):
    """Run the kernel's steps with NumPy: thread block after thread block, each block's threads
    as one vector (entry t is thread t). Every argument and shared-memory number is read at
    the index the CUDA source computes. ``grid`` may be fewer blocks than the launch's, to
    exercise the loop that strides over the rows. Returns the output as the kernel leaves it.
    """
    a = launch.arguments
    grid = launch.grid if grid is None else grid
    n, m, d_k, d_v, block = (int(x) for x in (a.n, a.m, a.d_k, a.d_v, a.key_block))
    T = launch.threads
    t = np.arange(T)
    shared = np.full(launch.shared_bytes // 4, np.nan, dtype=np.float32)  # what was asked for
    q_at, keys_at, tile_at = 0, d_k, d_k + block * (d_k + 1)
    assert tile_at + block == shared.size
    output = np.full(a.output.size, np.nan, dtype=np.float32)
    for block_index in range(grid):
        for row in range(block_index, int(a.rows), grid):
            b, i = row // n, row % n
            start = read(a.starts, np.arange(5 * b, 5 * b + 5))
            c = strided(t, d_k, T)
            shared[q_at + c] = read(a.query, start[0] + i * d_k + c) * a.scale
            last = min(m, i + 1) if a.is_causal else m
            if a.has_lengths:
                last = min(last, int(read(a.key_lengths, start[4] + i * a.lengths_row_stride)))
            running_max = np.full(T, -np.inf, dtype=np.float32)
            running_sum, acc = np.zeros(T, dtype=np.float32), np.zeros(T, dtype=np.float32)
            for j0 in range(0, last, block):
                count = min(block, last - j0)
                e = strided(t, count * d_k, T)  # 1. the key rows into shared memory
                r, c = e // d_k, e % d_k
                shared[keys_at + r * (d_k + 1) + c] = read(a.key, start[1] + (j0 + r) * d_k + c)
                score = np.full(T, -np.inf, dtype=np.float32)  # 2. thread t's score
                lanes = t[t < count]
                slots = np.arange(d_k)
                keys = shared[keys_at + lanes[:, None] * (d_k + 1) + slots]  # (count, d_k)
                score[lanes] = (keys * shared[q_at + slots]).sum(axis=1, dtype=np.float32)
                if a.has_mask:
                    score[lanes] += read(a.mask, start[3] + i * a.mask_row_stride
                                         + (j0 + lanes) * a.mask_col_stride)
                lanes = t[t < block]
                shared[tile_at + lanes] = score[lanes]
                half = block // 2  # 3. the largest score, a tree of pairwise maxima
                while half > 0:
                    h = t[t < half]
                    shared[tile_at + h] = np.maximum(shared[tile_at + h],
                                                     shared[tile_at + h + half])
                    half //= 2
                new_max = np.maximum(running_max, shared[tile_at])
                shift = np.where(new_max == -np.inf, np.float32(0), new_max)
                rescale = np.exp(running_max - shift)
                shared[tile_at + lanes] = np.exp(score[lanes] - shift[lanes])  # 4. weights
                weights = shared[tile_at:tile_at + count]  # 5. sums and output slots
                tile_out = np.zeros(T, dtype=np.float32)
                out_lanes = t[t < d_v]
                u = np.arange(count)[:, None]
                values = read(a.value, start[2] + (j0 + u) * d_v + out_lanes)  # (count, d_v)
                tile_out[out_lanes] = (weights[:, None] * values).sum(axis=0)
                running_sum = running_sum * rescale + weights.sum()
                acc = acc * rescale + tile_out
                running_max = new_max
            lanes = t[t < d_v]
            total = running_sum[lanes]
            output[row * d_v + lanes] = np.where(total > 0, acc[lanes] / np.where(
                total > 0, total, 1), 0)
    assert not np.isnan(output).any(), "an output slot was never written"
    return output.reshape(launch.batch + (n, d_v))


def draw(seed, batch, n, m, d_k, d_v, dtype=np.float32):
    rng = np.random.default_rng(seed)
    return [rng.standard_normal(batch + shape).astype(dtype)
            for shape in ((n, d_k), (m, d_k), (m, d_v))]


def formula(query, key, value, attn_mask=None, **kwargs):
    """The plain formula in float64, the kernel's reference."""
    as64 = [a.astype(np.float64) for a in (query, key, value)]
    mask = attn_mask if attn_mask is None or attn_mask.dtype == bool else \
        attn_mask.astype(np.float64)
    return scaled_dot_product_attention(*as64, attn_mask=mask, **kwargs)


SHAPES = [
    ((), 1, 1, 1, 1),  # the smallest problem
    ((), 5, 7, 3, 2),  # fewer keys than one block
    ((), 9, 100, 16, 31),  # blocks of 32 keys, the last one holds 4
    ((2, 3), 4, 70, 64, 64),  # batch axes; blocks of 64 keys, the last one partial
    ((), 3, 40, 8, 200),  # 256 threads, 56 of them without an output slot
    ((), 2, 50, 100, 4),  # d_k = 100 above the 32 threads that load the query row
]


@pytest.mark.parametrize(("batch", "n", "m", "d_k", "d_v"), SHAPES)
@pytest.mark.parametrize("causal", [False, True])
def test_the_kernels_steps_give_the_formula(batch, n, m, d_k, d_v, causal):
    query, key, value = draw(n + m, batch, n, m, d_k, d_v)
    launch = plan_launch(query, key, value, is_causal=causal)
    assert launch.grid == np.prod(batch, dtype=int) * n  # one block per row, a 1-D grid
    np.testing.assert_allclose(run_on_cpu(launch), formula(query, key, value, is_causal=causal),
                               rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("n", [3, 40])
def test_causal_with_fewer_queries_than_keys_and_more(n):
    query, key, value = draw(n, (), n, 21, 4, 3)
    launch = plan_launch(query, key, value, is_causal=True)
    np.testing.assert_allclose(run_on_cpu(launch), formula(query, key, value, is_causal=True),
                               rtol=1e-4, atol=1e-5)


def test_the_grid_may_be_smaller_than_the_rows():
    """The blocks stride over the rows: 3 blocks give every one of 2 × 5 × 7 rows."""
    query, key, value = draw(3, (2, 5), 7, 33, 8, 5)
    launch = plan_launch(query, key, value, is_causal=True)
    np.testing.assert_allclose(run_on_cpu(launch, grid=3),
                               formula(query, key, value, is_causal=True), rtol=1e-4, atol=1e-5)


def test_beyond_65535_batch_elements_the_grid_is_flat():
    """gridDim.y stops at 65535: batch × heads = 70 000 rows go on the x axis, in one launch."""
    q = np.ones((280, 250, 1, 4), dtype=np.float32)
    kv = np.ones((250, 2, 4), dtype=np.float32)
    launch = plan_launch(q, kv, kv)
    assert launch.grid == 70_000 and int(launch.arguments.rows) == 70_000
    assert launch.arguments.key.size == kv.size  # the 250 heads' keys, not 70 000 copies
    starts = launch.arguments.starts
    assert starts.shape == (70_000, 5)
    assert np.array_equal(starts[:, 1], np.tile(np.arange(250) * 2 * 4, 280))
    assert gpu_kernel.MAX_GRID_BLOCKS >= 2**31 - 1


def test_broadcast_keys_and_values_are_indexed_not_copied():
    query, key, value = draw(4, (3, 4), 6, 20, 8, 5)
    key, value = key[:1], value[0, 0]  # key (1, 4, 20, 8) shared by 3 batch elements; value 2-D
    launch = plan_launch(query, key, value)
    a = launch.arguments
    assert a.key.size == key.size and a.value.size == value.size and a.query.size == query.size
    starts = a.starts.reshape(3, 4, 5)
    assert np.all(starts[:, :, 1] == starts[:1, :, 1])  # the same key rows for every batch b
    assert np.all(a.starts[:, 2] == 0)  # one value matrix for all
    np.testing.assert_allclose(run_on_cpu(launch), formula(query, key, value), rtol=1e-4,
                               atol=1e-5)


def masked_case(kind):
    """Q, K, V (2, 6 or 90, …) and a boolean or float (2, 6, 90) mask whose row (1, 4) is
    blocked everywhere (its output is 0)."""
    query, key, value = draw(7, (2,), 6, 90, 8, 5)
    rng = np.random.default_rng(8)
    allowed = rng.random((2, 6, 90)) < 0.5
    allowed[1, 4] = False
    mask = allowed if kind == "bool" else np.where(
        allowed, rng.normal(size=allowed.shape), -np.inf).astype(np.float32)
    return query, key, value, mask


@pytest.mark.parametrize("kind", ["bool", "float"])
def test_a_general_mask_goes_in_its_own_shape_and_empty_rows_give_zero(kind):
    query, key, value, mask = masked_case(kind)
    launch = plan_launch(query, key, value, attn_mask=mask)
    assert int(launch.arguments.has_mask) == 1 and int(launch.arguments.has_lengths) == 0
    assert launch.arguments.mask.dtype == np.float32 and launch.arguments.mask.size == mask.size
    got = run_on_cpu(launch)
    np.testing.assert_allclose(got, formula(query, key, value, attn_mask=mask), rtol=1e-4,
                               atol=1e-5)
    assert np.all(got[1, 4] == 0)


def test_a_mask_shared_by_the_rows_has_row_stride_zero():
    query, key, value = draw(9, (3,), 4, 50, 8, 2)
    mask = np.random.default_rng(9).normal(size=(3, 1, 50)).astype(np.float32)  # added, (B, 1, m)
    launch = plan_launch(query, key, value, attn_mask=mask)
    assert int(launch.arguments.mask_row_stride) == 0 and launch.arguments.mask.size == 150
    np.testing.assert_allclose(run_on_cpu(launch), formula(query, key, value, attn_mask=mask),
                               rtol=1e-4, atol=1e-5)


def test_a_mask_shared_by_the_keys_has_column_stride_zero():
    """A float (n, 1) mask adds one number to a whole row of scores: the softmax ignores it."""
    query, key, value = draw(10, (), 5, 40, 8, 3)
    mask = np.linspace(-3.0, 3.0, 5, dtype=np.float32)[:, None]  # (n, 1)
    launch = plan_launch(query, key, value, attn_mask=mask)
    a = launch.arguments
    assert (int(a.mask_row_stride), int(a.mask_col_stride), a.mask.size) == (1, 0, 5)
    np.testing.assert_allclose(run_on_cpu(launch), formula(query, key, value), rtol=1e-4,
                               atol=1e-5)


@pytest.mark.parametrize("additive", [False, True])
def test_a_padding_mask_becomes_one_key_count_per_sequence(additive):
    """(B, 1, m) padding, boolean or as 0 / −∞: B key counts, not B · n · m numbers; a
    sequence of length 0 gives zeros."""
    lengths = [37, 0, 90, 1]
    query, key, value = draw(11, (4,), 8, 90, 16, 6)
    mask = padding_mask(lengths, 90)  # (4, 1, 90)
    if additive:
        mask = np.where(mask, 0.0, -np.inf).astype(np.float32)
    launch = plan_launch(query, key, value, attn_mask=mask)
    a = launch.arguments
    assert int(a.has_lengths) == 1 and int(a.has_mask) == 0
    assert a.key_lengths.tolist() == lengths and int(a.lengths_row_stride) == 0
    got = run_on_cpu(launch)
    np.testing.assert_allclose(got, formula(query, key, value, attn_mask=mask), rtol=1e-4,
                               atol=1e-5)
    assert np.all(got[1] == 0)


def test_a_boolean_causal_mask_becomes_a_key_count_per_row():
    from course_lib import causal_mask

    query, key, value = draw(12, (), 6, 9, 4, 3)
    mask = causal_mask(6, 9, align="bottom-right", like=query)
    launch = plan_launch(query, key, value, attn_mask=mask)
    assert launch.arguments.key_lengths.tolist() == [4, 5, 6, 7, 8, 9]
    assert int(launch.arguments.lengths_row_stride) == 1
    np.testing.assert_allclose(run_on_cpu(launch), formula(query, key, value, attn_mask=mask),
                               rtol=1e-4, atol=1e-5)


def test_large_scores_stay_finite():
    query, key, value = draw(9, (), 16, 70, 32, 4)
    query, key = query * 4, key * 4  # scores up to a few hundred: e^score overflows float32
    got = run_on_cpu(plan_launch(query, key, value, scale=2.0))
    assert np.all(np.isfinite(got))
    np.testing.assert_allclose(got, formula(query, key, value, scale=2.0), rtol=1e-3, atol=1e-3)


# ---------------------------------------------------------------------------------------------
# On a GPU: the kernel's numbers against the formula's (make gpu-check)
# ---------------------------------------------------------------------------------------------

def run_both(query, key, value, attn_mask=None, **kwargs):
    """(kernel output, formula output on the CPU in float64) for NumPy inputs."""
    import cupy

    on_gpu = [None if a is None else cupy.asarray(a) for a in (query, key, value, attn_mask)]
    got = gpu_kernel.kernel_attention(*on_gpu[:3], attn_mask=on_gpu[3], **kwargs)
    assert isinstance(got, cupy.ndarray)
    return cupy.asnumpy(got), formula(query, key, value, attn_mask=attn_mask, **kwargs)


@pytest.mark.parametrize(("batch", "n", "m", "d_k", "d_v"), SHAPES + [
    ((), 256, 2048, 64, 64),  # a realistic head
    ((), 4, 300, 64, 1024),  # d_v = 1024: a block of 1024 threads, 128 keys at a time
])
@pytest.mark.parametrize("causal", [False, True])
@pytest.mark.gpu
@gpu_only
def test_equals_the_formula(batch, n, m, d_k, d_v, causal):
    got, expected = run_both(*draw(n + m, batch, n, m, d_k, d_v), is_causal=causal)
    assert got.shape == expected.shape and got.dtype == np.float32
    np.testing.assert_allclose(got, expected, rtol=1e-4, atol=1e-5)


@pytest.mark.gpu
@gpu_only
def test_the_cpu_port_and_the_kernel_agree():
    """The NumPy port above reads what the CUDA source reads: on the same launch both give the
    same numbers (up to the order of float32 additions)."""
    import cupy

    query, key, value = draw(5, (2, 3), 9, 77, 16, 12)
    mask = np.random.default_rng(5).random((2, 1, 9, 77)) < 0.7
    port = run_on_cpu(plan_launch(query, key, value, attn_mask=mask))
    got = gpu_kernel.kernel_attention(*(cupy.asarray(a) for a in (query, key, value)),
                                      attn_mask=cupy.asarray(mask))
    np.testing.assert_allclose(cupy.asnumpy(got), port, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("n", [3, 40])
@pytest.mark.gpu
@gpu_only
def test_causal_with_more_queries_than_keys_and_fewer(n):
    got, expected = run_both(*draw(n, (), n, 21, 4, 3), is_causal=True)
    np.testing.assert_allclose(got, expected, rtol=1e-4, atol=1e-5)


@pytest.mark.gpu
@gpu_only
def test_more_than_65535_batch_elements():
    """batch × heads = 257 × 256 = 65 792 > gridDim.y's 65 535: the flat grid takes them all."""
    query, key, value = draw(13, (257, 256), 2, 3, 8, 4)
    got, expected = run_both(query, key[:1], value[:1], is_causal=True)  # K, V broadcast
    assert got.shape == (257, 256, 2, 4)
    np.testing.assert_allclose(got, expected, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("kind", ["bool", "float"])
@pytest.mark.gpu
@gpu_only
def test_masks_and_fully_masked_rows(kind):
    query, key, value, mask = masked_case(kind)
    got, expected = run_both(query, key, value, attn_mask=mask)
    np.testing.assert_allclose(got, expected, rtol=1e-4, atol=1e-5)
    assert np.all(got[1, 4] == 0)


@pytest.mark.gpu
@gpu_only
def test_a_padding_mask_of_shape_batch_1_m():
    query, key, value = draw(14, (4, 2), 33, 500, 64, 64)
    mask = padding_mask([500, 0, 129, 1], 500)[:, None]  # (4, 1, 1, 500), one length per batch
    got, expected = run_both(query, key, value, attn_mask=mask)
    np.testing.assert_allclose(got, expected, rtol=1e-4, atol=1e-5)
    assert np.all(got[1] == 0)


@pytest.mark.gpu
@gpu_only
def test_more_than_48_kib_of_shared_memory_is_asked_for():
    query, key, value = draw(15, (), 3, 40, 13000, 4)  # one key row alone is 52 KB
    got, expected = run_both(query / 30, key / 30, value)
    np.testing.assert_allclose(got, expected, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("scale", [0.05, 2.0])
@pytest.mark.gpu
@gpu_only
def test_scale_and_large_scores(scale):
    query, key, value = draw(9, (), 16, 70, 32, 4)
    query, key = query * 4, key * 4  # scores up to a few hundred: e^score overflows float32
    got, expected = run_both(query, key, value, scale=scale)
    # A float32 score is off by at most a few eps·scale·Σ|q_c k_c|; a weight e^(s − M) by that
    # much relative, so the output by that much times the largest value.
    score_error = 4 * np.finfo(np.float32).eps * scale * (np.abs(query) @ np.abs(key).T).max()
    np.testing.assert_allclose(got, expected, rtol=1e-4,
                               atol=4 * score_error * np.abs(value).max() + 1e-5)
    assert np.all(np.isfinite(got))


@pytest.mark.parametrize("dtype", [np.float16, np.float64])
@pytest.mark.gpu
@gpu_only
def test_dtype_comes_back_as_the_formula_gives_it(dtype):
    import cupy

    query, key, value = draw(10, (), 12, 50, 16, 8, dtype=dtype)
    got = gpu_kernel.kernel_attention(*(cupy.asarray(a) for a in (query, key, value)))
    expected = scaled_dot_product_attention(query, key, value)
    assert got.dtype == expected.dtype
    tol = 2e-3 if dtype == np.float16 else 1e-5  # float16 output: 2⁻¹¹ relative rounding
    np.testing.assert_allclose(cupy.asnumpy(got).astype(np.float64), expected, rtol=tol,
                               atol=tol)


@pytest.mark.gpu
@gpu_only
def test_too_wide_values_are_refused():
    import cupy

    d_v = gpu_kernel.MAX_VALUE_WIDTH + 1
    with pytest.raises(ValueError, match=f"d_v = {d_v}"):
        gpu_kernel.kernel_attention(cupy.ones((2, 3)), cupy.ones((4, 3)), cupy.ones((4, d_v)))


@pytest.mark.gpu
@gpu_only
def test_no_queries_gives_an_empty_output():
    import cupy

    out = gpu_kernel.kernel_attention(cupy.ones((0, 3)), cupy.ones((4, 3)), cupy.ones((4, 2)))
    assert out.shape == (0, 2)


@pytest.mark.parametrize(("d_k", "key_block"), [(8, 4), (64, 64), (128, 32)])
def test_shared_words_follow_the_kernels_pointers(d_k, key_block):
    words = gpu_kernel.shared_words(d_k, key_block)
    assert len(words) * 4 == shared_memory_bytes(d_k, key_block)
    keys, tile = d_k, d_k + key_block * (d_k + 1)  # keys = q + d_k; tile = keys + B(d_k + 1)
    assert words[:keys] == [("q", None)] * d_k and words[tile:] == [("tile", None)] * key_block
    for r in range(key_block):  # keys[r * (d_k + 1) + c]: slot c of row r, then the pad
        row = words[keys + r * (d_k + 1):keys + (r + 1) * (d_k + 1)]
        assert row == [("key", r)] * d_k + [("pad", r)]


@pytest.mark.parametrize("d_k", [32, 64, 128])
def test_the_pad_word_spreads_a_warps_reads_over_all_banks(d_k):
    def banks(pad, c):
        words = gpu_kernel.shared_words(d_k, 32, pad)
        start = {row: w for w, (part, row) in reversed(list(enumerate(words))) if part == "key"}
        return {(start[t] + c) % gpu_kernel.BANKS for t in range(32)}

    for c in (0, 5, d_k - 1):
        assert len(banks(1, c)) == 32  # 32 threads, 32 banks: one read
        assert len(banks(0, c)) == 1  # all in one bank: 32 reads in turn


def test_halving_rounds_end_with_the_maximum_in_slot_zero():
    rng = np.random.default_rng(4)
    for size in (1, 2, 8, 64):
        scores = rng.standard_normal(size)
        rounds = gpu_kernel.halving_rounds(scores)
        assert len(rounds) == 1 + size.bit_length() - 1  # log2(size) rounds
        assert rounds[-1][0] == scores.max()
        np.testing.assert_array_equal(rounds[0], scores)
    with pytest.raises(ValueError, match="power of two; got shape \\(3,\\)"):
        gpu_kernel.halving_rounds([1.0, 2.0, 3.0])
