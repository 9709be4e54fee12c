"""Dashboard of notebook 09: pick a query of a toy sentence; its row of the weight grid lights
up, its weights show as bars, and its output appears as a blend of the value rows."""

import ipywidgets as widgets

from .. import scaled_dot_product_attention
from ..plots.attention import draw_attention_panels, toy_sentence, update_attention_panels
from ..plots.notation import fmt, subscript
from ..plots.style import course_style, detached_figure
from .base import Dashboard

__all__ = ["READOUT_CLASS", "attention_callback", "attention_dashboard", "attention_figure",
           "attention_readout"]

READOUT_CLASS = "course-readout"  # the CSS class a browser test finds the readout by


def attention_readout(words, weights_row, output_row, query):
    """The readout for query number ``query`` (1-based): its weights and its output row."""
    i = subscript(query)
    shares = " · ".join(f"{w}{subscript(j + 1)} {fmt(a, 2)}"
                        for j, (w, a) in enumerate(zip(words, weights_row, strict=True)))
    blend = ", ".join(fmt(x, 3) for x in output_row)
    return (f"query {query} “{words[query - 1]}”: weights A{i}ⱼ = {shares} (sum "
            f"{fmt(sum(float(a) for a in weights_row), 2)}) → output row {query} = "
            f"Σⱼ A{i}ⱼ vⱼ = [{blend}]")


def attention_callback(artists, query, seed=24):
    """Ask the math for the weights and output of the toy sentence, show query ``query``
    (1-based) in every panel, return the readout."""
    words, q, k, v = toy_sentence(seed)
    output, weights = scaled_dot_product_attention(q, k, v, return_weights=True)
    update_attention_panels(artists, v, weights, output, query - 1)
    return attention_readout(words, weights[query - 1], output[query - 1], query)


def attention_figure(query=2, seed=24):
    """The dashboard's figure at one setting: ``(figure, artists)``."""
    words, q, k, v = toy_sentence(seed)
    output, weights = scaled_dot_product_attention(q, k, v, return_weights=True)
    with course_style():
        fig = detached_figure((10.4, 5.6))
        artists = draw_attention_panels(words, v, weights, output, row=query - 1, fig=fig)
    return fig, artists


def _moving(artists):
    # the heatmap and its numbers never change; only the frame, bars and blend move
    return {"frame": artists["grid"]["highlight"], "bars": artists["row"]["bars"],
            "blend": artists["blend"]}


def attention_dashboard(query=2, seed=24):
    """A query slider (which word asks) above the weight grid of "the cat sat on the mat",
    that query's weights and its output as a blend of the values; the readout (CSS class
    ``course-readout``) gives the numbers."""
    fig, artists = attention_figure(query, seed)
    words = toy_sentence(seed)[0]
    slider = widgets.IntSlider(value=query, min=1, max=len(words), step=1,
                               description="query i (the word that asks)",
                               continuous_update=True, style={"description_width": "14em"},
                               layout={"width": "34em"})
    dash = Dashboard(fig, {"query": slider},
                     lambda query: attention_callback(artists, query, seed),
                     description="[Attention dashboard: a query slider picks a word of “the cat "
                     "sat on the mat”; run the notebook to use it.]",
                     artists=_moving(artists))
    dash.readout.add_class(READOUT_CLASS)
    dash.all_artists = artists
    return dash
