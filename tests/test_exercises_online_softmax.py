"""Notebook 14's whole online softmax: ``online_output`` names each typical slip (written the
way beginners write it) and never crashes."""

import math

import numpy as np
from exercise_helpers import assert_never_crashes, assert_slips_named

from course_lib.exercises.online_softmax import evaluate_online_output


def loop(*, start=-math.inf, rescale_l=True, rescale_o=True, upside_down=False,
         on_new_block=False, divide_inside=False, again_at_end=False, end=0, tail=False,
         final=True, early=False, shift=True, keep=True, flipped=False, times_value=True):
    """A beginner's online_output with one slip switched on (slices and math.exp)."""
    def online_output(scores, values, block_size):
        M, l, o = start, 0.0, 0.0
        last = len(scores) - block_size + 1 if tail else len(scores)
        for s0 in range(0, last, block_size):
            s1 = s0 + block_size + end
            bs, bv = scores[s0:s1], values[s0:s1]
            M_new = max(M, max(bs))
            r = math.exp(M_new - M) if upside_down else math.exp(M - M_new)
            e = [math.exp(s - M_new) for s in bs] if shift else [math.exp(s) for s in bs]
            e = [math.exp(M_new - s) for s in bs] if flipped else e
            r = r if shift else 1.0
            bv = bv if times_value else [1.0] * len(bv)
            if not keep:
                l, o = sum(e), sum(x * v for x, v in zip(e, bv, strict=True))
            elif on_new_block:
                l = l + r * sum(e)
                o = o + r * sum(x * v for x, v in zip(e, bv, strict=True))
            else:
                l = (l * r if rescale_l else l) + sum(e)
                o = (o * r if rescale_o else o) + sum(x * v for x, v in zip(e, bv, strict=True))
            if divide_inside:
                o = o / l
            M = M_new
            if early:
                return o / l
        if divide_inside and not again_at_end:
            return o
        return o / l if final else o
    return online_output


def good_numpy(scores, values, block_size):
    scores, values = np.asarray(scores), np.asarray(values)
    M, l, o = -np.inf, 0.0, 0.0
    for start in range(0, len(scores), block_size):
        s, v = scores[start:start + block_size], values[start:start + block_size]
        M_new = max(M, s.max())
        r = np.exp(M - M_new)
        w = np.exp(s - M_new)
        l, o, M = l * r + w.sum(), o * r + w @ v, M_new
    return o / l


def upside_down_numpy(scores, values, block_size):
    scores, values = np.asarray(scores), np.asarray(values)
    M, l, o = -np.inf, 0.0, 0.0
    with np.errstate(all="ignore"):
        for start in range(0, len(scores), block_size):
            s, v = scores[start:start + block_size], values[start:start + block_size]
            M_new = max(M, s.max())
            r = np.exp(M_new - M)
            w = np.exp(s - M_new)
            l, o, M = l * r + w.sum(), o * r + w @ v, M_new
    return o / l


def whole_blocks_only(scores, values, block_size):
    M, l, o = -math.inf, 0.0, 0.0
    for b in range(len(scores) // block_size):
        bs = scores[b * block_size:(b + 1) * block_size]
        bv = values[b * block_size:(b + 1) * block_size]
        M_new = max(M, max(bs))
        r = math.exp(M - M_new)
        l = l * r + sum(math.exp(s - M_new) for s in bs)
        o = o * r + sum(math.exp(s - M_new) * v for s, v in zip(bs, bv, strict=True))
        M = M_new
    return o / l


def overlapping_range(scores, values, block_size):
    M, l, o = -math.inf, 0.0, 0.0
    for start in range(0, len(scores), block_size):
        keys = range(start, min(start + block_size + 1, len(scores)))
        M_new = max(M, max(scores[j] for j in keys))
        r = math.exp(M - M_new)
        l = l * r + sum(math.exp(scores[j] - M_new) for j in keys)
        o = o * r + sum(math.exp(scores[j] - M_new) * values[j] for j in keys)
        M = M_new
    return o / l


def block_average(scores, values, block_size):
    outs = []
    for start in range(0, len(scores), block_size):
        s = np.array(scores[start:start + block_size])
        w = np.exp(s - s.max())
        outs.append(w @ np.array(values[start:start + block_size]) / w.sum())
    return float(np.mean(outs))


def one_short_range(scores, values, block_size):
    M, l, o = -math.inf, 0.0, 0.0
    for start in range(0, len(scores) - 1, block_size):
        bs, bv = scores[start:start + block_size], values[start:start + block_size]
        M_new = max(M, max(bs))
        r = math.exp(M - M_new)
        l = l * r + sum(math.exp(s - M_new) for s in bs)
        o = o * r + sum(math.exp(s - M_new) * v for s, v in zip(bs, bv, strict=True))
        M = M_new
    return o / l


def block_max_numpy(scores, values, block_size):
    scores, values = np.asarray(scores), np.asarray(values)
    M, l, o = None, 0.0, 0.0
    with np.errstate(all="ignore"):
        for start in range(0, len(scores), block_size):
            s, v = scores[start:start + block_size], values[start:start + block_size]
            M_block = s.max()
            r = 0.0 if M is None else np.exp(M - M_block)
            w = np.exp(s - M_block)
            l, o, M = l * r + w.sum(), o * r + w @ v, M_block
        return o / l


def no_shift_numpy(scores, values, block_size):
    with np.errstate(all="ignore"):
        e = np.exp(np.asarray(scores))
        return float(e @ np.asarray(values) / e.sum())


def loop_from(begin, extra_step):
    def online_output(scores, values, block_size):
        M, l, o = -math.inf, 0.0, 0.0
        for start in range(begin, len(scores), block_size + extra_step):
            s, v = scores[start:start + block_size], values[start:start + block_size]
            new_M = max(M, max(s))
            w = [math.exp(x - new_M) for x in s]
            l = l * math.exp(M - new_M) + sum(w)
            o = o * math.exp(M - new_M) + sum(a * b for a, b in zip(w, v, strict=True))
            M = new_M
        return o / l
    return online_output


def multiplies_the_sums(scores, values, block_size):
    M, l, o = -math.inf, 0.0, 0.0
    for start in range(0, len(scores), block_size):
        s, v = scores[start:start + block_size], values[start:start + block_size]
        new_M = max(M, max(s))
        w = [math.exp(x - new_M) for x in s]
        l = l * math.exp(M - new_M) + sum(w)
        o = o * math.exp(M - new_M) + sum(w) * sum(v)
        M = new_M
    return o / l


def over_the_key_count(scores, values, block_size):
    top = max(scores)
    return sum(math.exp(s - top) * v for s, v in zip(scores, values, strict=True)) / len(scores)


SLIPS = {
    "forgot to rescale the accumulator": [loop(rescale_o=False)],
    "forgot to rescale the sum": [loop(rescale_l=False)],
    "forgot to rescale": [loop(rescale_l=False, rescale_o=False)],
    "rescale factor upside down": [loop(upside_down=True), upside_down_numpy],
    "rescaled the new block": [loop(on_new_block=True)],
    "divided inside the loop": [loop(divide_inside=True),
                                loop(divide_inside=True, again_at_end=True)],
    "started the max at 0": [loop(start=0), loop(start=0.0)],
    "no shift by the max": [loop(shift=False), no_shift_numpy],
    "block ends one short": [loop(end=-1)],
    "blocks overlap": [loop(end=1), overlapping_range],
    "lost the last partial block": [loop(tail=True), whole_blocks_only, one_short_range],
    "block max instead of running max": [block_max_numpy],
    "kept only the last block": [loop(keep=False)],
    "exponent sign flipped": [loop(flipped=True)],
    "forgot the values": [loop(times_value=False)],
    "averaged the blocks' outputs": [block_average],
    "forgot the final division": [loop(final=False)],
    "stopped after the first block": [loop(early=True)],
    "divided by the number of keys": [over_the_key_count],
    "multiplied the sums": [multiplies_the_sums],
    "skipped the first key": [loop_from(1, 0)],
    "step one too big": [loop_from(0, 1)],
}


def test_right_answers_pass():
    for answer in (loop(), good_numpy):
        feedback = evaluate_online_output(answer)
        assert feedback.passed, str(feedback)


def test_every_slip_is_named():
    assert_slips_named(evaluate_online_output, SLIPS)


def test_never_crashes():
    assert_never_crashes(evaluate_online_output)
