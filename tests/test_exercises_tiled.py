"""Notebook 14's ``running_stats(blocks)`` checker: the right answer passes, each typical slip
(written the way beginners write it) is named by its own hint, nothing crashes it."""

import math

import numpy as np
from exercise_helpers import assert_never_crashes, assert_slips_named

from course_lib.exercises.tiled import _running_stats, check_running_stats, evaluate_running_stats


def good(blocks):
    M, l = -math.inf, 0.0
    for block in blocks:
        M_new = max(M, max(block))
        l = l * math.exp(M - M_new) + sum(math.exp(s - M_new) for s in block)
        M = M_new
    return M, l


def good_numpy(blocks):
    M, l = -np.inf, 0.0
    for block in blocks:
        b = np.array(block)
        M_new = max(M, b.max())
        l = l * np.exp(M - M_new) + np.exp(b - M_new).sum()
        M = M_new
    return float(M), float(l)


def loop(*, start=-math.inf, factor="old - new", new_terms_by="new", on_new_block=False,
         block_max=False, early=False, blocks_end=0, scores_end=0, shift=True, swap=False,
         keep=True, flipped=False):
    """A beginner's running_stats with one slip switched on (math.exp, plain Python)."""
    def running_stats(blocks):
        M, l = start, 0.0
        for b in range(len(blocks) + blocks_end):
            block = blocks[b]
            M_new = max(block) if block_max else max(M, max(block))
            r = math.exp(M - M_new) if factor == "old - new" else (
                math.exp(M_new - M) if factor == "new - old" else 1.0)
            ref = M_new if new_terms_by == "new" else M
            terms = 0.0
            for j in range(len(block) + scores_end):
                if flipped:
                    terms += math.exp(ref - block[j])
                else:
                    terms += math.exp(block[j] - ref) if shift else math.exp(block[j])
            if not keep:
                l = terms
            else:
                l = l + r * terms if on_new_block else l * r + terms
            M = M_new
            if early:
                return (l, M) if swap else (M, l)
        return (l, M) if swap else (M, l)
    return running_stats


def upside_down_numpy(blocks):
    M, l = -np.inf, 0.0
    with np.errstate(all="ignore"):
        for block in blocks:
            M_new = max(M, max(block))
            l = l * np.exp(M_new - M) + sum(np.exp(s - M_new) for s in block)
            M = M_new
    return M, l


def upside_down_from_first(blocks):
    M = max(blocks[0])
    l = sum(math.exp(s - M) for s in blocks[0])
    for block in blocks[1:]:
        M_new = max(M, max(block))
        l = l * math.exp(M_new - M) + sum(math.exp(s - M_new) for s in block)
        M = M_new
    return M, l


def max_updated_before_the_factor(blocks):
    M, l = -math.inf, 0.0
    for block in blocks:
        M = max(M, max(block))
        l = l * math.exp(M - M) + sum(math.exp(s - M) for s in block)
    return M, l


def score_by_score(blocks):
    M, l = -math.inf, 0.0
    for block in blocks:
        for s in block:
            M = max(M, s)
            l += math.exp(s - M)
    return M, l


def old_max_from_first(blocks):
    M = max(blocks[0])
    l = sum(math.exp(s - M) for s in blocks[0])
    for block in blocks[1:]:
        M_new = max(M, max(block))
        l = l * math.exp(M - M_new) + sum(math.exp(s - M) for s in block)
        M = M_new
    return M, l


def overwrote_numpy(blocks):
    M, l = -np.inf, 0.0
    for block in blocks:
        M = max(M, np.max(block))
        l = np.sum(np.exp(np.array(block) - M))  # = instead of +=
    return M, l


def skipped_first(blocks):
    M, l = -math.inf, 0.0
    for i in range(1, len(blocks)):
        M_new = max(M, max(blocks[i]))
        l = l * math.exp(M - M_new) + sum(math.exp(s - M_new) for s in blocks[i])
        M = M_new
    return M, l


def divided_exps(blocks):
    M, l = -math.inf, 0.0
    for block in blocks:
        M_new = max(M, max(block))
        l = l * math.exp(M - M_new) + sum(math.exp(s) / math.exp(M_new) for s in block)
        M = M_new
    return M, l


def no_shift_numpy(blocks):
    scores = np.concatenate([np.array(b, float) for b in blocks])
    with np.errstate(all="ignore"):
        return float(scores.max()), float(np.exp(scores).sum())


def block_slice_short(blocks):
    M, l = -math.inf, 0.0
    for block in blocks:
        part = block[:len(block) - 1]
        M_new = max(M, max(part))
        l = l * math.exp(M - M_new) + sum(math.exp(s - M_new) for s in part)
        M = M_new
    return M, l


def loop_adding_the_factor(blocks):
    M, l = -math.inf, 0.0
    for block in blocks:
        new_M = max(M, max(block))
        l += math.exp(M - new_M) + sum(math.exp(s - new_M) for s in block)
        M = new_M
    return M, l


def skips_first_scores(blocks):
    M, l = -math.inf, 0.0
    for block in blocks:
        new_M = max(M, max(block))
        l = l * math.exp(M - new_M) + sum(math.exp(s - new_M) for s in block[1:])
        M = new_M
    return M, l


def never_stores_the_max(blocks):
    M, l = -math.inf, 0.0
    for block in blocks:
        new_M = max(M, max(block))
        l = l * math.exp(M - new_M) + sum(math.exp(s - new_M) for s in block)
    return M, l


SLIPS = {
    "returned (l, M)": [loop(swap=True), lambda blocks: tuple(reversed(good_numpy(blocks)))],
    "rescale factor upside down": [loop(factor="new - old"), upside_down_numpy,
                                   upside_down_from_first],
    "rescaled the new block": [loop(on_new_block=True)],
    "forgot to rescale": [loop(factor="none"), max_updated_before_the_factor, score_by_score],
    "used the old max for the new block": [loop(new_terms_by="old"), old_max_from_first],
    "kept only the last block": [loop(keep=False), overwrote_numpy],
    "exponent sign flipped": [loop(flipped=True)],
    "block max instead of running max": [loop(block_max=True)],
    "started the max at 0": [loop(start=0), loop(start=0.0)],
    "no shift by the max": [loop(shift=False, factor="none"), no_shift_numpy, divided_exps],
    "stopped after the first block": [loop(early=True)],
    "skipped the first block": [skipped_first],
    "skipped the last block": [loop(blocks_end=-1)],
    "skipped each block's last score": [loop(scores_end=-1), block_slice_short],
    "never updated M": [never_stores_the_max],
    "added the factor": [loop_adding_the_factor],
    "skipped each block's first score": [skips_first_scores],
}


def test_right_answers_pass():
    for answer in (good, good_numpy, loop()):
        feedback = evaluate_running_stats(answer)
        assert feedback.passed, str(feedback)


def test_reference_on_the_notebook_example():
    top, total = _running_stats([(1.0, 3.0), (2.0, 5.0)])
    assert top == 5.0
    assert math.isclose(total, math.exp(-4) + math.exp(-2) + math.exp(-3) + 1.0, rel_tol=1e-15)


def test_every_slip_is_named():
    assert_slips_named(evaluate_running_stats, SLIPS)


def test_hints_show_the_telling_case():
    message = str(evaluate_running_stats(loop(factor="none")))
    assert "running_stats([[1, 3], [2, 5]]) gave [5, 2.185]; the answer is [5, 1.203]" in message


def test_stub_is_not_attempted():
    def stub(blocks):
        raise NotImplementedError

    assert evaluate_running_stats(stub).status == "not attempted"
    assert evaluate_running_stats(lambda blocks: None).status == "not attempted"


def test_unknown_slip_shows_the_smallest_case():
    feedback = evaluate_running_stats(lambda blocks: (0.0, 1.0))
    assert feedback.status == "failed"
    assert "running_stats([[" in str(feedback)


def test_never_crashes():
    assert_never_crashes(evaluate_running_stats)


def test_prints_one_paragraph(capsys):
    check_running_stats(good)
    printed = capsys.readouterr().out
    assert printed.startswith("Correct") and printed.count("\n") == 1
