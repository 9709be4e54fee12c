"""Pictures of notebook 08: the dartboard's circle is the spread the text defines, the
histograms are densities, and the curves against d_k draw course_lib.saturation's numbers."""

import numpy as np
import pytest

from course_lib import default_scale
from course_lib.plots.style import course_style, detached_figure
from course_lib.plots.variance import (
    D_K_CHOICES,
    PANELS,
    draw_against_dk,
    draw_dartboard,
    draw_dk_panels,
    draw_score_histogram,
    update_against_dk,
    update_dk_panels,
    update_score_histogram,
)
from course_lib.saturation import dart_spread, spread_statistics


@pytest.fixture
def fig():
    with course_style():
        figure = detached_figure((6.0, 4.0))
    return figure


def test_dartboard_circle_is_the_spread_around_the_mean_dart(fig):
    throws = np.array([[1.0, 0.0], [0.0, -2.0], [-1.0, 1.0], [0.5, 0.5]])
    artists = draw_dartboard(throws, ax=fig.add_subplot())
    centre, radius = dart_spread(throws)
    assert artists["circle"].get_radius() == pytest.approx(radius)
    assert artists["circle"].center == pytest.approx(tuple(centre))
    assert np.allclose(artists["darts"].get_offsets(), throws)
    assert artists["rings"]


def test_score_histogram_is_a_density_and_updates_in_place(fig):
    samples = np.random.default_rng(0).standard_normal(500)
    artists = draw_score_histogram(samples, ax=fig.add_subplot(), limit=4.0)
    heights, edges = artists["bars"].get_data()[:2]
    counts, _ = np.histogram(samples, bins=edges)
    assert np.allclose(heights, counts / (500 * (edges[1] - edges[0])))
    bars = artists["bars"]
    update_score_histogram(artists, 3 * samples)
    assert artists["bars"] is bars
    counts, _ = np.histogram(3 * samples, bins=edges)
    assert np.allclose(artists["bars"].get_data()[0], counts / (500 * (edges[1] - edges[0])))


def test_curves_against_d_k_mark_the_current_value(fig):
    series = {"raw": [1.0, 2.0, 4.0], "scaled": [1.0, 1.0, 1.0]}
    artists = draw_against_dk([1, 2, 4], series, ax=fig.add_subplot(), current=2)
    assert list(artists["lines"]["raw"].get_ydata()) == [1.0, 2.0, 4.0]
    assert list(artists["dots"]["raw"].get_ydata()) == [2.0]
    update_against_dk(artists, 4)
    assert list(artists["dots"]["raw"].get_xdata()) == [4]
    assert list(artists["dots"]["raw"].get_ydata()) == [4.0]
    assert list(artists["dots"]["scaled"].get_ydata()) == [1.0]
    assert list(artists["marker"].get_xdata()) == [4, 4]


def test_dk_panels_draw_the_statistics_and_say_what_they_plot(fig):
    table = {d: spread_statistics(d, size=320) for d in D_K_CHOICES}
    artists = draw_dk_panels(64, fig=fig, table=table)
    edges = artists["raw"]["edges"]
    counts, _ = np.histogram(table[64]["samples"]["raw"], bins=edges)
    assert np.allclose(artists["raw"]["bars"].get_data()[0],
                       counts / (320 * (edges[1] - edges[0])))
    assert np.allclose(table[64]["samples"]["scaled"],
                       table[64]["samples"]["raw"] * default_scale(64))
    assert [key for key, *_ in PANELS] == ["variance", "largest_weight", "saturated",
                                           "sensitivity", "gradient"]
    for key, ylabel, *_ in PANELS:
        line = artists[key]["lines"]["scaled"]
        assert list(line.get_ydata()) == [table[d][key]["scaled"] for d in D_K_CHOICES]
        assert list(artists[key]["dots"]["raw"].get_ydata()) == [table[64][key]["raw"]]
        assert line.axes.get_ylabel() == ylabel
    assert "softmax sensitivity ∥J∥" in artists["sensitivity"]["lines"]["raw"].axes.get_ylabel()
    assert "gradient reaching q" in artists["gradient"]["lines"]["raw"].axes.get_ylabel()
    update_dk_panels(artists, table[512])
    assert list(artists["gradient"]["dots"]["over"].get_ydata()) == [table[512]["gradient"]["over"]]
