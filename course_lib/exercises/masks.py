"""Exercise of notebook 11: one row's softmax under a mask.

Slips (``masked_softmax(scores, allowed)``):

- True means blocked: the weights sit on the blocked keys (the mask read the other way round).
- ignored the mask: a plain softmax over every key (or NaN where a blocked 1000 overflows).
- zeroed without renormalising: blocked weights set to 0 after the softmax, row no longer sums to 1.
- masked with 0: blocked scores replaced by 0 (or ``scores * allowed``), which still gets
  weight e⁰ = 1.
- no division: the shifted exponentials returned without dividing by their total.
- dropped the blocked keys: returned only the allowed keys' weights (a shorter list).
- −10⁹ instead of −∞: a big negative number spreads the weight evenly on a fully blocked row.
- NaN when everything is blocked: 0/0 on the row with no allowed key.
- fully blocked row: any other wrong answer on that row only (an empty list, None).
- lists used as arrays: arithmetic on the Python lists (``~allowed``, ``s - top``) raises.
- overflow: no shift, e¹⁰⁰⁰ overflows.
- renormalised after the softmax: the blocked score took part in the first softmax, so the
  allowed weights underflowed to 0 and the renormalisation is 0/0.
- shifted by the max of all scores: the blocked score 1000 was subtracted, e^(s − 1000)
  underflows to 0 for the allowed keys.
- changed its input (the framework's): ``scores[j] = -inf`` writes into the caller's list.
"""

import numpy as np

from .. import softmax
from ._detect import LISTS_HINT, lists_used_as_arrays
from .core import Case, Exercise, Mistake

__all__ = ["MASK_EXERCISE", "check_masked_softmax", "evaluate_masked_softmax"]


def _masked_softmax(scores, allowed, blocked=-np.inf):
    return softmax(np.where(np.asarray(allowed, bool), np.asarray(scores, float), blocked))


def _allowed_total(scores, allowed):
    """Σ e^(s − max) over the allowed keys: what a masked softmax divides by."""
    s = np.asarray(scores, float)[np.asarray(allowed, bool)]
    return float(np.exp(s - s.max()).sum())


_CASES = [
    ([1.0, 2.0, 3.0], [True, True, True]),
    ([1.0, 2.0, 3.0], [True, False, True]),
    ([2.0, -1.0, 0.5, 4.0], [True, True, False, False]),
    ([-3.0, -2.0, -5.0], [False, True, True]),
    ([0.0, 0.0, 0.0, 0.0], [True, False, False, True]),
    ([5.0], [True]),
    ([1000.0, 999.0, 1001.0], [True, True, False]),  # exp(1000) overflows without the shift
    ([1000.0, 0.0, 1.0], [False, True, True]),  # a large BLOCKED score beside small allowed
    ([745.0, 0.0, 745.0, 745.0], [False, True, False, False]),  # e^(0 − 745): one subnormal
    ([1.0, 2.0], [False, False]),  # nothing to attend to
]
_OVER, _BLOCKED_BIG, _TINY, _EMPTY = 6, 7, 8, 9


def _wrong_on(outcomes, must, may=(_EMPTY,), right=()):
    """The outcome of case ``must[0]`` when the answer is wrong on every case in ``must``,
    right on every case in ``right``, and right everywhere else except the cases in ``may``."""
    wrong = {i for i, o in enumerate(outcomes) if not o.correct}
    if not set(must) <= wrong or wrong & set(right) or wrong - set(must) - set(may):
        return None
    return outcomes[must[0]]


def _not_finite(outcome):
    try:
        return outcome.error is not None or not np.isfinite(
            np.asarray(outcome.value, dtype=float)).all()
    except Exception:
        return False


def _ignored_mask(outcomes):
    """Wrong wherever a plain softmax is wrong, and equal to it wherever finite (a blocked
    1000 may overflow an unshifted answer)."""
    telling = None
    for o in outcomes:
        plain = softmax(np.asarray(o.case.args[0], float))
        if MASK_EXERCISE.same(plain, o.case.expected):
            continue
        if o.correct:
            return None
        if not _not_finite(o):
            if not MASK_EXERCISE.same(o.value, plain):
                return None
            telling = telling or o
    return telling


def _nan_when_empty(outcomes):
    found = _wrong_on(outcomes, [_EMPTY], may=())
    return found if found is not None and _not_finite(found) else None


_ZERO_HINT = ("{call} → {got}: you replaced the blocked scores by 0 (or multiplied the scores "
              "by the mask), but a score of 0 still gets weight e⁰ = 1 before dividing. A "
              "blocked score must be −∞ (float('-inf')), whose weight is exactly 0.")

MASK_EXERCISE = Exercise(
    "masked_softmax(scores, allowed)",
    cases=[Case(args) for args in _CASES],
    reference=_masked_softmax,
    mistakes=[
        Mistake("True means blocked",
                "{call} → {got}: your weights sit exactly on the keys that should be "
                "blocked. In this course (and in PyTorch's scaled_dot_product_attention) True "
                "means MAY attend; only nn.MultiheadAttention uses True for blocked.",
                imitation=lambda s, a: _masked_softmax(s, ~np.asarray(a, bool))),
        Mistake("lists used as arrays", LISTS_HINT, detect=lists_used_as_arrays),
        Mistake("ignored the mask",
                "{call} → {got}, a softmax over every key: the blocked keys got weight too. "
                "The answer is {expected}: put −∞ on the blocked scores first.",
                detect=lambda outcomes: _ignored_mask(outcomes)),
        Mistake("zeroed without renormalising",
                "{call} → {got}: you set the blocked weights to 0 after the softmax, so the "
                "row no longer adds up to 1 (the answer is {expected}). Put −∞ on the blocked "
                "scores BEFORE the softmax instead.",
                imitation=lambda s, a: softmax(np.asarray(s, float)) * np.asarray(a, bool)),
        Mistake("masked with 0", _ZERO_HINT,
                imitation=lambda s, a: softmax(np.where(a, np.asarray(s, float), 0.0))),
        Mistake("masked with 0", _ZERO_HINT,  # scores * allowed, a fully blocked row left out
                imitation=lambda s, a: softmax(np.where(a, np.asarray(s, float), 0.0))
                if np.any(a) else _masked_softmax(s, a)),
        Mistake("no division",
                "{call} → {got}: the exponentials e^(s − max), not yet divided by their total. "
                "Divide each by the sum over the allowed keys so the row adds up to 1.",
                imitation=lambda s, a: _masked_softmax(s, a) * _allowed_total(s, a)),
        Mistake("dropped the blocked keys",
                "{call} → {got}: only the allowed keys' weights. Return one weight per key, "
                "0 for the blocked ones: {expected}.",
                imitation=lambda s, a: softmax(np.asarray(s, float)[np.asarray(a, bool)])),
        Mistake("−10⁹ instead of −∞",
                "{call} → {got}: every key is blocked, and a big negative number like −10⁹ "
                "is not −∞: a row of equal scores gets equal weights. Use float('-inf'), and "
                "return all zeros when no key is allowed.",
                imitation=lambda s, a: _masked_softmax(s, a, blocked=-1e9)),
        Mistake("NaN when everything is blocked",
                "right on every row except the one where every key is blocked: {call} → {got} "
                "(0/0). Nothing to attend to means all weights 0: check for that row first and "
                "return zeros.",
                detect=_nan_when_empty),
        Mistake("fully blocked row",
                "right on every row except the one where every key is blocked: {call} → {got}. "
                "Nothing to attend to means one weight of 0 per key, here {expected}.",
                detect=lambda outcomes: _wrong_on(outcomes, [_EMPTY], may=())),
        Mistake("overflow",
                "right except on {call} → {got}: e¹⁰⁰⁰ overflows to ∞ (and ∞/∞ is "
                "NaN). Subtract the largest ALLOWED score before exponentiating (notebook 07).",
                detect=lambda outcomes: _wrong_on(outcomes, [_OVER], may=(_BLOCKED_BIG, _TINY,
                                                                          _EMPTY))),
        Mistake("renormalised after the softmax",
                "{call} → {got}, not {expected}: you took the softmax over all keys, "
                "blocked key included, then zeroed and divided by the new total. Next to the "
                "blocked 1000 every allowed weight underflows to exactly 0, and the new total "
                "is 0/0 (notebook 11 shows this). Put −∞ on the blocked scores BEFORE the "
                "softmax; then the shift is the largest allowed score.",
                detect=lambda outcomes: _wrong_on(outcomes, [_BLOCKED_BIG, _TINY])),
        Mistake("shifted by the max of all scores",
                "{call} → {got}, not {expected}: you subtracted the largest of ALL "
                "scores, 1000, a blocked one, so every allowed e^(s − 1000) underflows to 0. "
                "Subtract the largest ALLOWED score.",
                detect=lambda outcomes: _wrong_on(outcomes, [_BLOCKED_BIG], right=(_TINY,))),
    ],
)


def evaluate_masked_softmax(func):
    """The :class:`~course_lib.exercises.core.Feedback` on a learner's ``masked_softmax``."""
    return MASK_EXERCISE.evaluate(func)


def check_masked_softmax(func):
    """Print feedback on a learner's ``masked_softmax(scores, allowed)``."""
    MASK_EXERCISE.check(func)
