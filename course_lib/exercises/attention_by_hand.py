"""By-hand exercises of notebook 09, on its tiny example: two queries 𝐪₁ = [1, 0, 1, 0],
𝐪₂ = [0, 2, 0, 0]; three keys 𝐤₁ = [1, 0, 1, 0], 𝐤₂ = [0, 1, 0, 1], 𝐤₃ = [1, 1, 1, 1]; three
values 𝐯₁ = [2, 0], 𝐯₂ = [0, 2], 𝐯₃ = [4, 4]; d_k = 4. The scores of row 1 are [2, 0, 2].

Slips
-----
Row 1 of the weights A (answer e/(2e+1), 1/(2e+1), e/(2e+1) ≈ 0.4223, 0.1554, 0.4223):

- missing scale: softmax of [2, 0, 2] itself, without ÷ √d_k.
- divided by d_k: softmax of [2, 0, 2] / 4 instead of / 2.
- no exponential: the scaled scores [1, 0, 1] divided by their total, without eˣ.
- not normalised: e¹, e⁰, e¹ without dividing by their total.
- softmax down the columns: each column of S / √d_k made to add up to 1.
- the scaled scores: [1, 0, 1] without the softmax.
- row 2 instead of row 1: the weights of query 2.
- equal weights: 1/3 each, as if all scores were equal.

Row 1 of the output (answer 6e/(2e+1), 2 ≈ 2.534, 2.000):

- missing scale: blended with the weights of unscaled scores.
- divided by d_k: blended with the weights of scores ÷ 4.
- blended the keys: A₁ⱼ times the first two slots of the keys instead of the values.
- not normalised: the values blended with e¹, e⁰, e¹ themselves.
- no exponential: blended with [1, 0, 1] / 2.
- row 2 instead of row 1: the output of query 2.
- equal weights: the plain average of the values.
- added the values: 𝐯₁ + 𝐯₂ + 𝐯₃ without weights.

All also get the framework's generic slips (sign turned round, decimal point moved, rounded
too early).
"""

import math

from .by_hand import HandExercise, Slip

__all__ = ["OUTPUT_ROW", "WEIGHT_ROW", "check_output_row", "check_weight_row"]

_E = math.e


def _row(a, b, c):  # softmax of one row of three scores
    total = math.exp(a) + math.exp(b) + math.exp(c)
    return tuple(math.exp(x) / total for x in (a, b, c))


def _blend(weights, value=((2, 0), (0, 2), (4, 4))):  # Σⱼ wⱼ 𝐯ⱼ, two slots
    return tuple(sum(w * v[slot] for w, v in zip(weights, value, strict=True)) for slot in (0, 1))


_A1 = _row(1, 0, 1)  # scores [2, 0, 2] ÷ √4
_SCALE = "Divide the scores [2, 0, 2] by √d_k = √4 = 2 first: [1, 0, 1]."

WEIGHT_ROW = HandExercise(
    "row 1 of A", _A1, tolerance=0.005, slips=[
        Slip("missing scale", _row(2, 0, 2),
             "{got} is the softmax of [2, 0, 2] itself. " + _SCALE),
        Slip("divided by d_k", _row(0.5, 0, 0.5),
             "{got} is the softmax of [2, 0, 2] ÷ 4: you divided by d_k = 4. " + _SCALE),
        Slip("no exponential", (0.5, 0.0, 0.5),
             "{got} divides the scaled scores [1, 0, 1] by their total, without eˣ. Softmax "
             "takes e¹, e⁰, e¹ first, then divides each by their total e + 1 + e."),
        Slip("not normalised", (_E, 1.0, _E),
             "{got} are e¹, e⁰, e¹. One step is left: divide each by their total, "
             "2e + 1 ≈ 6.4366, so that the row adds up to 1."),
        Slip("softmax down the columns", (_E / (_E + 1), 1 / (1 + _E), 0.5),
             "{got} makes each COLUMN of S/√d_k add up to 1 (column 1 is [1, 0]). Softmax "
             "runs along query 1's row, [1, 0, 1]: its three weights add up to 1."),
        Slip("the scaled scores", (1.0, 0.0, 1.0),
             "{got} are the scaled scores [2, 0, 2] / 2 themselves. The weights are their "
             "softmax: e¹, e⁰, e¹ divided by their total, 2e + 1."),
        Slip("row 2 instead of row 1", _row(0, 1, 1),
             "{got} are the weights of query 2 (scores [0, 2, 2]). Row 1 belongs to "
             "𝐪₁ = [1, 0, 1, 0]: its scores are [2, 0, 2]."),
        Slip("equal weights", (1 / 3, 1 / 3, 1 / 3),
             "{got} gives every key the same weight, as if the scores were equal. They are "
             "not: 𝐪₁ matches 𝐤₁ and 𝐤₃ (score 2) better than 𝐤₂ (score 0)."),
    ])

OUTPUT_ROW = HandExercise(
    "output row 1", _blend(_A1), tolerance=0.01, slips=[
        Slip("missing scale", _blend(_row(2, 0, 2)),
             "{got} blends the values with the softmax of [2, 0, 2]. " + _SCALE),
        Slip("divided by d_k", _blend(_row(0.5, 0, 0.5)),
             "{got} blends the values with the softmax of [2, 0, 2] ÷ 4: you divided by "
             "d_k = 4. " + _SCALE),
        Slip("blended the keys", _blend(_A1, ((1, 0), (0, 1), (1, 1))),
             "{got} blends the KEYS' slots with the weights. Keys are only for matching: blend "
             "the values, 0.4223·[2, 0] + 0.1554·[0, 2] + 0.4223·[4, 4]."),
        Slip("not normalised", _blend((_E, 1.0, _E)),
             "{got} blends the values with e¹, e⁰, e¹ themselves. Divide them by their total "
             "2e + 1 first, so the weights add up to 1."),
        Slip("no exponential", _blend((0.5, 0.0, 0.5)),
             "{got} blends the values with [1, 0, 1] ÷ 2, without eˣ. Use the softmax "
             "weights ≈ 0.4223, 0.1554, 0.4223."),
        Slip("row 2 instead of row 1", _blend(_row(0, 1, 1)),
             "{got} is the output of query 2 (and also row 1's two numbers in swapped "
             "order). Row 1 uses query 1's weights, ≈ 0.4223, 0.1554, 0.4223, and its first "
             "slot is Σⱼ A₁ⱼ·(slot 1 of 𝐯ⱼ)."),
        Slip("equal weights", (2.0, 2.0),
             "{got} is the plain average of the three values, as if every weight were 1/3. "
             "Use query 1's weights ≈ 0.4223, 0.1554, 0.4223."),
        Slip("added the values", (6.0, 6.0),
             "{got} is 𝐯₁ + 𝐯₂ + 𝐯₃ without weights. Multiply each value by its weight first: "
             "0.4223·[2, 0] + 0.1554·[0, 2] + 0.4223·[4, 4]."),
    ])


def check_weight_row(value):
    """Print feedback on row 1 of A (three numbers), worked out by hand."""
    WEIGHT_ROW.check(value)


def check_output_row(value):
    """Print feedback on output row 1 (two numbers), worked out by hand."""
    OUTPUT_ROW.check(value)
