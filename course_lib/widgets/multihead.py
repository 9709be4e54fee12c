"""Dashboard of notebook 12: choose the number of heads and which head to look at; see the
columns that head owns and its attention weights."""

import ipywidgets as widgets
import numpy as np

from .. import default_scale, multi_head_attention
from ..plots.masks import draw_annotated_grid, update_annotated_grid
from ..plots.multihead import HEAD_COLORS, draw_head_slices, update_head_slices
from ..plots.style import course_style, detached_figure
from .base import Dashboard, int_slider

__all__ = ["HEAD_TOKENS", "heads_callback", "heads_dashboard", "heads_example"]

HEAD_TOKENS = ("she", "gave", "him", "the", "book")
D_MODEL = 8
HEAD_CHOICES = (1, 2, 4, 8)


def heads_example(seed=12):
    """Token vectors X (5, 8) and the projections W_Q, W_K, W_V, W_O (8, 8), seeded."""
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((len(HEAD_TOKENS), D_MODEL))
    w_q, w_k, w_v, w_o = (rng.standard_normal((D_MODEL, D_MODEL)) * default_scale(D_MODEL)
                          for _ in range(4))
    return x, (w_q, w_k, w_v, w_o)


def heads_callback(artists, num_heads, head):
    """Run multi-head self-attention with ``num_heads`` heads; show head ``head``'s weights."""
    head = min(head, num_heads - 1)
    x, projections = heads_example()
    _, weights = multi_head_attention(x, x, x, *projections, num_heads, return_weights=True)
    d_k = D_MODEL // num_heads
    update_head_slices(artists["slices"], num_heads, highlight=head)
    update_annotated_grid(artists["weights"], weights[head])
    artists["weights_title"].set_text(f"head {head} of {num_heads}: its weights (d_k = {d_k})")
    artists["weights_title"].set_color(HEAD_COLORS[head % len(HEAD_COLORS)])
    return (f"h = {num_heads} heads: each owns d_k = {D_MODEL} / {num_heads} = {d_k} columns "
            f"and divides its scores by √{d_k} = {1 / default_scale(d_k):.3f} (not by √d_model = "
            f"{1 / default_scale(D_MODEL):.3f})  ·  head {head}'s largest weight: "
            f"{weights[head].max():.3f}")


def heads_dashboard(num_heads=2, head=0):
    """A slider for the number of heads h (1, 2, 4 or 8 with d_model = 8) and one for the
    head shown."""
    with course_style():
        fig = detached_figure((7.6, 5.6))
        grid = fig.add_gridspec(2, 1, height_ratios=(1, 3.2))
        ax_slices, ax_weights = fig.add_subplot(grid[0]), fig.add_subplot(grid[1])
        labels = list(HEAD_TOKENS)
        artists = {
            "slices": draw_head_slices(D_MODEL, num_heads, ax=ax_slices, highlight=head),
            "weights": draw_annotated_grid(np.zeros((5, 5)), ax=ax_weights, row_labels=labels,
                                           col_labels=labels),
            "weights_title": ax_weights.set_title("head 0 of 1: its weights", pad=12),
        }
        fig.tight_layout()
    heads = widgets.SelectionSlider(options=HEAD_CHOICES, value=num_heads,
                                    description="h: number of heads", continuous_update=True,
                                    style={"description_width": "14em"},
                                    layout={"width": "34em"})
    shown = int_slider("head: the head shown (0 to h − 1)", head, 0, max(HEAD_CHOICES) - 1)
    shown.max = num_heads - 1
    dash = Dashboard(fig, {"num_heads": heads, "head": shown},
                     lambda num_heads, head: heads_callback(artists, num_heads, head),
                     description="[Multi-head dashboard: sliders for h and the head shown; run the "
                     "notebook to use it.]",
                     artists=artists)

    def limit_head(change):  # only h − 1 heads exist: keep the second slider in range
        shown.max = change["new"] - 1

    heads.observe(limit_head, names="value")
    return dash
