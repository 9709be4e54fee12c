"""Pictures of notebooks 08 and 09: the numbers they draw are the ones the math gives, checked
against independent loop computations, and their updates move the same artists in place."""

import math

import numpy as np
import pytest

from course_lib import default_scale, scaled_dot_product_attention
from course_lib.plots.attention import (
    TOY_WORDS,
    draw_attention_panels,
    draw_row_weights,
    draw_value_blend,
    draw_weight_grid,
    highlight_row,
    toy_sentence,
    update_attention_panels,
    update_value_blend,
)
from course_lib.plots.notation import fmt
from course_lib.plots.style import course_style, detached_figure
from course_lib.plots.variance import (
    D_K_CHOICES,
    SCALINGS,
    draw_against_dk,
    draw_dartboard,
    draw_dk_panels,
    draw_score_histogram,
    spread_statistics,
    update_against_dk,
    update_score_histogram,
)
from course_lib.reference import attention_loop, softmax_loop


@pytest.fixture
def fig():
    with course_style():
        figure = detached_figure((6.0, 4.0))
    return figure


def _jacobian_size_loop(p):
    """∥diag(p) − ppᵀ∥ (Frobenius), entry by entry."""
    total = 0.0
    for i in range(len(p)):
        for j in range(len(p)):
            entry = (p[i] if i == j else 0.0) - p[i] * p[j]
            total += entry * entry
    return math.sqrt(total)


# --- notebook 08: variance and the √d_k ---------------------------------------------------

def test_spread_statistics_against_an_independent_computation():
    d_k, size, keys, seed = 8, 96, 6, 5
    stats = spread_statistics(d_k, size=size, keys=keys, seed=seed)
    rng = np.random.default_rng(seed)  # the same draws, in the same order
    q, k = rng.standard_normal((size, d_k)), rng.standard_normal((size, d_k))
    raw = [sum(float(a) * float(b) for a, b in zip(qr, kr, strict=True))
           for qr, kr in zip(q, k, strict=True)]
    multipliers = {"raw": 1.0, "scaled": 1 / math.sqrt(d_k), "over": 1 / d_k}
    assert list(stats["multiplier"]) == list(SCALINGS)
    for name, c in multipliers.items():
        assert stats["multiplier"][name] == pytest.approx(c)
        scores = [s * c for s in raw]
        assert np.allclose(stats["samples"][name], scores)
        mean = sum(scores) / size
        assert stats["variance"][name] == pytest.approx(sum((s - mean) ** 2 for s in scores) / size)
        rows = [scores[r * keys:(r + 1) * keys] for r in range(size // keys)]
        assert rows
        weights = [softmax_loop(row) for row in rows]
        assert stats["largest_weight"][name] == pytest.approx(
            sum(max(w) for w in weights) / len(rows))
        assert stats["gradient_size"][name] == pytest.approx(
            sum(_jacobian_size_loop(w) for w in weights) / len(rows))


@pytest.mark.parametrize("d_k", [1, 4, 64, 512])
def test_variance_is_d_k_raw_and_one_scaled(d_k):
    size = 2000
    stats = spread_statistics(d_k, size=size)
    # q·k is a sum of d_k products of N(0, 1) pairs: E[(q·k)⁴] = 3d_k² + 6d_k, so the sample
    # variance has relative standard error √((kurtosis − 1)/size) with kurtosis 3 + 6/d_k.
    rel = 5 * math.sqrt((2 + 6 / d_k) / size)  # five standard errors
    assert stats["variance"]["raw"] == pytest.approx(d_k, rel=rel)
    assert stats["variance"]["scaled"] == pytest.approx(1.0, rel=rel)
    assert stats["variance"]["over"] == pytest.approx(1.0 / d_k, rel=rel)


def test_raw_scores_saturate_and_scaled_scores_do_not():
    small, big = spread_statistics(1), spread_statistics(512)
    assert big["largest_weight"]["raw"] > 0.9 > small["largest_weight"]["raw"]
    assert big["gradient_size"]["raw"] < 0.5 * big["gradient_size"]["scaled"]
    assert abs(big["largest_weight"]["scaled"] - small["largest_weight"]["scaled"]) < 0.15
    assert big["largest_weight"]["over"] == pytest.approx(1 / 16, abs=0.02)  # nearly uniform


def test_dartboard_circle_is_the_spread(fig):
    throws = np.array([[1.0, 0.0], [0.0, -2.0], [-1.0, 1.0], [0.5, 0.5]])
    artists = draw_dartboard(throws, ax=fig.add_subplot())
    expected = math.sqrt((1 + 4 + 2 + 0.5) / 4)  # root of the mean squared distance
    assert artists["circle"].get_radius() == pytest.approx(expected)
    assert np.allclose(artists["darts"].get_offsets(), throws)
    assert artists["rings"]


def test_score_histogram_is_a_density_and_updates_in_place(fig):
    rng = np.random.default_rng(0)
    samples = rng.standard_normal(500)
    artists = draw_score_histogram(samples, ax=fig.add_subplot(), limit=4.0)
    heights, edges = artists["bars"].get_data()[:2]
    counts, _ = np.histogram(samples, bins=edges)
    assert np.allclose(heights, counts / (500 * (edges[1] - edges[0])))
    bars = artists["bars"]
    wider = 3 * samples
    update_score_histogram(artists, wider)
    assert artists["bars"] is bars
    counts, _ = np.histogram(wider, bins=edges)
    assert np.allclose(artists["bars"].get_data()[0], counts / (500 * (edges[1] - edges[0])))


def test_curves_against_d_k_mark_the_current_value(fig):
    d_ks = [1, 2, 4]
    series = {"raw": [1.0, 2.0, 4.0], "scaled": [1.0, 1.0, 1.0]}
    artists = draw_against_dk(d_ks, series, ax=fig.add_subplot(), current=2)
    assert list(artists["lines"]["raw"].get_ydata()) == [1.0, 2.0, 4.0]
    assert list(artists["dots"]["raw"].get_ydata()) == [2.0]
    update_against_dk(artists, 4)
    assert list(artists["dots"]["raw"].get_xdata()) == [4]
    assert list(artists["dots"]["raw"].get_ydata()) == [4.0]
    assert list(artists["dots"]["scaled"].get_ydata()) == [1.0]
    assert list(artists["marker"].get_xdata()) == [4, 4]


def test_dk_panels_draw_the_statistics(fig):
    table = {d: spread_statistics(d, size=320) for d in D_K_CHOICES}
    artists = draw_dk_panels(64, fig=fig, table=table)
    edges = artists["raw"]["edges"]
    counts, _ = np.histogram(table[64]["samples"]["raw"], bins=edges)
    assert np.allclose(artists["raw"]["bars"].get_data()[0],
                       counts / (320 * (edges[1] - edges[0])))
    scaled = table[64]["samples"]["scaled"]
    assert np.allclose(scaled, table[64]["samples"]["raw"] * default_scale(64))
    for key in ("variance", "largest_weight", "gradient_size"):
        line = artists[key]["lines"]["scaled"]
        assert list(line.get_ydata()) == [table[d][key]["scaled"] for d in D_K_CHOICES]
        assert list(artists[key]["dots"]["raw"].get_ydata()) == [table[64][key]["raw"]]


# --- notebook 09: attention ----------------------------------------------------------------

def test_toy_sentence_same_word_same_rows():
    words, query, key, value = toy_sentence()
    assert words == TOY_WORDS and len(words) == 6
    assert query.shape == (6, 4) and key.shape == (6, 4) and value.shape == (6, 2)
    for array in (query, key, value):
        assert np.array_equal(array[0], array[4])  # "the" twice
    distinct = {tuple(v) for v in value}
    assert len(distinct) == 5  # five different words, five different value points
    assert np.array_equal(value, np.round(value))  # small whole numbers


def test_weight_grid_writes_every_weight_and_frames_a_row(fig):
    words, query, key, value = toy_sentence()
    _, loop_weights = attention_loop(query, key, value)
    artists = draw_weight_grid(np.array(loop_weights), words, ax=fig.add_subplot(), row=1)
    assert np.allclose(artists["image"].get_array(), loop_weights)
    assert len(artists["texts"]) == 6 and all(len(row) == 6 for row in artists["texts"])
    assert artists["texts"][3][2].get_text() == fmt(loop_weights[3][2], 2)
    assert artists["highlight"].get_y() == pytest.approx(0.5)
    highlight_row(artists, 4)
    assert artists["highlight"].get_y() == pytest.approx(3.5)


def test_row_weights_and_blend_follow_the_math(fig):
    words, query, key, value = toy_sentence()
    loop_out, loop_weights = attention_loop(query, key, value)
    row = 3
    bars = draw_row_weights(loop_weights[row], words, ax=fig.add_subplot(121))
    assert [b.get_height() for b in bars["bars"]] == pytest.approx(loop_weights[row])
    blend = draw_value_blend(value, loop_weights[row], loop_out[row], words,
                             ax=fig.add_subplot(122))
    star = blend["output"]
    assert [star.get_xdata()[0], star.get_ydata()[0]] == pytest.approx(loop_out[row])
    # the star is the weighted average of the value points
    average = [sum(w * v[c] for w, v in zip(loop_weights[row], value, strict=True))
               for c in range(2)]
    assert [star.get_xdata()[0], star.get_ydata()[0]] == pytest.approx(average)
    sizes = blend["points"].get_sizes()
    assert np.argmax(sizes) == int(np.argmax(loop_weights[row]))
    update_value_blend(blend, value, loop_weights[0], loop_out[0])
    assert [star.get_xdata()[0], star.get_ydata()[0]] == pytest.approx(loop_out[0])


def test_attention_panels_update_in_place(fig):
    words, query, key, value = toy_sentence()
    output, weights = scaled_dot_product_attention(query, key, value, return_weights=True)
    artists = draw_attention_panels(words, value, weights, output, row=0, fig=fig)
    bars = artists["row"]["bars"]
    update_attention_panels(artists, value, weights, output, 5)
    assert artists["row"]["bars"] is bars
    assert [b.get_height() for b in bars] == pytest.approx(list(weights[5]))
    assert artists["grid"]["highlight"].get_y() == pytest.approx(4.5)
    assert artists["row"]["title"].get_text() == "framed row of A: weights add up to 1"
