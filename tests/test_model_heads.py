"""The head scores of course_lib.heads, notebook 17's grid picture and its dashboard.

The scores are checked on hand-made grids and against loops; the picture and the dashboard
on a stand-in model whose heads are known (no model file needed), and once on the real
model's heads that the prototype found (layer 16 head 0 looks one token back, layer 18's
heads 7 and 8 park on the first token, layer 13 head 8 takes "cat" for "it").
"""

import io

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from course_lib.heads import (
    previous_token_score,
    row_peakedness,
    sink_score,
    strongest_heads,
    weight_on,
)
from course_lib.masks import causal_mask
from course_lib.plots.model import draw_head_grid, token_label, update_head_grid
from course_lib.plots.style import detached_figure
from course_lib.softmax import softmax
from course_lib.widgets.base import Dashboard
from course_lib.widgets.model import MAX_TOKENS, SENTENCE, head_callback, head_dashboard

SENTENCE_TOKENS = ["The", " cat", " sat", " on", " the", " mat", " because", " it", " was",
                   " tired", "."]


def causal_grids(rng, shape, n):
    """Random causal weight grids (..., n, n): rows sum to 1, nothing above the diagonal."""
    scores = rng.standard_normal((*shape, n, n)) * 2
    return softmax(np.where(causal_mask(n), scores, -np.inf))


# ---------------------------------------------------------------------------------------------
# the scores

@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), n=st.integers(2, 9), layers=st.integers(1, 3),
       heads=st.integers(1, 3))
def test_scores_equal_their_loops(seed, n, layers, heads):
    a = causal_grids(np.random.default_rng(seed), (layers, heads), n)
    previous, sink = previous_token_score(a), sink_score(a)
    assert previous.shape == sink.shape == (layers, heads)
    for layer in range(layers):
        for head in range(heads):
            grid = a[layer, head]
            rows = range(1, n)
            assert previous[layer, head] == pytest.approx(
                sum(grid[i, i - 1] for i in rows) / (n - 1))
            assert sink[layer, head] == pytest.approx(sum(grid[i, 0] for i in rows) / (n - 1))
            largest = [max(grid[i]) for i in rows]
            peaked = row_peakedness(grid)
            assert peaked.mean_largest == pytest.approx(sum(largest) / (n - 1))
            assert peaked.one_hot_share == pytest.approx(
                sum(x >= 0.99 for x in largest) / (n - 1))


def test_scores_on_heads_that_do_one_thing():
    n = 5
    previous = np.eye(n, k=-1)
    previous[0, 0] = 1.0  # the first token can only look at itself
    sink = np.zeros((n, n))
    sink[:, 0] = 1.0
    uniform = causal_mask(n) / np.arange(1, n + 1)[:, None]
    assert previous_token_score(previous) == 1.0
    assert sink_score(previous) == 0.25  # row 1: the previous token is the first
    assert sink_score(sink) == 1.0 and previous_token_score(sink) == pytest.approx(0.25)
    assert row_peakedness(sink) == (1.0, 1.0)
    assert row_peakedness(uniform).one_hot_share == 0.0
    assert row_peakedness(uniform).mean_largest == pytest.approx(np.mean(1 / np.arange(2, 6)))
    assert weight_on(previous, 3, 2) == 1.0 and weight_on(uniform, 4, 0) == pytest.approx(0.2)


def test_strongest_heads_are_sorted_best_first():
    scores = np.array([[0.1, 0.7, 0.2], [0.9, 0.0, 0.7]])
    assert strongest_heads(scores, count=3) == [(1, 0, 0.9), (0, 1, 0.7), (1, 2, 0.7)]
    assert strongest_heads(scores, count=10)[-1] == (1, 1, 0.0)  # all six, no more


def test_score_errors_name_the_problem():
    with pytest.raises(ValueError, match="square"):
        sink_score(np.ones((2, 3)))
    with pytest.raises(ValueError, match="n ≥ 2"):
        previous_token_score(np.ones((1, 1)))
    with pytest.raises(ValueError, match="key ≤ query"):
        weight_on(np.eye(3), 0, 2)
    with pytest.raises(ValueError, match="layers, heads"):
        strongest_heads(np.ones(3))


# ---------------------------------------------------------------------------------------------
# the picture

def test_token_labels():
    assert [token_label(t) for t in [" cat", "The", "\n", "  ", " " + "x" * 20]] == [
        "cat", "The", "↵", "␣␣", "x" * 9 + "…"]


def test_draw_head_grid_shows_the_weights_and_the_blocked_future():
    a = causal_grids(np.random.default_rng(1), (), 4)
    tokens = ["The", " cat", " sat", " down"]
    ax = detached_figure((5, 5)).add_subplot()
    artists = draw_head_grid(a, tokens, ax=ax, annotate=True)
    shown = artists["cells"].get_array()
    assert np.allclose(shown.filled(-1)[np.tril_indices(4)], a[np.tril_indices(4)])
    assert shown.mask[np.triu_indices(4, k=1)].all()  # the future is blocked (grey)
    assert [t.get_text() for t in artists["query_labels"]] == ["The", "cat", "sat", "down"]
    assert [t.get_text() for t in artists["key_labels"]] == ["The", "cat", "sat", "down"]
    assert artists["texts"][1][0].get_text() == f"{a[1, 0]:.2f}"
    assert "query" in ax.get_ylabel() and "key" in ax.get_xlabel()
    assert artists["colorbar"] is not None


def test_update_head_grid_changes_sentence_in_place():
    ax = detached_figure((5, 5)).add_subplot()
    artists = draw_head_grid(np.eye(2), ["a", "b"], ax=ax, size=6, colorbar=False)
    cells = artists["cells"]
    update_head_grid(artists, causal_grids(np.random.default_rng(2), (), 3), ["x", "y", "z"],
                     title="another")
    assert artists["cells"] is cells  # the same artists, moved
    assert [t.get_text() for t in artists["query_labels"]] == ["x", "y", "z", "", "", ""]
    assert artists["title"].get_text() == "another"
    with pytest.raises(ValueError, match="at most 6 tokens"):
        update_head_grid(artists, np.eye(7), list("abcdefg"))


# ---------------------------------------------------------------------------------------------
# the dashboard, on a stand-in model whose every head is known

class StandIn:
    """Encodes one token per word; head h of layer l puts weight (h + 1)/10 on the previous
    token and the rest on the first."""

    class config:
        num_layers, num_heads = 30, 9

    def __init__(self):
        self.calls = 0

    def encode(self, text):
        return list(range(len(text.split())))

    def token_strings(self, ids):
        return [f"w{i}" for i in ids]

    def attention_weights(self, ids):
        self.calls += 1
        n = len(ids)
        weights = np.zeros((30, 9, n, n))
        weights[:, :, 0, 0] = 1.0
        for head in range(9):
            share = (head + 1) / 10
            for i in range(1, n):
                weights[:, head, i, i - 1] += share
                weights[:, head, i, 0] += 1 - share
        return weights


def _pixels(dash):
    return np.asarray(Image.open(io.BytesIO(dash.image.value)))


def labels(dash):
    """The grid's row labels (the token texts; they sit in the still background)."""
    return [t.get_text() for t in dash.figure.axes[0].texts[:MAX_TOKENS]]


def test_the_dashboard_keeps_the_contract_and_runs_the_model_once_per_sentence():
    model = StandIn()
    dash = head_dashboard(model, sentence="a b c d", layer=16, head=0)
    assert isinstance(dash, Dashboard)
    assert dash.image.value[:8] == b"\x89PNG\r\n\x1a\n"
    assert all(":" in control.description for control in dash.controls.values())
    assert repr(dash).startswith("[") and len(repr(dash)) <= 110
    assert "previous token 0.40" in dash.readout_text()  # rows 1 … 3: (1 + 0.1 + 0.1) / 3
    before = _pixels(dash)
    dash.controls["head"].value = 8
    assert "previous token 0.93 · weight on the first token 0.40" in dash.readout_text()
    assert not np.array_equal(before, _pixels(dash))
    assert model.calls == 1  # a new head is only another grid of the same run
    before = _pixels(dash)
    dash.controls["sentence"].value = "one two three four five six"
    assert model.calls == 2 and "6 tokens" in dash.readout_text()
    assert not np.array_equal(before, _pixels(dash))
    assert dash.renderer.moving and not any(t in dash.renderer.moving
                                            for t in dash.figure.axes[0].texts)
    fresh = head_dashboard(StandIn(), sentence="one two three four five six", layer=16, head=8)
    assert np.array_equal(_pixels(fresh), _pixels(dash))  # new labels in the background
    assert labels(dash)[:7] == ["w0", "w1", "w2", "w3", "w4", "w5", ""]
    dash.controls["sentence"].value = "a b c d"
    assert model.calls == 2  # seen before


def test_a_long_sentence_is_cut_to_the_grid():
    model = StandIn()
    dash = head_dashboard(model)
    dash.controls["sentence"].value = " ".join(["word"] * 40)
    assert f"only the first {MAX_TOKENS} tokens" in dash.readout_text()
    assert labels(dash)[MAX_TOKENS - 1] == f"w{MAX_TOKENS - 1}"


def test_the_callback_is_a_plain_function():
    model = StandIn()
    artists = draw_head_grid(np.eye(2), ["a", "b"], ax=detached_figure().add_subplot(), size=4)

    def head_weights(sentence):
        return ["x", "y"], model.attention_weights([0, 1]), False

    text = head_callback(artists, head_weights, "x y", layer=3, head=4)
    assert text.startswith("layer 3, head 4, 2 tokens") and "previous token 1.00" in text
    assert artists["title"].get_text() == "layer 3, head 4"
    assert [t.get_text() for t in artists["key_labels"]] == ["x", "y", "", ""]


# ---------------------------------------------------------------------------------------------
# the real model's heads

def test_the_real_models_named_heads(smollm):
    ids = smollm.encode(SENTENCE)
    assert smollm.token_strings(ids) == SENTENCE_TOKENS
    weights = smollm.attention_weights(ids)
    previous, sink = previous_token_score(weights), sink_score(weights)
    assert strongest_heads(previous, count=1)[0][:2] == (16, 0)
    assert previous[16, 0] > 0.7
    assert sink[18, 7] > 0.95 and sink[18, 8] > 0.95
    assert sink.mean() > 0.5  # most of a row's weight lands on the first token
    it, cat = smollm.position_of(ids, "it"), smollm.position_of(ids, "cat")
    subject = weight_on(weights, it, cat)  # (layers, heads)
    assert strongest_heads(subject, count=1)[0][:2] == (13, 8) and subject[13, 8] > 0.7
    with pytest.raises(ValueError, match="not one of the tokens"):
        smollm.position_of(ids, "dog")


def test_the_scale_changes_how_peaked_the_real_rows_are(smollm):
    ids = smollm.encode(SENTENCE)
    flat = row_peakedness(smollm.attention_weights(ids, scale=1 / 64))  # ÷ d_k
    trained = row_peakedness(smollm.attention_weights(ids))  # ÷ √d_k
    sharp = row_peakedness(smollm.attention_weights(ids, scale=1.0))  # no scale
    assert flat.mean_largest < trained.mean_largest < sharp.mean_largest
    assert flat.one_hot_share <= trained.one_hot_share < sharp.one_hot_share


def test_the_dashboard_on_the_real_model(smollm):
    dash = head_dashboard(smollm)
    assert "11 tokens" in dash.readout_text()
    assert labels(dash)[:3] == ["The", "cat", "sat"]
    dash.controls["layer"].value = 18
    dash.controls["head"].value = 7
    assert "first token 1.00" in dash.readout_text()
