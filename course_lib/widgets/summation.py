"""Dashboard of notebook 03: a slider chooses b, the last slot Σ adds; the sum is written out
term by term and the running total drawn."""

from ..plots.style import course_style, detached_figure
from ..plots.summation import draw_sum_terms, sum_written_out, update_sum_terms
from .base import Dashboard, int_slider

__all__ = ["EXAMPLE_SLOTS", "summation_callback", "summation_dashboard", "summation_figure"]

EXAMPLE_SLOTS = (1.5, -0.5, 2.0, 1.0, -1.5, 0.5, 2.5, -2.0)  # a fixed list q of 8 slots


def summation_callback(artists, q, count):
    """Show Σ over the first ``count`` slots of q; return the sum written out."""
    update_sum_terms(artists, count)
    return sum_written_out(q, count)


def summation_figure(q=EXAMPLE_SLOTS, count=3):
    """The dashboard's figure at one setting: ``(figure, artists)``."""
    with course_style():
        fig = detached_figure((8.6, 4.2))
        artists = draw_sum_terms(q, count, ax=fig.add_subplot())
        fig.tight_layout()
    return fig, artists


def summation_dashboard(q=EXAMPLE_SLOTS, count=3):
    """A slider for b (Σ adds slots 1 to b) beside the bars of q and its running total."""
    fig, artists = summation_figure(q, count)
    controls = {"count": int_slider("b: Σ adds slots 1 to b", count, 1, len(q))}
    return Dashboard(fig, controls, lambda count: summation_callback(artists, q, count),
                     description=("[Summation dashboard: a slider for b writes the sum out. "
                                  "Run the notebook to use it.]"),
                     artists=artists)
