"""Exercise of notebook 14: ``running_stats(blocks)``, the running max M and the running sum
l = Σ e^(s − M) of one query's scores, visiting each block of scores once.

Slips (each recognised, each with a hint that shows the hidden case where it showed):

* returned (l, M) — the two numbers in the wrong order;
* rescale factor upside down — e^(M′ − M) instead of e^(M − M′) (0 · ∞ = NaN on block one);
* rescaled the new block — e^(M − M′) put on the new block's terms instead of the old sum;
* forgot to rescale — the old sum kept its old max (or M was updated before the factor);
* used the old max for the new block — e^(s − M) for the new terms instead of e^(s − M′);
* kept only the last block — ``l = …`` replaced the old sum instead of adding to it;
* exponent sign flipped — e^(M − s) instead of e^(s − M);
* block max instead of running max — each block's own max replaced M;
* started the max at 0 — M = 0 before the first block instead of −∞;
* no shift by the max — e^s summed directly, which overflows at s = 1000;
* stopped after the first block — a ``return`` inside the loop;
* skipped the first block — ``range(1, len(blocks))``;
* skipped the last block — ``range(len(blocks) - 1)``;
* skipped each block's last score — ``range(len(block) - 1)``;
* added the factor — l + e^(M − M′) instead of l · e^(M − M′);
* skipped each block's first score — ``block[1:]``;
* never updated M — M′ computed but M never set to it (M stays −∞).
"""

import math

from ._online import added_factor, without_first_scores
from ._running_stats import no_shift as _no_shift
from ._running_stats import running_stats as _running_stats
from ._running_stats import stats as _stats
from ._running_stats import without_last_scores as _without_last_scores
from ._running_stats import without_last_terms as _without_last_terms
from .core import Case, Exercise, Mistake

__all__ = ["RUNNING_STATS_EXERCISE", "check_running_stats", "evaluate_running_stats"]


def _close(a, b):
    try:
        return math.isclose(float(a), float(b), rel_tol=1e-9, abs_tol=1e-12)
    except (TypeError, ValueError, OverflowError):
        return False


def _pair(value):
    try:
        return (value[0], value[1]) if len(value) == 2 else None
    except Exception:
        return None


def _right_max_and(check):
    """A detector: every answer has the right max and a sum for which ``check(sum)`` holds."""
    def detect(outcomes):
        pairs = [_pair(o.value) for o in outcomes]
        if any(p is None or not _close(p[0], o.case.expected[0])
               for p, o in zip(pairs, outcomes, strict=True)):
            return None
        try:
            return outcomes[0] if all(check(float(p[1])) for p in pairs) else None
        except (TypeError, ValueError):
            return None
    return detect


def _swapped(outcomes):
    for outcome in outcomes:
        pair = _pair(outcome.value)
        if pair is None or outcome.error is not None or not (
                _close(pair[0], outcome.case.expected[1]) and _close(pair[1],
                                                                   outcome.case.expected[0])):
            return None
    return next((o for o in outcomes if not o.correct), None)


def _wrong_only_at_extremes(outcomes, extremes=(7, 8)):
    """Right on every case but the scores near ±1000, wrong (or raising) on one of those."""
    if any(not o.correct for i, o in enumerate(outcomes) if i not in extremes):
        return None
    return next((outcomes[i] for i in extremes if not outcomes[i].correct), None)


_STATS_CASES = [
    [[1.0, 3.0], [2.0, 5.0]],  # the notebook's example: the max rises in the second block
    [[0.5, -1.0, 2.0]],  # one block: the plain stable softmax's numbers
    [[4.0, 1.0], [0.0, 2.0], [3.0]],  # the max comes first: nothing to rescale
    [[-1.0], [0.0], [1.0], [2.0]],  # the max rises at every block
    [[2.0, 2.0], [2.0]],  # ties
    [[-3.0, -5.0], [-4.0, -2.5, -6.0]],  # all negative
    [[0.0, 1.5, -0.5], [3.0, 0.25]],  # blocks of different lengths
    [[1000.0, 999.0], [1001.0, 998.5]],  # e^1000 overflows: shift by the max
    [[-1000.0, -1002.0], [-1001.0]],  # e^−1000 underflows to 0 without the shift
]


_GOT = "{call} gave {got}; the answer is {expected}."

RUNNING_STATS_EXERCISE = Exercise(
    "running_stats(blocks)",
    # blocks as tuples: a learner's function cannot change a later case's numbers
    cases=[Case((tuple(tuple(b) for b in blocks),)) for blocks in _STATS_CASES],
    reference=_running_stats,
    rtol=1e-9,
    atol=1e-12,
    mistakes=[
        Mistake("returned (l, M)", _GOT + " Those are the right two numbers in the wrong "
                "order: return the running max first, then the running sum, `return M, l`.",
                detect=_swapped),
        Mistake("rescale factor upside down", "{call} gave {got}: the sum became NaN. The "
                "factor is e^(M − M′), old max minus new. Written e^(M′ − M), on the first "
                "block it is e^(M′ − (−∞)) = ∞, and 0 · ∞ is NaN.",
                detect=_right_max_and(math.isnan)),
        Mistake("rescale factor upside down", _GOT + " The factor is e^(M − M′), old max "
                "minus new, at most 1: you multiplied the old sum by e^(M′ − M), which makes "
                "it bigger when the max rises.", imitation=lambda blocks: _stats(
                    blocks, from_first=True, factor=lambda old, new: math.exp(new - old))),
        Mistake("rescaled the new block", _GOT + " The factor e^(M − M′) belongs to the OLD "
                "sum (its terms were written with the old max M): l′ = l · e^(M − M′) + "
                "Σ e^(s − M′) over the new block, whose terms already use M′.",
                imitation=lambda blocks: _stats(blocks, on_new_block=True)),
        Mistake("forgot to rescale", _GOT + " When a block raises the max from M to M′, the "
                "sum you had was computed with M: multiply it by e^(M − M′) before adding the "
                "new terms. (If you did write the factor, compute it before you overwrite M: "
                "after M = M′ it is e^0 = 1.)",
                imitation=lambda blocks: _stats(blocks, factor=lambda old, new: 1.0)),
        Mistake("forgot to rescale", _GOT + " Each time the max rose, the sum you had kept its "
                "old max: multiply it by e^(M − M′) before adding (score by score, too).",
                imitation=lambda blocks: _stats([(s,) for block in blocks for s in block],
                                                factor=lambda old, new: 1.0)),
        Mistake("used the old max for the new block", "{call} gave {got}: the sum became ∞. "
                "The new block's terms are e^(s − M′) with the NEW max; with the old one, "
                "the first block gives e^(s − (−∞)) = ∞.", detect=_right_max_and(math.isinf)),
        Mistake("used the old max for the new block", _GOT + " The new block's terms are "
                "e^(s − M′) with the new max M′, not the old M.",
                imitation=lambda blocks: _stats(blocks, from_first=True, shift_new_by_old=True)),
        Mistake("kept only the last block", _GOT + " Your sum holds only the last block's "
                "terms: `l = …` replaced the old sum. Keep it and add: l′ = l · e^(M − M′) + "
                "Σ e^(s − M′).", imitation=lambda blocks: _stats(blocks, keep=False)),
        Mistake("exponent sign flipped", _GOT + " Each term is e^(s − M), score minus max (at "
                "most e^0 = 1), not e^(M − s).", imitation=lambda blocks: _stats(blocks, sign=-1)),
        Mistake("block max instead of running max", _GOT + " You kept each block's own max. "
                "Keep the largest score seen in ANY block so far: M′ = max(M, max(block)).",
                imitation=lambda blocks: _stats(blocks, block_max=True)),
        Mistake("started the max at 0", _GOT + " Start the running max at −∞ (`-math.inf`), "
                "not 0: with every score far below 0, e^(s − 0) underflows to 0 and the sum "
                "vanishes, and a max of 0 was never a score.",
                imitation=lambda blocks: _stats(blocks, start=0.0)),
        Mistake("no shift by the max", _GOT + " You summed e^s directly. The running sum is "
                "l = Σ e^(s − M), with the running max subtracted, so that no exponent is "
                "positive (e^1000 overflows, e^−1000 underflows to 0).", imitation=_no_shift),
        Mistake("stopped after the first block", _GOT + " Your function returned after the "
                "first block: the `return` is inside the `for` loop. Move it out (one indent "
                "less), so that every block is visited.",
                imitation=lambda blocks: _stats(blocks[:1])),
        Mistake("skipped the first block", _GOT + " The first block was never visited: "
                "range(1, len(blocks)) starts at the second; `for block in blocks:` visits "
                "them all.", imitation=lambda blocks: _stats(blocks[1:])),
        Mistake("skipped the last block", _GOT + " The last block was never visited: "
                "`for block in blocks:` visits them all (range(len(blocks) - 1) stops one "
                "early).", imitation=lambda blocks: _stats(blocks[:-1])),
        Mistake("skipped each block's last score", _GOT + " Each block's last score was left "
                "out: range(len(block) - 1) stops one early; `for s in block:` visits all.",
                imitation=_without_last_scores),
        Mistake("skipped each block's last score", _GOT + " Each block's last score is "
                "missing from the sum: range(len(block) - 1) stops one early; `for s in "
                "block:` visits all.", imitation=_without_last_terms),
        Mistake("added the factor", _GOT + " You ADDED e^(M − M′) to the old sum; multiply "
                "it: l′ = l · e^(M − M′) + Σ e^(s − M′).", imitation=added_factor),
        Mistake("skipped each block's first score", _GOT + " Each block's first score is "
                "missing from the sum (block[1:] or range(1, len(block))): `for s in block:` "
                "visits all.", imitation=without_first_scores),
        Mistake("never updated M", _GOT + " M stayed −∞: the new max M′ was computed but "
                "never stored, so every block's factor e^(−∞ − M′) = 0 wiped the old sum. End "
                "each block with M = M′.",
                imitation=lambda blocks: (-math.inf, _stats(blocks[-1:])[1])),
        Mistake("no shift by the max", "{call} gave {got}; the answer is {expected}. e^s "
                "overflows past s ≈ 709 and underflows to 0 below −745: subtract the running "
                "max, l = Σ e^(s − M).", detect=_wrong_only_at_extremes),
    ],
)


def evaluate_running_stats(func):
    """The :class:`~course_lib.exercises.core.Feedback` on a learner's ``running_stats``."""
    return RUNNING_STATS_EXERCISE.evaluate(func)


def check_running_stats(func):
    """Print feedback on a learner's ``running_stats(blocks)``."""
    RUNNING_STATS_EXERCISE.check(func)
