"""Dashboards of notebooks 08 and 09 driven without a browser: moving the first control runs
the callback, which moves the artists and writes in the readout the numbers the math gives."""

import io

import numpy as np
import pytest
from PIL import Image

from course_lib import scaled_dot_product_attention
from course_lib.plots.attention import toy_sentence
from course_lib.plots.notation import fmt
from course_lib.plots.variance import D_K_CHOICES, spread_statistics
from course_lib.reference import attention_loop
from course_lib.widgets.attention import attention_dashboard, attention_readout
from course_lib.widgets.base import Dashboard
from course_lib.widgets.variance import READOUT_CLASS, dk_dashboard, dk_readout


def _pixels(dash):
    return np.asarray(Image.open(io.BytesIO(dash.image.value)))


# --- notebook 08: the d_k dashboard -------------------------------------------------------

def test_dk_dashboard_slider_comes_first_and_readout_has_its_class():
    dash = dk_dashboard(d_k=16)
    assert isinstance(dash, Dashboard)
    first = list(dash.controls.values())[0]
    assert first is dash.controls["d_k"]
    assert first.description == "d_k (slots per query/key)"
    assert list(first.options) == list(D_K_CHOICES)
    assert dash.children[0] is first  # the first slider on screen
    assert READOUT_CLASS == "course-readout"
    assert READOUT_CLASS in dash.readout._dom_classes
    assert len(dash.description) <= 110


def test_dk_dashboard_moves_to_the_math():
    dash = dk_dashboard(d_k=16)
    before = _pixels(dash)
    dash.controls["d_k"].value = 256
    stats = spread_statistics(256)
    text = dash.readout_text()
    assert text == dk_readout(stats)
    assert text.startswith("d_k = 256 · raw q·k: variance ")
    assert f"variance {fmt(stats['variance']['raw'], 2)} (theory 256)" in text
    assert f"variance {fmt(stats['variance']['scaled'], 2)} (theory 1)" in text
    assert f"largest weight {fmt(stats['largest_weight']['raw'], 3)}" in text
    assert f"gradient size {fmt(stats['gradient_size']['scaled'], 3)}" in text
    artists = dash.all_artists
    edges = artists["raw"]["edges"]
    counts, _ = np.histogram(stats["samples"]["raw"], bins=edges)
    assert np.allclose(artists["raw"]["bars"].get_data()[0],
                       counts / (len(stats["samples"]["raw"]) * (edges[1] - edges[0])))
    for key in ("variance", "largest_weight", "gradient_size"):
        assert list(artists[key]["marker"].get_xdata()) == [256, 256]
        assert list(artists[key]["dots"]["raw"].get_ydata()) == [stats[key]["raw"]]
    assert not np.array_equal(before, _pixels(dash))


def test_dk_readout_numbers_follow_d_k():
    dash = dk_dashboard(d_k=1)
    values = []
    for d_k in (1, 16, 512):
        dash.controls["d_k"].value = d_k
        raw_variance = float(dash.readout_text().split("variance ")[1].split(" ")[0])
        values.append(raw_variance)
    assert values
    assert values[0] < values[1] < values[2]
    assert abs(values[2] - 512) < 0.2 * 512


# --- notebook 09: the attention dashboard ---------------------------------------------------

def test_attention_dashboard_query_slider_comes_first():
    dash = attention_dashboard(query=2)
    first = list(dash.controls.values())[0]
    assert first is dash.controls["query"] and dash.children[0] is first
    assert (first.min, first.max, first.value) == (1, 6, 2)
    assert READOUT_CLASS in dash.readout._dom_classes
    assert len(dash.description) <= 110


@pytest.mark.parametrize("query", [1, 3, 4, 6])
def test_attention_dashboard_shows_the_chosen_row(query):
    dash = attention_dashboard(query=2)
    before = _pixels(dash)
    dash.controls["query"].value = query
    words, q, k, v = toy_sentence()
    loop_out, loop_weights = attention_loop(q, k, v)  # the independent reference
    row = loop_weights[query - 1]
    text = dash.readout_text()
    assert text.startswith(f"query {query} “{words[query - 1]}”: weights A")
    for j, weight in enumerate(row):
        assert f"{words[j]}{'₁₂₃₄₅₆'[j]} {fmt(weight, 2)}" in text
    assert text.endswith("= [" + ", ".join(fmt(x, 3) for x in loop_out[query - 1]) + "]")
    artists = dash.all_artists
    assert [b.get_height() for b in artists["row"]["bars"]] == pytest.approx(row)
    star = artists["blend"]["output"]
    assert [star.get_xdata()[0], star.get_ydata()[0]] == pytest.approx(loop_out[query - 1])
    assert artists["grid"]["highlight"].get_y() == pytest.approx(query - 1.5)
    assert not np.array_equal(before, _pixels(dash))


def test_attention_readout_sums_to_one():
    words, q, k, v = toy_sentence()
    output, weights = scaled_dot_product_attention(q, k, v, return_weights=True)
    text = attention_readout(words, weights[0], output[0], 1)
    assert "(sum 1.00)" in text
