"""course_lib.geometry (arrows from angle and length): known answers and clear errors."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from course_lib import cosine_similarity, dot, norm
from course_lib.geometry import angle_between, direction, dot_from_angle, from_polar

lengths = st.floats(0.1, 100.0)
angles = st.floats(-720.0, 720.0)


@settings(max_examples=60, deadline=None)
@given(lengths, angles)
def test_from_polar_has_the_requested_length_and_direction(length, angle):
    q = from_polar(length, angle)
    assert q.shape == (2,)
    assert float(norm(q)) == pytest.approx(length)
    wrapped = (angle + 180.0) % 360.0 - 180.0  # the same direction in [−180, 180)
    assert math.cos(math.radians(float(direction(q)) - wrapped)) == pytest.approx(1.0)


@settings(max_examples=60, deadline=None)
@given(lengths, lengths, st.floats(0.0, 180.0), st.floats(-180.0, 180.0))
def test_dot_equals_lengths_times_cosine(length_q, length_k, angle, start):
    q, k = from_polar(length_q, start), from_polar(length_k, start + angle)
    expected = float(dot_from_angle(length_q, length_k, angle))
    assert float(dot(q, k)) == pytest.approx(expected, abs=1e-9 * length_q * length_k)
    assert math.cos(math.radians(float(angle_between(q, k)))) == pytest.approx(
        float(cosine_similarity(q, k)), abs=1e-9)


def test_angles_of_the_three_cases():
    assert float(angle_between([2.0, 0.0], [5.0, 0.0])) == pytest.approx(0.0, abs=1e-6)
    assert float(angle_between([1.0, 1.0], [1.0, -1.0])) == pytest.approx(90.0)
    assert float(angle_between([1.0, 2.0, 3.0], [-2.0, -4.0, -6.0])) == pytest.approx(180.0,
                                                                                  abs=1e-4)


def test_geometry_broadcasts_and_rejects_bad_input():
    arrows = from_polar([1.0, 2.0], [0.0, 90.0])
    assert arrows.shape == (2, 2)
    assert np.allclose(arrows, [[1.0, 0.0], [0.0, 2.0]])
    assert np.allclose(direction(arrows), [0.0, 90.0])
    with pytest.raises(ValueError, match="2-D arrows"):
        direction([1.0, 2.0, 3.0])
    with pytest.raises(ValueError, match="NaN"):
        from_polar(float("nan"), 0.0)
    with pytest.raises(ValueError, match="zero-length"):
        angle_between([0.0, 0.0], [1.0, 0.0])
