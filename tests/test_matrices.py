"""score_grid S = QKᵀ: known answers, the loop twin, batch axes."""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from course_lib import dot, score_grid, to_numpy
from course_lib.reference import score_grid_loop

# The xp fixture only hands back a module, so reusing it across hypothesis examples is safe.
HYPOTHESIS = settings(max_examples=80, deadline=None,
                      suppress_health_check=[HealthCheck.function_scoped_fixture])

numbers = st.floats(-100.0, 100.0, allow_nan=False, allow_infinity=False, width=64)


def on(xp, x):
    return xp.asarray(np.asarray(x))


@st.composite
def query_key_pairs(draw):
    n, m, d_k = draw(st.integers(1, 6)), draw(st.integers(1, 6)), draw(st.integers(1, 6))
    batch = tuple(draw(st.lists(st.integers(1, 3), max_size=2)))
    q_batch = tuple(draw(st.sampled_from([b, 1])) for b in batch)
    k_batch = batch[draw(st.integers(0, len(batch))):]  # fewer batch axes also broadcast
    q = draw(hnp.arrays(np.float64, q_batch + (n, d_k), elements=numbers))
    k = draw(hnp.arrays(np.float64, k_batch + (m, d_k), elements=numbers))
    return q, k


def test_known_answer(xp):
    q = [[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]
    k = [[2.0, 3.0], [-1.0, 4.0]]
    out = to_numpy(score_grid(on(xp, q), on(xp, k)))
    assert out.shape == (3, 2)  # (n, m): row i for query i, column j for key j
    assert out.tolist() == [[2.0, -1.0], [3.0, 4.0], [5.0, 3.0]]


def test_one_query_one_key_is_a_dot_product(xp):
    out = to_numpy(score_grid(on(xp, [[1.0, 2.0, 3.0]]), on(xp, [[4.0, 5.0, 6.0]])))
    assert out.tolist() == [[32.0]]


def test_integers_give_float64(xp):
    out = to_numpy(score_grid(on(xp, np.array([[1, 2]])), on(xp, np.array([[3, 4]]))))
    assert out.dtype == np.float64
    assert out.tolist() == [[11.0]]
    # int8 products would wrap around silently (100·100 = 10000 > 127)
    small = np.array([[100, 100]], dtype=np.int8)
    assert to_numpy(score_grid(on(xp, small), on(xp, small))).tolist() == [[20000.0]]


def test_float32_stays_float32(xp):
    q = np.ones((2, 3), dtype=np.float32)
    out = to_numpy(score_grid(on(xp, q), on(xp, q)))
    assert out.dtype == np.float32


@HYPOTHESIS
@given(pair=query_key_pairs())
def test_matches_loop_twin(xp, pair):
    q, k = pair
    out = to_numpy(score_grid(on(xp, q), on(xp, k)))
    batch = np.broadcast_shapes(q.shape[:-2], k.shape[:-2])
    assert out.shape == batch + (q.shape[-2], k.shape[-2])
    qb = np.broadcast_to(q, batch + q.shape[-2:])
    kb = np.broadcast_to(k, batch + k.shape[-2:])
    expected = np.empty(out.shape)
    for idx in np.ndindex(*batch):
        expected[idx] = score_grid_loop(qb[idx], kb[idx])
    # Summation order differs: bound the error by d_k·eps·Σ|q_i||k_j| per entry.
    bound = (q.shape[-1] * 4 * np.finfo(np.float64).eps
             * (np.abs(qb) @ np.swapaxes(np.abs(kb), -1, -2)))
    assert np.all(np.abs(out - expected) <= bound + 1e-300)


@HYPOTHESIS
@given(pair=query_key_pairs())
def test_entry_ij_is_query_i_dot_key_j(xp, pair):
    q, k = pair
    out = to_numpy(score_grid(on(xp, q), on(xp, k)))
    # dot broadcasts (..., n, 1, d_k) against (..., 1, m, d_k) to (..., n, m)
    via_dot = to_numpy(dot(on(xp, q[..., :, None, :]), on(xp, k[..., None, :, :])))
    np.testing.assert_allclose(out, via_dot, rtol=1e-12, atol=1e-9)


def test_swapping_query_and_key_transposes(xp):
    rng = np.random.default_rng(0)
    q, k = rng.standard_normal((2, 4, 3)), rng.standard_normal((2, 5, 3))
    a = to_numpy(score_grid(on(xp, q), on(xp, k)))
    b = to_numpy(score_grid(on(xp, k), on(xp, q)))
    np.testing.assert_allclose(a, np.swapaxes(b, -1, -2), rtol=1e-14, atol=1e-14)


# ---------------------------------------------------------------------------------------------
# Errors (moved from test_errors.py)


def test_score_grid_errors():
    with pytest.raises(ValueError, match=r"query must have at least 2 axes.*\(3,\)"):
        score_grid(np.ones(3), np.ones((2, 3)))
    with pytest.raises(ValueError, match=r"query's last axis is 3 but key's is 2"):
        score_grid(np.ones((4, 3)), np.ones((5, 2)))
    with pytest.raises(ValueError, match="key contains NaN"):
        score_grid(np.ones((4, 3)), np.full((5, 3), np.nan))
