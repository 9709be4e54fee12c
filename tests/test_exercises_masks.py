"""Notebook 11's exercises: the masked softmax, the causal mask loop and the masked weight by
hand. Each slip of the catalogues is made on purpose, the way a beginner writes it."""

import math

import numpy as np
import pytest
from exercise_helpers import assert_never_crashes, assert_slips_named

from course_lib import causal_mask
from course_lib.exercises.causal import check_causal_mask_loop, evaluate_causal_mask_loop
from course_lib.exercises.core import CHANGED_INPUT
from course_lib.exercises.masked_weight import MASKED_WEIGHT
from course_lib.exercises.masks import check_masked_softmax, evaluate_masked_softmax

# --- masked_softmax ------------------------------------------------------------------------


def masked_softmax_ok(scores, allowed):
    kept = [s for s, ok in zip(scores, allowed, strict=True) if ok]
    if not kept:
        return [0.0] * len(scores)
    top = max(kept)
    exps = [math.exp(s - top) if ok else 0.0 for s, ok in zip(scores, allowed, strict=True)]
    total = sum(exps)
    return [e / total for e in exps]


def masked_softmax_numpy(scores, allowed):
    if not np.any(allowed):
        return np.zeros(len(scores))
    s = np.where(allowed, scores, -np.inf)
    e = np.exp(s - s.max())
    return e / e.sum()


def inverted(scores, allowed):
    return masked_softmax_ok(scores, [not ok for ok in allowed])


def inverted_numpy(scores, allowed):
    return masked_softmax_numpy(scores, np.logical_not(allowed))


def ignored(scores, allowed):
    return masked_softmax_ok(scores, [True] * len(scores))


def zeroed_after(scores, allowed):
    top = max(scores)
    exps = [math.exp(s - top) for s in scores]
    total = sum(exps)
    return [e / total if ok else 0.0 for e, ok in zip(exps, allowed, strict=True)]


def denominator_over_all(scores, allowed):
    s = np.asarray(scores, float)
    e = np.exp(s - s.max())
    return np.where(allowed, e, 0.0) / e.sum()


def masked_with_zero(scores, allowed):
    return ignored([s if ok else 0.0 for s, ok in zip(scores, allowed, strict=True)], allowed)


def multiplied_by_mask(scores, allowed):
    s = np.asarray(scores, float) * np.asarray(allowed)
    e = np.exp(s - s.max())
    return e / e.sum()


def multiplied_by_mask_guarded(scores, allowed):
    if not any(allowed):
        return [0.0] * len(scores)  # nothing to attend to
    return multiplied_by_mask(scores, allowed)


def dropped(scores, allowed):
    kept = [s for s, ok in zip(scores, allowed, strict=True) if ok]
    top = max(kept)
    exps = [math.exp(s - top) for s in kept]
    return [e / sum(exps) for e in exps]


def minus_big(scores, allowed):
    s = np.where(allowed, scores, -1e9)
    e = np.exp(s - s.max())
    return e / e.sum()


def nan_when_empty(scores, allowed):
    s = np.where(allowed, scores, -np.inf)
    with np.errstate(invalid="ignore"):
        e = np.exp(s - s.max())
        return e / e.sum()


def zero_division_when_empty(scores, allowed):
    top = max(s for s, ok in zip(scores, allowed, strict=True) if ok)  # ValueError when empty
    exps = [math.exp(s - top) if ok else 0.0 for s, ok in zip(scores, allowed, strict=True)]
    return [e / sum(exps) for e in exps]


def no_shift(scores, allowed):
    if not any(allowed):
        return [0.0] * len(scores)
    exps = [math.exp(s) if ok else 0.0 for s, ok in zip(scores, allowed, strict=True)]
    return [e / sum(exps) for e in exps]


def no_shift_numpy(scores, allowed):
    if not np.any(allowed):
        return np.zeros(len(scores))
    with np.errstate(over="ignore", invalid="ignore"):
        e = np.where(allowed, np.exp(np.asarray(scores, float)), 0.0)
        return e / e.sum()


def renormalised(scores, allowed):
    top = max(scores)
    exps = [math.exp(s - top) for s in scores]
    weights = [e / sum(exps) if ok else 0.0 for e, ok in zip(exps, allowed, strict=True)]
    total = sum(weights)
    return [w / total for w in weights]  # ZeroDivisionError next to a big blocked score


def renormalised_numpy(scores, allowed):
    import course_lib as cl

    if not np.any(allowed):
        return np.zeros(len(scores))
    with np.errstate(invalid="ignore"):
        after = cl.softmax(np.asarray(scores, float)) * np.asarray(allowed)
        return after / after.sum()


def renormalised_guarded(scores, allowed):
    weights = zeroed_after(scores, allowed)
    total = sum(weights)
    return [w / total for w in weights] if total > 0 else [0.0] * len(scores)


def shift_all(scores, allowed):
    top = max(scores)  # the largest of ALL scores, blocked ones included
    exps = [math.exp(s - top) if ok else 0.0 for s, ok in zip(scores, allowed, strict=True)]
    total = sum(exps)
    return [e / total if total > 0 else 0.0 for e in exps]


def shift_all_numpy(scores, allowed):
    with np.errstate(invalid="ignore"):
        s = np.where(allowed, scores, -np.inf)
        e = np.exp(s - np.max(scores))
        return e / e.sum()


def tilde_on_list(scores, allowed):
    s = np.array(scores, float)
    s[~allowed] = -np.inf  # ~ does not work on a Python list
    return masked_softmax_numpy(s, np.asarray(allowed))


def minus_on_list(scores, allowed):
    top = max(s for s, ok in zip(scores, allowed, strict=True) if ok) if any(allowed) else 0.0
    e = np.exp(scores - top) * np.asarray(allowed)  # list − float
    return e / e.sum()


def ignored_shifted_by_allowed(scores, allowed):
    top = max(s for s, ok in zip(scores, allowed, strict=True) if ok)
    exps = [math.exp(s - top) for s in scores]  # the blocked keys are never zeroed
    return [e / sum(exps) for e in exps]


def empty_list_when_blocked(scores, allowed):
    return masked_softmax_ok(scores, allowed) if any(allowed) else []


def unnormalised(scores, allowed):
    if not any(allowed):
        return [0.0] * len(scores)
    top = max(s for s, ok in zip(scores, allowed, strict=True) if ok)
    return [math.exp(s - top) if ok else 0.0 for s, ok in zip(scores, allowed, strict=True)]


def times_mask_no_shift(scores, allowed):
    with np.errstate(over="ignore", invalid="ignore"):
        e = np.exp(np.asarray(scores, float)) * np.asarray(allowed)
        return e / e.sum()


def in_place(scores, allowed):
    for j, ok in enumerate(allowed):
        if not ok:
            scores[j] = -math.inf
    return masked_softmax_ok(scores, allowed)


MASK_SLIPS = {
    "True means blocked": [inverted, inverted_numpy],
    "ignored the mask": [ignored, ignored_shifted_by_allowed],
    "lists used as arrays": [tilde_on_list, minus_on_list],
    "fully blocked row": [empty_list_when_blocked],
    "zeroed without renormalising": [zeroed_after, denominator_over_all],
    "masked with 0": [masked_with_zero, multiplied_by_mask, multiplied_by_mask_guarded],
    "dropped the blocked keys": [dropped],
    "−10⁹ instead of −∞": [minus_big],
    "NaN when everything is blocked": [nan_when_empty, zero_division_when_empty],
    "overflow": [no_shift, no_shift_numpy, times_mask_no_shift],
    "no division": [unnormalised],
    "renormalised after the softmax": [renormalised, renormalised_numpy, renormalised_guarded],
    "shifted by the max of all scores": [shift_all, shift_all_numpy],
    CHANGED_INPUT: [in_place],
}


@pytest.mark.parametrize("func", [masked_softmax_ok, masked_softmax_numpy])
def test_masked_softmax_accepts_a_right_answer(func):
    feedback = evaluate_masked_softmax(func)
    assert feedback.passed, str(feedback)


def test_masked_softmax_names_every_slip():
    assert_slips_named(evaluate_masked_softmax, MASK_SLIPS)


def test_the_big_blocked_score_is_shown_in_the_hint():
    for func in (renormalised, shift_all):
        message = str(evaluate_masked_softmax(func))
        assert "[1000, 0, 1], [False, True, True]" in message, message
    assert "new row total afterwards" not in str(evaluate_masked_softmax(zeroed_after))


def test_masked_softmax_never_crashes():
    assert_never_crashes(evaluate_masked_softmax)


# --- causal_mask_loop ----------------------------------------------------------------------


def causal_ok(n, m):
    return [[j <= i for j in range(m)] for i in range(n)]


def causal_ints(n, m):
    mask = [[0] * m for _ in range(n)]
    for i in range(n):
        for j in range(min(i + 1, m)):
            mask[i][j] = 1
    return mask


def shared_row(n, m):
    mask = [[False] * m] * n
    for i in range(n):
        for j in range(m):
            if j <= i:
                mask[i][j] = True
    return mask


def returns_in_loop(n, m):
    mask = []
    for i in range(n):
        mask.append([j <= i for j in range(m)])
        return mask


def range_i(n, m):
    return [[j in range(i) for j in range(m)] for i in range(n)]


CAUSAL_SLIPS = {
    "diagonal blocked": [lambda n, m: [[j < i for j in range(m)] for i in range(n)],
                         lambda n, m: np.tril(np.ones((n, m), bool), k=-1), range_i],
    "one key ahead": [lambda n, m: [[j in range(i + 2) for j in range(m)] for i in range(n)],
                      lambda n, m: np.tril(np.ones((n, m), bool), k=1)],
    "future instead of past": [lambda n, m: [[j >= i for j in range(m)] for i in range(n)],
                               lambda n, m: np.triu(np.ones((n, m), bool))],
    "True means blocked": [lambda n, m: [[j > i for j in range(m)] for i in range(n)],
                           lambda n, m: ~causal_mask(n, m)],
    "aligned bottom-right": [lambda n, m: [[j <= i + m - n for j in range(m)]
                                           for i in range(n)]],
    "rows and columns swapped": [lambda n, m: [[i <= j for i in range(n)] for j in range(m)],
                                 lambda n, m: [[j <= i for i in range(n)] for j in range(m)]],
    "n for the keys": [lambda n, m: [[j <= i for j in range(n)] for i in range(n)]],
    "return inside the loop": [returns_in_loop],
    "one row short": [lambda n, m: [[j <= i for j in range(m)] for i in range(n - 1)]],
    "one row too many": [lambda n, m: [[j <= i for j in range(m)] for i in range(n + 1)]],
    "one column too many": [lambda n, m: [[j <= i for j in range(m + 1)] for i in range(n)]],
    "one column short": [lambda n, m: [[j < i + 1 for j in range(m - 1)] for i in range(n)]],
    "rows longer than m": [lambda n, m: [[True] * (i + 1) + [False] * (m - i - 1)
                                         for i in range(n)]],
    "one row shared by every row": [shared_row],
    "one flat list": [lambda n, m: [j <= i for i in range(n) for j in range(m)]],
    "text instead of truth values": [lambda n, m: [["T" if j <= i else "F" for j in range(m)]
                                                   for i in range(n)],
                                     lambda n, m: [[str(j <= i) for j in range(m)]
                                                   for i in range(n)]],
}


@pytest.mark.parametrize("func", [causal_ok, causal_ints, lambda n, m: causal_mask(n, m)])
def test_causal_accepts_a_right_answer(func):
    feedback = evaluate_causal_mask_loop(func)
    assert feedback.passed, str(feedback)


def test_causal_names_every_slip():
    assert_slips_named(evaluate_causal_mask_loop, CAUSAL_SLIPS)


def test_causal_never_crashes():
    assert_never_crashes(evaluate_causal_mask_loop)


# --- the masked weight, by hand ------------------------------------------------------------

WEIGHT_SLIPS = {
    "blocked key still counted": [0.0197, 0.02],
    "masked with 0": [0.6, "3/5"],
    "no exponential": [1, 1.0],
    "no division": [3],
    "key 1's weight": [0.25, "1/4"],
    "mask read the other way round": [0],
    "the score instead of the weight": [1.0986, 1.1],
    "sign turned round": [-0.75],
    "decimal point moved": [7.5],
}


def test_masked_weight_by_hand():
    for right in (0.75, "3/4", 0.749, "0.75"):
        assert MASKED_WEIGHT.evaluate(right).passed
    assert_slips_named(MASKED_WEIGHT.evaluate, WEIGHT_SLIPS)
    assert_never_crashes(MASKED_WEIGHT.evaluate, kind="number")


@pytest.mark.parametrize("check", [check_masked_softmax, check_causal_mask_loop])
def test_check_prints_one_paragraph(check, capsys):
    def stub(*args):
        raise NotImplementedError

    assert check(stub) is None
    out = capsys.readouterr().out
    assert out.startswith("Not attempted yet") and out.count("\n") == 1
