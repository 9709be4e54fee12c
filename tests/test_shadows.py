"""The shadow of one arrow on another (course_lib.shadows): its length is ∥k∥cos θ, its foot
lies on q's line right below k's tip, and q·k = ∥q∥ × shadow length."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from course_lib import dot, norm, shadow, shadow_length
from course_lib.geometry import angle_between, from_polar

coordinates = st.floats(-10, 10, allow_nan=False, allow_infinity=False)
arrows = st.tuples(coordinates, coordinates, coordinates).filter(
    lambda v: math.sqrt(sum(x * x for x in v)) > 1e-3)


def test_known_shadows():
    assert float(shadow_length([3.0, 4.0], onto=[2.0, 0.0])) == pytest.approx(3.0)
    assert float(shadow_length([-1.0, 1.0], onto=[1.0, 1.0])) == pytest.approx(0.0)
    assert float(shadow_length([-2.0, 5.0], onto=[1.0, 0.0])) == pytest.approx(-2.0)
    assert shadow([1.0, 3.0], onto=[1.0, 1.0]).tolist() == pytest.approx([2.0, 2.0])


@pytest.mark.parametrize("angle", [0.0, 30.0, 90.0, 120.0, 180.0])
def test_the_shadow_is_the_length_times_the_cosine(angle):
    q, k = from_polar(2.5, 15.0), from_polar(4.0, 15.0 + angle)
    assert float(shadow_length(k, onto=q)) == pytest.approx(4.0 * math.cos(math.radians(angle)),
                                                            abs=1e-12)


@settings(max_examples=60, deadline=None)
@given(arrows, arrows)
def test_shadow_properties(k, q):
    foot = shadow(k, onto=q)
    # the foot lies on q's line and the drop line k − foot is at a right angle to q
    assert float(dot(np.subtract(k, foot), q)) == pytest.approx(0.0, abs=1e-6 * (1 + norm(k) ** 2))
    assert float(norm(foot)) == pytest.approx(abs(float(shadow_length(k, onto=q))), abs=1e-9)
    # q·k = ∥q∥ × (signed shadow length) = ∥q∥∥k∥cos θ
    assert float(dot(q, k)) == pytest.approx(float(norm(q) * shadow_length(k, onto=q)),
                                             abs=1e-9 * (1 + float(norm(q) * norm(k))))
    theta = math.radians(float(angle_between(q, k)))
    assert float(shadow_length(k, onto=q)) == pytest.approx(float(norm(k)) * math.cos(theta),
                                                            abs=1e-6)


def test_batched_shadows():
    k = np.array([[3.0, 4.0], [1.0, 3.0]])
    q = np.array([[2.0, 0.0], [1.0, 1.0]])
    assert shadow_length(k, onto=q).shape == (2,)
    assert shadow(k, onto=q).tolist() == pytest.approx(np.array([[3.0, 0.0], [2.0, 2.0]]))


def test_a_zero_arrow_has_no_line():
    with pytest.raises(ValueError, match="length zero"):
        shadow_length([1.0, 2.0], onto=[0.0, 0.0])
    with pytest.raises(ValueError, match="length zero"):
        shadow([1.0, 2.0], onto=[[1.0, 0.0], [0.0, 0.0]])
