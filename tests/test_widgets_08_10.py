"""Dashboards of notebooks 08 and 09 driven without a browser: moving the first control runs
the callback, which moves the artists and writes in the readout the numbers the math gives."""

import io

import numpy as np
from PIL import Image

from course_lib.plots.notation import fmt
from course_lib.plots.variance import D_K_CHOICES, spread_statistics
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
