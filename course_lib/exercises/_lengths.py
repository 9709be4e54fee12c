"""Detectors and imitations of the length exercise (notebook 02): the root taken at every
step, Pythagoras with a fixed number of slots. This module defines no exercise."""

import math

from .. import norm


def root_each_step(q):
    total = 0.0
    for x in q:
        total = math.sqrt(total + x * x)
    return total


def signed_single_slot(outcomes):
    # the one-slot case special-cased as q[0]: right everywhere except a negative single slot
    wrong = [o for o in outcomes if not o.correct]
    if wrong and all(len(o.case.args[0]) == 1 and o.error is None and o.value == o.case.args[0][0]
                     for o in wrong):
        return wrong[0]
    return None


def fixed_slots(outcomes):
    # Pythagoras with a fixed number of slots (2 or 3): right where q has exactly that many,
    # the length of the first few slots where q has more, an IndexError where it has fewer
    for count in (2, 3):
        try:
            if all((o.error is not None and len(o.case.args[0]) < count) or
                   abs(float(o.value) - float(norm(o.case.args[0][:count]))) < 1e-9
                   for o in outcomes):
                return next(o for o in outcomes if not o.correct and o.error is None)
        except (TypeError, ValueError, StopIteration):
            continue
    return None
