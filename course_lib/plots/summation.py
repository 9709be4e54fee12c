"""Pictures of Σ: the slots that are added, the running total, and the sum written out."""

import matplotlib.pyplot as plt
from matplotlib.patches import Patch

from ..backend import to_numpy
from ..summation import partial_sums, sigma
from ..text import fmt
from .notation import bracketed, subscript, superscript, written_sum
from .style import MUTED, PALETTE, ROLE_COLORS

__all__ = ["draw_sum_terms", "products_written_out", "sum_written_out", "update_sum_terms"]


def sum_written_out(q, count, name="q", digits=2):
    """The sum of the first ``count`` slots in three ways: with Σ, with plus signs, in numbers.

    >>> print(sum_written_out([1.0, -2.0, 0.5], 3))
    Σᵢ₌₁³ qᵢ = q₁ + q₂ + q₃ = 1.00 + (−2.00) + 0.50 = −0.50
    >>> print(sum_written_out([1.5, 4.0], 1))
    Σᵢ₌₁¹ qᵢ = q₁ = 1.50
    """
    values = to_numpy(q)[:count]
    symbols = " + ".join(f"{name}{subscript(i + 1)}" for i in range(count))
    total = sigma(q, 1, count)
    numbers = "" if count == 1 else f" = {written_sum(values, digits)}"  # one term: no sum to write
    return f"Σᵢ₌₁{superscript(count)} {name}ᵢ = {symbols}{numbers} = {fmt(total, digits)}"


def products_written_out(q, k):
    """Σᵢ qᵢkᵢ written out term by term, in symbols and in numbers (no total: the learner's
    loop computes that).

    >>> print(products_written_out([1.0, 2.0], [4.0, -5.0]))
    Σᵢ₌₁² qᵢkᵢ = q₁k₁ + q₂k₂ = 1×4 + 2×(−5)
    """
    count = len(q)
    symbols = " + ".join(f"q{subscript(i)}k{subscript(i)}" for i in range(1, count + 1))
    numbers = " + ".join(f"{bracketed(a, 0)}×{bracketed(b, 0)}" for a, b in zip(q, k, strict=True))
    return f"Σᵢ₌₁{superscript(count)} qᵢkᵢ = {symbols} = {numbers}"


def draw_sum_terms(q, count, ax=None):
    """Bars for every slot of q, the first ``count`` in colour (the ones Σ adds) and the rest
    grey, with the running total q₁, q₁ + q₂, … drawn as a line over the coloured bars.

    Returns
    -------
    dict of artists (``"bars"``, ``"running"``, ``"total_line"``, ``"title"``); pass it to
    :func:`update_sum_terms`.
    """
    ax = plt.gca() if ax is None else ax
    q = to_numpy(q).astype(float)
    slots = range(1, len(q) + 1)
    bars = ax.bar(slots, q, color=ROLE_COLORS["query"], width=0.6, label="slot added, qᵢ")
    (running,) = ax.plot([], [], "o-", color=PALETTE["orange"], lw=2.5, ms=7,
                         label="sum so far (running total)", zorder=3)
    total_line = ax.axhline(0.0, color=PALETTE["orange"], lw=1, ls="--", label="the sum")
    ax.axhline(0.0, color=MUTED, lw=1)
    ax.set_xticks(list(slots), labels=[f"q{subscript(i)}" for i in slots])
    ax.set_xlabel("slot i")
    ax.set_ylabel("slot value, or sum so far")
    totals = partial_sums(q)
    low = min(0.0, float(q.min()), float(totals.min()))
    high = max(0.0, float(q.max()), float(totals.max()))
    pad = 0.15 * (high - low or 1.0)
    ax.set_ylim(low - pad, high + pad)
    not_added = Patch(color=MUTED, alpha=0.35, label="slot not added yet")  # a key, not drawn
    ax.legend(handles=[bars, not_added, running, total_line],
              loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0)  # off the bars
    artists = {"bars": bars, "running": running, "total_line": total_line, "q": q,
               "title": ax.set_title("", fontsize=12)}
    update_sum_terms(artists, count)
    return artists


def update_sum_terms(artists, count):
    """Show the sum of the first ``count`` slots, changing the artists in place."""
    q = artists["q"]
    for i, bar in enumerate(artists["bars"]):
        bar.set_color(ROLE_COLORS["query"] if i < count else MUTED)
        bar.set_alpha(1.0 if i < count else 0.35)
    totals = to_numpy(partial_sums(q))[:count]
    artists["running"].set_data(range(1, count + 1), totals)
    artists["total_line"].set_ydata([totals[-1], totals[-1]])
    symbols = " + ".join(f"q{subscript(i + 1)}" for i in range(count))
    artists["title"].set_text(f"Σᵢ₌₁{superscript(count)} qᵢ = {symbols} = {fmt(totals[-1], 2)}")
