"""Detectors of the dot_loop exercise (notebook 04): a list of products, a sum over some of
the slots, lists of different lengths let through. This module defines no exercise."""

from itertools import combinations

import numpy as np


def value_outcomes(outcomes):
    return [o for o in outcomes if o.case.raises is None]


def returns_vector(outcomes):
    return any(o.error is None and o.value is not None and np.ndim(o.value) > 0
               for o in value_outcomes(outcomes))


def partial_sums_of_products(q, k):
    products = [a * b for a, b in zip(q, k, strict=True)]
    return [sum(c) for r in range(len(products)) for c in combinations(products, r)]


def uses_some_slots(outcomes):
    """Every wrong answer is the sum of the products over some, but not all, of the slots."""
    wrong = [o for o in value_outcomes(outcomes) if not o.correct]
    if not wrong:
        return False
    for o in wrong:
        if o.error is not None or np.ndim(o.value) != 0:
            return False
        partial = partial_sums_of_products(*o.case.args)
        if not any(abs(float(o.value) - p) <= 1e-9 for p in partial):
            return False
    return True


def accepts_different_lengths(outcomes):
    values_right = all(o.correct for o in value_outcomes(outcomes))
    return values_right and any(not o.correct for o in outcomes if o.case.raises is not None)
