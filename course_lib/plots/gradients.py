"""Pictures of the backward pass: the finite-difference check, the gradient that reaches the
scores as d_k grows, and two training runs side by side."""

import matplotlib.pyplot as plt
import numpy as np

from ..backend import to_numpy
from .style import MUTED, PALETTE

__all__ = [
    "SCALED_COLOR",
    "UNSCALED_COLOR",
    "draw_gradient_check",
    "draw_loss_curves",
    "draw_row_bars",
    "draw_score_gradient_vs_dk",
    "update_row_bars",
]

SCALED_COLOR = PALETTE["blue"]  # with the √d_k
UNSCALED_COLOR = PALETTE["vermillion"]  # without it


def draw_gradient_check(analytic, numeric, ax=None, label="entries of ∂L/∂Q, ∂L/∂K, ∂L/∂V"):
    """Each gradient entry by hand (x) against its finite-difference estimate (y).

    Points on the diagonal agree. Returns dict of artists (``points``, ``diagonal``).
    """
    ax = plt.gca() if ax is None else ax
    analytic = np.ravel(to_numpy(analytic))
    numeric = np.ravel(to_numpy(numeric))
    reach = 1.05 * max(float(np.abs(analytic).max()), float(np.abs(numeric).max()), 1e-12)
    (diagonal,) = ax.plot([-reach, reach], [-reach, reach], color=MUTED, ls="--", lw=1,
                          label="agreement (y = x)")
    points = ax.scatter(analytic, numeric, s=28, color=PALETTE["blue"], zorder=3, label=label)
    ax.set_xlim(-reach, reach)
    ax.set_ylim(-reach, reach)
    ax.set_aspect("equal")
    ax.set_xlabel("by hand (attention_gradients)")
    ax.set_ylabel("finite differences")
    ax.legend(loc="upper left", fontsize=9)
    return {"points": points, "diagonal": diagonal}


def draw_score_gradient_vs_dk(d_ks, scaled, unscaled, ax=None):
    """The typical size of ∂L/∂S against d_k, with the √d_k (flat) and without it (falling).

    Both axes are logarithmic. Returns dict of artists (``scaled``, ``unscaled``).
    """
    ax = plt.gca() if ax is None else ax
    d_ks = np.asarray(d_ks)
    (line_s,) = ax.plot(d_ks, to_numpy(scaled), "o-", color=SCALED_COLOR,
                        label="scores ÷ √d_k")
    (line_u,) = ax.plot(d_ks, to_numpy(unscaled), "s--", color=UNSCALED_COLOR,
                        label="raw scores (no ÷ √d_k)")
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xticks(d_ks, [str(int(d)) for d in d_ks])
    ax.minorticks_off()
    ax.set_xlabel("d_k (width of queries and keys)")
    ax.set_ylabel("typical |∂L/∂S| (median)")
    ax.legend()
    return {"scaled": line_s, "unscaled": line_u}


def draw_loss_curves(losses_scaled, losses_unscaled, axes):
    """Two training runs side by side on the same y-axis: with and without the √d_k.

    ``axes`` is a pair of axes. Returns dict of artists (``scaled``, ``unscaled``).
    """
    drawn = {}
    top = 1.05 * max(max(losses_scaled), max(losses_unscaled))
    for ax, losses, name, color, title in (
            (axes[0], losses_scaled, "scaled", SCALED_COLOR, "with ÷ √d_k"),
            (axes[1], losses_unscaled, "unscaled", UNSCALED_COLOR, "without ÷ √d_k")):
        (drawn[name],) = ax.plot(np.arange(len(losses)), losses, color=color, lw=2)
        ax.set_ylim(0, top)
        ax.set_xlabel("training step")
        ax.set_ylabel("loss")
        ax.set_title(f"{title}: final loss {losses[-1]:.3f}")
    return drawn


def draw_row_bars(values, ax=None, color=None, ylim=(0.0, 1.0), ylabel=""):
    """One bar per key j for a single query's row (weights, or the gradient reaching them).

    Returns the BarContainer; pass it to :func:`update_row_bars`.
    """
    ax = plt.gca() if ax is None else ax
    values = np.ravel(to_numpy(values))
    bars = ax.bar(np.arange(values.size), values, color=color, width=0.8)
    ax.set_ylim(*ylim)
    ax.set_xlabel("key j")
    ax.set_ylabel(ylabel)
    ax.axhline(0.0, color=MUTED, lw=0.8)
    return bars


def update_row_bars(bars, values):
    """Set the bar heights of :func:`draw_row_bars` to new values (no redraw)."""
    for bar, value in zip(bars, np.ravel(to_numpy(values)), strict=True):
        bar.set_height(float(value))
    return bars
