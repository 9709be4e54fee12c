"""Dashboard of notebook 14: step through the keys one block at a time and watch the online
softmax's running max, running sum and partial output converge to the full result."""

from .. import scaled_scores
from ..backend import example_rng, to_numpy
from ..online_view import online_softmax_view
from ..plots.style import course_style, detached_figure
from ..plots.tiled import draw_online_softmax, update_online_softmax
from ..text import fmt
from .base import Dashboard, int_slider

__all__ = ["online_softmax_figure", "tiled_callback", "tiled_dashboard", "tiled_example"]


def tiled_example(seed=0, n=4, m=24, d_k=8):
    """The dashboard's small problem: n queries, m keys, values with 2 slots (points).

    Returns NumPy arrays ``(query, key, value)``, the same for the same seed.
    """
    rng = example_rng(seed)
    query = 1.5 * rng.standard_normal((n, d_k))  # a little spread, so the weights differ
    key = rng.standard_normal((m, d_k))
    value = rng.standard_normal((m, 2))
    return query, key, value


def online_softmax_figure(query, key, value, block_size, query_index, blocks_seen,
                          figure=None):
    """The three-panel picture for one step, drawn into ``figure`` (a detached one if None).

    Returns ``(figure, artists)``; call inside ``course_style()`` for the course's look.
    """
    fig = detached_figure((10.4, 5.2)) if figure is None else figure
    grid = fig.add_gridspec(2, 2, width_ratios=(1.45, 1), height_ratios=(1.15, 1))
    axes = (fig.add_subplot(grid[0, 0]), fig.add_subplot(grid[1, 0]),
            fig.add_subplot(grid[:, 1]))
    scores = to_numpy(scaled_scores(query, key))  # every query's: fixed y-limits for all
    limits = (float(scores.min()), float(scores.max()))
    view = online_softmax_view(query, key, value, block_size, query_index, blocks_seen)
    artists = draw_online_softmax(view, axes, score_limits=limits)
    fig.tight_layout()
    return fig, artists


def tiled_callback(artists, query, key, value, block_size, query_index, blocks_seen,
                   view=None):
    """Move the picture to this query and step; return the running statistics as text.
    ``view``: the step's numbers, if already computed (the dashboard computes every step once)."""
    if view is None:
        view = online_softmax_view(query, key, value, block_size, query_index, blocks_seen)
    update_online_softmax(artists, view)
    step, out, distance = view["step"], view["outputs"][-1], view["distance"]
    return (f"query {query_index}, block {blocks_seen} of {view['blocks']} (keys {step.start}–"
            f"{step.stop - 1}):  running max M′ = {fmt(view['running_max'], 3)},  "
            f"rescale e^(M − M′) = {fmt(view['rescale'], 3)},  running sum l = "
            f"{fmt(view['running_sum'], 3)};  output ({fmt(out[0], 3)}, {fmt(out[1], 3)}), "
            f"distance to the full output {fmt(distance, 3)}")


def tiled_dashboard(block_size=4, seed=0, query_index=0, blocks_seen=1):
    """Sliders for the query and for how many key blocks have been folded in."""
    query, key, value = tiled_example(seed)
    blocks = -(-key.shape[0] // block_size)  # ceil(m / block_size)
    with course_style():
        fig, artists = online_softmax_figure(query, key, value, block_size, query_index,
                                             blocks_seen)
    controls = {
        "query_index": int_slider("i: the query shown (row of Q)", query_index, 0,
                                  query.shape[0] - 1),
        "blocks_seen": int_slider(f"blocks: key blocks folded in (of {blocks})", blocks_seen,
                                  1, blocks),
    }

    views = {(i, b): online_softmax_view(query, key, value, block_size, i, b)
             for i in range(query.shape[0]) for b in range(1, blocks + 1)}  # all moves, once

    def callback(query_index, blocks_seen):
        return tiled_callback(artists, query, key, value, block_size, query_index, blocks_seen,
                              view=views[query_index, blocks_seen])

    return Dashboard(fig, controls, callback,
                     description="[Online-softmax dashboard: query and key-block sliders; run the "
                     "notebook (static picture below).]",
                     artists=artists)
