"""Pictures of softmax (notebook 07): weights as bars, the slope with a small nudge, the
saturation panels; the numbers are softmax's, its Jacobian's and course_lib.jacobian_norm's."""

from pathlib import Path

import numpy as np
import pytest
from matplotlib.figure import Figure

from course_lib import jacobian_norm, softmax, softmax_jacobian
from course_lib.plots import softmax as softmax_plots
from course_lib.plots.softmax import draw_saturation_panels, draw_slope_picture, draw_weights
from course_lib.text import fmt


def test_the_jacobian_norm_lives_in_the_math():
    assert "jacobian_norm" not in softmax_plots.__all__  # the math's, not the picture's
    source = Path(softmax_plots.__file__).read_text(encoding="utf-8")
    assert "def jacobian_norm" not in source


def test_draw_weights_sets_bar_heights_and_marks_the_largest():
    weights = softmax(np.array([0.5, 2.0, -1.0]))
    artists = draw_weights(weights, ax=Figure().add_subplot())
    assert [bar.get_height() for bar in artists["bars"]] == pytest.approx(list(weights))
    colours = [bar.get_facecolor() for bar in artists["bars"]]
    assert colours[1] != colours[0] and colours[0] == colours[2]
    assert [t.get_text() for t in artists["values"]] == [fmt(w, 2) for w in weights]


def test_draw_weights_marks_no_winner_when_the_largest_weights_tie():
    artists = draw_weights(softmax(np.array([3.0, 3.0, 3.0, 3.0])), ax=Figure().add_subplot())
    colours = {bar.get_facecolor() for bar in artists["bars"]}
    assert len(colours) == 1  # all equal: no bar stands out
    tied = draw_weights(softmax(np.array([2.0, 2.0, -1.0])), ax=Figure().add_subplot())
    colours = [bar.get_facecolor() for bar in tied["bars"]]
    assert colours[0] == colours[1] == colours[2]


@pytest.mark.parametrize("nudge", [0.25, 0.1, 1.0])
def test_slope_picture_draws_the_tangent_and_the_true_move_of_a_nudge(nudge):
    scores = np.array([2.0, -1.0, 1.0, 0.0])
    artists = draw_slope_picture(scores, index=0, nudge=nudge, ax=Figure().add_subplot())
    p = softmax(scores)
    assert artists["weight"] == pytest.approx(p[0])
    assert artists["slope"] == pytest.approx(p[0] * (1 - p[0]))
    xs, ys = artists["tangent"].get_data()
    assert (ys[1] - ys[0]) / (xs[1] - xs[0]) == pytest.approx(artists["slope"])
    nudged = scores.copy()
    nudged[0] += nudge
    assert artists["moved"] == pytest.approx(softmax(nudged)[0] - p[0])
    assert artists["predicted"] == pytest.approx(artists["slope"] * nudge)
    _, rise_y = artists["rise"].get_data()
    assert rise_y[1] - rise_y[0] == pytest.approx(artists["predicted"])
    # tangent ≈ curve: the smaller the nudge, the closer the prediction (relative error)
    error = abs(artists["moved"] - artists["predicted"]) / abs(artists["moved"])
    assert error < (0.05 if nudge <= 0.25 else 0.3)
    assert np.all(np.diff(artists["curve"].get_data()[1]) > 0)  # pᵢ grows with its score


@pytest.mark.parametrize("factor", [0.0, 1.0, 4.5, 10.0])
def test_saturation_panels_show_the_weights_jacobian_and_sensitivity(factor):
    scores = np.array([1.0, 2.5, -0.5, 0.3])
    artists = draw_saturation_panels(scores, factor, 10.0, fig=Figure((12, 4)))
    weights = softmax(factor * scores)
    heights = [bar.get_height() for bar in artists["weights"]["bars"]]
    assert heights == pytest.approx(list(weights))
    assert np.allclose(artists["jacobian"]["cells"].get_array(), softmax_jacobian(weights))
    assert artists["marker"] in artists["moving"]
    x, y = artists["marker"].get_data()
    assert (x[0], y[0]) == (factor, pytest.approx(float(jacobian_norm(weights))))
    assert "softmax sensitivity ∥J∥" in artists["marker"].axes.get_ylabel()
