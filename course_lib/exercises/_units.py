"""Detectors of the grid_gib exercise (notebook 15): unit slips that are not one wrong
formula (XOR on a float, an answer rounded to whole GiB, a divisor so big the answer is 0).
This module defines no exercise (its name starts with _)."""

import math


def xor_on_a_float(outcomes):
    """``x / 2^30`` reads as ``(x / 2) ^ 30``: XOR of a float, a TypeError on every case."""
    errors = [o.error for o in outcomes]
    if all(isinstance(e, TypeError) and "^" in str(e) for e in errors):
        return outcomes[0]
    return None


def _whole(outcomes, rounding):
    """Every answer the true size rounded to a whole number by ``rounding``, one of them wrong."""
    try:
        if all(o.error is None and float(o.value) == rounding(o.case.expected) for o in outcomes):
            return next((o for o in outcomes if not o.correct), None)
    except (TypeError, ValueError):
        return None
    return None


def whole_down(outcomes):
    return _whole(outcomes, math.floor)


def whole_up(outcomes):
    return _whole(outcomes, math.ceil)


def practically_zero(outcomes):
    try:
        if all(o.error is None and abs(float(o.value)) < 1e-12 for o in outcomes):
            return outcomes[0]
    except (TypeError, ValueError):
        return None
    return None
