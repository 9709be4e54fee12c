"""dot and cosine_similarity (course_lib.dot): known answers, the loop twins, broadcasting,
properties."""

import math

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from course_lib import cosine_similarity, dot, norm, to_numpy
from course_lib.reference import dot_loop, norm_loop, sum_loop

# The xp fixture only hands back a module, so reusing it across hypothesis examples is safe.
HYPOTHESIS = settings(max_examples=80, deadline=None,
                      suppress_health_check=[HealthCheck.function_scoped_fixture])

# Magnitudes from 1e-100 up: squaring anything much smaller underflows to 0 in float64, which
# the plain √(Σ qᵢ²) of the course does not guard against (nor does it need to).
slots = (st.just(0.0) | st.floats(1e-100, 1e3) | st.floats(-1e3, -1e-100))


def on(xp, x):
    return xp.asarray(np.asarray(x))


@st.composite
def vector_pairs(draw):
    """Two stacks of vectors (..., L) whose leading axes broadcast."""
    length = draw(st.integers(1, 8))
    batch = tuple(draw(st.lists(st.integers(1, 3), max_size=2)))
    other = tuple(draw(st.sampled_from([b, 1])) for b in batch)
    q = draw(hnp.arrays(np.float64, batch + (length,), elements=slots))
    k = draw(hnp.arrays(np.float64, other + (length,), elements=slots))
    return q, k


# ---------------------------------------------------------------------------------------------
# dot


def test_dot_known_answers(xp):
    assert float(to_numpy(dot(on(xp, [1.0, 2.0, 3.0]), on(xp, [4.0, 5.0, 6.0])))) == 32.0
    assert float(to_numpy(dot(on(xp, [1.0, 0.0]), on(xp, [0.0, 2.0])))) == 0.0
    assert float(to_numpy(dot(on(xp, [1.0, 1.0]), on(xp, [-1.0, -1.0])))) == -2.0


def test_dot_small_integers_do_not_wrap_around(xp):
    q = np.array([100, 100], dtype=np.int8)
    out = to_numpy(dot(on(xp, q), on(xp, q)))
    assert out.dtype == np.float64
    assert float(out) == 20000.0


def test_dot_broadcasts_one_vector_against_many(xp):
    q = np.array([1.0, 2.0])
    keys = np.array([[1.0, 0.0], [0.0, 1.0], [3.0, 4.0]])
    assert to_numpy(dot(on(xp, q), on(xp, keys))).tolist() == [1.0, 2.0, 11.0]


@HYPOTHESIS
@given(pair=vector_pairs())
def test_dot_matches_loop_twin(xp, pair):
    q, k = pair
    out = to_numpy(dot(on(xp, q), on(xp, k)))
    qb, kb = np.broadcast_arrays(q, k)
    assert out.shape == qb.shape[:-1]
    expected = np.empty(qb.shape[:-1])
    for idx in np.ndindex(*qb.shape[:-1]):
        expected[idx] = dot_loop(qb[idx].tolist(), kb[idx].tolist())
    # Summation order differs: the error is bounded by L·eps·Σ|qᵢkᵢ|, not by the result.
    bound = q.shape[-1] * 4 * np.finfo(np.float64).eps * (np.abs(qb) * np.abs(kb)).sum(axis=-1)
    assert np.all(np.abs(out - expected) <= bound + 1e-300)


@HYPOTHESIS
@given(pair=vector_pairs())
def test_dot_is_symmetric(xp, pair):
    q, k = pair
    np.testing.assert_array_equal(to_numpy(dot(on(xp, q), on(xp, k))),
                                  to_numpy(dot(on(xp, k), on(xp, q))))


def test_dot_of_a_vector_with_itself_is_its_squared_norm(xp):
    q = np.array([2.0, -3.0, 6.0])
    assert float(to_numpy(dot(on(xp, q), on(xp, q)))) == 49.0
    assert float(to_numpy(norm(on(xp, q)))) ** 2 == 49.0


def test_sum_loop_adds_slots():
    assert sum_loop([0.5, 0.25, 0.25]) == 1.0


# ---------------------------------------------------------------------------------------------
# cosine similarity


@pytest.mark.parametrize(("q", "k", "expected"), [
    ([1.0, 0.0], [5.0, 0.0], 1.0),
    ([1.0, 0.0], [0.0, 3.0], 0.0),
    ([1.0, 1.0], [-2.0, -2.0], -1.0),
    ([1.0, 0.0], [1.0, 1.0], 1 / math.sqrt(2.0)),
])
def test_cosine_known_answers(xp, q, k, expected):
    out = float(to_numpy(cosine_similarity(on(xp, q), on(xp, k))))
    assert out == pytest.approx(expected, abs=1e-15)


@HYPOTHESIS
@given(pair=vector_pairs(), c=st.floats(0.01, 100.0))
def test_cosine_ignores_length_and_stays_in_range(xp, pair, c):
    q, k = pair
    lengths = np.linalg.norm(q, axis=-1)[..., None] * np.linalg.norm(k, axis=-1)[..., None]
    assume(not np.any(lengths == 0.0))  # a zero vector has no direction (test_validation)
    cos = to_numpy(cosine_similarity(on(xp, q), on(xp, k)))
    assert np.all(np.abs(cos) <= 1.0)
    np.testing.assert_allclose(to_numpy(cosine_similarity(on(xp, c * q), on(xp, k))), cos,
                               rtol=1e-12, atol=1e-12)
    expected = np.empty(cos.shape)
    qb, kb = np.broadcast_arrays(q, k)
    for idx in np.ndindex(*cos.shape):
        a, b = qb[idx].tolist(), kb[idx].tolist()
        expected[idx] = dot_loop(a, b) / (norm_loop(a) * norm_loop(b))
    np.testing.assert_allclose(cos, np.clip(expected, -1.0, 1.0), rtol=1e-9, atol=1e-12)


def message(excinfo):
    return str(excinfo.value)


# ---------------------------------------------------------------------------------------------
# Errors (moved from test_errors.py)


def test_dot_slot_count_mismatch():
    with pytest.raises(ValueError) as excinfo:
        dot([1.0, 2.0, 3.0], [1.0, 2.0])
    text = message(excinfo)
    assert text.startswith("q has 3 slots but k has 2")  # two vectors: slots, not axes
    assert "(3,)" in text and "(2,)" in text


def test_dot_rows_mismatch_names_the_last_axis():
    with pytest.raises(ValueError) as excinfo:
        dot(np.ones((2, 3)), np.ones((2, 4)))
    text = message(excinfo)
    assert text.startswith("q's last axis is 3 but k's is 4")  # rows: the axis, and the shapes
    assert "(2, 3)" in text and "(2, 4)" in text


def test_dot_nan():
    with pytest.raises(ValueError, match="k contains NaN"):
        dot([1.0, 2.0], [np.nan, 2.0])


def test_cosine_similarity_of_zero_vector():
    with pytest.raises(ValueError, match="zero-length"):
        cosine_similarity([0.0, 0.0], [1.0, 2.0])
