"""Pictures of softmax: the weights of a row as bars, a slope (how far an output moves when
an input is nudged), and the saturation picture: as the scores grow, the weights go one-hot
and the Jacobian's norm collapses toward zero."""

import matplotlib.pyplot as plt
import numpy as np

from ..backend import to_numpy
from ..saturation import sensitivity_curve, slope_numbers, softmax_sensitivity
from ..text import fmt
from .matrices import draw_matrix, matrix_labels, matrix_moving, update_matrix
from .notation import row_labels, subscript
from .style import MUTED, PALETTE, ROLE_COLORS

__all__ = [
    "draw_saturation_panels",
    "draw_slope_picture",
    "draw_weights",
    "update_saturation_panels",
    "update_weights",
]


def draw_weights(weights, ax=None, labels=None, annotate=True, title=None, **kwargs):
    """One bar per weight, on a 0 … 1 scale; the largest bar in the highlight colour, and none
    when several tie for the largest (all equal: no winner).

    Returns
    -------
    dict of artists (``bars``, ``values``); pass it to :func:`update_weights`.
    """
    ax = plt.gca() if ax is None else ax
    weights = to_numpy(weights).astype(float)
    count = len(weights)
    labels = row_labels("k", count) if labels is None else labels  # one bar per key 𝐤ⱼ
    bars = ax.bar(range(count), np.zeros(count), **{"width": 0.65, **kwargs},
                  color=PALETTE["sky_blue"])
    ax.set_xticks(range(count), labels)
    ax.set_ylim(0, 1.12)
    ax.set_ylabel("weight")
    if title:
        ax.set_title(title)
    values = [ax.text(i, 0, "", ha="center", va="bottom", fontsize=10) for i in range(count)]
    artists = {"bars": bars, "values": values if annotate else [], "annotate": annotate}
    update_weights(artists, weights)
    return artists


def update_weights(artists, weights):
    """Set the bars of :func:`draw_weights` to new weights (in place)."""
    weights = to_numpy(weights).astype(float)
    largest = np.isclose(weights, weights.max())  # (m,), True where a bar ties for the top
    for bar, w, top in zip(artists["bars"], weights, largest, strict=True):
        bar.set_height(w)
        bar.set_color(ROLE_COLORS["highlight"] if top and largest.sum() == 1
                      else PALETTE["sky_blue"])
    for i, (text, w) in enumerate(zip(artists["values"], weights, strict=False)):
        text.set_text(fmt(w, 2))
        text.set_position((i, w + 0.015))


def draw_slope_picture(scores, index=0, at=None, nudge=0.25, span=6.0, ax=None):
    """The weight pᵢ as a curve of its own score xᵢ (the other scores held fixed), with the
    slope at one point: a tangent line, and a small nudge of the score by ``nudge`` next to
    the move of the weight the slope predicts. An inset zooms in: over a small nudge the
    tangent and the curve are almost the same line, which is what a slope means.

    The numbers come from :func:`course_lib.saturation.slope_numbers` (the slope is
    Jᵢᵢ = pᵢ(1 − pᵢ), from :func:`course_lib.softmax_jacobian`).

    Returns
    -------
    dict of artists and the numbers drawn (``slope``, ``weight``, ``predicted`` = slope ×
    nudge, ``moved`` = the true move of pᵢ along the curve).
    """
    ax = plt.gca() if ax is None else ax
    scores = np.asarray(to_numpy(scores), dtype=float)
    at = scores[index] if at is None else float(at)
    xs = np.linspace(at - span, at + span, 241)
    numbers = slope_numbers(scores, index, at, nudge, xs)  # course_lib.saturation
    curve, weight, slope = numbers["curve"], numbers["weight"], numbers["slope"]
    predicted, moved = numbers["predicted"], numbers["moved"]  # along the tangent, the curve
    p_name, x_name = f"p{subscript(index + 1)}", f"x{subscript(index + 1)}"
    artists = {"slope": slope, "weight": weight, "predicted": predicted, "moved": moved}
    for axes, half in ((ax, 1.6), (ax.inset_axes([0.62, 0.1, 0.36, 0.42]), 3 * abs(nudge))):
        (artists["curve"],) = axes.plot(xs, curve, color=ROLE_COLORS["query"], lw=2.5,
                                        label=f"weight {p_name} as its score {x_name} changes")
        tangent_x = np.array([at - half, at + half])
        (artists["tangent"],) = axes.plot(tangent_x, weight + slope * (tangent_x - at),
                                          color=PALETTE["black"], lw=1.5, ls="--",
                                          label=f"tangent, slope {fmt(slope, 3)}")
        artists["point"] = axes.scatter([at], [weight], s=50, color=ROLE_COLORS["highlight"],
                                        zorder=5)
        (artists["run"],) = axes.plot([at, at + nudge], [weight, weight],
                                      color=PALETTE["vermillion"], lw=2.5)
        (artists["rise"],) = axes.plot([at + nudge] * 2, [weight, weight + predicted],
                                       color=PALETTE["green"], lw=2.5)
        artists["landing"] = axes.scatter([at + nudge], [weight + moved], s=40, zorder=6,
                                          facecolors="none", edgecolors=PALETTE["black"])
    inset = artists["landing"].axes
    inset.set_xlim(at - 3 * abs(nudge), at + 3 * abs(nudge))
    inset.set_ylim(weight - 3 * abs(predicted) - 1e-3, weight + 3 * abs(predicted) + 1e-3)
    inset.set_title("zoomed in: tangent ≈ curve", fontsize=10)
    inset.tick_params(labelsize=8)
    ax.indicate_inset_zoom(inset, edgecolor=MUTED)
    ax.set_title(f"nudge {x_name} by {fmt(nudge, 2)}: {p_name} moves {fmt(moved, 4)}, "
                 f"slope × nudge = {fmt(predicted, 4)}", fontsize=11)
    ax.set_xlabel(f"score {x_name} (the other scores held fixed)")
    ax.set_ylabel(f"weight {p_name}")
    ax.set_ylim(-0.05, 1.05)
    ax.axhline(0, color=MUTED, lw=1)
    ax.axhline(1, color=MUTED, lw=1)
    ax.legend(loc="upper left", fontsize=10)
    return artists



def draw_saturation_panels(scores, factor, max_factor=10.0, fig=None):
    """Three panels for the row ``factor × scores``: its weights as bars (left), its Jacobian
    J (Jᵢⱼ = ∂pᵢ/∂xⱼ) as a grid of slopes coloured from −0.25 to 0.25 (middle), and the
    Jacobian's norm against the factor, with the current factor marked (right).

    Returns
    -------
    dict of artists, with ``"moving"`` the ones a new factor changes; pass it to
    :func:`update_saturation_panels`.
    """
    fig = plt.gcf() if fig is None else fig
    scores = to_numpy(scores).astype(float)
    m = len(scores)
    ax_w, ax_j, ax_n = fig.subplots(1, 3, gridspec_kw={"width_ratios": (1.1, 1.2, 1.1)})
    factors = np.linspace(0.0, max_factor, 201)
    curve = sensitivity_curve(scores, factors)
    ax_n.plot(factors, curve, color=PALETTE["black"], lw=2)
    (marker,) = ax_n.plot([factor], [0.0], "o", color=ROLE_COLORS["highlight"], ms=10,
                          clip_on=False)  # whole at the ends of the axis too
    ax_n.set_xlim(0, max_factor)
    ax_n.set_ylim(0, float(curve.max()) * 1.15)
    ax_n.set_xlabel("factor multiplying the scores")
    ax_n.set_ylabel("softmax sensitivity ∥J∥")
    ax_n.set_title("softmax sensitivity ∥J∥ = √(Σ Jᵢⱼ²)")
    artists = {
        "weights": draw_weights(np.full(m, 1.0 / m), ax=ax_w, title="weights p = softmax"),
        "jacobian": draw_matrix(np.zeros((m, m)), ax=ax_j, limit=0.25, annotate=False,
                                row_labels=matrix_labels("p", m),
                                col_labels=matrix_labels("x", m),
                                title="J: the slopes ∂pᵢ/∂xⱼ"),
        "marker": marker,
        "scores": scores,
    }
    fig.colorbar(artists["jacobian"]["cells"], ax=ax_j, shrink=0.8, label="slope")
    artists["moving"] = [*artists["weights"]["bars"], *artists["weights"]["values"],
                         *matrix_moving(artists["jacobian"]), marker]
    update_saturation_panels(artists, factor, *softmax_sensitivity(scores, factor))
    # fixed margins: the same picture as tight_layout for these labels, without its second
    # pass over every tick label (a second per draw, and the dashboard draws on every move)
    fig.subplots_adjust(left=0.06, right=0.965, bottom=0.15, top=0.89, wspace=0.42)
    return artists


def update_saturation_panels(artists, factor, weights, jacobian, size):
    """Move the three panels (in place) to ``factor``: the weights, their Jacobian J and the
    sensitivity ∥J∥ (from :func:`course_lib.saturation.softmax_sensitivity`)."""
    update_weights(artists["weights"], weights)
    update_matrix(artists["jacobian"], jacobian)
    artists["marker"].set_data([factor], [size])
