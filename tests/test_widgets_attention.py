"""The attention dashboard (notebook 09) driven without a browser: the designed sentence, one
query's row, and the scale and d_k choices that make the same grid saturate or flatten."""

import io

import numpy as np
import pytest
from PIL import Image

from course_lib import scaled_dot_product_attention
from course_lib.examples import designed_sentence
from course_lib.reference import attention_loop
from course_lib.text import fmt
from course_lib.widgets.attention import (
    D_K_CHOICES,
    READOUT_CLASS,
    attention_dashboard,
    attention_readout,
)


def _pixels(dash):
    return np.asarray(Image.open(io.BytesIO(dash.image.value)))


def test_attention_dashboard_query_slider_comes_first():
    dash = attention_dashboard(query=2)
    first = list(dash.controls.values())[0]
    assert first is dash.controls["query"] and dash.children[0] is first
    assert (first.min, first.max, first.value) == (1, 6, 2)
    assert READOUT_CLASS in dash.readout._dom_classes
    assert list(dash.controls["d_k"].options) == list(D_K_CHOICES)
    assert [value for _, value in dash.controls["scaling"].options] == ["scaled", "raw", "over"]


@pytest.mark.parametrize("query", [1, 3, 4, 6])
def test_attention_dashboard_shows_the_chosen_row(query):
    dash = attention_dashboard(query=2)
    before = _pixels(dash)
    dash.controls["query"].value = query
    words, q, k, v = designed_sentence()
    loop_out, loop_weights = attention_loop(q, k, v)  # the independent reference
    row = loop_weights[query - 1]
    text = dash.readout_text()
    assert text.startswith(f"query {query} “{words[query - 1]}” (row q{'₁₂₃₄₅₆'[query - 1]} "
                           "of Q): weights A")
    for j, weight in enumerate(row):
        assert f"{words[j]}{'₁₂₃₄₅₆'[j]} {fmt(weight, 2)}" in text
    assert text.endswith("= [" + ", ".join(fmt(x, 3) for x in loop_out[query - 1]) + "]")
    artists = dash.all_artists
    assert [b.get_height() for b in artists["row"]["bars"]] == pytest.approx(row)
    star = artists["blend"]["output"]
    assert [star.get_xdata()[0], star.get_ydata()[0]] == pytest.approx(loop_out[query - 1])
    assert artists["grid"]["highlight"].get_y() == pytest.approx(query - 1.5)
    assert not np.array_equal(before, _pixels(dash))


@pytest.mark.parametrize(("scaling", "d_k", "scale"), [("raw", 256, 1.0), ("over", 256, 1 / 256),
                                                       ("scaled", 64, None)])
def test_scale_and_d_k_choices_redraw_the_grid(scaling, d_k, scale):
    dash = attention_dashboard()
    before = _pixels(dash)
    dash.controls["d_k"].value = d_k
    dash.controls["scaling"].value = scaling
    words, q, k, v = designed_sentence(d_k)
    _, weights = scaled_dot_product_attention(q, k, v, scale=scale, return_weights=True)
    grid = dash.all_artists["grid"]
    assert np.allclose(grid["cells"].get_array(), weights)
    assert grid["texts"][1][2].get_text() == fmt(weights[1, 2], 2)
    assert f"d_k = {d_k}" in grid["title"].get_text()
    assert grid["cells"] in dash.renderer.moving and grid["title"] in dash.renderer.moving
    assert not np.array_equal(before, _pixels(dash))


def test_attention_readout_sums_to_one():
    words, q, k, v = designed_sentence()
    output, weights = scaled_dot_product_attention(q, k, v, return_weights=True)
    assert "(sum 1.00)" in attention_readout(words, weights[0], output[0], 1)
