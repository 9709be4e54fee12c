"""The running max and sum of the online softmax with switchable slips, for the running_stats
exercise of notebook 14 (:mod:`course_lib.exercises.tiled`). This module defines no exercise
(its name starts with _)."""

import math

__all__ = ["no_shift", "running_stats", "stats", "without_last_scores", "without_last_terms"]


def stats(blocks, start=-math.inf, factor=lambda old, new: math.exp(old - new),
          on_new_block=False, shift_new_by_old=False, block_max=False, sign=1, keep=True,
          from_first=False):
    """One pass over the blocks; the keywords switch on one slip each (all off: the answer).
    ``from_first``: start from the first block's own numbers (as some learners do)."""
    top, total = start, 0.0
    if from_first:
        top, total = stats(blocks[:1])
        blocks = blocks[1:]
    for block in blocks:
        new_top = max(block) if block_max else max(top, max(block))
        shift = top if shift_new_by_old else new_top
        terms = math.fsum(math.exp(sign * (s - shift)) for s in block)
        if on_new_block:
            total = total + factor(top, new_top) * terms
        else:
            total = (total * factor(top, new_top) if keep else 0.0) + terms
        top = new_top
    return top, total


def running_stats(blocks):
    """The reference: one pass over the blocks, two numbers kept between them."""
    return stats(blocks)


def without_last_scores(blocks):
    """running_stats over each block but its last score."""
    if any(len(block) < 2 for block in blocks):
        raise ValueError("a block of one score: such a case cannot tell this slip")
    return stats([block[:-1] for block in blocks])


def without_last_terms(blocks):
    """The max over the whole block, but the sum's loop stops one score early."""
    top, total = -math.inf, 0.0
    for block in blocks:
        new_top = max(top, max(block))
        total = total * math.exp(top - new_top) + math.fsum(math.exp(s - new_top)
                                                            for s in block[:-1])
        top = new_top
    return top, total


def no_shift(blocks):
    """No shift at all: the max, and the sum of e^s (overflows past 709)."""
    scores = [s for block in blocks for s in block]
    return max(scores), math.fsum(math.exp(s) for s in scores)
