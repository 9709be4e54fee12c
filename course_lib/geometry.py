"""Arrows in the plane: build one from a length and a direction, and measure the angle
between two. The dot-product dashboard turns its angle and length sliders into vectors here.
"""

from .backend import get_array_module
from .dot import cosine_similarity
from .validation import as_float_array, check_finite

__all__ = ["angle_between", "direction", "dot_from_angle", "from_polar"]


def from_polar(length, angle_degrees):
    """The 2-D arrow of a given length pointing ``angle_degrees`` anticlockwise from "right":
    [length · cos θ, length · sin θ].

    Parameters
    ----------
    length : (...) array or number, the arrow's length (may be negative: it then points
        the opposite way).
    angle_degrees : (...) array or number, the direction in degrees; broadcasts with length.

    Returns
    -------
    (..., 2) array: the arrows' components [q₁, q₂].

    >>> from_polar(2.0, 90.0).round(6).tolist()
    [0.0, 2.0]
    >>> from_polar([1.0, 1.0], [0.0, 180.0]).round(6).tolist()
    [[1.0, 0.0], [-1.0, 0.0]]
    """
    length = as_float_array(length, "length", min_ndim=0)
    angle = as_float_array(angle_degrees, "angle_degrees", min_ndim=0)
    check_finite(length, "length")
    check_finite(angle, "angle_degrees")
    xp = get_array_module(length, angle)
    theta = xp.deg2rad(angle)
    return xp.stack([length * xp.cos(theta), length * xp.sin(theta)], axis=-1)  # (..., 2)


def angle_between(q, k):
    """The angle θ between two arrows, in degrees (0 = same way, 90 = right angle,
    180 = opposite), from cos θ = q·k / (∥q∥ ∥k∥).

    Parameters
    ----------
    q, k : (..., L) arrays with the same number of slots, neither of length zero.

    Returns
    -------
    (...) array of angles in [0, 180].

    >>> float(angle_between([1.0, 0.0], [0.0, 3.0]))
    90.0
    >>> round(float(angle_between([1.0, 1.0], [-2.0, -2.0])), 4)  # arccos is touchy near ±1
    180.0
    """
    cosine = cosine_similarity(q, k)  # already clipped to [-1, 1]
    xp = get_array_module(cosine)
    return xp.rad2deg(xp.arccos(cosine))


def direction(q):
    """The direction of 2-D arrows in degrees, anticlockwise from "right", in (−180, 180].

    Parameters
    ----------
    q : (..., 2) array of arrows [q₁, q₂].

    Returns
    -------
    (...) array of angles in degrees.

    >>> float(direction([0.0, 2.0]))
    90.0
    >>> direction([[1.0, 1.0], [-1.0, 0.0]]).tolist()
    [45.0, 180.0]
    """
    q = as_float_array(q, "q")
    check_finite(q, "q")
    if q.shape[-1] != 2:
        raise ValueError(f"direction needs 2-D arrows (last axis 2); got shape {q.shape}")
    xp = get_array_module(q)
    return xp.rad2deg(xp.arctan2(q[..., 1], q[..., 0]))


def dot_from_angle(length_q, length_k, angle_degrees):
    """The dot product from lengths and angle: q·k = ∥q∥ ∥k∥ cos θ.

    >>> round(float(dot_from_angle(2.0, 3.0, 60.0)), 6)
    3.0
    >>> round(float(dot_from_angle(2.0, 3.0, 90.0)), 6)   # a right angle: zero
    0.0
    """
    length_q = as_float_array(length_q, "length_q", min_ndim=0)
    length_k = as_float_array(length_k, "length_k", min_ndim=0)
    angle = as_float_array(angle_degrees, "angle_degrees", min_ndim=0)
    xp = get_array_module(length_q, length_k, angle)
    return length_q * length_k * xp.cos(xp.deg2rad(angle))
