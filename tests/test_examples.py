"""The hand-made examples mean what their docstrings say: each word of the designed sentence
attends to the word it should, at every d_k, and ÷ √d_k keeps the grid the same."""

import numpy as np
import pytest

from course_lib import scaled_dot_product_attention
from course_lib.examples import (
    DESIGNED_WORDS,
    designed_sentence,
    projection_weights,
)

# query word -> the words it should attend to most
INTENDED = {"the": {"cat", "mat"}, "cat": {"sat"}, "sat": {"cat"}, "on": {"mat"}, "mat": {"on"}}


@pytest.mark.parametrize("d_k", [4, 16, 64, 256])
def test_each_word_attends_to_the_word_it_should(d_k):
    words, query, key, value = designed_sentence(d_k)
    assert words == DESIGNED_WORDS and query.shape == key.shape == (6, d_k)
    _, weights = scaled_dot_product_attention(query, key, value, return_weights=True)
    assert len(words) == len(weights)
    for word, row in zip(words, weights, strict=True):
        top = {words[j] for j in np.flatnonzero(np.isclose(row, row.max()))}
        assert top == INTENDED[word], word
        assert row.max() > 0.4


def test_scaled_grid_is_the_same_at_every_d_k_raw_saturates_over_flattens():
    grids = {}
    for d_k in (4, 256):
        words, query, key, value = designed_sentence(d_k)
        for name, scale in (("scaled", None), ("raw", 1.0), ("over", 1.0 / d_k)):
            grids[name, d_k] = scaled_dot_product_attention(query, key, value, scale=scale,
                                                            return_weights=True)[1]
    assert np.allclose(grids["scaled", 4], grids["scaled", 256])
    assert grids["raw", 256][1].max() > 0.999 > grids["raw", 4][1].max()  # one-hot
    assert grids["over", 256][1].max() < 0.25 < grids["over", 4][1].max()  # nearly uniform


def test_designed_sentence_rejects_a_width_that_is_not_a_multiple_of_4():
    with pytest.raises(ValueError, match="multiple of 4"):
        designed_sentence(6)


def test_projection_weights_shapes():
    w_q, w_k, w_v = projection_weights(d_model=4, d_k=3, d_v=2)
    assert (w_q.shape, w_k.shape, w_v.shape) == ((4, 3), (4, 3), (4, 2))
    assert not np.array_equal(w_q, w_k)
