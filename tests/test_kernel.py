"""The CUDA kernel of course_lib.fast.gpu_kernel against the formula.

The cases marked ``gpu`` need CuPy and a CUDA device (``make gpu-check`` runs them); elsewhere
they skip with one line saying why. The rest run everywhere: the source is readable text,
importing the module loads no CuPy, and NumPy inputs get a clear error.
"""

import subprocess
import sys

import numpy as np
import pytest

from course_lib import scaled_dot_product_attention
from course_lib.backend import gpu_status
from course_lib.fast import gpu_kernel

GPU_OK, GPU_REASON = gpu_status()
gpu_only = pytest.mark.skipif(
    not GPU_OK, reason=f"GPU case skipped: {GPU_REASON.split('. ')[0].rstrip('.')}")


def test_the_source_is_a_readable_string():
    source = gpu_kernel.KERNEL_SOURCE
    assert isinstance(source, str) and 'extern "C" __global__' in source
    assert "void online_softmax_attention(" in source
    assert source.count("__syncthreads()") >= 4  # every shared-memory hand-over is fenced
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


# ---------------------------------------------------------------------------------------------
# On a GPU: the kernel's numbers against the formula's
# ---------------------------------------------------------------------------------------------

def run_both(query, key, value, attn_mask=None, **kwargs):
    """(kernel output, formula output on the CPU in float64) for NumPy inputs."""
    import cupy

    on_gpu = [None if a is None else cupy.asarray(a) for a in (query, key, value, attn_mask)]
    got = gpu_kernel.kernel_attention(*on_gpu[:3], attn_mask=on_gpu[3], **kwargs)
    assert isinstance(got, cupy.ndarray)
    as64 = [a.astype(np.float64) for a in (query, key, value)]
    mask = attn_mask if attn_mask is None or attn_mask.dtype == bool else \
        attn_mask.astype(np.float64)
    return cupy.asnumpy(got), scaled_dot_product_attention(*as64, attn_mask=mask, **kwargs)


def draw(seed, batch, n, m, d_k, d_v, dtype=np.float32):
    rng = np.random.default_rng(seed)
    return [rng.standard_normal(batch + shape).astype(dtype)
            for shape in ((n, d_k), (m, d_k), (m, d_v))]


@pytest.mark.parametrize(("batch", "n", "m", "d_k", "d_v"), [
    ((), 1, 1, 1, 1),  # the smallest problem
    ((), 5, 7, 3, 2),  # fewer keys than one tile of threads
    ((), 33, 100, 16, 31),  # several tiles of 32 keys, the last one partial
    ((2, 3), 17, 300, 64, 64),  # batch axes, tiles of 64 threads
    ((), 8, 1000, 8, 200),  # d_v = 200: 256 threads, a few of them idle
    ((), 256, 2048, 64, 64),  # a realistic head
])
@pytest.mark.parametrize("causal", [False, True])
@pytest.mark.gpu
@gpu_only
def test_equals_the_formula(batch, n, m, d_k, d_v, causal):
    got, expected = run_both(*draw(n + m, batch, n, m, d_k, d_v), is_causal=causal)
    assert got.shape == expected.shape and got.dtype == np.float32
    np.testing.assert_allclose(got, expected, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("n", [3, 40])
@pytest.mark.gpu
@gpu_only
def test_causal_with_more_queries_than_keys_and_fewer(n):
    got, expected = run_both(*draw(n, (), n, 21, 4, 3), is_causal=True)
    np.testing.assert_allclose(got, expected, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("kind", ["bool", "float"])
@pytest.mark.gpu
@gpu_only
def test_masks_and_fully_masked_rows(kind):
    query, key, value = draw(7, (2,), 6, 90, 8, 5)
    rng = np.random.default_rng(8)
    allowed = rng.random((2, 6, 90)) < 0.5
    allowed[1, 4] = False  # batch 1, query 4 sees no key: its output is 0
    mask = allowed if kind == "bool" else np.where(
        allowed, rng.normal(size=allowed.shape), -np.inf).astype(np.float32)
    got, expected = run_both(query, key, value, attn_mask=mask)
    np.testing.assert_allclose(got, expected, rtol=1e-4, atol=1e-5)
    assert np.all(got[1, 4] == 0)


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


def test_the_causal_rule_is_top_left():
    """The kernel's `last = min(m, i + 1)` is the top-left rule of causal_mask (checked here
    without a GPU): query i sees exactly min(m, i + 1) keys."""
    from course_lib import causal_mask

    for n, m in ((3, 5), (5, 3), (4, 4)):
        counts = causal_mask(n, m, like=np.ones(1)).sum(axis=1)
        assert counts.tolist() == [min(m, i + 1) for i in range(n)]
    assert "is_causal ? min(m, i + 1) : m" in gpu_kernel.KERNEL_SOURCE
