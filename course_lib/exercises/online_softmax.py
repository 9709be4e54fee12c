"""Exercise of notebook 14 on the whole online softmax: ``online_output(scores, values,
block_size)``, one query's attention output o / l computed
one block of keys at a time (each value vⱼ one number here, d_v = 1).

Slips of ``online_output`` (each recognised, each hint shows the hidden case where it showed):

* forgot to rescale the accumulator — l was rescaled by e^(M − M′), the running output o not;
* forgot to rescale the sum — o was rescaled, l not;
* forgot to rescale — neither o nor l was multiplied by e^(M − M′);
* rescale factor upside down — e^(M′ − M) instead of e^(M − M′);
* rescaled the new block — the factor put on the new block's terms instead of the old ones;
* divided inside the loop — o / l taken at every block, then rescaled and added to again;
* started the max at 0 — M = 0 before the first block instead of −∞;
* block max instead of running max — overflows when a later block's max is far lower;
* no shift by the max — e^s directly: overflow at s = 1000, 0 / 0 at s = −1000;
* block ends one short — ``scores[start:start + block_size - 1]`` drops a key per block;
* blocks overlap — ``scores[start:start + block_size + 1]`` counts a key twice;
* lost the last partial block — ``range(0, m - block_size + 1, block_size)`` stops early;
* kept only the last block — ``l = …`` and ``o = …`` replaced the old sums;
* exponent sign flipped — e^(M − s) instead of e^(s − M);
* forgot the values — o summed the weights alone (every answer 1);
* averaged the blocks' outputs — each block's own softmax output, then their mean;
* forgot the final division — returned o instead of o / l;
* divided by the number of keys — o / m instead of o / l;
* skipped the first key — ``range(1, m, block_size)``;
* step one too big — ``range(0, m, block_size + 1)``;
* multiplied the sums — (Σ weights) · (Σ values) per block;
* stopped after the first block — a ``return`` inside the loop.
"""

import math

from ._online import multiplied_sums, walk_from
from ._online_walk import block_average as _block_average
from ._online_walk import from_first_block as _from_first_block
from ._online_walk import walk as _walk
from .core import Case, Exercise, Mistake

__all__ = ["ONLINE_OUTPUT_EXERCISE", "check_online_output", "evaluate_online_output"]


_CASES = [
    ([1.0, 3.0, 2.0, 5.0], [0.0, 1.0, 2.0, 3.0], 2),  # the notebook's example
    ([0.5, -1.0, 2.0, 1.0, 0.0], [1.0, -1.0, 2.0, 0.5, 3.0], 2),  # a last block of one key
    ([4.0, 1.0, 0.0, 2.0, 3.0], [2.0, 0.0, 1.0, -1.0, 5.0], 3),  # the max comes first
    ([-1.0, 0.0, 1.0, 2.0, 3.0, 4.0, 5.0], [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0], 3),
    ([2.0, 2.0, 2.0], [1.0, 2.0, 3.0], 1),  # ties, blocks of one key
    ([-3.0, -5.0, -4.0, -2.5, -6.0], [0.0, 1.0, 0.0, 1.0, 0.0], 2),  # all negative
    ([0.3, 1.2, -0.7, 2.2, 0.1, 1.9], [1.0, 0.0, -1.0, 2.0, 0.5, 3.0], 4),
    ([1.0, 2.0], [3.0, 4.0], 5),  # one block, bigger than the row
    ([1000.0, 999.0, 1001.0, 998.5], [1.0, 2.0, 3.0, 4.0], 2),  # e^1000 overflows
    ([-1000.0, -1002.0, -1001.0], [5.0, -5.0, 1.0], 2),  # e^−1000 underflows to 0
    ([750.0, 749.0, 0.0, 1.0], [1.0, 2.0, 3.0, 4.0], 2),  # the max falls by 749: e^749 overflows
]
_EXTREME = {8, 9, 10}  # only an unshifted e^s breaks here (9: M from 0; 10: a block's max)


def _all_nan(outcomes):
    try:
        return outcomes[0] if all(math.isnan(float(o.value)) for o in outcomes) else None
    except (TypeError, ValueError):
        return None


def _breaks_only_at(outcomes, extreme=_EXTREME):
    """Right on every other case, an error, NaN or ±∞ on the ``extreme`` ones (by index)."""
    for index, outcome in enumerate(outcomes):
        if index not in extreme and not outcome.correct:
            return None
    broken = [o for i, o in enumerate(outcomes) if i in extreme and not o.correct]
    for outcome in broken:
        try:
            if outcome.error is None and math.isfinite(float(outcome.value)):
                return None
        except (TypeError, ValueError):
            return None
    return broken[0] if broken else None


_GOT = "{call} gave {got}; the answer is {expected}."
_SLIPS = [  # (name, hint after _GOT, keywords of _walk)
    ("forgot to rescale the accumulator", "You rescaled the sum l but not the running output "
     "o: when the max rises, o · e^(M − M′) too, since its terms were written with the old M.",
     {"acc_factor": False}),
    ("forgot to rescale the sum", "You rescaled the running output o but not the sum l: both "
     "were written with the old max, so both get the factor e^(M − M′).", {"sum_factor": False}),
    ("forgot to rescale", "Neither o nor l was rescaled when the max rose: multiply both by "
     "e^(M − M′) (computed before M is overwritten) before adding the new block.",
     {"sum_factor": False, "acc_factor": False}),
    ("rescale factor upside down", "The factor is e^(M − M′), old max minus new, at most 1: "
     "e^(M′ − M) makes the old terms bigger when the max rises.", {"upside_down": True}),
    ("rescaled the new block", "The factor e^(M − M′) belongs to the OLD l and o (written "
     "with M); the new block's terms e^(s − M′) already use the new max.",
     {"on_new_block": True}),
    ("divided inside the loop", "You divided o by l inside the loop, then kept rescaling and "
     "adding to the divided o, which mixes two scales. Keep o and l as sums and divide once, "
     "after the last block.", {"divide_inside": True, "divide": False}),
    ("divided inside the loop", "You divided o by l inside the loop and again at the end. Keep "
     "o and l as sums and divide once, after the last block.", {"divide_inside": True}),
    ("block ends one short", "Each block lost its last key: the block starting at `start` is "
     "scores[start:start + block_size] (the end of a slice is not included).", {"end": -1}),
    ("blocks overlap", "A key was counted twice: the block starting at `start` ends before "
     "start + block_size, where the next block begins (no + 1).", {"end": 1}),
    ("lost the last partial block", "The last, shorter block was never visited: "
     "range(0, m, block_size) starts a block at every multiple of block_size below m, even "
     "when fewer than block_size keys are left.", {"drop_tail": 1}),
    ("lost the last partial block", "The last, shorter block was never visited: "
     "range(0, m, block_size) starts a block at every multiple of block_size below m, even "
     "when fewer than block_size keys are left.", {"drop_tail": "block"}),
    ("kept only the last block", "Your l and o hold only the last block's terms: `l = …` "
     "replaced the old sum. Keep it and add: l′ = l · e^(M − M′) + Σ e^(s − M′), and the same "
     "for o.", {"keep": False}),
    ("exponent sign flipped", "Each weight is e^(s − M), score minus max (at most e^0 = 1), "
     "not e^(M − s).", {"sign": -1}),
    ("forgot the final division", "You returned the running output o; the output is o / l, "
     "divided once after the last block.", {"divide": False}),
    ("stopped after the first block", "Your function returned after the first block: the "
     "`return` is inside the `for` loop. Move it out (one indent less).", {"first_only": True}),
]


def _imitation(keywords):
    return lambda scores, values, block_size: _walk(scores, values, block_size, **keywords)


ONLINE_OUTPUT_EXERCISE = Exercise(
    "online_output(scores, values, block_size)",
    cases=[Case((tuple(s), tuple(v), b)) for s, v, b in _CASES],
    reference=_walk,
    rtol=1e-9,
    atol=1e-12,
    mistakes=[
        Mistake("rescale factor upside down", "{call} gave {got}: on the first block, where "
                "M = −∞, something became e^(… − (−∞)) = ∞, and 0 · ∞ is NaN. The factor is "
                "e^(M − M′), old max minus new (not e^(M′ − M)), and the new terms use the new "
                "max, e^(s − M′).", detect=_all_nan),
        Mistake("rescale factor upside down", _GOT + " The factor is e^(M − M′), old max "
                "minus new, at most 1.", imitation=_from_first_block),
        *[Mistake(name, _GOT + " " + hint, imitation=_imitation(keywords))
          for name, hint, keywords in _SLIPS],
        Mistake("forgot the values", _GOT + " Every answer is 1: o summed the weights "
                "e^(s − M′) alone. The running output adds each weight times its value, "
                "e^(s − M′) · vⱼ.", imitation=lambda scores, values, block_size: 1.0),
        Mistake("divided by the number of keys", _GOT + " You divided o by m, the number of "
                "keys; the weights add up to l, not m: return o / l.",
                imitation=lambda scores, values, block_size: math.fsum(
                    math.exp(s - max(scores)) * v
                    for s, v in zip(scores, values, strict=True)) / len(scores)),
        Mistake("multiplied the sums", _GOT + " You added (Σ weights) · (Σ values) per block; "
                "each weight multiplies ITS OWN value: o += Σ e^(s − M′) · vⱼ.",
                imitation=multiplied_sums),
        Mistake("skipped the first key", _GOT + " The loop starts at 1, so key 1 (Python "
                "position 0) is never seen: range(0, m, block_size).",
                imitation=lambda scores, values, block_size: walk_from(scores, values,
                                                                       block_size, begin=1)),
        Mistake("step one too big", _GOT + " The loop moves by block_size + 1, so one key "
                "between blocks is never seen: range(0, m, block_size).",
                imitation=lambda scores, values, block_size: walk_from(
                    scores, values, block_size, step=block_size + 1)),
        Mistake("averaged the blocks' outputs", _GOT + " You averaged each block's own softmax "
                "output; blocks with a larger max must count more. Keep one running M, l and o "
                "across the blocks and divide once at the end.", imitation=_block_average),
        Mistake("started the max at 0", "{call} gave {got}; the answer is {expected}. Start "
                "the running max at −∞ (`-math.inf`), not 0: with every score far below 0, all "
                "e^(s − 0) underflow to 0 and o / l is 0 / 0.",
                detect=lambda outcomes: _breaks_only_at(outcomes, {9})),
        Mistake("block max instead of running max", "{call} gave {got}; the answer is "
                "{expected}. You used each block's own max: when a later block's max is much "
                "lower, e^(old − new) overflows. Keep the largest score seen in ANY block: "
                "M′ = max(M, max(block)).", detect=lambda outcomes: _breaks_only_at(outcomes,
                                                                                  {10})),
        Mistake("no shift by the max", "{call} gave {got}; the answer is {expected}. Without "
                "the max subtracted, e^1000 overflows to ∞ and e^−1000 underflows to 0 "
                "(0 / 0): use e^(s − M) with the running max M.",
                detect=_breaks_only_at),
    ],
)


def evaluate_online_output(func):
    """The :class:`~course_lib.exercises.core.Feedback` on a learner's ``online_output``."""
    return ONLINE_OUTPUT_EXERCISE.evaluate(func)


def check_online_output(func):
    """Print feedback on a learner's ``online_output(scores, values, block_size)``."""
    ONLINE_OUTPUT_EXERCISE.check(func)
