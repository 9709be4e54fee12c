"""norm (course_lib.vectors): known answers, the loop twin, broadcasting, properties."""

import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from course_lib import norm, to_numpy
from course_lib.reference import norm_loop

# The xp fixture only hands back a module, so reusing it across hypothesis examples is safe.
HYPOTHESIS = settings(max_examples=80, deadline=None,
                      suppress_health_check=[HealthCheck.function_scoped_fixture])

# Magnitudes from 1e-100 up: squaring anything much smaller underflows to 0 in float64, which
# the plain √(Σ qᵢ²) of the course does not guard against (nor does it need to).
slots = (st.just(0.0) | st.floats(1e-100, 1e3) | st.floats(-1e3, -1e-100))


def on(xp, x):
    return xp.asarray(np.asarray(x))


# ---------------------------------------------------------------------------------------------
# norm


def test_norm_known_answers(xp):
    assert float(to_numpy(norm(on(xp, [3.0, 4.0])))) == 5.0
    assert float(to_numpy(norm(on(xp, [1.0, 2.0, 2.0])))) == 3.0
    assert to_numpy(norm(on(xp, [[0.0, 0.0], [-5.0, 12.0]]))).tolist() == [0.0, 13.0]


def test_norm_axis(xp):
    x = np.array([[3.0, 1.0], [4.0, 0.0]])
    assert to_numpy(norm(on(xp, x), axis=0)).tolist() == [5.0, 1.0]


def test_norm_integers_give_floats(xp):
    out = to_numpy(norm(on(xp, np.array([6, 8], dtype=np.int64))))
    assert out.dtype == np.float64
    assert float(out) == 10.0
    # int8 squares would wrap around (100² = 10000 > 127); the work must be in float64.
    assert float(to_numpy(norm(on(xp, np.array([100, 100], dtype=np.int8))))) == pytest.approx(
        100 * math.sqrt(2.0), rel=1e-15)


@HYPOTHESIS
@given(x=hnp.arrays(np.float64, hnp.array_shapes(min_dims=1, max_dims=3, max_side=6),
                    elements=slots))
def test_norm_matches_loop_twin(xp, x):
    out = to_numpy(norm(on(xp, x)))
    expected = np.empty(x.shape[:-1])
    for idx in np.ndindex(*x.shape[:-1]):
        expected[idx] = norm_loop(x[idx].tolist())
    np.testing.assert_allclose(out, expected, rtol=1e-12, atol=1e-300)


@HYPOTHESIS
@given(x=hnp.arrays(np.float64, st.integers(1, 10), elements=slots),
       c=st.floats(0.01, 100.0) | st.floats(-100.0, -0.01))
def test_norm_scales_with_the_vector(xp, x, c):
    # ∥c·q∥ = |c|·∥q∥, and a length is never negative.
    length = float(to_numpy(norm(on(xp, x))))
    assert length >= 0.0
    np.testing.assert_allclose(float(to_numpy(norm(on(xp, c * x)))), abs(c) * length,
                               rtol=1e-12, atol=1e-300)


# ---------------------------------------------------------------------------------------------
# Errors (moved from test_errors.py)


def test_norm_non_numeric_and_inf():
    with pytest.raises(TypeError, match="q"):
        norm(["a", "b"])
    with pytest.raises(ValueError, match="q contains NaN or infinite"):
        norm([1.0, np.inf])


def test_norm_of_a_scalar_is_an_error():
    with pytest.raises(ValueError, match=r"q must have at least 1 axes"):
        norm(3.0)
