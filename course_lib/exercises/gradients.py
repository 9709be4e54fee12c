"""Exercises of notebook 13: the backward pass through one row's softmax, in code and by hand.

Slips (``softmax_backward_row(a, grad_a)``, that is ∂L/∂sᵢ = aᵢ(gᵢ − Σⱼ aⱼgⱼ) with g = ∂L/∂a):

- returned the row total: Σⱼ aⱼgⱼ alone, one number.
- forgot the row total: aᵢgᵢ.
- forgot to multiply by a: gᵢ − Σⱼ aⱼgⱼ.
- sign error: aᵢ(Σⱼ aⱼgⱼ − gᵢ), the bracket the other way round.
- plain mean: aᵢ(gᵢ − mean of g), the total without the weights.
- mean of aⱼgⱼ: aᵢ(gᵢ − Σⱼ aⱼgⱼ / m).
- unweighted sum: aᵢ(gᵢ − Σⱼ gⱼ).
- total not multiplied by a: aᵢgᵢ − Σⱼ aⱼgⱼ, the expanded form with one aᵢ lost.
- diagonal only: aᵢ(1 − aᵢ)gᵢ, the Jacobian's diagonal alone.
- a and g swapped: gᵢ(aᵢ − Σⱼ aⱼgⱼ).
- forgot diag(a): −aᵢ Σⱼ aⱼgⱼ, the Jacobian's −a aᵀ part alone.
- left out j = i: aᵢ(gᵢ − Σ over j ≠ i of aⱼgⱼ).
- row total one term short: the total's loop stops one early or starts at 1.
- a @ a.T is a number: diag(a) − a @ a.T with a 1-D a subtracts Σⱼ aⱼ² from every entry.
- running total: the total added up inside the same loop, so entry i sees only j ≤ i.
- one entry short: the result's loop stops one early, the last entry is missing.
- return inside the loop: only the first entry comes back.
- lists used as arrays: arithmetic on the Python lists (``x @ w_q``, ``a * g``) raises.
- changed its input (the framework's): ``grad_a[i] -= total`` writes into the caller's list.

Slips (by hand, ∂L/∂s₀ for a = (0.5, 0.3, 0.2), g = (2, 1, −1)):

- gave the row total: Σⱼ aⱼgⱼ = 1.1.
- bracket without a₀: g₀ − 1.1 = 0.9.
- a₀g₀ alone: 1.
- plain mean: a₀(g₀ − 2/3).
- mean of aⱼgⱼ: a₀(g₀ − 1.1/3).
- diagonal only: a₀(1 − a₀)g₀ = 0.5.
- unweighted sum: a₀(g₀ − Σⱼ gⱼ) = 0.
- a₀ times the row total: 0.5 · 1.1 = 0.55.
- total not multiplied by a₀: a₀g₀ − 1.1 = −0.1.
- another entry: ∂L/∂s₁ = −0.03.
"""

import numpy as np

from .. import softmax_backward
from ._backward import row_cases, row_first_only, row_slip
from ._detect import LISTS_HINT, lists_used_as_arrays
from .by_hand import HandExercise, Slip
from .core import Exercise, Mistake

__all__ = ["SOFTMAX_BACKWARD_EXERCISE", "SOFTMAX_BACKWARD_BY_HAND", "check_softmax_backward_row",
           "check_softmax_gradient_by_hand", "evaluate_softmax_backward_row"]


_SHORT = ("{call} → {got}: your row total misses one term, the loop's range stops one short or "
          "starts at 1. Σⱼ aⱼgⱼ runs over all m entries: range(len(a)), from 0.")

SOFTMAX_BACKWARD_EXERCISE = Exercise(
    "softmax_backward_row(a, grad_a)",
    cases=row_cases(),
    reference=lambda a, g: softmax_backward(np.asarray(a, float), np.asarray(g, float)),
    mistakes=[
        Mistake("lists used as arrays", LISTS_HINT, detect=lists_used_as_arrays),
        Mistake("returned the row total",
                "{call} → {got}, one number: the row total Σⱼ aⱼgⱼ. It is one step of the "
                "answer: each entry is aᵢ(gᵢ − Σⱼ aⱼgⱼ), a list as long as a.",
                imitation=row_slip(lambda a, g, t: t)),
        Mistake("forgot the row total",
                "{call} → {got}, that is aᵢgᵢ. Every weight depends on every score (they share "
                "one total), so subtract the row total Σⱼ aⱼgⱼ first: aᵢ(gᵢ − Σⱼ aⱼgⱼ).",
                imitation=row_slip(lambda a, g, t: a * g)),
        Mistake("forgot to multiply by a",
                "{call} → {got}, that is gᵢ − Σⱼ aⱼgⱼ. Multiply by aᵢ as well: a key with "
                "weight 0 passes no gradient to its score.",
                imitation=row_slip(lambda a, g, t: g - t)),
        Mistake("sign error",
                "{call} → {got}, exactly minus the answer {expected}: your bracket is "
                "Σⱼ aⱼgⱼ − gᵢ. The incoming gradient comes first: aᵢ(gᵢ − Σⱼ aⱼgⱼ).",
                imitation=row_slip(lambda a, g, t: a * (t - g))),
        Mistake("plain mean",
                "{call} → {got}: you subtracted the plain mean of g. Subtract the weighted "
                "total Σⱼ aⱼgⱼ (the weights a are the averaging weights).",
                imitation=row_slip(lambda a, g, t: a * (g - g.mean()))),
        Mistake("mean of aⱼgⱼ",
                "{call} → {got}: you subtracted the mean of the products aⱼgⱼ, Σⱼ aⱼgⱼ / m. The "
                "weights already do the averaging: subtract the plain total Σⱼ aⱼgⱼ.",
                imitation=row_slip(lambda a, g, t: a * (g - t / a.size))),
        Mistake("unweighted sum",
                "{call} → {got}: you subtracted Σⱼ gⱼ. Each gⱼ is weighted by its aⱼ: "
                "subtract Σⱼ aⱼgⱼ.",
                imitation=row_slip(lambda a, g, t: a * (g - g.sum()))),
        Mistake("total not multiplied by a",
                "{call} → {got}, that is aᵢgᵢ − Σⱼ aⱼgⱼ. Expanded, the formula is "
                "aᵢgᵢ − aᵢ Σⱼ aⱼgⱼ: the total is multiplied by aᵢ too.",
                imitation=row_slip(lambda a, g, t: a * g - t)),
        Mistake("diagonal only",
                "{call} → {got}: you used only the diagonal of the Jacobian, aᵢ(1 − aᵢ)gᵢ. The "
                "off-diagonal terms −aᵢaⱼ matter too; together they give aᵢ(gᵢ − Σⱼ aⱼgⱼ).",
                imitation=row_slip(lambda a, g, t: a * (1 - a) * g)),
        Mistake("a and g swapped",
                "{call} → {got}: you computed gᵢ(aᵢ − Σⱼ aⱼgⱼ), the roles of a and g swapped. "
                "The weight aᵢ multiplies the bracket, and the bracket holds the incoming "
                "gradient: aᵢ(gᵢ − Σⱼ aⱼgⱼ).", imitation=row_slip(lambda a, g, t: g * (a - t))),
        Mistake("forgot diag(a)",
                "{call} → {got}, that is −aᵢ Σⱼ aⱼgⱼ: only the −a aᵀ part of the Jacobian "
                "diag(a) − a aᵀ. Add the diagonal part aᵢgᵢ.",
                imitation=row_slip(lambda a, g, t: -a * t)),
        Mistake("left out j = i",
                "{call} → {got}: your total skips the entry's own term, Σ over j ≠ i. The "
                "row total Σⱼ aⱼgⱼ runs over EVERY j, i included.",
                imitation=row_slip(lambda a, g, t: a * (g - (t - a * g)))),
        Mistake("row total one term short", _SHORT,
                imitation=row_slip(lambda a, g, t: a * (g - (t - a[-1] * g[-1])))),
        Mistake("row total one term short", _SHORT,
                imitation=row_slip(lambda a, g, t: a * (g - (t - a[0] * g[0])))),
        Mistake("a @ a.T is a number",
                "{call} → {got}: for a 1-D array, a @ a.T is the number Σⱼ aⱼ², not the m × m "
                "grid a aᵀ. Use np.outer(a, a), or skip the grid: aᵢ(gᵢ − Σⱼ aⱼgⱼ).",
                imitation=row_slip(lambda a, g, t: a * g - (a @ a) * g.sum())),
        Mistake("running total",
                "{call} → {got}: your row total grows inside the loop, so entry i subtracts "
                "only Σ over j ≤ i. Add up Σⱼ aⱼgⱼ over the WHOLE row first, in a loop of its "
                "own, then compute every entry.",
                imitation=row_slip(lambda a, g, t: a * (g - np.cumsum(a * g)))),
        Mistake("one entry short",
                "{call} → {got}: the last entry is missing. A loop over range(len(a) - 1) stops "
                "one early; range(len(a)) gives all m entries.",
                imitation=row_slip(lambda a, g, t: (a * (g - t))[:-1])),
        Mistake("return inside the loop",
                "{call} → {got}: only the first entry. The `return` sits inside the loop, so "
                "the function stops after entry 0; return the whole list after the loop.",
                detect=row_first_only),
    ],
)


def evaluate_softmax_backward_row(func):
    """The :class:`~course_lib.exercises.core.Feedback` on a learner's ``softmax_backward_row``."""
    return SOFTMAX_BACKWARD_EXERCISE.evaluate(func)


def check_softmax_backward_row(func):
    """Print feedback on a learner's ``softmax_backward_row(a, grad_a)``."""
    SOFTMAX_BACKWARD_EXERCISE.check(func)


# a = (0.5, 0.3, 0.2), g = (2, 1, −1): Σⱼ aⱼgⱼ = 1 + 0.3 − 0.2 = 1.1, ∂L/∂s₀ = 0.5 · 0.9
SOFTMAX_BACKWARD_BY_HAND = HandExercise(
    "∂L/∂s₀ (a = (0.5, 0.3, 0.2), ∂L/∂a = (2, 1, −1))",
    answer=0.45,
    slips=[
        Slip("gave the row total", 1.1, "{got} is the row total Σⱼ aⱼgⱼ; subtract it from g₀ and "
             "multiply by a₀: a₀(g₀ − 1.1)."),
        Slip("bracket without a₀", 0.9, "{got} is g₀ − Σⱼ aⱼgⱼ: now multiply by a₀ = 0.5."),
        Slip("a₀g₀ alone", 1.0, "{got} is a₀g₀ = 0.5 · 2: the row total Σⱼ aⱼgⱼ = 1.1 must be "
             "subtracted from g₀ first."),
        Slip("plain mean", 0.5 * (2 - 2 / 3), "{got} uses the plain mean of g, 2/3. The weights "
             "a average it: Σⱼ aⱼgⱼ = 0.5·2 + 0.3·1 + 0.2·(−1)."),
        Slip("mean of aⱼgⱼ", 0.5 * (2 - 1.1 / 3), "{got} subtracts the MEAN of the aⱼgⱼ, "
             "1.1 / 3. The weights already average: subtract their sum, Σⱼ aⱼgⱼ = 1.1."),
        Slip("diagonal only", 0.5, "{got} is a₀(1 − a₀)g₀, the diagonal term alone; the other "
             "keys' terms −a₀aⱼgⱼ count too."),
        Slip("unweighted sum", 0.0, "{got} comes from subtracting Σⱼ gⱼ = 2; weight each gⱼ by "
             "its aⱼ."),
        Slip("a₀ times the row total", 0.55, "{got} is a₀ · Σⱼ aⱼgⱼ = 0.5 · 1.1: subtract the "
             "total from g₀ first, then multiply by a₀: a₀(g₀ − 1.1)."),
        Slip("total not multiplied by a₀", -0.1, "{got} is a₀g₀ − Σⱼ aⱼgⱼ = 1 − 1.1: the "
             "total must be multiplied by a₀ too: a₀(g₀ − 1.1)."),
        Slip("another entry", -0.03, "{got} is ∂L/∂s₁, the entry of key 1; the question asks "
             "for s₀ (a₀ = 0.5, g₀ = 2)."),
    ],
    tolerance=0.005,
)


def check_softmax_gradient_by_hand(value):
    """Print feedback on ∂L/∂s₀ worked out by hand."""
    SOFTMAX_BACKWARD_BY_HAND.check(value)
