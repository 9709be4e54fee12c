"""Q = XW_Q, K = XW_K, V = XW_V, against a loop over rows and slots."""

import numpy as np
import pytest

from course_lib.projections import project, projections


def test_project_is_row_times_matrix():
    rng = np.random.default_rng(0)
    x, w = rng.standard_normal((3, 4)), rng.standard_normal((4, 2))
    loop = [[sum(x[i, t] * w[t, j] for t in range(4)) for j in range(2)] for i in range(3)]
    assert np.allclose(project(x, w), loop)


def test_projections_give_three_views_of_the_same_rows():
    rng = np.random.default_rng(1)
    x = rng.standard_normal((5, 4))
    w_q, w_k, w_v = (rng.standard_normal((4, d)) for d in (3, 3, 2))
    query, key, value = projections(x, w_q, w_k, w_v)
    assert query.shape == (5, 3) and key.shape == (5, 3) and value.shape == (5, 2)
    assert np.allclose(key[2], x[2] @ w_k)  # row 𝐤₃ of K comes from word 3 alone


def test_project_names_the_shapes_that_do_not_fit():
    with pytest.raises(ValueError, match=r"d_model = 4 .* got \(3, 2\)"):
        project(np.zeros((5, 4)), np.zeros((3, 2)))
