"""By-hand exercise of notebook 12: what one head divides its scores by.

Slips (by hand, the divisor of each head's scores for d_model = 768, h = 12):

- √d_model: √768, the full width.
- d_k without the root: 64.
- d_model: 768.
- √h: √12.
- h: 12, the number of heads.
- the multiplier: 1/√d_k = 0.125, what the scores are multiplied by.
- ** 1/2: 64 / 2 = 32, the power read as (d_k ** 1) / 2.
- √d_model / h: the root taken before dividing the width.
"""

import math

from .by_hand import HandExercise, Slip

__all__ = ["HEAD_SCALE", "check_head_scale"]

HEAD_SCALE = HandExercise(
    "the divisor of each head's scores (d_model = 768, h = 12)",
    answer=8.0,
    slips=[
        Slip("√d_model", math.sqrt(768),
             "{got} is √768, the full width. Each head works on d_k = 768 / 12 = 64 slots, "
             "so it divides by √64."),
        Slip("d_k without the root", 64.0,
             "{got} is d_k itself. The divisor is its square root, √d_k."),
        Slip("d_model", 768.0, "{got} is d_model. Cut it into 12 heads first: d_k = 768 / 12, "
             "then take the square root."),
        Slip("√h", math.sqrt(12), "{got} is √12, the root of the number of heads. The root is "
             "taken of the head's width, d_k = 768 / 12."),
        Slip("h", 12.0, "{got} is the number of heads. Each head divides by √d_k, with "
             "d_k = 768 / 12."),
        Slip("the multiplier", 1 / 8, "{got} is 1/√d_k, the number the scores are MULTIPLIED by "
             "(PyTorch's scale). The question asks what they are divided by."),
        Slip("** 1/2", 32.0, "{got} is 64 / 2: `d_k ** 1/2` is (d_k ** 1) / 2, because ** binds "
             "tighter than /. The square root of 64 is 8."),
        Slip("√d_model / h", math.sqrt(768) / 12,
             "{got} is √768 / 12: divide the width first, d_k = 768 / 12, then take the root."),
    ],
    tolerance=0.05,
)


def check_head_scale(value):
    """Print feedback on a head's divisor worked out by hand."""
    HEAD_SCALE.check(value)
