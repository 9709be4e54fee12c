"""course_lib.fast: the same numbers as the plain functions, and BLAS's thread setting restored."""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from threadpoolctl import threadpool_info, threadpool_limits

from conftest import ARRAY_LIBRARIES
from course_lib import fast, scaled_dot_product_attention, tiled_attention
from course_lib.fast import blocked, threads
from course_lib.fast import tiled as fast_tiled

SETTINGS = settings(max_examples=60, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture])


def blas_threads():
    counts = [lib["num_threads"] for lib in threadpool_info() if lib["user_api"] == "blas"]
    assert counts, "no BLAS found by threadpoolctl: the thread tests would check nothing"
    return counts


@pytest.fixture
def two_blas_threads():
    """BLAS on two threads around a test (make test starts it on one per worker), so that
    "held to one thread inside" differs from the setting it must restore."""
    with threadpool_limits(2, user_api="blas"):
        assert all(count == 2 for count in blas_threads())
        yield


@st.composite
def problems(draw):
    """Q, K, V and keyword arguments: masks (boolean, float, with fully masked rows), causal
    with n ≠ m, broadcast batch axes, float16/32/64."""
    rng = np.random.default_rng(draw(st.integers(0, 2**16)))
    n, m = draw(st.integers(1, 40)), draw(st.integers(1, 40))
    d_k, d_v = draw(st.integers(1, 8)), draw(st.integers(1, 6))
    batch = draw(st.sampled_from([(), (2,), (2, 1)]))
    dtype = draw(st.sampled_from([np.float64, np.float32, np.float16]))
    q = rng.standard_normal(batch + (n, d_k)).astype(dtype)
    k = rng.standard_normal((m, d_k)).astype(dtype)  # shared by the batch: broadcasting
    v = rng.standard_normal(batch + (m, d_v)).astype(dtype)
    kind = draw(st.sampled_from(["none", "causal", "bool", "float"]))
    kwargs = {}
    if kind == "causal":
        kwargs["is_causal"] = True
    elif kind != "none":
        allowed = rng.random(batch + (n, m)) < draw(st.sampled_from([0.0, 0.3, 0.8, 1.0]))
        allowed[..., 0, :] = False  # at least one fully masked row
        kwargs["attn_mask"] = allowed if kind == "bool" else np.where(allowed, 0.5, -np.inf)
    return q, k, v, kwargs


def tolerance(dtype):
    return {np.float16: 2e-3, np.float32: 1e-5, np.float64: 1e-12}[np.dtype(dtype).type]


@SETTINGS
@given(problem=problems(), weights=st.booleans())
def test_fast_attention_equals_the_formula(problem, weights):
    q, k, v, kwargs = problem
    expected = scaled_dot_product_attention(q, k, v, return_weights=weights, **kwargs)
    got = fast.attention(q, k, v, return_weights=weights, **kwargs)
    for a, b in zip(got if weights else (got,), expected if weights else (expected,),
                    strict=True):
        assert a.dtype == b.dtype and a.shape == b.shape
        np.testing.assert_allclose(a.astype(float), b.astype(float), rtol=tolerance(q.dtype),
                                   atol=tolerance(q.dtype))


@SETTINGS
@given(problem=problems(), block=st.one_of(st.integers(1, 16), st.tuples(st.integers(1, 16),
                                                                            st.integers(1, 16))))
def test_fast_tiled_attention_equals_the_teaching_one(problem, block):
    q, k, v, kwargs = problem
    expected = tiled_attention(q, k, v, block_size=block, **kwargs)
    got = fast.tiled_attention(q, k, v, block_size=block, **kwargs)
    assert got.dtype == expected.dtype and got.shape == expected.shape
    np.testing.assert_allclose(got.astype(float), expected.astype(float),
                               rtol=tolerance(q.dtype), atol=tolerance(q.dtype))


@pytest.mark.parametrize("size, mask_value", [(0.5, None), (0.5, 30.0), (40.0, None),
                                              (0.5, 100.0), (40.0, -500.0)])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_the_unshifted_exp_is_taken_only_where_scores_are_bounded(size, mask_value, dtype):
    """Scores within ±60 go to exp without the row-max shift (Cauchy–Schwarz bound); larger
    ones, from big inputs or a big float mask, take the shifted route. Both give the formula."""
    rng = np.random.default_rng(11)
    q, k, v = (size * rng.standard_normal((40, 8)).astype(dtype) for _ in range(3))
    mask = None
    if mask_value is not None:
        mask = np.where(rng.random((40, 40)) < 0.3, mask_value, 0.0).astype(dtype)
        mask[:, 3] = -np.inf  # a blocked key
    scaled = q / np.sqrt(8)
    bound = (np.linalg.norm(scaled, axis=1).max() * np.linalg.norm(k, axis=1).max()
             + (0.0 if mask is None else np.abs(mask[np.isfinite(mask)]).max()))
    assert fast_tiled.scores_bounded(scaled, k, mask) == (bound <= fast_tiled.SAFE_EXPONENT)
    want = scaled_dot_product_attention(q, k, v, attn_mask=mask)
    rtol = 1e-4 if dtype == np.float32 else 1e-10
    np.testing.assert_allclose(fast.attention(q, k, v, attn_mask=mask), want, rtol=rtol,
                               atol=rtol * np.abs(v).max())


@pytest.mark.parametrize("weights", [False, True])
def test_fully_masked_rows_are_zero_on_the_threaded_path(monkeypatch, weights):
    for module in (blocked, fast_tiled):  # force our threads on both routes
        monkeypatch.setattr(module, "thread_count", lambda work: 4)
    rng = np.random.default_rng(1)
    q, k, v = rng.standard_normal((300, 8)), rng.standard_normal((200, 8)), np.ones((200, 3))
    mask = rng.random((300, 200)) < 0.5
    mask[17] = False
    out = fast.attention(q, k, v, attn_mask=mask, return_weights=weights)
    out = out[0] if weights else out
    assert np.all(out[17] == 0.0) and np.all(np.abs(out[16] - 1.0) < 1e-12)
    np.testing.assert_allclose(out, scaled_dot_product_attention(q, k, v, attn_mask=mask),
                               rtol=1e-12, atol=1e-13)


@pytest.mark.parametrize("causal", [False, True])
def test_large_enough_for_threads(causal):
    rng = np.random.default_rng(2)
    q, k, v = (rng.standard_normal((s, 16), dtype=np.float32) for s in (1100, 900, 900))
    assert threads.thread_count(1100 * 900) >= min(2, len(__import__("os").sched_getaffinity(0)))
    np.testing.assert_allclose(fast.attention(q, k, v, is_causal=causal),
                               scaled_dot_product_attention(q, k, v, is_causal=causal),
                               rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(fast.tiled_attention(q, k, v, block_size=128, is_causal=causal),
                               tiled_attention(q, k, v, block_size=128, is_causal=causal),
                               rtol=1e-4, atol=1e-5)


# ---------------------------------------------------------------------------------------------
# Threads: BLAS held to one thread inside, the previous setting back afterwards
# ---------------------------------------------------------------------------------------------

def test_blas_is_held_to_one_thread_inside_and_restored_after(two_blas_threads):
    before = blas_threads()
    seen = []
    threads.run_tasks(range(6), lambda task, buffer: seen.append(blas_threads()), threads=3)
    assert len(seen) == 6 and all(counts == [1] * len(before) for counts in seen)
    assert blas_threads() == before


def test_blas_setting_restored_when_a_task_raises(two_blas_threads):
    before = blas_threads()

    def work(task, buffer):
        if task == 3:
            raise ArithmeticError("task 3 fails")

    with pytest.raises(ArithmeticError, match="task 3"):
        threads.run_tasks(range(8), work, threads=3)
    assert blas_threads() == before


@pytest.mark.filterwarnings("ignore:overflow encountered:RuntimeWarning")
@pytest.mark.filterwarnings("ignore:invalid value encountered:RuntimeWarning")
@pytest.mark.parametrize("weights", [False, True])
def test_blas_setting_restored_when_fast_attention_raises_in_a_thread(monkeypatch, weights,
                                                                       two_blas_threads):
    for module in (blocked, fast_tiled):
        monkeypatch.setattr(module, "thread_count", lambda work: 3)
    before = blas_threads()
    q = np.ones((2000, 2))
    q[1500] = 1e200  # finite inputs, +∞ scores: the error comes from one thread's block
    k, v = np.full((100, 2), 1e200), np.ones((100, 2))
    with np.errstate(over="ignore", invalid="ignore"), pytest.raises(ValueError, match="scores"):
        fast.attention(q, k, v, return_weights=weights)
    assert blas_threads() == before


def test_blas_setting_restored_when_fast_tiled_attention_raises_in_a_thread(monkeypatch,
                                                                             two_blas_threads):
    monkeypatch.setattr(fast_tiled, "thread_count", lambda work: 3)
    real = fast_tiled._query_block

    def failing_block(qs, k, v, mask, is_causal, i0, *rest):
        if i0 == 64:
            raise MemoryError("block 64 fails")
        return real(qs, k, v, mask, is_causal, i0, *rest)

    monkeypatch.setattr(fast_tiled, "_query_block", failing_block)
    before = blas_threads()
    rng = np.random.default_rng(5)
    with pytest.raises(MemoryError, match="block 64"):
        fast.tiled_attention(*(rng.standard_normal((300, 4)) for _ in range(3)), block_size=32)
    assert blas_threads() == before


def test_overlapping_calls_take_turns_and_leave_the_setting_as_it_was(two_blas_threads):
    # Two Python threads calling the fast functions at once: each parallel call sets and restores
    # the BLAS limit in its own thread, one call at a time, so nothing is left changed.
    from concurrent.futures import ThreadPoolExecutor

    before = blas_threads()
    rng = np.random.default_rng(4)
    cases = [tuple(rng.standard_normal((s, 8)) for s in (700 + 40 * i, 500, 500)) for i in range(4)]
    expected = [scaled_dot_product_attention(*case) for case in cases]
    with ThreadPoolExecutor(4) as pool:
        results = list(pool.map(lambda case: fast.attention(*case), cases * 2))
    assert len(results) == 8
    for got, want in zip(results, expected * 2, strict=True):
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-13)
    assert blas_threads() == before


@pytest.mark.parametrize("xp", [p for p in ARRAY_LIBRARIES if p.id == "cupy"])
def test_cupy_inputs_fall_back_to_the_plain_functions(xp):
    q = xp.asarray(np.random.default_rng(3).standard_normal((5, 4)))
    assert type(fast.attention(q, q, q)) is type(q)
    assert type(fast.tiled_attention(q, q, q, block_size=2)) is type(q)
