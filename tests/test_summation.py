"""course_lib.summation (Σ with slots counted from 1): known answers, the loop twin, clear
errors."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from course_lib.reference import sum_loop
from course_lib.summation import partial_sums, sigma


@settings(max_examples=80, deadline=None)
@given(st.lists(st.floats(-1e6, 1e6), min_size=1, max_size=12), st.data())
def test_sigma_matches_a_loop_over_slots_counted_from_1(q, data):
    a = data.draw(st.integers(1, len(q)))
    b = data.draw(st.integers(a, len(q)))
    terms = [q[i - 1] for i in range(a, b + 1)]  # slot i is Python position i − 1
    assert sigma(q, a, b) == pytest.approx(sum_loop(terms), rel=1e-12, abs=1e-6)
    assert sigma(q) == pytest.approx(sum_loop(q), rel=1e-12, abs=1e-6)

def test_sigma_known_answers_and_errors():
    assert sigma([5.0, 1.0, 4.0, 2.0], 2, 3) == 5.0
    assert sigma([5.0, 1.0, 4.0, 2.0], 3, 2) == 0.0  # an empty sum is 0
    with pytest.raises(ValueError, match="slot numbers run from 1 to L"):
        sigma([1.0, 2.0], 0, 2)
    with pytest.raises(ValueError, match="slot numbers run from 1 to L"):
        sigma([1.0, 2.0], 1, 3)
    with pytest.raises(ValueError, match="one list"):
        sigma([[1.0, 2.0]])

def test_partial_sums_are_running_totals():
    q = [1.5, -0.5, 2.0, 1.0]
    totals = partial_sums(q)
    assert totals.tolist() == [sum_loop(q[:i]) for i in range(1, len(q) + 1)]
    assert partial_sums([[1.0, 2.0], [3.0, 4.0]]).tolist() == [[1.0, 3.0], [3.0, 7.0]]
