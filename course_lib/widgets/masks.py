"""Dashboard of notebook 11: switch mask cells on and off and watch each row's weights
renormalise over the keys that are left."""

import ipywidgets as widgets
import numpy as np

from .. import scaled_dot_product_attention, scaled_scores
from ..plots.masks import draw_annotated_grid, update_annotated_grid
from ..plots.style import course_style, detached_figure
from .base import Dashboard

__all__ = ["MASK_TOKENS", "mask_callback", "mask_dashboard", "mask_example", "mask_from_values"]

MASK_TOKENS = ("the", "cat", "sat", "on", "mats")


def mask_example(seed=11, d_k=4):
    """The dashboard's fixed queries, keys and values: one row per token of MASK_TOKENS."""
    rng = np.random.default_rng(seed)
    n = len(MASK_TOKENS)
    query = rng.standard_normal((n, d_k)) * 1.5
    key = rng.standard_normal((n, d_k)) * 1.5
    value = rng.standard_normal((n, 2))
    return query, key, value


def _name(i, j):
    return f"cell_{i}_{j}"


def mask_from_values(values, n, m):
    """The (n, m) boolean mask held by the toggles named ``cell_i_j`` (True = may attend)."""
    return np.array([[bool(values[_name(i, j)]) for j in range(m)] for i in range(n)])


def mask_callback(artists, query, key, value, **cells):
    """Mask the scores with the toggles' cells, softmax, and update both grids."""
    n, m = query.shape[0], key.shape[0]
    mask = mask_from_values(cells, n, m)
    scores = scaled_scores(query, key)  # (n, m), divided by √d_k
    _, weights = scaled_dot_product_attention(query, key, value, attn_mask=mask,
                                              return_weights=True)
    update_annotated_grid(artists["scores"], scores, mask)
    update_annotated_grid(artists["weights"], weights, mask)
    sums = weights.sum(axis=-1)
    empty = [MASK_TOKENS[i] for i in range(n) if not mask[i].any()]
    text = ("row sums: " + ", ".join(f"{MASK_TOKENS[i]} {sums[i]:.3f}" for i in range(n))
            + f"  ·  {int((~mask).sum())} of {n * m} cells blocked")
    if empty:
        text += ("  ·  fully blocked: " + ", ".join(empty)
                 + " (nothing to attend to: weights and output are all 0)")
    return text


def _toggle(value, tooltip):
    button = widgets.ToggleButton(value=value, description="✓" if value else "✕",
                                  tooltip=tooltip, layout={"width": "4.5em"})

    def relabel(change):  # the button's own label follows its state; no maths here
        button.description = "✓" if change["new"] else "✕"

    button.observe(relabel, names="value")
    return button


def mask_dashboard(mask=None):
    """A grid of toggles, one per (query, key) cell: ✓ may attend, ✕ blocked.

    Left: the scaled scores, with −∞ in the blocked cells. Right: the weights after the row
    softmax; every row still sums to 1 over the keys it may see.
    """
    query, key, value = mask_example()
    n, m = len(MASK_TOKENS), len(MASK_TOKENS)
    mask = np.ones((n, m), bool) if mask is None else np.asarray(mask, bool)
    with course_style():
        fig = detached_figure((10.0, 4.4))
        ax_scores, ax_weights = fig.subplots(1, 2)
        labels = list(MASK_TOKENS)
        artists = {
            "scores": draw_annotated_grid(scaled_scores(query, key), mask, ax=ax_scores,
                                          row_labels=labels, col_labels=labels,
                                          blocked_text="−∞", cmap="PuOr", vmin=-4.0, vmax=4.0),
            "weights": draw_annotated_grid(np.zeros((n, m)), mask, ax=ax_weights,
                                           row_labels=labels, col_labels=labels,
                                           blocked_text="0"),
        }
        ax_scores.set_title("scores S / √d_k (blocked: −∞)", pad=12)
        ax_weights.set_title("weights A = softmax, row by row", pad=12)
        fig.tight_layout()
    controls = {_name(i, j): _toggle(bool(mask[i, j]), f"query '{MASK_TOKENS[i]}' may look at "
                                     f"key '{MASK_TOKENS[j]}'")
                for i in range(n) for j in range(m)}
    dash = Dashboard(fig, controls,
                     lambda **cells: mask_callback(artists, query, key, value, **cells),
                     description="[Mask dashboard: ✓/✕ toggles block (query, key) cells; run the "
                     "notebook to use it.]",
                     artists=artists)
    header = [widgets.HTML("<b>query ↓ · key →</b>")]
    header += [widgets.HTML(f"<b>{token}</b>") for token in MASK_TOKENS]
    rows = []
    for i in range(n):
        rows.append(widgets.HTML(f"<b>{MASK_TOKENS[i]}</b>"))
        rows.extend(controls[_name(i, j)] for j in range(m))
    grid = widgets.GridBox(header + rows, layout={
        "grid_template_columns": f"9em repeat({m}, 5em)", "grid_gap": "2px"})
    dash.children = [grid, dash.image, dash.readout]
    return dash
