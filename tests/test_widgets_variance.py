"""The d_k dashboard (notebook 08) driven without a browser: moving the slider moves every
panel to course_lib.saturation's statistics and writes them in the readout."""

import io

import numpy as np
import pytest
from PIL import Image

from course_lib.plots.variance import D_K_CHOICES, PANELS
from course_lib.saturation import spread_statistics
from course_lib.widgets.base import Dashboard
from course_lib.widgets.variance import READOUT_CLASS, dk_dashboard, dk_readout


def _pixels(dash):
    return np.asarray(Image.open(io.BytesIO(dash.image.value)))


def test_dk_dashboard_slider_comes_first_and_readout_has_its_class():
    dash = dk_dashboard(d_k=16)
    assert isinstance(dash, Dashboard)
    first = list(dash.controls.values())[0]
    assert first is dash.controls["d_k"] and dash.children[0] is first
    assert first.description.startswith("d_k: ")
    assert list(first.options) == list(D_K_CHOICES)
    assert READOUT_CLASS == "course-readout" and READOUT_CLASS in dash.readout._dom_classes


def test_dk_dashboard_moves_to_the_math():
    dash = dk_dashboard(d_k=16)
    before = _pixels(dash)
    dash.controls["d_k"].value = 256
    stats = spread_statistics(256)
    text = dash.readout_text()
    assert text == dk_readout(stats)
    assert text.startswith("d_k = 256 · ")
    assert f"variance: raw {stats['variance']['raw']:.3g}, " in text
    assert f"÷√d_k {stats['variance']['scaled']:.3g}, ÷d_k {stats['variance']['over']:.3g}" in text
    artists = dash.all_artists
    edges = artists["raw"]["edges"]
    counts, _ = np.histogram(stats["samples"]["raw"], bins=edges)
    assert np.allclose(artists["raw"]["bars"].get_data()[0],
                       counts / (len(stats["samples"]["raw"]) * (edges[1] - edges[0])))
    for key, *_ in PANELS:
        assert list(artists[key]["marker"].get_xdata()) == [256, 256]
        assert list(artists[key]["dots"]["raw"].get_ydata()) == [stats[key]["raw"]]
    assert not np.array_equal(before, _pixels(dash))


def _readout_numbers(text):
    """{quantity: {scaling: number}} read back from a readout line."""
    found = {}
    for part in text.split(" · ")[1:]:
        quantity, values = part.split(": ")
        found[quantity] = {label: float(value.rstrip("%"))
                           for label, value in (v.split(" ") for v in values.split(", "))}
    return found


def test_dk_readout_shows_saturation_of_raw_and_starvation_of_over_shrunk_scores():
    dash = dk_dashboard(d_k=1)
    dash.controls["d_k"].value = 512
    numbers = _readout_numbers(dash.readout_text())
    assert numbers["one-hot rows"]["raw"] > 50  # raw q·k saturates
    assert numbers["one-hot rows"]["÷√d_k"] == 0
    gradient = numbers["gradient to q"]
    assert gradient["÷d_k"] < 0.1 * gradient["÷√d_k"]  # ÷ d_k starves the gradient
    assert numbers["variance"]["÷√d_k"] == pytest.approx(1, abs=0.2)
