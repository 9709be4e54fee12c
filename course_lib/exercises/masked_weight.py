"""By-hand exercise of notebook 11: one weight under a mask.

Slips (by hand, the weight a₀ of key 0 for the scores (ln 3, 0, 5) with key 2 blocked):

- blocked key still counted: 3 / (3 + 1 + e⁵), the blocked e⁵ left in the total.
- masked with 0: 3 / (3 + 1 + 1).
- no exponential: ln 3 / (ln 3 + 0) = 1.
- no division: e^(ln 3) = 3 alone.
- key 1's weight: 1/4.
- mask read the other way round: 0, key 0 treated as blocked.
- the score instead of the weight: ln 3.
"""

import math

from .by_hand import HandExercise, Slip

__all__ = ["MASKED_WEIGHT", "check_masked_weight"]


_E5 = math.exp(5.0)
MASKED_WEIGHT = HandExercise(
    "a₀ (scores (ln 3, 0, 5), key 2 blocked)",
    answer=0.75,
    slips=[
        Slip("blocked key still counted", 3 / (4 + _E5),
             "{got} is e^(ln 3) divided by a total that still holds e⁵ of the blocked key 2. "
             "A blocked score is −∞ and adds e^(−∞) = 0 to the total."),
        Slip("masked with 0", 3 / 5,
             "{got} is 3 / (3 + 1 + 1): you gave the blocked key a score of 0, and e⁰ = 1 still "
             "counts. Blocked means −∞, weight exactly 0."),
        Slip("no exponential", 1.0,
             "{got} is ln 3 / (ln 3 + 0): you divided the scores themselves. The softmax "
             "divides e^(s_j): e^(ln 3) = 3 and e⁰ = 1."),
        Slip("no division", 3.0,
             "{got} is e^(ln 3) alone: divide by the total over the allowed keys, 3 + 1."),
        Slip("key 1's weight", 0.25,
             "{got} is the weight of key 1 (e⁰ / 4). The question asks for key 0, score ln 3."),
        Slip("mask read the other way round", 0.0,
             "{got}: key 0 is allowed, only key 2 is blocked; an allowed key keeps its share."),
        Slip("the score instead of the weight", math.log(3),
             "{got} is ln 3, the score of key 0. Its weight is e^(ln 3) / (e^(ln 3) + e⁰)."),
    ],
    tolerance=0.005,
)


def check_masked_weight(value):
    """Print feedback on the weight of key 0 worked out by hand."""
    MASKED_WEIGHT.check(value)
