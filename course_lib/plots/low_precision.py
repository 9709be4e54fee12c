"""Pictures of 16-bit attention (notebook 14): the error as the number of keys grows, with
the running numbers kept in float32 or in the 16-bit format itself."""

import matplotlib.pyplot as plt

from ..low_precision import format_facts
from .style import MUTED, ROLE_COLORS

__all__ = ["draw_accumulation_errors"]


def draw_accumulation_errors(key_counts, errors, dtype, ax=None):
    """Relative error of attention against the number of keys m, log–log.

    ``errors`` maps "float32" and "low" to one error per entry of ``key_counts`` (from
    :func:`course_lib.low_precision.accumulation_error`), and optionally "p_rounded" to the
    errors with only the weights P rounded to ``dtype`` for the product P·V (FlashAttention's
    way). A dotted line marks half the spacing of ``dtype`` just above 1: the error of rounding
    the output alone.

    Returns
    -------
    dict with the lines ``"float32"``, ``"low"``, ``"rounding"`` and, when given, ``"p_rounded"``.
    """
    ax = plt.gca() if ax is None else ax
    (float32,) = ax.plot(key_counts, errors["float32"], "o-", color=ROLE_COLORS["query"],
                         label="P, running max, sum, output in float32")
    (low,) = ax.plot(key_counts, errors["low"], "s-", color=ROLE_COLORS["key"],
                     label=f"every running number in {dtype}")
    lines = {"float32": float32, "low": low}
    if "p_rounded" in errors:
        (lines["p_rounded"],) = ax.plot(key_counts, errors["p_rounded"], "^--",
                                        color=ROLE_COLORS["value"],
                                        label=f"P rounded to {dtype} for P·V, sums in float32")
    half_spacing = format_facts(dtype)[1] / 2
    rounding = ax.axhline(half_spacing, color=MUTED, ls=":", lw=1.5,
                          label=f"rounding the output to {dtype} alone")
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("number of keys m")
    ax.set_ylabel("largest error / largest output")
    ax.set_title(f"{dtype} attention: where the sums are kept")
    # below the axes: inside, the legend would cover the steep 16-bit curve
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.2), ncol=2, fontsize=10)
    return {**lines, "rounding": rounding}
