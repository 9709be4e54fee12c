"""Notebook 11's exercises (course_lib/exercises/masks.py): wrong answers written the way
beginners write them, each named by its own slip or relation, and right answers in other
styles accepted."""

import math

import numpy as np
from slip_checks import assert_named, assert_passes

import course_lib as cl

# --- masked_softmax ----------------------------------------------------------------------------


def right(scores, allowed):  # index by index, the total kept as it grows
    top = -math.inf
    for i in range(len(scores)):
        if allowed[i] and scores[i] > top:
            top = scores[i]
    exps, total = [], 0.0
    for i in range(len(scores)):
        exps.append(math.exp(scores[i] - top) if allowed[i] else 0.0)
        total += exps[i]
    return [e / total if total else 0.0 for e in exps]


def right_numpy(scores, allowed):
    if not np.any(allowed):
        return np.zeros(len(scores))
    return cl.softmax(np.where(allowed, scores, -np.inf))


def shift_by_all(scores, allowed):
    top = max(scores)  # the largest of ALL scores, a blocked one included
    exps = [math.exp(s - top) if ok else 0.0 for s, ok in zip(scores, allowed, strict=True)]
    total = sum(exps)
    return [e / total for e in exps]


def renormalised(scores, allowed):
    weights = [w if ok else 0.0 for w, ok in zip(cl.softmax(np.array(scores)), allowed,
                                                  strict=True)]
    total = sum(weights)
    return [w / total if total else 0.0 for w in weights]


def no_shift(scores, allowed):
    if not any(allowed):
        return [0.0] * len(scores)
    exps = [math.exp(s) if ok else 0.0 for s, ok in zip(scores, allowed, strict=True)]
    return [e / sum(exps) for e in exps]


def shift_by_smallest(scores, allowed):
    kept = [s for s, ok in zip(scores, allowed, strict=True) if ok]
    if not kept:
        return [0.0] * len(scores)
    exps = [math.exp(s - min(kept)) if ok else 0.0 for s, ok in zip(scores, allowed, strict=True)]
    return [e / sum(exps) for e in exps]


def zeroed_after(scores, allowed):
    weights = cl.softmax(np.array(scores))
    return [w if ok else 0.0 for w, ok in zip(weights, allowed, strict=True)]


def blocked_as_zero(scores, allowed):
    return cl.softmax(np.array(scores) * np.array(allowed))


def empty_crashes(scores, allowed):
    top = max(s for s, ok in zip(scores, allowed, strict=True) if ok)  # no allowed: ValueError
    exps = [math.exp(s - top) if ok else 0.0 for s, ok in zip(scores, allowed, strict=True)]
    return [e / sum(exps) for e in exps]


def minus_a_billion(scores, allowed):
    return cl.softmax(np.where(allowed, scores, -1e9))


def only_allowed(scores, allowed):
    return list(cl.softmax(np.array([s for s, ok in zip(scores, allowed, strict=True) if ok])))


def blocks_in_place(scores, allowed):
    for j, ok in enumerate(allowed):
        if not ok:
            scores[j] = -math.inf
    return right(scores, allowed)


def test_masked_softmax_slips():
    assert_named("masked_softmax", {
        "True read as blocked": [lambda s, a: right(s, [not ok for ok in a])],
        "the mask ignored": [lambda s, a: cl.softmax(np.array(s))],
        "blocked keys in the total": [zeroed_after],
        "blocked score set to 0": [blocked_as_zero],
        "the largest score was a blocked one": [shift_by_all, renormalised],
        "no shift": [no_shift],
        "the smallest score subtracted": [shift_by_smallest],
        "0/0 on a fully blocked row": [empty_crashes],
        "a fully blocked row spread evenly": [minus_a_billion],
        "only the allowed keys returned": [only_allowed],
        "arithmetic on lists": [lambda s, a: right_numpy(s - max(s), a)],
        "changed its input": [blocks_in_place],
    })


def test_masked_softmax_accepts_other_right_answers():
    assert_passes("masked_softmax", [right_numpy, lambda s, a: right(list(s), list(a))])


# --- batch_mask ------------------------------------------------------------------------------


def mask_loops(lengths, n, left_padded, may=lambda i, j, real: j <= i and real):
    out = []
    for length in lengths:
        first = n - length if left_padded else 0  # the first real position
        rows = [[may(i, j, first <= j < first + length) for j in range(n)] for i in range(n)]
        out.append([rows])
    return out


def mask_numpy(lengths, n, left_padded):
    pad = cl.padding_mask(lengths, n)  # (B, 1, n): the first lengths[b] keys are real
    if left_padded:
        pad = pad[:, :, ::-1]  # the last lengths[b] keys instead
    return pad[:, None] & cl.causal_mask(n)  # (B, 1, 1, n) & (n, n) -> (B, 1, n, n)


def test_batch_mask_slips():
    assert_named("batch_mask", {
        "no causal part": [lambda L, n, left: mask_loops(L, n, left, lambda i, j, real: real)],
        "no padding part": [lambda L, n, left: mask_loops(L, n, left, lambda i, j, real: j <= i)],
        "a query cannot see itself": [
            lambda L, n, left: mask_loops(L, n, left, lambda i, j, real: j < i and real)],
        "or for and": [
            lambda L, n, left: mask_loops(L, n, left, lambda i, j, real: j <= i or real)],
        "a size-1 axis missing": [lambda L, n, left: np.asarray(mask_numpy(L, n, left))[:, 0]],
        "one key past the real ones": [lambda L, n, left: [[[
            [j <= i and (n - k if left else 0) <= j <= (n - k if left else 0) + k
             for j in range(n)] for i in range(n)]] for k in L]],
        "left padding one off": [lambda L, n, left: [[[
            [j <= i and (n - k - 1 if left else 0) <= j < (n - k - 1 if left else 0) + k
             for j in range(n)] for i in range(n)]] for k in L]],
        "left_padded ignored": [lambda L, n, left: cl.padding_mask(L, n)[:, None]
                                & cl.causal_mask(n), lambda L, n, left: mask_numpy(L, n, True)],
        "left and right padding swapped": [lambda L, n, left: mask_numpy(L, n, not left)],
        "lengths[0] for every sequence": [
            lambda L, n, left: mask_numpy([L[0]] * len(L), n, left),
            lambda L, n, left: [mask_loops(L[:1], n, left)[0] for _ in L]],
        "the causal mask upside down": [
            lambda L, n, left: mask_loops(L, n, left, lambda i, j, real: j >= i and real)],
    })


def test_batch_mask_accepts_other_right_answers():
    assert_passes("batch_mask", [mask_loops, mask_numpy])


# --- the masked weight, by hand ----------------------------------------------------------------


def test_masked_weight_by_hand_slips():
    assert_named("masked weight by hand", {
        "the blocked key counted": [3 / (4 + math.exp(5)), 0.0197],
        "blocked score set to 0": [0.6, "3/5"],
        "key 1 given no weight": [1, 1.0],
        "key 1's weight": [0.25, "1/4"],
        "the mask read the other way round": [0],
        "ln 3 read as 3": [0.9526],
        "e^(ln 3) read as ln 3": [1.0986 / 2.0986, 0.5235],
        "an even split": [0.5, "1/2"],
        "a percentage": [75],
    })


def test_masked_weight_by_hand_accepts_the_answer_in_other_forms():
    assert_passes("masked weight by hand", [0.75, "3/4", 0.749])
