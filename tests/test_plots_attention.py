"""Pictures of notebook 09: the weight grid, one row's bars and the output as a blend of the
values draw the numbers of the attention formula (checked against the loop twin)."""

import numpy as np
import pytest

from course_lib import scaled_dot_product_attention
from course_lib.examples import designed_sentence
from course_lib.plots.attention import (
    draw_attention_panels,
    draw_row_weights,
    draw_value_blend,
    draw_weight_grid,
    draw_weight_grids,
    highlight_row,
    update_attention_panels,
    update_value_blend,
)
from course_lib.plots.style import course_style, detached_figure
from course_lib.reference import attention_loop
from course_lib.text import fmt


@pytest.fixture
def fig():
    with course_style():
        figure = detached_figure((6.0, 4.0))
    return figure


def test_weight_grid_writes_every_weight_and_frames_a_row(fig):
    words, query, key, value = designed_sentence()
    _, loop_weights = attention_loop(query, key, value)
    artists = draw_weight_grid(np.array(loop_weights), words, ax=fig.add_subplot(), row=1)
    assert np.allclose(artists["cells"].get_array(), loop_weights)
    assert len(artists["texts"]) == 6 and all(len(row) == 6 for row in artists["texts"])
    assert artists["texts"][3][2].get_text() == fmt(loop_weights[3][2], 2)
    assert artists["highlight"].get_y() == pytest.approx(0.5)
    highlight_row(artists, 4)
    assert artists["highlight"].get_y() == pytest.approx(3.5)


def test_row_weights_and_blend_follow_the_math(fig):
    words, query, key, value = designed_sentence()
    loop_out, loop_weights = attention_loop(query, key, value)
    row = 3
    bars = draw_row_weights(loop_weights[row], words, ax=fig.add_subplot(121))
    assert [b.get_height() for b in bars["bars"]] == pytest.approx(loop_weights[row])
    blend = draw_value_blend(value, loop_weights[row], loop_out[row], words,
                             ax=fig.add_subplot(122))
    star = blend["output"]
    average = [sum(w * v[c] for w, v in zip(loop_weights[row], value, strict=True))
               for c in range(2)]  # the star is the weighted average of the value points
    assert [star.get_xdata()[0], star.get_ydata()[0]] == pytest.approx(average)
    assert np.argmax(blend["points"].get_sizes()) == int(np.argmax(loop_weights[row]))
    update_value_blend(blend, value, loop_weights[0], loop_out[0])
    assert [star.get_xdata()[0], star.get_ydata()[0]] == pytest.approx(loop_out[0])


def test_attention_panels_update_in_place_with_new_weights(fig):
    words, query, key, value = designed_sentence()
    output, weights = scaled_dot_product_attention(query, key, value, return_weights=True)
    artists = draw_attention_panels(words, value, weights, output, row=0, fig=fig)
    bars = artists["row"]["bars"]
    raw_out, raw = scaled_dot_product_attention(query, key, value, scale=1.0,
                                                return_weights=True)
    update_attention_panels(artists, value, raw, raw_out, 5, title="raw")
    assert artists["row"]["bars"] is bars
    assert [b.get_height() for b in bars] == pytest.approx(list(raw[5]))
    assert np.allclose(artists["grid"]["cells"].get_array(), raw)
    assert artists["grid"]["texts"][5][3].get_text() == fmt(raw[5, 3], 2)
    assert artists["grid"]["title"].get_text() == "raw"
    assert artists["grid"]["highlight"].get_y() == pytest.approx(4.5)


def test_weight_grids_side_by_side_show_each_scaling(fig):
    words, query, key, value = designed_sentence(64)
    grids = {title: scaled_dot_product_attention(query, key, value, scale=scale,
                                                 return_weights=True)[1]
             for title, scale in (("÷ √d_k", None), ("none", 1.0), ("÷ d_k", 1 / 64))}
    drawn = draw_weight_grids(grids, words, fig=fig)
    assert list(drawn) == list(grids)
    for title, weights in grids.items():
        assert np.allclose(drawn[title]["cells"].get_array(), weights)
        assert drawn[title]["title"].get_text() == title
    assert drawn["none"]["texts"][1][2].get_text() == "1.00"  # saturated: one-hot
