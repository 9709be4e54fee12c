"""Dashboard of notebook 13: grow d_k and watch one query's weights saturate without the √d_k,
and the gradient that reaches its scores vanish."""

import ipywidgets as widgets
import numpy as np

from .. import score_gradients
from ..plots.gradients import SCALED_COLOR, UNSCALED_COLOR, draw_row_bars, update_row_bars
from ..plots.style import course_style, detached_figure
from .base import Dashboard

__all__ = ["D_K_CHOICES", "gradient_callback", "gradient_dashboard", "gradient_example"]

D_K_CHOICES = tuple(2 ** p for p in range(11))  # 1, 2, 4, …, 1024
_M = 12  # keys
_GRAD_LIMIT = 0.6  # y-range of the gradient bars


def gradient_example(d_k, seed=13):
    """One query, 12 keys, their values and ∂L/∂O = 1; the first d_k slots of fixed draws, so
    a bigger d_k adds slots to the same vectors."""
    rng = np.random.default_rng(seed)
    widest = max(D_K_CHOICES)
    query = rng.standard_normal((1, widest))[:, :d_k]
    key = rng.standard_normal((_M, widest))[:, :d_k]
    value = rng.standard_normal((_M, 1))
    grad_output = np.ones((1, 1))
    return query, key, value, grad_output


def gradient_callback(artists, d_k):
    """Recompute the weights and ∂L/∂S with and without the √d_k; move the four bar charts."""
    example = gradient_example(d_k)
    weights_s, grad_s = score_gradients(*example)  # scale 1/√d_k
    weights_u, grad_u = score_gradients(*example, scale=1.0)  # raw scores
    update_row_bars(artists["weights_scaled"], weights_s[0])
    update_row_bars(artists["weights_unscaled"], weights_u[0])
    update_row_bars(artists["grad_scaled"], np.clip(grad_s[0], -_GRAD_LIMIT, _GRAD_LIMIT))
    update_row_bars(artists["grad_unscaled"], np.clip(grad_u[0], -_GRAD_LIMIT, _GRAD_LIMIT))
    return (f"d_k = {d_k}:  largest weight {weights_s.max():.3f} with ÷√d_k, "
            f"{weights_u.max():.3f} without  ·  largest |∂L/∂S| {np.abs(grad_s).max():.2e} with, "
            f"{np.abs(grad_u).max():.2e} without")


def gradient_dashboard(d_k=16):
    """A d_k slider beside one query's weights (top) and the gradient reaching its scores
    (bottom), with the √d_k (left, blue) and without it (right, vermillion)."""
    with course_style():
        fig = detached_figure((10.0, 5.6))
        axes = fig.subplots(2, 2, sharex=True)
        zeros = np.zeros(_M)
        artists = {
            "weights_scaled": draw_row_bars(zeros, ax=axes[0, 0], color=SCALED_COLOR,
                                            ylabel=r"weight $A_{0j}$"),
            "weights_unscaled": draw_row_bars(zeros, ax=axes[0, 1], color=UNSCALED_COLOR),
            "grad_scaled": draw_row_bars(zeros, ax=axes[1, 0], color=SCALED_COLOR,
                                         ylim=(-_GRAD_LIMIT, _GRAD_LIMIT),
                                         ylabel=r"$\partial L/\partial S_{0j}$"),
            "grad_unscaled": draw_row_bars(zeros, ax=axes[1, 1], color=UNSCALED_COLOR,
                                           ylim=(-_GRAD_LIMIT, _GRAD_LIMIT)),
        }
        for ax in axes[0]:
            ax.set_xlabel("")  # the bottom row names the shared axis
        axes[0, 0].set_title("with ÷ √d_k: weights")
        axes[0, 1].set_title("without: weights")
        axes[1, 0].set_title("with ÷ √d_k: gradient reaching the scores")
        axes[1, 1].set_title("without: gradient reaching the scores")
        fig.tight_layout()
    slider = widgets.SelectionSlider(options=D_K_CHOICES, value=d_k,
                                     description="d_k: slots in each q and k",
                                     continuous_update=True,
                                     style={"description_width": "14em"},
                                     layout={"width": "34em"})
    return Dashboard(fig, {"d_k": slider},
                     lambda d_k: gradient_callback(artists, d_k),
                     description="[Gradient dashboard: a d_k slider, with and without ÷ √d_k; run "
                     "the notebook to use it.]",
                     artists=artists)
