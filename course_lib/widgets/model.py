"""Dashboard of notebook 17: type a sentence, pick a layer and a head of the real model, and
see that head's weight grid over the sentence's tokens.

The model runs once per sentence (:meth:`course_lib.model.LanguageModel.attention_weights`
gives every head at once); moving the layer or head sliders only picks another grid. The
readout gives the head's scores from :mod:`course_lib.heads`.
"""

import ipywidgets as widgets

from ..heads import previous_token_score, sink_score
from ..plots.model import draw_head_grid, update_head_grid, update_head_labels
from ..plots.style import course_style, detached_figure
from .base import Dashboard, int_slider

__all__ = ["MAX_TOKENS", "SENTENCE", "HeadWeights", "head_callback", "head_dashboard"]

SENTENCE = "The cat sat on the mat because it was tired."
MAX_TOKENS = 16  # the grid's size; a longer sentence is cut (the readout says so)


class HeadWeights:
    """Every head's weights for the sentences typed so far, computed once per sentence."""

    def __init__(self, model):
        self.model = model
        self._seen = {}

    def __call__(self, sentence):
        """(tokens, weights (layers, heads, n, n), cut): the sentence's first MAX_TOKENS
        tokens, their weights, and whether the sentence was longer."""
        if sentence not in self._seen:
            ids = self.model.encode(sentence) or self.model.encode(" ")
            kept = ids[:MAX_TOKENS]
            self._seen[sentence] = (self.model.token_strings(kept),
                                    self.model.attention_weights(kept), len(ids) > len(kept))
        return self._seen[sentence]


def head_callback(artists, head_weights, sentence, layer, head):
    """Show head ``head`` of layer ``layer`` on ``sentence``; return the readout."""
    tokens, weights, cut = head_weights(sentence)
    grid = weights[layer, head]  # (n, n)
    update_head_grid(artists, grid, tokens, title=f"layer {layer}, head {head}")
    if len(tokens) < 2:
        scores = "type at least two tokens for the head's scores"
    else:
        scores = (f"weight on the previous token {previous_token_score(grid):.2f} · weight on "
                  f"the first token {sink_score(grid):.2f} (means over the rows 1 … "
                  f"{len(tokens) - 1}, counted from 0)")
    note = f" · only the first {MAX_TOKENS} tokens are shown" if cut else ""
    return f"layer {layer}, head {head}, {len(tokens)} tokens: {scores}{note}"


def head_dashboard(model, sentence=SENTENCE, layer=16, head=0):
    """A text box for the sentence and sliders for the layer and the head, above the head's
    weight grid; ``model`` is a :class:`course_lib.model.LanguageModel`."""
    head_weights = HeadWeights(model)
    tokens, weights, _ = head_weights(sentence)
    c = model.config
    with course_style():
        fig = detached_figure((7.2, 6.6), layout="constrained")
        artists = draw_head_grid(weights[layer, head], tokens, ax=fig.add_subplot(),
                                 size=MAX_TOKENS)
        fig.draw_without_rendering()  # lay the figure out once; it stays fixed
        fig.set_layout_engine("none")
    controls = {
        "sentence": widgets.Text(value=sentence, description="sentence: type, then Enter",
                                 continuous_update=False, style={"description_width": "18em"},
                                 layout={"width": "40em"}),
        "layer": int_slider("layer: 0 (first) to 29 (last)", layer, 0, c.num_layers - 1),
        "head": int_slider("head: 0 to 8 within the layer", head, 0, c.num_heads - 1),
    }

    def relabel(change):  # a new sentence: its tokens go into the still background, once
        update_head_labels(artists, head_weights(change["new"])[0])
        dashboard.renderer.redraw_background()

    controls["sentence"].observe(relabel, names="value")  # before the dashboard's own observer
    moving = {key: artists[key] for key in ("cells", "texts", "cover", "title")}
    dashboard = Dashboard(fig, controls,
                          lambda sentence, layer, head: head_callback(artists, head_weights,
                                                                      sentence, layer, head),
                          description="[Real-model heads dashboard: a sentence, a layer and a "
                          "head; run the notebook to use it.]",
                          artists=moving)
    return dashboard
