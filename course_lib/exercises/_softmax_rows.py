"""Detectors of the softmax_rows exercise (notebook 07): answers that act like one wrong
softmax on every case, overflow on the large scores only, or are off by a factor per row.
This module defines no exercise (its name starts with _)."""

import numpy as np

OVERFLOW_LIMIT = 709.0  # eˣ overflows float64 a little above x = 709.78

def is_large(case):
    """Whether a case holds scores big enough to overflow eˣ in float64."""
    return bool(np.abs(case.args[0]).max() > OVERFLOW_LIMIT)


def rows(x, shift):
    e = np.exp(x - shift)
    return e / e.sum(axis=-1, keepdims=True)


def same_or_both_nan(got, wrong):
    try:
        got, wrong = np.asarray(got, dtype=float), np.asarray(wrong, dtype=float)
    except (TypeError, ValueError):
        return False
    return got.shape == wrong.shape and bool(np.allclose(got, wrong, rtol=1e-9, atol=1e-9,
                                                         equal_nan=True))


def acts_like(*imitations, ordinary_only=True):
    """The answers equal one imitation's (NaN where it gives NaN, an error where it raises) on
    every case, and that is wrong somewhere. With ``ordinary_only`` the large cases are left
    out, so a second slip (overflow) does not hide the first."""

    def agrees(imitation, outcomes):
        telling, raised = None, None  # a case where the slip shows in a value, or in an error
        for outcome in outcomes:
            if ordinary_only and is_large(outcome.case):
                continue
            try:
                wrong = imitation(np.array(outcome.case.args[0]))
            except Exception:
                if outcome.error is None:
                    return None
                raised = raised or outcome
                continue
            if outcome.error is not None or not same_or_both_nan(outcome.value, wrong):
                return None
            if not same_or_both_nan(wrong, outcome.case.expected):
                telling = telling or outcome
        return telling or raised

    return lambda outcomes: next((found for f in imitations
                                  if (found := agrees(f, outcomes)) is not None), None)


def overflows(outcomes):
    """Right on every ordinary case; NaN, ∞ or an error on every large one."""
    large = [o for o in outcomes if is_large(o.case)]
    if not all(o.correct for o in outcomes if not is_large(o.case)):
        return None
    for outcome in large:
        if outcome.error is None and same_or_both_nan(outcome.value, outcome.case.expected):
            return None
    return large[0]


def not_normalised(outcomes):
    """On the ordinary cases every row is a positive multiple of the right row, some
    multiple not 1."""
    telling = None
    for outcome in (o for o in outcomes if not is_large(o.case)):
        try:  # softmax weights are never 0 on these cases
            ratios = np.asarray(outcome.value, dtype=float) / outcome.case.expected
            rows_scaled = np.allclose(ratios, ratios[:, :1], rtol=1e-9)
        except (TypeError, ValueError, IndexError):
            return None
        if ratios.shape != outcome.case.expected.shape or not rows_scaled:
            return None
        if not np.allclose(ratios, 1.0, rtol=1e-9):
            telling = telling or outcome
    return telling


def row_max(x):
    return x.max(axis=-1, keepdims=True)
