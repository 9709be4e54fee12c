"""Pictures of softmax: the weights of a row as bars, a slope (how far an output moves when
an input is nudged), and the saturation picture: as the scores grow, the weights go one-hot
and the Jacobian's norm collapses toward zero."""

import matplotlib.pyplot as plt
import numpy as np

from .. import norm, softmax, softmax_jacobian
from ..backend import to_numpy
from .matrices import draw_matrix, matrix_labels, matrix_moving, update_matrix
from .notation import fmt, subscript
from .style import MUTED, PALETTE, ROLE_COLORS

__all__ = [
    "draw_saturation_panels",
    "draw_slope_picture",
    "draw_weights",
    "jacobian_norm",
    "update_saturation_panels",
    "update_weights",
]


def jacobian_norm(weights):
    """The size of softmax's Jacobian at ``weights``: √(Σᵢⱼ Jᵢⱼ²) (the Frobenius norm), with
    J = diag(p) − ppᵀ from :func:`course_lib.softmax_jacobian`.

    >>> round(jacobian_norm([0.5, 0.5]), 3)   # four entries ±0.25
    0.5
    """
    jacobian = to_numpy(softmax_jacobian(weights))  # (..., m, m)
    flat = jacobian.reshape(*jacobian.shape[:-2], -1)  # every slope in one list
    return float(norm(flat)) if flat.ndim == 1 else to_numpy(norm(flat))


def draw_weights(weights, ax=None, labels=None, annotate=True, title=None):
    """One bar per weight, on a 0 … 1 scale; the largest bar in the highlight colour.

    Returns
    -------
    dict of artists (``bars``, ``values``); pass it to :func:`update_weights`.
    """
    ax = plt.gca() if ax is None else ax
    weights = to_numpy(weights).astype(float)
    count = len(weights)
    labels = matrix_labels("k", count) if labels is None else labels
    bars = ax.bar(range(count), np.zeros(count), width=0.65, color=PALETTE["sky_blue"])
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
    top = int(np.argmax(weights))
    for i, (bar, w) in enumerate(zip(artists["bars"], weights, strict=True)):
        bar.set_height(w)
        bar.set_color(ROLE_COLORS["highlight"] if i == top else PALETTE["sky_blue"])
    for i, (text, w) in enumerate(zip(artists["values"], weights, strict=False)):
        text.set_text(fmt(w, 2))
        text.set_position((i, w + 0.015))


def draw_slope_picture(scores, index=0, at=None, nudge=1.0, span=6.0, ax=None):
    """The weight pᵢ as a curve of its own score xᵢ (the other scores held fixed), with the
    slope at one point: a tangent line, and a nudge of the score by ``nudge`` next to the
    move of the weight the slope predicts.

    The slope is Jᵢᵢ = pᵢ(1 − pᵢ) from :func:`course_lib.softmax_jacobian`.

    Returns
    -------
    dict of artists and the numbers drawn (``slope``, ``weight``).
    """
    ax = plt.gca() if ax is None else ax
    scores = to_numpy(scores).astype(float)
    at = scores[index] if at is None else float(at)
    xs = np.linspace(at - span, at + span, 241)
    grid = np.repeat(scores[None, :], len(xs), axis=0)
    grid[:, index] = xs
    curve = to_numpy(softmax(grid))[:, index]  # pᵢ for every value of xᵢ
    here = scores.copy()
    here[index] = at
    weights = to_numpy(softmax(here))
    weight = float(weights[index])
    slope = float(to_numpy(softmax_jacobian(weights))[index, index])
    p_name, x_name = f"p{subscript(index + 1)}", f"x{subscript(index + 1)}"
    (line,) = ax.plot(xs, curve, color=ROLE_COLORS["query"], lw=2.5,
                      label=f"weight {p_name} as its score {x_name} changes")
    tangent_x = np.array([at - 1.6, at + 1.6])
    (tangent,) = ax.plot(tangent_x, weight + slope * (tangent_x - at), color=PALETTE["black"],
                         lw=1.5, ls="--", label=f"slope here: {fmt(slope, 3)}")
    point = ax.scatter([at], [weight], s=60, color=ROLE_COLORS["highlight"], zorder=5)
    rise = slope * nudge
    run_line = ax.plot([at, at + nudge], [weight, weight], color=PALETTE["vermillion"], lw=2.5)
    rise_line = ax.plot([at + nudge, at + nudge], [weight, weight + rise],
                        color=PALETTE["green"], lw=2.5)
    ax.annotate(f"nudge {x_name} by {fmt(nudge, 1)}", (at + nudge / 2, weight), xytext=(0, -16),
                textcoords="offset points", ha="center", color=PALETTE["vermillion"], fontsize=11)
    ax.annotate(f"{p_name} moves ≈ slope × nudge = {fmt(rise, 3)}",
                (at + nudge, weight + rise / 2), xytext=(8, 0), textcoords="offset points",
                va="center", color=PALETTE["green"], fontsize=11)
    ax.set_xlabel(f"score {x_name} (the other scores held fixed)")
    ax.set_ylabel(f"weight {p_name}")
    ax.set_ylim(-0.05, 1.05)
    ax.axhline(0, color=MUTED, lw=1)
    ax.axhline(1, color=MUTED, lw=1)
    ax.legend(loc="upper left")
    return {"curve": line, "tangent": tangent, "point": point, "run": run_line[0],
            "rise": rise_line[0], "slope": slope, "weight": weight}


def _saturation_curve(scores, factors):
    # the Jacobian norm at every factor of the x axis, one softmax per factor
    weights = to_numpy(softmax(np.outer(factors, scores)))  # (len(factors), m)
    return jacobian_norm(weights)


def draw_saturation_panels(scores, factor, max_factor=10.0, fig=None):
    """Three panels for the row ``factor × scores``: its weights as bars (left), its Jacobian
    J = diag(p) − ppᵀ as a grid of slopes coloured from −0.25 to 0.25 (middle), and the
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
    curve = _saturation_curve(scores, factors)
    ax_n.plot(factors, curve, color=PALETTE["black"], lw=2)
    (marker,) = ax_n.plot([factor], [0.0], "o", color=ROLE_COLORS["highlight"], ms=10,
                          clip_on=False)  # whole at the ends of the axis too
    ax_n.set_xlim(0, max_factor)
    ax_n.set_ylim(0, float(curve.max()) * 1.15)
    ax_n.set_xlabel("factor multiplying the scores")
    ax_n.set_ylabel("Jacobian norm ∥J∥")
    ax_n.set_title("size of the slopes")
    artists = {
        "weights": draw_weights(np.full(m, 1.0 / m), ax=ax_w, title="weights p = softmax"),
        "jacobian": draw_matrix(np.zeros((m, m)), ax=ax_j, limit=0.25, annotate=False,
                                row_labels=matrix_labels("p", m),
                                col_labels=matrix_labels("x", m),
                                title="J = diag(p) − p pᵀ: slopes ∂pᵢ/∂xⱼ"),
        "marker": marker,
        "scores": scores,
    }
    fig.colorbar(artists["jacobian"]["image"], ax=ax_j, shrink=0.8, label="slope")
    artists["moving"] = [*artists["weights"]["bars"], *artists["weights"]["values"],
                         *matrix_moving(artists["jacobian"]), marker]
    update_saturation_panels(artists, factor)
    fig.tight_layout()
    return artists


def update_saturation_panels(artists, factor):
    """Recompute the weights and the Jacobian for ``factor × scores`` and move all three
    panels (in place). Returns ``(weights, jacobian norm)``."""
    weights = to_numpy(softmax(factor * artists["scores"]))
    update_weights(artists["weights"], weights)
    update_matrix(artists["jacobian"], to_numpy(softmax_jacobian(weights)))
    size = jacobian_norm(weights)
    artists["marker"].set_data([factor], [size])
    return weights, size
