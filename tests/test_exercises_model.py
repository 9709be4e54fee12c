"""Notebook 17's exercises (course_lib/exercises/model.py): wrong answers written the way
beginners write them, each named by its own slip or relation, and right answers in other styles
accepted."""

import math

import numpy as np
from slip_checks import assert_named, assert_passes

import course_lib as cl
from course_lib.heads import previous_token_score

# --- my_attention(query, key, value, mask): the model's attention, heads first ----------------


def attend_numpy(query, key, value, mask):
    scores = query @ key.swapaxes(-1, -2) / math.sqrt(query.shape[-1])  # (H, n, m)
    scores = np.where(mask, scores, -np.inf)
    weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return weights / weights.sum(axis=-1, keepdims=True) @ value


def attend_loop(query, key, value, mask):
    out = []
    for h in range(len(query)):  # one head at a time, as in notebook 09
        scores = query[h] @ key[h].T / math.sqrt(query.shape[-1])
        scores = np.where(mask, scores, -1e9)
        out.append(cl.softmax(scores, axis=-1) @ value[h])
    return np.array(out)


def attend_with(scale=None, masked=lambda s, mask: np.where(mask, s, -np.inf), axis=-1,
                shift=True, weights_only=False, top=None, blend_keys=False):
    def attend(query, key, value, mask):
        d = query.shape[-1]
        s = query @ key.swapaxes(-1, -2)
        s = s / math.sqrt(d) if scale is None else s * scale(query, value)
        s = masked(s, mask)
        biggest = s.max(axis=axis if top is None else top, keepdims=True)
        e = np.exp(s - biggest) if shift else np.exp(s)
        w = e / e.sum(axis=axis, keepdims=True)
        return w if weights_only else w @ (key if blend_keys else value)
    return attend


def attend_mask_after(query, key, value, mask):
    w = cl.softmax(query @ key.swapaxes(-1, -2) / math.sqrt(query.shape[-1]), axis=-1)
    return (w * mask) @ value


def attend_dot_T(query, key, value, mask):  # .T turns ALL the axes of a 3-D array round
    scores = query @ key.T / math.sqrt(query.shape[-1])
    return cl.softmax(np.where(mask, scores, -np.inf), axis=-1) @ value


def attend_no_transpose(query, key, value, mask):
    scores = query @ key / math.sqrt(query.shape[-1])
    return cl.softmax(np.where(mask, scores, -np.inf), axis=-1) @ value


def attend_tokens_first(query, key, value, mask):
    return attend_numpy(query, key, value, mask).transpose(1, 0, 2)  # (n, H, d_v)


def test_my_attention_accepts_other_right_answers():
    assert_passes("my_attention", [
        attend_numpy, attend_loop,
        lambda q, k, v, mask: cl.scaled_dot_product_attention(q, k, v, attn_mask=mask),
        attend_with(masked=lambda s, mask: np.where(mask, s, -1e9)),
        attend_with(masked=lambda s, mask: s + np.where(mask, 0.0, -np.inf)),
    ])


def test_my_attention_slips():
    assert_named("my_attention", {
        "no √d_k": [attend_with(scale=lambda q, v: 1.0)],
        "÷ d_k for ÷ √d_k": [attend_with(scale=lambda q, v: 1 / q.shape[-1])],
        "the mask ignored": [attend_with(masked=lambda s, mask: s)],
        "True read as blocked": [attend_with(masked=lambda s, mask: np.where(mask, -np.inf, s))],
        "blocked score set to 0": [attend_with(masked=lambda s, mask: s * mask)],
        "softmax along another axis": [attend_with(axis=-2), attend_with(axis=0),
                                       attend_with(axis=0, top=-1)],
        "weights @ key": [attend_with(blend_keys=True)],
        "the mask added to the scores": [attend_with(masked=lambda s, mask: s + mask)],
        "the max over the heads": [attend_with(top=0)],
        "masked after the softmax": [attend_mask_after],
        "sizes that do not fit a product": [attend_no_transpose],
        "`.T` on a 3-D array": [attend_dot_T],
        "d_k from the wrong axis": [attend_with(scale=lambda q, v: 1 / math.sqrt(len(q)))],
        "not a finite number": [attend_with(shift=False)],
        "the wrong shape": [attend_tokens_first],
        "the weights returned": [attend_with(weights_only=True)],
    })


# --- previous_token_score(A): the mean weight on the token just before ------------------------


def score_loop(A, return_in_the_loop=False):
    total = 0.0
    for i in range(1, len(A)):
        total += A[i][i - 1]
        if return_in_the_loop:  # the slip: the return one indent too deep
            return total / (len(A) - 1)
    return total / (len(A) - 1)


def score_overwritten(A):
    total = 0.0
    for i in range(1, len(A)):
        total = A[i][i - 1]  # the slip: = where += adds
    return total / (len(A) - 1)


def score_from_zero(A):
    return sum(A[i][i - 1] for i in range(len(A))) / len(A)  # A[0][-1]: the last column


def score_sum(A):
    return sum(A[i][i - 1] for i in range(1, len(A)))


def score_diagonal(A):
    return sum(A[i][i] for i in range(1, len(A))) / (len(A) - 1)


def score_first_token(A):
    return sum(A[i][0] for i in range(1, len(A))) / (len(A) - 1)


def score_swapped(A):
    return sum(A[i - 1][i] for i in range(1, len(A))) / (len(A) - 1)


def score_last_row_missed(A):
    return sum(A[i][i - 1] for i in range(1, len(A) - 1)) / (len(A) - 1)


def score_largest(A):
    return max(A[i][i - 1] for i in range(1, len(A)))


def score_list(A):
    return [A[i][i - 1] for i in range(1, len(A))]


def score_next_token(A):
    return sum(A[i][i + 1] for i in range(len(A) - 1)) / (len(A) - 1)


def score_rows_all(A):
    return sum(A[i][i - 1] for i in range(1, len(A))) / len(A)


def test_previous_token_score_accepts_other_right_answers():
    assert_passes("previous_token_score", [
        score_loop, previous_token_score,
        lambda A: np.diag(np.array(A), -1).mean(),
        lambda A: sum(A[i + 1][i] for i in range(len(A) - 1)) / (len(A) - 1),
    ])


def test_previous_token_score_slips():
    assert_named("previous_token_score", {
        "divided by n": [score_from_zero, score_rows_all],
        "the sum, not the mean": [score_sum],
        "cut to whole numbers / all zeros": [  # every mean is below 1: // gives 0 on each case
            lambda A: sum(A[i][i - 1] for i in range(1, len(A))) // (len(A) - 1)],
        "the diagonal": [score_diagonal],
        "the first token": [score_first_token],
        "above the diagonal": [score_swapped, score_next_token,
                               lambda A: sum(A[i][i + 1] for i in range(1, len(A))) / (len(A) - 1)],
        "the last row missed": [score_last_row_missed],
        "the largest, not the mean": [score_largest],
        "the wrong shape": [score_list],
        "stopped after the first row": [lambda A: score_loop(A, return_in_the_loop=True)],
        "only the last term counts": [score_overwritten],
        "the mean of whole rows": [lambda A: sum(sum(A[i]) / len(A[i]) for i in range(1, len(A)))
                                   / (len(A) - 1)],
    })


# --- the bytes one token adds to SmolLM2-135M's cache, by hand -------------------------------


def test_model_cache_by_hand_slips():
    assert_named("model cache by hand", {
        "keys only": [23040], "queries cached too": [69120], "all query heads": [138240],
        "one layer only": [1536], "bytes per number left out": [11520],
        "bits, not bytes": [368640], "one key/value head": [15360],
        "KiB, not bytes": [45, "45"], "d_k left out": [720], "8 bytes a float32": [92160],
        "1000 tokens": [46080000], "the width for d_k": [414720],
        "the 2 and the 4 bytes left out": [30 * 3 * 64], "the 2 and the layers left out": [768],
        "one layer, all query heads": [4608],
    })


def test_model_cache_by_hand_accepts_the_answer_in_any_form():
    assert_passes("model cache by hand", [46080, "46080", 46080.0, 46080.4])
