"""Rotary position embeddings: the loop twins, the half-split pairing against Meta's
neighbouring pairs, lengths kept, and the property that makes them work: the score of a rotated
query at position i and a rotated key at position j depends on i − j only."""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from course_lib import to_numpy
from course_lib.reference_decoding import (
    rotary_embedding_interleaved_loop,
    rotary_embedding_loop,
)
from course_lib.rotary import rotary_angles, rotary_embedding, rotary_frequencies, rotate_half

HYPOTHESIS = settings(max_examples=40, deadline=None,
                      suppress_health_check=[HealthCheck.function_scoped_fixture])
FINITE = st.floats(-10, 10, allow_nan=False, allow_infinity=False)
HALF = st.integers(1, 4)  # d = 2 · HALF


def rows(n, d):
    return arrays(np.float64, (n, d), elements=FINITE)


@HYPOTHESIS
@given(st.data(), HALF, st.integers(1, 5), st.sampled_from([10.0, 100.0, 10000.0]))
def test_matches_the_loop_twin(data, half, n, base):
    x = data.draw(rows(n, 2 * half))
    positions = data.draw(st.lists(st.integers(0, 50), min_size=n, max_size=n))
    got = to_numpy(rotary_embedding(x, positions, base=base))
    want = rotary_embedding_loop(x.tolist(), positions, base=base)
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)


def test_runs_on_each_array_library(xp):
    rng = np.random.default_rng(0)
    x = rng.standard_normal((2, 3, 6))
    got = rotary_embedding(xp.asarray(x), xp.asarray([0, 1, 7]))
    assert type(got) is type(xp.asarray(x))
    np.testing.assert_allclose(to_numpy(got)[1], rotary_embedding_loop(x[1], [0, 1, 7]),
                               atol=1e-12)


@HYPOTHESIS
@given(st.data(), HALF, st.integers(0, 30), st.integers(0, 30), st.integers(-20, 20))
def test_score_depends_on_the_offset_only(data, half, i, j, shift):
    q = data.draw(arrays(np.float64, 2 * half, elements=FINITE))
    k = data.draw(arrays(np.float64, 2 * half, elements=FINITE))
    score = float(rotary_embedding(q, i) @ rotary_embedding(k, j))
    moved = float(rotary_embedding(q, i + shift) @ rotary_embedding(k, j + shift))
    at_zero = float(q @ rotary_embedding(k, j - i))  # only j − i is left
    scale = 1.0 + float(np.abs(q).sum() * np.abs(k).sum())
    assert abs(score - moved) <= 1e-9 * scale
    assert abs(score - at_zero) <= 1e-9 * scale


@HYPOTHESIS
@given(st.data(), HALF, st.integers(1, 4))
def test_lengths_are_kept_and_position_zero_changes_nothing(data, half, n):
    x = data.draw(rows(n, 2 * half))
    positions = np.arange(n) * 3
    rotated = rotary_embedding(x, positions)
    np.testing.assert_allclose(np.linalg.norm(rotated, axis=-1), np.linalg.norm(x, axis=-1),
                               rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(rotary_embedding(x, np.zeros(n)), x)


@HYPOTHESIS
@given(st.data(), HALF, st.integers(1, 4))
def test_meta_pairing_is_the_same_rotation_up_to_a_permutation(data, half, n):
    d = 2 * half
    x = data.draw(rows(n, d))
    positions = list(range(n))
    # half-split slot t ↔ interleaved slot 2t, slot t + d/2 ↔ slot 2t + 1
    perm = np.array([t + s * half for t in range(half) for s in (0, 1)])
    half_split = rotary_embedding(x, positions)
    interleaved = np.array(rotary_embedding_interleaved_loop(x[:, perm].tolist(), positions))
    np.testing.assert_allclose(interleaved, half_split[:, perm], atol=1e-12)
    if d > 2:  # different pairs: without the permutation the two conventions differ
        pair = np.zeros((1, d))
        pair[0, 1] = 1.0
        assert not np.allclose(rotary_embedding_interleaved_loop(pair.tolist(), [1]),
                               rotary_embedding(pair, [1]))


def test_frequencies_angles_and_rotate_half():
    np.testing.assert_allclose(rotary_frequencies(8), 10000.0 ** (-np.arange(4) / 4))
    assert rotary_angles(np.arange(3), 4).shape == (3, 2)
    x = np.arange(1.0, 7.0)
    np.testing.assert_array_equal(rotate_half(x), [-4.0, -5.0, -6.0, 1.0, 2.0, 3.0])
    np.testing.assert_array_equal(rotate_half(rotate_half(x)), -x)  # two right angles


def test_broadcasting_and_dtype():
    x = np.ones((2, 3, 4), dtype=np.float16)
    out = rotary_embedding(x, [0, 1, 2])
    assert out.shape == (2, 3, 4) and out.dtype == np.float16
    one_row_many_positions = rotary_embedding(np.ones(4), np.arange(5))
    assert one_row_many_positions.shape == (5, 4)


@pytest.mark.parametrize(("x", "positions", "message"), [
    (np.ones((2, 3)), [0, 1], "even size"),
    (np.ones((2, 4)), [0, np.nan], "NaN"),
    (np.ones((2, 4)), [[0, 1, 2]], "broadcast"),
    (np.ones((2, 4)), ["a", "b"], "positions"),
])
def test_bad_input_is_explained(x, positions, message):
    with pytest.raises((ValueError, TypeError), match=message):
        rotary_embedding(x, positions)


def test_bad_base_is_explained():
    with pytest.raises(ValueError, match="base"):
        rotary_embedding(np.ones(4), 1, base=1.0)
