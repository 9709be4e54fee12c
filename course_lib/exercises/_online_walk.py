"""The online softmax of one query written with switchable slips, for the online_output
exercise of notebook 14 (:mod:`course_lib.exercises.online_softmax`). This module defines no
exercise (its name starts with _)."""

import math

__all__ = ["block_average", "from_first_block", "walk"]


def walk(scores, values, block_size, *, start=-math.inf, sum_factor=True, acc_factor=True,
         upside_down=False, on_new_block=False, divide_inside=False, end=0, drop_tail=0,
         divide=True, first_only=False, keep=True, sign=1):
    """The online softmax of one query; each keyword switches on one slip (none: the answer)."""
    top, total, acc = start, 0.0, 0.0
    last = len(scores) - (block_size - 1 if drop_tail == "block" else drop_tail)
    for first in range(0, last, block_size):
        block = range(first, min(first + block_size + end, len(scores)))
        new_top = max(top, max(scores[j] for j in block))
        factor = math.exp(new_top - top if upside_down else top - new_top)
        terms = math.fsum(math.exp(sign * (scores[j] - new_top)) for j in block)
        part = math.fsum(math.exp(sign * (scores[j] - new_top)) * values[j] for j in block)
        if not keep:
            total, acc = terms, part
        elif on_new_block:
            total, acc = total + factor * terms, acc + factor * part
        else:
            total = total * (factor if sum_factor else 1.0) + terms
            acc = acc * (factor if acc_factor else 1.0) + part
        acc = acc / total if divide_inside else acc
        top = new_top
        if first_only:
            break
    return acc / total if divide else acc


def from_first_block(scores, values, block_size):
    """The factor upside down, by a learner who starts from the first block's numbers."""
    top = max(scores[:block_size])
    total = math.fsum(math.exp(s - top) for s in scores[:block_size])
    acc = math.fsum(math.exp(s - top) * v
                    for s, v in zip(scores[:block_size], values[:block_size], strict=True))
    for first in range(block_size, len(scores), block_size):
        block = range(first, min(first + block_size, len(scores)))
        new_top = max(top, max(scores[j] for j in block))
        factor = math.exp(new_top - top)
        total = total * factor + math.fsum(math.exp(scores[j] - new_top) for j in block)
        acc = acc * factor + math.fsum(math.exp(scores[j] - new_top) * values[j] for j in block)
        top = new_top
    return acc / total


def block_average(scores, values, block_size):
    """Each block's own softmax output, then the plain mean of those outputs."""
    outputs = []
    for first in range(0, len(scores), block_size):
        block = range(first, min(first + block_size, len(scores)))
        top = max(scores[j] for j in block)
        weights = [math.exp(scores[j] - top) for j in block]
        outputs.append(math.fsum(w * values[j] for w, j in zip(weights, block, strict=True))
                       / math.fsum(weights))
    return math.fsum(outputs) / len(outputs)
