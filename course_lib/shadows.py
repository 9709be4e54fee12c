"""The shadow of one arrow on another: where cos θ in q·k = ∥q∥∥k∥cos θ comes from.

Shine a light straight down onto the line of q: the arrow k casts a shadow along it. The
shadow's signed length is ∥k∥cos θ (negative when k points backwards, past a right angle),
and q·k is ∥q∥ times that shadow.
"""

from .dot import dot
from .validation import as_float_array
from .vectors import norm

__all__ = ["shadow", "shadow_length"]


def shadow_length(k, onto):
    """The signed length of k's shadow on the line of ``onto``: k·q / ∥q∥ = ∥k∥cos θ.

    Parameters
    ----------
    k, onto : (..., L) arrays with the same number of slots; ``onto`` (q) not of length zero.

    Returns
    -------
    (...) array: positive when k leans toward q, 0 at a right angle, negative past it.

    >>> float(shadow_length([3.0, 4.0], onto=[2.0, 0.0]))   # q on the x-axis: just k₁
    3.0
    >>> float(shadow_length([-1.0, 1.0], onto=[1.0, 1.0]))   # a right angle: no shadow
    0.0
    """
    length = _nonzero_length(onto)
    return dot(k, onto) / length  # (...)


def shadow(k, onto):
    """The shadow of k on the line of ``onto`` as an arrow: (k·q / ∥q∥²) q, the point of
    that line right below the tip of k.

    Parameters
    ----------
    k, onto : (..., L) arrays with the same number of slots; ``onto`` (q) not of length zero.

    Returns
    -------
    (..., L) array: the foot of the drop line from k's tip.

    >>> shadow([3.0, 4.0], onto=[2.0, 0.0]).tolist()
    [3.0, 0.0]
    >>> shadow([1.0, 3.0], onto=[1.0, 1.0]).tolist()
    [2.0, 2.0]
    """
    onto = as_float_array(onto, "onto")
    _nonzero_length(onto)
    along = dot(k, onto) / dot(onto, onto)  # (...): the shadow is this many copies of q
    return along[..., None] * onto  # (..., L)


def _nonzero_length(onto):
    length = norm(onto)  # (...)
    if bool((length == 0).any()):
        raise ValueError("onto has length zero: a zero arrow has no line to cast a shadow on")
    return length
