"""Dashboard of notebook 09: pick a query of the designed sentence "the cat sat on the mat";
its row of the weight grid lights up, its weights show as bars, and its output appears as a
blend of the value rows. A scale choice (÷ √d_k, none, ÷ d_k) and a d_k choice show the same
grid saturate (no scaling) or flatten (÷ d_k) while ÷ √d_k keeps it the same."""

import ipywidgets as widgets

from .. import scaled_dot_product_attention
from ..examples import VALUE_MEANINGS, designed_sentence
from ..plots.attention import draw_attention_panels, update_attention_panels
from ..plots.notation import subscript
from ..plots.style import course_style, detached_figure
from ..saturation import scaling_multipliers
from ..text import fmt
from .base import Dashboard

__all__ = ["D_K_CHOICES", "READOUT_CLASS", "SCALE_CHOICES", "attention_callback",
           "attention_dashboard", "attention_figure", "attention_numbers", "attention_readout"]

READOUT_CLASS = "course-readout"  # the CSS class a browser test finds the readout by
D_K_CHOICES = (4, 16, 64, 256)
SCALE_CHOICES = (("÷ √d_k", "scaled"), ("none (raw QKᵀ)", "raw"), ("÷ d_k", "over"))
_SCALE_TEXT = {"scaled": "softmax(S / √d_k)", "raw": "softmax(S), no scaling",
               "over": "softmax(S / d_k)"}


def attention_numbers(scaling="scaled", d_k=4):
    """The designed sentence at width ``d_k`` and its attention with the chosen scaling:
    ``(words, value, weights (n, n), output (n, d_v))``, all from the math."""
    words, query, key, value = designed_sentence(d_k)
    scale = scaling_multipliers(d_k)[scaling]
    output, weights = scaled_dot_product_attention(query, key, value, scale=scale,
                                                   return_weights=True)
    return words, value, weights, output


def attention_readout(words, weights_row, output_row, query):
    """The readout for query number ``query`` (1-based): its weights and its output row."""
    i = subscript(query)
    shares = ", ".join(f"{w}{subscript(j + 1)} {fmt(a, 2)}"
                        for j, (w, a) in enumerate(zip(words, weights_row, strict=True)))
    blend = ", ".join(fmt(x, 3) for x in output_row)
    return (f"query {query} “{words[query - 1]}” (row q{i} of Q): weights A{i}ⱼ = {shares} "
            f"(sum {fmt(sum(float(a) for a in weights_row), 2)}) → output row {query} = "
            f"Σⱼ A{i}ⱼ × (row vⱼ of V) = [{blend}]")


def _title(scaling, d_k):
    return f"weights A = {_SCALE_TEXT[scaling]},  d_k = {d_k}"


def attention_callback(artists, query, scaling="scaled", d_k=4):
    """Ask the math for the weights and outputs of the designed sentence (with this scaling
    and d_k), show query ``query`` (1-based) in every panel, return the readout."""
    words, value, weights, output = attention_numbers(scaling, d_k)
    update_attention_panels(artists, value, weights, output, query - 1, _title(scaling, d_k))
    return attention_readout(words, weights[query - 1], output[query - 1], query)


def attention_figure(query=2, scaling="scaled", d_k=4):
    """The dashboard's figure at one setting: ``(figure, artists)``."""
    words, value, weights, output = attention_numbers(scaling, d_k)
    with course_style():
        fig = detached_figure((10.4, 5.6))
        artists = draw_attention_panels(words, value, weights, output, row=query - 1, fig=fig,
                                        slot_names=VALUE_MEANINGS)
        artists["grid"]["title"].set_text(_title(scaling, d_k))
    return fig, artists


def _moving(artists):
    # the grid's colours, numbers and title change with the scaling; the bars and blend too
    grid = artists["grid"]
    return {"cells": grid["cells"], "texts": grid["texts"], "title": grid["title"],
            "frame": grid["highlight"], "bars": artists["row"]["bars"],
            "blend": artists["blend"]}


def attention_dashboard(query=2, scaling="scaled", d_k=4):
    """A query slider (which word asks), a scaling choice and a d_k choice above the weight
    grid of "the cat sat on the mat", that query's weights and its output as a blend of the
    values; the readout (CSS class ``course-readout``) gives the numbers."""
    fig, artists = attention_figure(query, scaling, d_k)
    style, layout = {"description_width": "14em"}, {"width": "34em"}
    controls = {
        "query": widgets.IntSlider(value=query, min=1, max=len(artists["row"]["bars"]),
                                   step=1, description="query i: the word that asks",
                                   continuous_update=True, style=style, layout=layout),
        "scaling": widgets.ToggleButtons(options=SCALE_CHOICES, value=scaling,
                                         description="scale: scores divided by",
                                         style=style),
        "d_k": widgets.SelectionSlider(options=D_K_CHOICES, value=d_k,
                                       description="d_k: slots per query/key",
                                       continuous_update=True, style=style, layout=layout),
    }
    dash = Dashboard(fig, controls,
                     lambda query, scaling, d_k: attention_callback(artists, query, scaling, d_k),
                     description="[Attention dashboard: pick a query word, the scaling "
                     "(÷√d_k, none, ÷d_k) and d_k. Run the notebook to use it.]",
                     artists=_moving(artists))
    dash.readout.add_class(READOUT_CLASS)
    dash.all_artists = artists
    return dash
