"""Imitations of slips in the online-softmax exercises of notebook 14 (running_stats and
online_output) that the modules' own slip switches do not cover. This module defines no
exercise (its name starts with _)."""

import math


def added_factor(blocks):
    """running_stats with l + e^(M − M′) instead of l · e^(M − M′)."""
    top, total = -math.inf, 0.0
    for block in blocks:
        new_top = max(top, max(block))
        total = total + math.exp(top - new_top) + math.fsum(math.exp(s - new_top) for s in block)
        top = new_top
    return top, total


def without_first_scores(blocks):
    """running_stats that skips each block's first score (``block[1:]``)."""
    if any(len(block) < 2 for block in blocks):
        raise ValueError("a block of one score: such a case cannot tell this slip")
    top, total = -math.inf, 0.0
    for block in blocks:
        new_top = max(top, max(block))
        total = total * math.exp(top - new_top) + math.fsum(
            math.exp(s - new_top) for s in block[1:])
        top = new_top
    return top, total


def multiplied_sums(scores, values, block_size):
    """online_output with o += (Σ weights) · (Σ values) per block instead of Σ weight · value."""
    top, total, acc = -math.inf, 0.0, 0.0
    for first in range(0, len(scores), block_size):
        block, vals = scores[first:first + block_size], values[first:first + block_size]
        new_top = max(top, max(block))
        factor, weights = math.exp(top - new_top), [math.exp(s - new_top) for s in block]
        total = total * factor + math.fsum(weights)
        acc = acc * factor + math.fsum(weights) * math.fsum(vals)
        top = new_top
    return acc / total


def walk_from(scores, values, block_size, begin=0, step=None):
    """online_output whose loop starts at ``begin`` and moves by ``step`` (a key skipped at the
    start, or one skipped between blocks)."""
    top, total, acc = -math.inf, 0.0, 0.0
    for first in range(begin, len(scores), step or block_size):
        block, vals = scores[first:first + block_size], values[first:first + block_size]
        new_top = max(top, max(block))
        factor, weights = math.exp(top - new_top), [math.exp(s - new_top) for s in block]
        total = total * factor + math.fsum(weights)
        acc = acc * factor + math.fsum(w * v for w, v in zip(weights, vals, strict=True))
        top = new_top
    return acc / total
